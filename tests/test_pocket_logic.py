"""The table companion's logic is shared by the server and the pocket app's worker
(issue #29): the per-reader view, the set-up's checks and what a reader asks of a
table live in ``darkcity.companion`` free of any web framework, so that Pyodide on a
phone runs them as the server does."""

from __future__ import annotations

import subprocess
import sys

import pytest

from darkcity.companion import Companion
from darkcity.companion.actions import Refused, correct, enter, read_correction, refusal, undo
from darkcity.companion.setup import check, meta, read_setup
from darkcity.companion.view import view
from darkcity.i18n import translator

FRAMEWORKS = ("fastapi", "starlette", "sqlalchemy", "pydantic", "uvicorn", "redis")


def test_the_shared_logic_imports_no_web_framework() -> None:
    code = ("import sys; import darkcity.companion.view, darkcity.companion.setup, "
            "darkcity.companion.actions, darkcity.companion.record; "
            f"print(sorted(m for m in sys.modules if m.split('.')[0] in {FRAMEWORKS!r}"
            " or m.startswith('darkcity.server')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "[]"


SIX = ["Ana", "Bia", "Caio", "Duda", "Edu", "Fred"]


def table() -> Companion:
    body = {"players": SIX, "deck": "basic", "free_xp": dict.fromkeys(SIX, "priest")}
    return Companion(read_setup(body, translator("en")))


def test_a_set_up_is_checked_and_made_with_the_servers_words() -> None:
    t = translator("pt_BR")
    assert meta("pt_BR")["lang"] == "pt_BR"
    assert meta("en")["presets"][0]["name"] == "basic"
    assert check({"players": SIX, "deck": "basic"}, t)["cards"]
    with pytest.raises(Exception) as e:
        check({"players": SIX[:3], "deck": "reporter-death-6"}, t)
    status, answer = refusal(e.value, t) or (0, {})
    assert status == 400 and "Repórter e Morte" in answer["message"]


def test_a_phone_enters_only_deaths_name() -> None:
    c = table()
    with pytest.raises(Refused) as e:
        enter(c, "Ana", {"type": "drafted", "death": None})
    assert e.value.status == 403
    enter(c, "mayor", {"type": "drafted", "death": None})
    v = view(c, "mayor", translator("en"), code="LOCAL", version=2, lang="en")
    assert v["stage"] == "count" and v["can_undo"] and v["code"] == "LOCAL"
    undo(c, "entry")
    assert not c.entries
    with pytest.raises(Refused) as nothing:
        undo(c, "entry")
    assert nothing.value.code == "nothing"


def test_a_correction_is_read_and_a_dry_one_changes_nothing() -> None:
    with pytest.raises(Refused) as e:
        read_correction({"entry": {"type": "next-night"}})
    assert e.value.code == "not-a-gesture"
    with pytest.raises(Refused) as bad:
        read_correction({"entry": {"type": "drafted", "death": None}, "night": True})
    assert bad.value.code == "bad-night"
    c = table()
    enter(c, "mayor", {"type": "drafted", "death": None})
    asked = read_correction({"entry": {"type": "drafted", "death": None}, "dry": True})
    before = c.to_json()
    with pytest.raises(Exception) as wrong:  # nobody took Death: said, nothing changed
        correct(c, asked)
    status, answer = refusal(wrong.value, translator("en")) or (0, {})
    assert status == 400 and "nobody took Death on night 1" in answer["message"]
    assert c.to_json() == before
