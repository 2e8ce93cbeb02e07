"""Issue #7: darkcity speaks English and Brazilian Portuguese, everywhere.

The catalogs are checked against what Babel extracts from ``src/darkcity``
right now, so a message added anywhere without its translation fails here.
"""

from __future__ import annotations

import ast
import gettext
import importlib.util
import io
import json
import os
import pickle
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from darkcity import adjudicate
from darkcity.cast import Role
from darkcity.i18n import (
    ARTICLE,
    LANGUAGES,
    Message,
    Translator,
    language_from_environment,
    msg,
    msgn,
    negotiate,
    translator,
)
from darkcity.narration import MESSAGES, event_message, render
from darkcity.night import RoundError, resolve
from darkcity.notation import read_round
from darkcity.terms import ROLE_TERMS, role_term

from .conftest import ROOT, SCENARIOS

PACKAGE = ROOT / "src" / "darkcity"
SCENARIO_FILES = sorted(SCENARIOS.glob("*.json")) if SCENARIOS.is_dir() else []


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("darkcity_i18n_tool",
                                                  ROOT / "scripts" / "i18n.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TOOL = _tool()


# ---------------------------------------------------------------------------
# The catalogs


@pytest.fixture(scope="module")
def template() -> Any:
    return TOOL.extract()


def test_extraction_finds_every_face(template: Any) -> None:
    files = {loc for m in template for loc, _line in m.locations}
    for face in ("cli/base.py", "narration.py", "notation.py", "terms.py", "validation.py"):
        assert f"src/darkcity/{face}" in files, face
    assert len(template) > 150


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_is_translated_with_the_same_placeholders(template: Any, lang: str) -> None:
    problems = TOOL.problems(lang, template)
    assert not problems, "\n".join(problems)


def test_compiled_catalogs_match_the_po_files() -> None:
    stale = TOOL.stale_mo()
    assert not stale, "\n".join(stale)


def test_no_catalog_entry_is_dead(template: Any) -> None:
    wanted = {(m.context, m.id) for m in template if m.id}
    for lang in LANGUAGES:
        extra = [(m.context, m.id) for m in TOOL.read(lang) if m.id and (m.context, m.id)
                 not in wanted]
        assert not extra, f"{lang}: run scripts/i18n.py update to drop {extra}"


def test_article_context_is_the_one_the_code_uses(template: Any) -> None:
    contexts = {m.context for m in template if m.context}
    assert contexts == {ARTICLE}


def test_portuguese_uses_the_manuals_words() -> None:
    pt = translator("pt")
    names = {r: pt.term(role_term(r)) for r in Role}
    assert names == {
        Role.DEVIL: "Demônio", Role.VAMPIRE: "Vampiro", Role.WEREWOLF: "Lobisomem",
        Role.ZOMBIE: "Zumbi", Role.HUNTER: "Caçador", Role.PRIEST: "Sacerdote",
        Role.ANGEL: "Anjo", Role.ALIEN: "Alienígena", Role.NECROMANCER: "Necromante",
        Role.CREATURE: "Criatura", Role.MUMMY: "Múmia", Role.DEMONIAC: "Possuída",
        Role.REPORTER: "Repórter", Role.VOODOOIST: "Voduísta", Role.DEATH: "Morte",
    }
    feminine = {Role.CREATURE, Role.MUMMY, Role.DEMONIAC, Role.VOODOOIST, Role.DEATH}
    for r in Role:
        article = "a" if r in feminine else "o"
        assert pt.term(role_term(r), "the") == f"{article} {names[r]}"
    assert pt("[end]") == "[fim]"
    assert "Burgomestre" in pt("Print the Mayor's narration instead of JSON.")


def test_english_follows_the_devir_edition() -> None:
    en = translator("en")
    assert en.term(role_term(Role.DEVIL), "The") == "The Devil"
    assert en.term(role_term(Role.DEMONIAC)) == "Demoniac"
    assert en.term(role_term(Role.DEATH), "the") == "Death"


# ---------------------------------------------------------------------------
# Every face marks its texts: a lint over src/darkcity

#: Modules written before issue #7 reached them; their owners convert them
#: (docs/i18n.md) and then remove them from this list.
PENDING: frozenset[str] = frozenset()
MARKERS = {"_", "N_", "msg", "msgn", "C_"}
OUTPUT = {"print", "echo", "secho", "write", "_fail", "Exit", "BadParameter"}
_WORD = re.compile(r"[A-Za-z]{2,}")


def _prose(node: ast.expr) -> bool:
    """Whether an expression is English text: a literal with a space and a word."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value
    elif isinstance(node, ast.JoinedStr):
        text = "".join(v.value for v in node.values
                       if isinstance(v, ast.Constant) and isinstance(v.value, str))
    elif isinstance(node, ast.BinOp):
        return _prose(node.left) or _prose(node.right)
    else:
        return False
    return " " in text.strip() and bool(_WORD.search(text))


def _domain_errors() -> set[str]:
    """The exception classes of darkcity that reach users (ValueError subclasses)."""
    found = {"ValueError"}
    trees = [ast.parse(p.read_text(encoding="utf-8")) for p in PACKAGE.rglob("*.py")]
    grew = True
    while grew:
        grew = False
        for tree in trees:
            for node in ast.walk(tree):
                if (isinstance(node, ast.ClassDef) and node.name not in found
                        and any(_name(b) in found for b in node.bases)):
                    found.add(node.name)
                    grew = True
    return found - {"ValueError"}


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _untranslated(path: Path) -> Iterator[str]:
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        where = f"{path.relative_to(ROOT)}:{node.lineno}"
        if "i18n: not prose" in lines[node.lineno - 1]:
            continue
        name = _name(node.func)
        if name in MARKERS:
            literal = node.args[:2] if name == "C_" else node.args[:1]
            if name == "msgn":
                literal = node.args[:2]
            if not all(isinstance(a, ast.Constant) and isinstance(a.value, str)
                       for a in literal):
                yield f"{where}: {name}() needs literal strings (Babel extracts literals)"
            continue
        if name in ERRORS or name in OUTPUT:
            for a in node.args[1:] if name in ERRORS else node.args:  # [0]: the field
                if _prose(a):
                    yield f"{where}: {name}() is given English text; use msg(...)"
        for kw in node.keywords:
            if kw.arg == "help" and _prose(kw.value):
                yield f"{where}: help= is not marked with _()"


ERRORS = _domain_errors()


def test_every_user_visible_text_is_marked() -> None:
    assert {"RoundError", "DeckError"} <= ERRORS
    found = [
        problem
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.name not in PENDING
        for problem in _untranslated(path)
    ]
    assert not found, "\n".join(found)


def test_the_lint_catches_english_text(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text('raise RoundError("x", f"{p} sits twice", p)\n'
                   'typer.Option(help="Number of players.")\n'
                   'msg(f"{x} is bad")\n', encoding="utf-8")
    good = tmp_path / "good.py"
    good.write_text('raise RoundError("x", msg("{p} sits twice", p=p), p)\n'
                    'typer.Option(help=_("Number of players."))\n'
                    'raise RoundError(f"cards.{p}", _not_player(p), p)\n', encoding="utf-8")
    global ROOT
    saved, ROOT = ROOT, tmp_path  # relative paths in the report
    try:
        assert len(list(_untranslated(bad))) == 3
        assert list(_untranslated(good)) == []
    finally:
        ROOT = saved


# ---------------------------------------------------------------------------
# The runtime: translators, messages, terms


def test_negotiation() -> None:
    for tag in ("pt", "pt_BR", "pt-BR", "pt_BR.UTF-8", "PT-br", "pt_PT"):
        assert negotiate(tag) == "pt_BR", tag
    for tag in ("en", "en_US.UTF-8", "en-GB", "C", "POSIX", "C.UTF-8"):
        assert negotiate(tag) == "en", tag
    assert negotiate("fr_FR") is None
    assert translator("pt-BR") is translator("pt")  # cached
    with pytest.raises(LookupError):
        translator("fr")


def test_language_from_environment() -> None:
    assert language_from_environment({}) == "en"
    assert language_from_environment({"LANG": "pt_BR.UTF-8"}) == "pt_BR"
    assert language_from_environment({"LC_ALL": "en_US.UTF-8", "LANG": "pt_BR"}) == "en"
    assert language_from_environment({"LC_MESSAGES": "pt_BR", "LANG": "en_US"}) == "pt_BR"
    assert language_from_environment({"LANGUAGE": "fr:pt_BR", "LANG": "en_US"}) == "pt_BR"
    assert language_from_environment({"LANG": "de_DE.UTF-8"}) == "en"


def test_one_message_rendered_for_each_reader() -> None:
    m = msg("{role:The} ({actor}) kills {target_role:the} ({target}).",
            role=role_term(Role.DEATH), actor="Ana",
            target_role=role_term(Role.CREATURE), target="Bia")
    assert m.render(translator("en")) == "Death (Ana) kills the Creature (Bia)."
    assert m.render(translator("pt")) == "A Morte (Ana) elimina a Criatura (Bia)."
    assert str(m) == m.render() == m.render(str)
    wire = json.loads(json.dumps(m.to_json()))
    assert wire["msgid"] == m.msgid and wire["params"]["actor"] == "Ana"
    assert wire["params"]["role"] == {"term": "Death", "the": "Death"}
    back = Message.from_json(wire)
    assert back == m and back.render(translator("pt")) == m.render(translator("pt"))
    nested = msg("{label}: {error}", label="x", error=msgn("a {n}", "b {n}", 2))
    assert Message.from_json(json.loads(json.dumps(nested.to_json()))) == nested


def test_portuguese_contractions() -> None:
    pt = translator("pt")
    assert pt.term(role_term(Role.VAMPIRE), "de") == "do Vampiro"
    assert pt.term(role_term(Role.CREATURE), "de") == "da Criatura"
    assert pt.term(role_term(Role.DEATH), "a") == "à Morte"
    assert pt.term(role_term(Role.HUNTER), "Por") == "Pelo Caçador"
    assert pt.term(role_term(Role.MUMMY), "em") == "na Múmia"
    with pytest.raises(ValueError):
        translator("en").term(role_term(Role.VAMPIRE), "de")


def test_plurals() -> None:
    one = msgn("{role:the} points at exactly {n} player, not {given}",
               "{role:the} points at exactly {n} players, not {given}", 1,
               role=role_term(Role.ZOMBIE), given=2)
    two = msgn("{role:the} points at exactly {n} player, not {given}",
               "{role:the} points at exactly {n} players, not {given}", 2,
               role=role_term(Role.HUNTER), given=1)
    assert str(one) == "the Zombie points at exactly 1 player, not 2"
    assert two.render(translator("pt")) == "o Caçador aponta para exatamente 2 jogadores, não 1"


def test_a_plain_function_still_translates() -> None:
    seen: list[str] = []

    def mark(text: str) -> str:
        seen.append(text)
        return f"<{text}>"

    m = msg("{role:The} ({actor}) is wounded, but stands.", role=role_term(Role.CREATURE),
            actor="Ana")
    assert m.render(mark) == "<<the Creature> (Ana) is wounded, but stands.>"
    assert "the Creature" in seen


# ---------------------------------------------------------------------------
# Errors


BAD = {
    "players": ["Ana", "Bia", "Caio", "Duda"],
    "cards": {"Ana": {"role": "vampire"}, "Bia": {"role": "werewolf"},
              "Caio": {"role": "priest"}, "Duda": {"role": "zombie"}},
    "gestures": {"Ana": {"targets": ["Ana"]}, "Bia": {"targets": ["Caio"]},
                 "Duda": {"targets": ["Caio"]}},
}


def test_round_errors_carry_a_template_and_stay_english() -> None:
    with pytest.raises(RoundError) as caught:
        read_round(BAD)
    e = caught.value
    assert str(e) == "gestures.Ana.targets: Ana cannot point at themself"
    assert e.reason == "Ana cannot point at themself"
    assert e.template == "{player} cannot point at themself"
    assert dict(e.params) == {"player": "Ana"}
    assert e.field == "gestures.Ana.targets" and e.player == "Ana"
    assert e.render(translator("pt")) == "gestures.Ana.targets: Ana não pode apontar para si"
    again = pickle.loads(pickle.dumps(e))
    assert str(again) == str(e) and again.template == e.template
    assert str(RoundError("x", "plain English")) == "x: plain English"


def test_validation_errors_render_in_portuguese() -> None:
    doc = json.loads(json.dumps(BAD))
    doc["gestures"]["Ana"] = {"targets": ["Bia"]}
    doc["cards"]["Caio"] = {"role": "angel", "edition": "advanced"}
    with pytest.raises(RoundError) as caught:
        read_round(doc)
    assert caught.value.render(translator("pt")).startswith(
        "cards.Caio.edition: o Anjo não tem edição avançada")
    assert str(caught.value).startswith("cards.Caio.edition: the Angel has no advanced edition")


def test_game_deck_and_record_errors_carry_a_message_and_stay_english() -> None:
    from darkcity.decisions import FreeXp, IllegalDecision
    from darkcity.deck import DeckError, parse_deck, preset
    from darkcity.game import Game
    from darkcity.record import RecordError, replay
    from darkcity.settings import Settings

    pt = translator("pt")
    with pytest.raises(DeckError) as deck:
        parse_deck("undead-7", 5)
    e = deck.value
    assert str(e) == "deck: the 'undead-7' deck is for 7 to 8 players, not 5"
    assert e.reason == "the 'undead-7' deck is for 7 to 8 players, not 5"
    assert e.message.msgid == "the {name!r} deck is for {lo} to {hi} players, not {n}"
    assert e.render(pt) == "deck: o maço 'undead-7' é para 7 a 8 jogadores, não 5"
    assert str(pickle.loads(pickle.dumps(e))) == str(e)
    assert str(DeckError("cards", "plain English")) == "cards: plain English"

    game = Game(Settings(players=("Ana", "Bia", "Caio", "Duda"), deck=preset("basic", 4)), 1)
    with pytest.raises(IllegalDecision) as illegal:
        game.do(FreeXp("Zed", Role.DEVIL))
    i = illegal.value
    assert (i.code, i.reason, str(i)) == ("malformed", "'Zed' is not one of the players",
                                          "malformed: 'Zed' is not one of the players")
    assert i.render(pt) == "'Zed' não é um dos jogadores"
    again = pickle.loads(pickle.dumps(i))
    assert (again.code, again.reason, again.field) == (i.code, i.reason, i.field)
    plain = IllegalDecision("illegal", "plain English", "Ana", "cards")
    assert (str(plain), plain.reason, plain.player) == ("illegal: plain English",
                                                        "plain English", "Ana")

    with pytest.raises(RecordError) as record:
        replay({"format": "darkcity-round/1"})
    assert str(record.value) == "format: expected 'darkcity-game/1', not 'darkcity-round/1'"
    assert record.value.render(pt).startswith("format: esperava-se 'darkcity-game/1'")


def test_a_refusal_by_validation_stays_translatable() -> None:
    """game.py hands the RoundError's Message to IllegalDecision, not its English."""
    import random

    from darkcity.decisions import GestureChoice, IllegalDecision, Phase
    from darkcity.deck import preset
    from darkcity.game import Game
    from darkcity.night import Gesture
    from darkcity.settings import Settings

    game = Game(Settings(players=("Ana", "Bia", "Caio", "Duda"), deck=preset("basic", 4)), 5)
    rng = random.Random(5)
    while game.phase is not Phase.GESTURE:
        p = game.pending[0]
        game.apply(rng.choice(game.legal(p)))
    p = game.pending[0]
    with pytest.raises(IllegalDecision) as caught:
        game.verify(GestureChoice(p, Gesture((p, p, p))))
    e = caught.value
    assert e.code == "illegal" and e.field.startswith(f"gestures.{p}")
    assert "{" in e.message.msgid and e.render(translator("pt")) != e.reason


def test_views_narrate_in_the_readers_language() -> None:
    from darkcity.deck import preset
    from darkcity.game import Game, play_randomly
    from darkcity.settings import Settings, bot_rng
    from darkcity.views import view

    game = Game(Settings(players=("Ana", "Bia", "Caio", "Duda"), deck=preset("basic", 4)), 3)
    play_randomly(game, bot_rng(3))
    en, pt = view(game, "Ana"), view(game, "Ana", translate=translator("pt"))
    assert en == view(game, "Ana", translate=translator("en"))
    assert [e.event for n in en.history for e in n.events] == \
        [e.event for n in pt.history for e in n.events]
    assert en.history[0].events[0].text != pt.history[0].events[0].text


def test_selfplay_and_replay_speak_portuguese(tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    made = _darkcity("selfplay", "--seed", "3", "--out", str(out), "--lang", "pt")
    assert made.returncode == 0, made.stderr
    assert " noites; vencedores: " in made.stdout
    ok = _darkcity("replay", str(out), env={"LANG": "pt_BR.UTF-8"})
    assert ok.stdout.startswith("ok: ") and "jogadas de novo" in ok.stdout
    night = _darkcity("replay", str(out), "--night", "1", "--lang", "pt")
    assert night.stdout.startswith("Noite 1 (da vez: ")  # the manual's "jogador da vez"
    bad = _darkcity("selfplay", "--players", "5", "--deck", "angel-alien-6", "--lang", "pt")
    assert bad.returncode == 2
    assert bad.stderr.startswith("darkcity: deck: o maço 'angel-alien-6' é para 6 jogadores")
    doc = json.loads(out.read_text(encoding="utf-8"))
    doc["nights"][0]["result"]["winners"] = ["Zed"]
    out.write_text(json.dumps(doc), encoding="utf-8")
    diverged = _darkcity("replay", str(out), "--lang", "pt")
    assert diverged.returncode == 1 and diverged.stdout.startswith("divergiu: noite 1, resultado")
    english = _darkcity("replay", str(out), "--lang", "en")
    assert english.stdout.startswith("diverged: night 1, result")


# ---------------------------------------------------------------------------
# Narration of every adjudicated night


class _Missing(gettext.NullTranslations):
    def gettext(self, message: str) -> str:
        raise AssertionError(f"no translation for {message!r}")

    def pgettext(self, context: str, message: str) -> str:
        raise AssertionError(f"no translation for {context}|{message!r}")


def _strict(lang: str) -> Translator:
    data = (PACKAGE / "locale" / lang / "LC_MESSAGES" / "darkcity.mo").read_bytes()
    catalog = gettext.GNUTranslations(io.BytesIO(data))
    catalog.add_fallback(_Missing())
    return Translator(lang, catalog)


@pytest.mark.skipif(not SCENARIO_FILES, reason="no ../shared/scenarios here")
@pytest.mark.parametrize("path", SCENARIO_FILES, ids=[p.stem for p in SCENARIO_FILES])
def test_scenario_narrates_in_both_languages(path: Path) -> None:
    result = resolve(read_round(json.loads(path.read_text(encoding="utf-8"))))
    en, pt = _strict("en"), _strict("pt_BR")
    assert result.events
    for event in result.events:
        english = render(event, result.night, en)
        portuguese = render(event, result.night, pt)
        assert english == render(event, result.night)  # the default is English
        assert portuguese != english
        assert "{" not in portuguese and "}" not in portuguese
        assert event_message(event, result.night).msgid == MESSAGES[event.key]


def test_every_narration_template_has_both_languages() -> None:
    en, pt = _strict("en"), _strict("pt_BR")
    for key, template in MESSAGES.items():
        assert en(template) == template, key
        assert pt(template) != template, key
    for term in ROLE_TERMS.values():
        pt.term(term, "the")


# ---------------------------------------------------------------------------
# Portuguese role names in documents


def test_portuguese_role_names_are_aliases() -> None:
    doc = {
        "players": ["Ana", "Bia", "Caio", "Duda"],
        "cards": {"Ana": {"role": "Vampiro"}, "Bia": {"role": "lobisomem"},
                  "Caio": {"role": "Sacerdote"}, "Duda": {"role": "Zumbi"}},
        "gestures": {"Ana": {"targets": ["Bia"]}, "Bia": {"targets": ["Caio"]},
                     "Duda": {"targets": ["Caio"]}},
        "journals": {"Ana": {"Caçador": 1, "possuida": 0, "Demônio": 2}},
        "journal_roles": ["Demônio", "vampiro", "Lobisomem", "zumbi", "cacador", "sacerdote",
                          "possuída", "Morte"],
    }
    english = json.loads(json.dumps(doc).replace('"Vampiro"', '"vampire"'))
    got = adjudicate(doc)
    assert got["players"]["Ana"] == {"fate": "alive", "marks": [], "xp": 1}
    assert got["players"] == adjudicate(english)["players"]
    for word in ("Anjo", "Alienígena", "Necromante", "Criatura", "Múmia", "Repórter",
                 "Voduísta"):
        ok = json.loads(json.dumps(doc))
        ok["cards"]["Caio"] = {"role": word}
        ok.pop("journal_roles"), ok.pop("journals")
        try:
            adjudicate(ok)
        except RoundError as e:
            assert "unknown role" not in str(e), word


# ---------------------------------------------------------------------------
# The command line


def _darkcity(*args: str, stdin: str | None = None,
              env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items()
             if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    clean.update(env or {})
    return subprocess.run([sys.executable, "-m", "darkcity", *args], input=stdin,
                          capture_output=True, text=True, env=clean, timeout=60, check=False)


def test_cli_narrates_in_portuguese() -> None:
    out = _darkcity("adjudicate", "--example", "--narrate", "--lang", "pt")
    assert out.returncode == 0, out.stderr
    assert "O Anjo (Fred) elimina o Demônio (Ana)." in out.stdout
    assert "[fim]" in out.stdout
    en = _darkcity("adjudicate", "--example", "--narrate")
    assert "The Angel (Fred) kills the Devil (Ana)." in en.stdout


def test_cli_honours_the_locale() -> None:
    out = _darkcity("adjudicate", "--example", "--narrate", env={"LANG": "pt_BR.UTF-8"})
    assert "O Anjo (Fred) elimina o Demônio (Ana)." in out.stdout
    forced = _darkcity("adjudicate", "--example", "--narrate", "--lang", "en",
                       env={"LC_ALL": "pt_BR.UTF-8"})
    assert "The Angel (Fred) kills the Devil (Ana)." in forced.stdout
    helped = _darkcity("adjudicate", "--help", env={"LANG": "pt_BR.UTF-8"})
    assert "Resolve uma noite" in helped.stdout


def test_cli_errors_in_portuguese() -> None:
    out = _darkcity("adjudicate", "-", "--lang", "pt", stdin=json.dumps(BAD))
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr == "darkcity: -: gestures.Ana.targets: Ana não pode apontar para si\n"
    en = _darkcity("adjudicate", "-", stdin=json.dumps(BAD))
    assert en.stderr == "darkcity: -: gestures.Ana.targets: Ana cannot point at themself\n"
    broken = _darkcity("adjudicate", "-", "--lang", "pt", stdin='{"players": [}')
    assert broken.stderr.startswith("darkcity: -: JSON inválido na linha 1, coluna 14: ")
    missing = _darkcity("adjudicate", "nope.json", "--lang", "pt-BR")
    assert missing.stderr == "darkcity: nope.json: arquivo não encontrado\n"
    unknown = _darkcity("adjudicate", "--example", "--lang", "fr")
    assert unknown.returncode == 2
    assert unknown.stderr == "darkcity: --lang: unknown language 'fr' (en or pt)\n"
