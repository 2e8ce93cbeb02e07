"""English and Brazilian Portuguese: gettext catalogs, messages as data, no global language.

Every user-visible text of darkcity is an English *message id* (gettext
style) with named ``{placeholders}``, marked so that Babel extracts it into
``locale/darkcity.pot``:

* :func:`_` / :func:`N_` mark a bare string (a table entry); they return it
  unchanged, and whoever shows it translates it with a :class:`Translator`.
* :func:`msg` builds a :class:`Message`, a message id with its parameters,
  which any reader renders in their own language (:meth:`Message.render`).
  :func:`msgn` is the same with a plural (``ngettext``).
* :class:`Term` is a noun that the catalogs translate, with its article (a
  role name: "the Vampire" / "o Vampiro"). A template picks the form it needs
  with a format spec: ``{role}`` (the bare name), ``{role:the}`` /
  ``{role:The}`` (with the article), and in Portuguese the preposition
  contracted with the article, ``{role:de}`` -> "do Vampiro" / "da Criatura"
  (also ``a``, ``em``, ``por``; capitalised specs capitalise the result).

There is no "current language": :func:`translator` returns a cached, pure
:class:`Translator` for one language, and a web room can render the same
:class:`Message` once per reader. See ``docs/i18n.md``.
"""

from __future__ import annotations

import functools
import gettext
import os
import string
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from io import BytesIO
from typing import Any, Final, NamedTuple

__all__ = [
    "ARTICLE",
    "C_",
    "DEFAULT_LANGUAGE",
    "DOMAIN",
    "LANGUAGES",
    "N_",
    "TERM_SPECS",
    "FieldError",
    "Message",
    "Term",
    "Translator",
    "_",
    "as_translator",
    "english",
    "error_message",
    "language_from_environment",
    "msg",
    "msgn",
    "negotiate",
    "translator",
]

#: The gettext domain: ``locale/<lang>/LC_MESSAGES/darkcity.mo``.
DOMAIN: Final = "darkcity"
#: The catalogs darkcity ships, by their gettext names.
LANGUAGES: Final = ("en", "pt_BR")
DEFAULT_LANGUAGE: Final = "en"


def _(message: str) -> str:
    """Mark ``message`` for extraction; it is translated where it is shown."""
    return message


#: The same marker, under its classic gettext name for "translate later".
N_ = _

#: The message context of a :class:`Term`'s form with the article.
ARTICLE: Final = "article"


def C_(context: str, message: str) -> str:
    """Mark ``message`` for extraction in ``context`` (gettext's ``msgctxt``)."""
    return message


class Term(NamedTuple):
    """A noun the catalogs translate, with its article.

    ``Term(_("Vampire"), C_(ARTICLE, "the Vampire"))``: ``name`` is a message
    id, ``the`` one in the context :data:`ARTICLE` (English may say "Death"
    where Portuguese says "a Morte", so the two forms never share an id). Portuguese
    derives ``do``/``ao``/``no``/``pelo`` (and ``da``/``à``/``na``/``pela``) from
    the article of ``the``'s translation, so the grammatical gender of each
    name lives in the catalog, next to the name.
    """

    name: str
    the: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class Message:
    """A message id and its parameters: what crosses from the engine to a reader.

    Parameters are plain values (names, numbers), :class:`Term` values (which
    the reader's language names) or other :class:`Message` values (rendered in
    the same language). ``plural`` and ``n`` make it an ``ngettext`` message.
    ``str(message)`` is the English text.
    """

    msgid: str
    params: Mapping[str, object] = field(default_factory=dict)
    plural: str | None = None
    n: int = 1

    def render(self, translate: Callable[[str], str] | None = None) -> str:
        """The text in ``translate``'s language (a :class:`Translator`; English if None)."""
        return as_translator(translate).render(self)

    def __str__(self) -> str:
        return english().render(self)

    def to_json(self) -> dict[str, object]:
        """The message as plain data (for a wire protocol); terms become their message id."""
        params: dict[str, object] = {}
        for k, v in self.params.items():
            if isinstance(v, Message):
                params[k] = v.to_json()
            elif isinstance(v, Term):
                params[k] = {"term": v.name, "the": v.the}
            else:
                params[k] = v
        doc: dict[str, object] = {"msgid": self.msgid, "params": params}
        if self.plural is not None:
            doc["plural"] = self.plural
            doc["n"] = self.n
        return doc

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> Message:
        """The message :meth:`to_json` wrote (a stored or received message)."""
        params: dict[str, object] = {}
        for k, v in doc.get("params", {}).items():
            if isinstance(v, dict) and "msgid" in v:
                params[k] = cls.from_json(v)
            elif isinstance(v, dict) and "term" in v:
                params[k] = Term(v["term"], v["the"])
            else:
                params[k] = v
        plural = doc.get("plural")
        return cls(doc["msgid"], params, plural, int(doc.get("n", 1)))


def msg(msgid: str, /, **params: object) -> Message:
    """A translatable message: ``msg("{p} sits twice", p=name)``."""
    return Message(msgid, params)


class FieldError(ValueError):
    """An error of darkcity's that names where (``field``) and says why (``message``).

    ``message`` is a :class:`Message`, which :meth:`render` translates;
    ``reason`` and ``str(error)`` (``field: reason``) are English, built only
    when asked for. A plain string is taken as English text. The notation's,
    the deck's and the record's errors are all of this kind.
    """

    def __init__(self, field: str, message: Message | str, *more: object) -> None:
        super().__init__(field, message, *more)
        self.field = field
        self.message = message if isinstance(message, Message) else Message(message)

    @property
    def reason(self) -> str:
        """The message in English, without the field."""
        return str(self.message)

    def render(self, translate: Callable[[str], str] | None = None) -> str:
        """``field: message`` in ``translate``'s language (English if None)."""
        text = self.message.render(translate)
        return f"{self.field}: {text}" if self.field else text

    def __str__(self) -> str:
        return self.render()


def error_message(error: BaseException) -> Message:
    """What an error of darkcity says, as a message (``field: reason`` when it has a field).

    darkcity's errors (:class:`~darkcity.night.RoundError`, ``DeckError``,
    ``RecordError``, ``IllegalDecision``) carry a :class:`Message`; any other
    exception is shown as its text.
    """
    message = getattr(error, "message", None)
    if not isinstance(message, Message):
        return Message(str(error))
    field = getattr(error, "field", None)
    if isinstance(field, str) and field:
        return msg("{field}: {reason}", field=field, reason=message)
    return message


def msgn(singular: str, plural: str, n: int, /, **params: object) -> Message:
    """A translatable message with a plural; ``{n}`` is available to the templates."""
    return Message(singular, {"n": n, **params}, plural, n)


# Portuguese contractions of a preposition with the definite article.
_CONTRACTIONS: Final[Mapping[str, Mapping[tuple[str, str], str]]] = {
    "pt_BR": {
        ("de", "o"): "do", ("de", "a"): "da", ("de", "os"): "dos", ("de", "as"): "das",
        ("a", "o"): "ao", ("a", "a"): "à", ("a", "os"): "aos", ("a", "as"): "às",
        ("em", "o"): "no", ("em", "a"): "na", ("em", "os"): "nos", ("em", "as"): "nas",
        ("por", "o"): "pelo", ("por", "a"): "pela", ("por", "os"): "pelos",
        ("por", "as"): "pelas",
    },
}

#: The format specs a template may give a :class:`Term`, by language.
TERM_SPECS: Final[Mapping[str, frozenset[str]]] = {
    "en": frozenset(("", "the", "The")),
    "pt_BR": frozenset(
        ("", "the", "The", *(s for p, _a in _CONTRACTIONS["pt_BR"] for s in (p, p.capitalize())))
    ),
}


_FORMATTER: Final = string.Formatter()
_CONVERT: Final[Mapping[str, Callable[[object], str]]] = {"r": repr, "s": str, "a": ascii}
#: (key in the compiled template, parameter, format spec, conversion)
_Field = tuple[str, str, str, str | None]


def _compile(template: str) -> tuple[str, tuple[_Field, ...]]:
    """A template whose ``{name:spec}`` fields become plain ``{key}`` fields.

    The translator fills those keys itself (a :class:`Term`'s form), so that
    one ``str.format_map`` renders the message.
    """
    parts: list[str] = []
    fields: dict[str, _Field] = {}
    for literal, name, spec, conversion in _FORMATTER.parse(template):
        parts.append(literal.replace("{", "{{").replace("}", "}}"))
        if name is None:
            continue
        if spec:
            key = f"{name}\x1f{spec}\x1f{conversion or ''}"
            parts.append(f"{{{key}}}")
        else:
            key = name
            parts.append(f"{{{name}!{conversion}}}" if conversion else f"{{{name}}}")
        fields[key] = (key, name, spec or "", conversion)
    return "".join(parts), tuple(fields.values())


class Translator:
    """The messages of one language: call it on a message id, or :meth:`render` a message.

    Pure and cached (get one from :func:`translator`); safe to share between
    threads and readers.
    """

    __slots__ = ("_catalog", "_compiled", "_contractions", "_forms", "_gettext", "_ngettext",
                 "_pgettext", "lang")

    def __init__(self, lang: str, catalog: gettext.NullTranslations) -> None:
        self.lang = lang
        self._catalog = catalog
        self._gettext = catalog.gettext
        self._ngettext = catalog.ngettext
        self._pgettext = catalog.pgettext
        self._contractions = _CONTRACTIONS.get(lang, {})
        # Memos (the same answers every time; a lost race only recomputes).
        self._compiled: dict[str, tuple[str, tuple[_Field, ...]]] = {}
        self._forms: dict[tuple[Term, str], str] = {}

    def __call__(self, message: str) -> str:
        """The translation of the message id ``message`` (itself if the catalog lacks it)."""
        return self._gettext(message)

    def __repr__(self) -> str:
        return f"translator({self.lang!r})"

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The translation of a message id with a plural, for ``n``."""
        return self._ngettext(singular, plural, n)

    def render(self, message: Message | str) -> str:
        """The text of ``message`` in this language (a bare string is a message id)."""
        if isinstance(message, str):
            return self._gettext(message)
        if message.plural is None:
            template = self._gettext(message.msgid)
        else:
            template = self._ngettext(message.msgid, message.plural, message.n)
        return self._fill(template, message.params) if message.params else template

    def format(self, msgid: str, params: Mapping[str, object]) -> str:
        """``msgid`` translated and filled with ``params``: :meth:`render` without a Message."""
        return self._fill(self._gettext(msgid), params)

    def _fill(self, template: str, params: Mapping[str, object]) -> str:
        compiled = self._compiled.get(template)
        if compiled is None:
            if len(self._compiled) > 4096:
                self._compiled.clear()
            compiled = self._compiled[template] = _compile(template)
        text, fields = compiled
        values: dict[str, object] = {}
        forms = self._forms
        for key, name, spec, conversion in fields:
            v = params[name]
            if v.__class__ is Term:
                form = forms.get((v, spec))
                values[key] = form if form is not None else self.term(v, spec)
            elif not spec:
                values[key] = self.render(v) if isinstance(v, Message) else v
            elif isinstance(v, Term):
                values[key] = self.term(v, spec)
            elif isinstance(v, Message):
                values[key] = format(self.render(v), spec)
            else:
                values[key] = format(_CONVERT[conversion](v) if conversion else v, spec)
        return text.format_map(values)

    def term(self, term: Term, spec: str = "") -> str:
        """One form of ``term``: the name, with the article, or contracted (see the module)."""
        form = self._forms.get((term, spec))
        if form is None:
            form = self._forms[(term, spec)] = self._term(term, spec)
        return form

    def _term(self, term: Term, spec: str) -> str:
        if not spec:
            return self._gettext(term.name)
        with_article = self._pgettext(ARTICLE, term.the)
        if spec == "the":
            return with_article
        if spec == "The":
            return with_article[:1].upper() + with_article[1:]
        article, _sep, rest = with_article.partition(" ")
        form = self._contractions.get((spec.lower(), article.lower()))
        if form is None:
            raise ValueError(f"{self.lang}: no form {spec!r} of {term.name!r}")
        if spec[:1].isupper():
            form = form[:1].upper() + form[1:]
        return f"{form} {rest}"


def _load(lang: str) -> gettext.NullTranslations:
    mo = resources.files("darkcity").joinpath(f"locale/{lang}/LC_MESSAGES/{DOMAIN}.mo")
    try:
        data = mo.read_bytes()
    except FileNotFoundError:
        if lang == DEFAULT_LANGUAGE:
            return gettext.NullTranslations()  # the message ids are English
        raise LookupError(
            f"no compiled catalog for {lang!r} (run scripts/i18n.py compile)") from None
    return gettext.GNUTranslations(BytesIO(data))


@functools.cache
def _translator(lang: str) -> Translator:
    return Translator(lang, _load(lang))


def translator(lang: str | None = None) -> Translator:
    """The :class:`Translator` of ``lang`` (any spelling :func:`negotiate` accepts).

    ``None`` means English. Raises :class:`LookupError` for a language
    darkcity does not speak.
    """
    if lang is None:
        return _translator(DEFAULT_LANGUAGE)
    found = negotiate(lang)
    if found is None:
        raise LookupError(f"unknown language {lang!r} (darkcity speaks en and pt)")
    return _translator(found)


def english() -> Translator:
    """The English translator (the message ids themselves, through the ``en`` catalog)."""
    return _translator(DEFAULT_LANGUAGE)


def as_translator(translate: Callable[[str], str] | None) -> Translator:
    """A :class:`Translator` from what callers pass as ``translate``.

    A :class:`Translator` is itself; ``None`` and ``str`` (the identity) are
    English; any other function from message id to text is wrapped, with
    English grammar for the terms.
    """
    if isinstance(translate, Translator):
        return translate
    if translate is None or translate is str:
        return english()
    try:
        return _wrap(translate)
    except TypeError:  # an unhashable callable
        return _wrap.__wrapped__(translate)


@functools.lru_cache(maxsize=32)
def _wrap(translate: Callable[[str], str]) -> Translator:
    class _Function(gettext.NullTranslations):
        def gettext(self, message: str) -> str:
            return translate(message)

        def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
            return translate(msgid1 if n == 1 else msgid2)

        def pgettext(self, context: str, message: str) -> str:
            return translate(message)

    return Translator(DEFAULT_LANGUAGE, _Function())


def negotiate(value: str | None) -> str | None:
    """The catalog for a language tag or locale name, or None if darkcity lacks it.

    Accepts ``en``, ``pt``, ``pt_BR``, ``pt-BR``, ``pt_BR.UTF-8``,
    ``en_US@euro``...; ``C`` and ``POSIX`` are English. Any Portuguese is
    Brazilian Portuguese (the only Portuguese darkcity has).
    """
    if value is None:
        return None
    tag = value.strip().split(".", 1)[0].split("@", 1)[0].replace("-", "_")
    if tag in ("C", "POSIX"):
        return DEFAULT_LANGUAGE
    language = tag.split("_", 1)[0].lower()
    if language == "en":
        return "en"
    if language == "pt":
        return "pt_BR"
    return None


def language_from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The catalog the locale asks for (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``).

    As gettext does: the first of these that is set decides (``LANGUAGE`` may
    list several, ``pt_BR:en``); a locale darkcity does not speak, or none, is
    English.
    """
    env = os.environ if environ is None else environ
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var)
        if not value:
            continue
        if var == "LANGUAGE":
            for part in _split(value):
                found = negotiate(part)
                if found is not None:
                    return found
            continue
        return negotiate(value) or DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE


def _split(value: str) -> Iterable[str]:
    return (p for p in value.split(":") if p)
