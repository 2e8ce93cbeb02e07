"""``darkcity table`` in a real terminal (pexpect): two nights with an undo, the count
at a steady beat, a refusal in plain words, the record saved after every entry and
accepted by ``darkcity replay`` (issue #11)."""

from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any

import pytest

pexpect = pytest.importorskip("pexpect")

from darkcity.companion import replay_table  # noqa: E402
from darkcity.notation import adjudicate  # noqa: E402

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def spawn_table(record: Path, *, players: str = "Ana,Bia,Caio,Duda", deck: str = "basic",
                beat: str = "0.05", width: int = 140) -> Any:
    """``darkcity table`` in a pty of 40 lines, in English, saving to ``record``."""
    return pexpect.spawn(
        sys.executable, ["-m", "darkcity", "table", "--players", players, "--deck", deck,
                         "--save", str(record), "--beat", beat, "--no-speech", "--lang", "en"],
        encoding="utf-8", timeout=30, dimensions=(40, width), cwd=str(record.parent),
        # the pty's width for Rich too: under pytest the child inherited COLUMNS=80, and
        # every table was drawn 80 columns wide whatever the width asked
        env={**os.environ, "COLUMNS": str(width), "LINES": "40"})


def answer(child: Any, prompt: str, text: str) -> None:
    """Wait for ``prompt``, then type ``text`` and Enter."""
    child.expect(prompt)
    child.sendline(text)


@pytest.mark.slow  # two nights at the table's pace (pexpect)
def test_two_nights_with_an_undo(tmp_path: Path) -> None:
    record = tmp_path / "table.json"
    child = spawn_table(record, beat="0.4")
    shown: list[float] = []

    step = partial(answer, child)

    try:
        # night 1
        step("Press Enter when everyone has a card", "")
        step("Press Enter to count", "")
        for word in ("1", "2", "3", "Now!"):
            child.expect(rf"\x1b\[1;33m{re.escape(word)}\x1b\[0m")
            shown.append(time.monotonic())
        step("Ana shows", "vampire Bia")
        step("Bia shows", "werewolf Caio")
        step("Caio shows", "priest")
        step("Duda shows", "hunter Ana Bia")
        step("who fled", "")
        step("Who turns it over", "")
        child.expect("The Vampire \\(Ana\\) kills the Werewolf \\(Bia\\)")
        step("Enter for the next night", "")
        # night 2: a refusal, a correction by undo
        child.expect("Bia is the active player")
        step("Press Enter when everyone has a card", "")
        step("Press Enter to count", "")
        step("Bia shows", "zombie Duda")
        child.expect("Refused: Bia: the Zombie points at its left or right neighbour")
        step("Bia shows", "zombie Caio")
        step("Caio shows", "undo")
        child.expect("The last entry is taken back")
        step("Bia shows", "zombie Ana")
        step("Caio shows", "vampire Ana")
        step("Duda shows", "priest")
        step("Ana shows", "werewolf Caio")
        step("who fled", "Ana")
        step("Who turns it over", "")
        step("the Zombie, attacks", "")
        step("Enter for the next night", "quit")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    gaps = [b - a for a, b in itertools.pairwise(shown)]
    # read through a pty on a shared machine: a beat, not the browser test's 50 ms bar
    assert len(gaps) == 3 and all(abs(g - 0.4) < 0.2 for g in gaps), gaps
    doc = json.loads(record.read_text(encoding="utf-8"))
    assert doc["format"] == "darkcity-table/1" and len(doc["nights"]) == 2
    assert replay_table(doc).ok
    for night in doc["nights"]:
        assert adjudicate(night["round"]) == night["result"]
    # night 2 as entered after the undo: Bia the Zombie aimed at Ana
    assert doc["nights"][1]["round"]["gestures"]["Bia"] == {"targets": ["Ana"]}
    out = subprocess.run([sys.executable, "-m", "darkcity", "replay", str(record), "--lang",
                          "en"], capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("ok: 2 nights replayed identically")
    # a record that lies is reported
    doc["nights"][0]["result"]["winners"] = ["Ana"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "darkcity", "replay", str(bad)],
                         capture_output=True, text=True, check=False)
    assert out.returncode == 1 and "diverged" in ANSI.sub("", out.stdout)


def test_deaths_name_is_typed_hidden(tmp_path: Path) -> None:
    record = tmp_path / "death.json"
    child = spawn_table(record, players="Ana,Bia,Caio,Duda,Enzo,Fred", deck="reporter-death-6")
    try:
        child.expect("Did Fred take Death")
        child.sendline("y")
        child.expect("Fred, the name you wrote")
        child.sendline("Bia")
        child.expect("Death's name is entered")
        assert "Bia" not in ANSI.sub("", child.before or "").split("hidden")[-1]
        child.expect("Press Enter to count")
        child.sendline("")
        for who, line in (("Ana", "vampire Bia"), ("Bia", "hunter Caio Duda"),
                          ("Caio", "zombie Duda"), ("Duda", "priest"),
                          ("Enzo", "reporter Ana Caio")):
            child.expect(f"{who} shows")
            child.sendline(line)
        child.expect("who fled")
        child.sendline("")
        child.expect("Who turns it over")
        child.sendline("")
        child.expect("the Zombie, attacks")
        child.sendline("")
        child.expect(r"Death \(Fred\)")
        # Fred wrote Caio, and tapped Bia: corrected, the night kept
        child.expect("Enter for the next night")
        child.sendline("correct death Caio")
        child.expect("Corrected; everything entered after it still holds")
        child.expect("Enter for the next night")
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    doc = json.loads(record.read_text(encoding="utf-8"))
    night = doc["nights"][0]
    assert night["round"]["gestures"]["Fred"] == {"names": "Caio"}
    assert adjudicate(night["round"]) == night["result"]


def test_a_withdrawal_a_call_and_an_earlier_night_corrected(tmp_path: Path) -> None:
    """``correct`` in the terminal, as on the web page: a withdrawal entered wrong and a
    call entered again at the night's end (the calls kept), then night 1 corrected from
    night 2's draft; a refusal in words. Before, only ``undo`` fixed an entry, taking back
    every entry after it."""
    record = tmp_path / "table.json"
    child = spawn_table(record, width=160)

    step = partial(answer, child)

    try:
        step("Press Enter when everyone has a card", "")
        step("Press Enter to count", "")
        step("Ana shows", "vampire Bia")
        step("Bia shows", "werewolf Caio")
        step("Caio shows", "priest")
        step("Duda shows", "hunter Ana Bia")
        step("who fled", "Caio")  # wrong: Caio stayed
        step("Who turns it over", "")
        step("Enter for the next night", "correct Caio stayed")
        child.expect("Corrected; everything entered after it still holds")
        child.expect(r"Caio\s+│\s+alive")  # the night again: Caio stayed, unharmed
        step("Enter for the next night", "correct step 1")
        step(r"Who turns it over\? \(Ana, Bia, Caio, Duda; Enter: -\)", "")
        child.expect("Corrected; everything entered after it still holds")
        step("Enter for the next night", "correct Zed fled")
        child.expect("'Zed' is not one of the players")
        step("Enter for the next night", "")
        # night 2's draft: night 1 corrected again, Caio fled after all
        step("Press Enter when everyone has a card", "correct night 1 Caio fled")
        child.expect("Corrected; everything entered after it still holds")
        step("Press Enter when everyone has a card", "correct step 9")
        child.expect("step 9 was not called on night 1")
        step("Press Enter when everyone has a card", "")
        step("Press Enter to count", "")
        step("Bia shows", "vampire Caio")
        # in the reveal, tonight's gesture (night 1's Bia showed the Werewolf, and stays so)
        step("Caio shows", "correct Bia vampire Ana")
        child.expect("Corrected; everything entered after it still holds")
        step("Caio shows", "quit")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    doc = json.loads(record.read_text(encoding="utf-8"))
    assert replay_table(doc).ok and len(doc["nights"]) == 1
    night = doc["nights"][0]
    assert night["round"]["withdrawals"] == {"Caio": True}
    assert night["round"]["gestures"]["Bia"] == {"targets": ["Caio"]}
    assert adjudicate(night["round"]) == night["result"]
    assert doc["entries"][-1] == {"type": "gesture", "player": "Bia", "shows": "vampire",
                                  "targets": ["Ana"]}


def test_a_correction_that_takes_entries_back_asks_first(tmp_path: Path) -> None:
    """Ana's Werewolf killed Bia's Zombie at step 3; 'correct Ana fled' brings the Zombie
    back into step 4, whose call is taken back: the terminal says so and asks first (no:
    nothing changed; yes: the Zombie is asked)."""
    record = tmp_path / "table.json"
    child = spawn_table(record, width=160)

    step = partial(answer, child)

    try:
        step("Press Enter when everyone has a card", "")
        step("Press Enter to count", "")
        step("Ana shows", "werewolf Bia")
        step("Bia shows", "zombie Caio")
        step("Caio shows", "priest")
        step("Duda shows", "priest")
        step("who fled", "")
        step("Who turns it over", "")
        step("Enter for the next night", "correct Ana fled")
        step(r"takes back what was entered after it \(1 entry\): you\s+enter it again\. "
             r"Correct anyway\? \(y/n\)", "n")
        child.expect("Nothing changed")
        step("Enter for the next night", "correct Ana fled")
        step(r"Correct anyway\? \(y/n\)", "y")
        # Rich wraps the line where the pty is narrower: "(1" ends a line, "entry)" begins one
        child.expect(r"no longer holds was\s+taken back \(1\s")
        step("Bia, the Zombie, attacks", "")
        step("Enter for the next night", "quit")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    doc = json.loads(record.read_text(encoding="utf-8"))
    assert replay_table(doc).ok
    assert doc["nights"][0]["round"]["withdrawals"] == {"Ana": True}


def test_the_terminal_keeps_the_tables_pace(tmp_path: Path) -> None:
    """What a Mayor missed in the terminal (issue #28, 10): the free XP were assigned
    without being shown; the gestures were not read back before the withdrawals, whose
    hint said 'Caio:1' whoever held the Hunter; the calls that ask nothing printed all at
    once; the journals' headers were cut to 'Devi', 'Vamp', 'Were' at 120 columns and no
    column said each player's card."""
    record = tmp_path / "table.json"
    child = spawn_table(record, beat="0.3", width=120)
    step = partial(answer, child)
    try:
        child.expect(r"Free XP: Ana \w+, Bia \w+, Caio \w+, Duda \w+")
        step("Press Enter when everyone has a card", "")
        step("Press Enter to count", "")
        step("Ana shows", "vampire Bia")
        step("Bia shows", "werewolf Caio")
        step("Caio shows", "priest")
        step("Duda shows", "hunter Ana Bia")
        child.expect("Phase 2, entered:")
        child.expect("Ana: Vampire → Bia")
        child.expect("Duda: Hunter → Ana, Bia")
        # Phase 3 counted, as the web companion does (issue #51)
        child.expect("Who wants to withdraw\\?")
        for word in ("1", "2", "3", "Now!"):
            child.expect(rf"\x1b\[1;33m{re.escape(word)}\x1b\[0m")
        child.expect(r"who fled\? \(names; Duda:1 for Duda's arrow at Ana alone")
        child.sendline("")
        step("Who turns it over", "")
        # the Vampire's call asks nothing: a pause to turn the card over, then its step
        child.expect("The Vampire\\?")
        called = time.monotonic()
        child.expect("Step 2")
        assert time.monotonic() - called >= 0.8  # three beats of 0.3 s, at least
        child.expect("Enter for the next night")
        shown = ANSI.sub("", child.before)
        for role in ("Devil", "Vampire", "Werewolf", "Hunter", "Priest", "Card"):
            assert re.search(rf"┃\s*{role}\s*┃", shown), (role, shown[-3000:])
        # an all-basic deck: the card without "(basic)" (issue #51); the journals a table
        # of their own, each row's name whole
        assert re.search(r"Ana\s+│[^\n]+│[^\n]+│\s+Vampire\s+│", shown), shown
        assert "(basic)" not in shown
        assert "…" not in shown
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    doc = json.loads(record.read_text(encoding="utf-8"))
    assert replay_table(doc).ok and len(doc["nights"]) == 1
