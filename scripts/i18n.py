#!/usr/bin/env python3
"""Manage darkcity's gettext catalogs with Babel (see ``docs/i18n.md``).

    python3 scripts/i18n.py extract   # src/darkcity -> src/darkcity/locale/darkcity.pot
    python3 scripts/i18n.py update    # merge the extracted messages into every .po
    python3 scripts/i18n.py compile   # every .po -> its .mo (shipped in the package)
    python3 scripts/i18n.py check     # what tests/test_i18n.py checks; exit 1 on a problem
    python3 scripts/i18n.py all       # update, compile, check

The English catalog is the message ids themselves: ``update`` fills it. The
Portuguese one is written by people; a message that is new or changed there
is empty or fuzzy, and ``check`` (and the test suite) fail until it is
translated.
"""

from __future__ import annotations

import copy
import io
import string
import sys
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "darkcity"
LOCALE = PACKAGE / "locale"
DOMAIN = "darkcity"
LANGUAGES = ("en", "pt_BR")
SOURCE_LANGUAGE = "en"

#: The markers of darkcity.i18n, as Babel keyword specs.
KEYWORDS: dict[str, object] = {
    "_": None,
    "N_": None,
    "msg": None,
    "msgn": (1, 2),
    "C_": ((1, "c"), 2),
}
METHOD_MAP = [("**.py", "python")]
COMMENT_TAGS = ("TRANSLATORS:",)
WIDTH = 100
#: A fixed date keeps the headers from changing on every run.
EPOCH = datetime(2026, 1, 1, tzinfo=UTC)
#: gettext's usual rule (CLDR's "many" for millions is no use to a party game).
PLURAL_FORMS = {"en": "nplurals=2; plural=(n != 1);", "pt_BR": "nplurals=2; plural=(n > 1);"}
HEADER = """\
# {language} messages of darkcity (Dark City, Gustavo Barreto, 2018).
# Copyright (C) {year} The darkcity developers
# This file is distributed under the same license as the darkcity project (MIT).
# How to translate: docs/i18n.md.
#"""
NAMES = {"en": "English", "pt_BR": "Brazilian Portuguese"}


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"


def extract() -> Catalog:
    """Every marked message of ``src/darkcity``, as a template catalog."""
    template = Catalog(project="darkcity", domain=DOMAIN, creation_date=EPOCH,
                       msgid_bugs_address="", copyright_holder="The darkcity developers",
                       fuzzy=False)
    for filename, lineno, message, comments, context in extract_from_dir(
        str(PACKAGE), METHOD_MAP, keywords=KEYWORDS,  # type: ignore[arg-type]
        comment_tags=COMMENT_TAGS, strip_comment_tags=True,
    ):
        path = f"src/darkcity/{Path(filename).as_posix()}"
        template.add(message, None, [(path, lineno)], auto_comments=comments,
                     context=context)
    return template


def _write_po(path: Path, catalog: Catalog) -> None:
    buf = io.BytesIO()
    write_po(buf, catalog, width=WIDTH, ignore_obsolete=True, include_lineno=False,
             sort_by_file=True, include_previous=False)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(buf.getvalue())


def read(lang: str) -> Catalog:
    with po_path(lang).open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


def write_template() -> Path:
    path = LOCALE / f"{DOMAIN}.pot"
    _write_po(path, extract())
    return path


def update() -> None:
    """Merge the extracted messages into each language's catalog."""
    template = extract()
    for lang in LANGUAGES:
        path = po_path(lang)
        if path.exists():
            catalog = read(lang)
        else:
            catalog = Catalog(locale=lang, domain=DOMAIN, project="darkcity", version="0.1",
                              creation_date=EPOCH, revision_date=EPOCH, fuzzy=False,
                              copyright_holder="The darkcity developers",
                              msgid_bugs_address="",
                              language_team=f"darkcity <{lang}>",
                              last_translator="The darkcity developers",
                              header_comment=HEADER.format(language=NAMES[lang],
                                                           year=EPOCH.year))
            headers = [(k, v) for k, v in catalog.mime_headers if k != "Plural-Forms"]
            catalog.mime_headers = [*headers, ("Plural-Forms", PLURAL_FORMS[lang])]
        catalog.update(copy.deepcopy(template), update_creation_date=False)
        catalog.obsolete.clear()
        if lang == SOURCE_LANGUAGE:
            for m in catalog:
                if m.id:
                    m.string = m.id
                    m.flags.discard("fuzzy")
        _write_po(path, catalog)


def compiled(lang: str) -> bytes:
    """The ``.mo`` bytes of a language's ``.po`` (fuzzy entries left out)."""
    buf = io.BytesIO()
    write_mo(buf, read(lang), use_fuzzy=False)
    return buf.getvalue()


def compile_all() -> None:
    for lang in LANGUAGES:
        mo_path(lang).write_bytes(compiled(lang))


# ---------------------------------------------------------------------------
# Checks


def _fields(text: str) -> set[tuple[str, str | None]]:
    """The ``{placeholders}`` of a template: (name, conversion)."""
    return {(name, conversion) for _lit, name, _spec, conversion in string.Formatter().parse(text)
            if name is not None}


def _specs(text: str) -> Iterator[tuple[str, str]]:
    for _lit, name, spec, _conv in string.Formatter().parse(text):
        if name is not None and spec:
            yield name, spec


def _key(m: Message) -> str:
    msgid = m.id if isinstance(m.id, str) else m.id[0]
    return f"{m.context}|{msgid}" if m.context else msgid


def problems(lang: str, template: Catalog | None = None) -> list[str]:
    """Everything wrong with one catalog, one line each."""
    from darkcity.i18n import TERM_SPECS

    template = template or extract()
    catalog = read(lang)
    found: list[str] = []
    allowed = TERM_SPECS[lang]
    for t in template:
        if not t.id:
            continue
        m = catalog.get(t.id, context=t.context)
        if m is None:
            found.append(f"{lang}: missing {_key(t)!r} (run scripts/i18n.py update)")
            continue
        raw = list(m.string) if isinstance(m.string, tuple | list) else [m.string]
        strings: list[str] = [s for s in raw if s]
        if len(strings) != len(raw):
            found.append(f"{lang}: untranslated {_key(t)!r}")
            continue
        if m.fuzzy:
            found.append(f"{lang}: fuzzy (to review) {_key(t)!r}")
        ids = [t.id] if isinstance(t.id, str) else list(t.id)
        want = set().union(*(_fields(i) for i in ids))
        for s in strings:
            got = _fields(s)
            if not got <= want or (len(ids) == 1 and got != want):
                found.append(f"{lang}: placeholders of {_key(t)!r}: {sorted(want)} in the "
                             f"message id, {sorted(got)} in {s!r}")
            for name, spec in _specs(s):
                if spec not in allowed:
                    found.append(f"{lang}: {{{name}:{spec}}} in {s!r}: not a form of a term "
                                 f"(allowed: {sorted(allowed)})")
        if len(ids) == 2 and _fields(strings[-1]) != _fields(ids[1]) | (want - _fields(ids[0])):
            found.append(f"{lang}: placeholders of the plural of {_key(t)!r} differ")
    return found


def stale_mo() -> list[str]:
    return [f"{lang}: {mo_path(lang).relative_to(ROOT)} is not the compiled .po "
            "(run scripts/i18n.py compile)"
            for lang in LANGUAGES
            if not mo_path(lang).exists() or mo_path(lang).read_bytes() != compiled(lang)]


def check() -> list[str]:
    template = extract()
    return [p for lang in LANGUAGES for p in problems(lang, template)] + stale_mo()


def main(argv: Iterable[str]) -> int:
    args = list(argv)
    if len(args) != 1 or args[0] not in ("extract", "update", "compile", "check", "all"):
        print(__doc__, file=sys.stderr)
        return 2
    command = args[0]
    if command == "extract":
        print(write_template().relative_to(ROOT))
        return 0
    if command in ("update", "all"):
        update()
    if command in ("compile", "all"):
        compile_all()
    if command in ("check", "all"):
        found = check()
        for p in found:
            print(p, file=sys.stderr)
        return 1 if found else 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
