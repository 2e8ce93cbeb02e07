"""What a new player tripped over in ``darkcity play`` (issue #16), each fix driven
through a pseudo-terminal (pexpect) with the keys of the report: items 1 to 10.

Every game is seeded; the driver answers each prompt with what a test asks, or
with the prompt's first allowed key."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

ROOT = Path(__file__).resolve().parent.parent
PROMPT = r"\[([^\[\]\n]*)\] > "
TIMEOUT = 30
RULE_ID = re.compile(r"\b[RKD]-\d+\b")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|[\x01\x02\r]")

#: An answer: (the screen since the last answer, the allowed keys) -> the line to type.
Answerer = Callable[[str, str], str | None]


def spawn(cwd: Path, *args: str, rows: int = 40, columns: int = 120) -> pexpect.spawn:
    return pexpect.spawn(sys.executable, ["-m", "darkcity", "play", *args], cwd=str(cwd),
                         encoding="utf-8", dimensions=(rows, columns), timeout=TIMEOUT,
                         env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "xterm",
                              "PYTHONPATH": str(ROOT / "src")})


def plain(text: str) -> str:
    return ANSI.sub("", text)


def first_key(allowed: str) -> str:
    first = allowed.split(" · ")[0]
    if first.startswith("Enter"):
        return ""
    return first.split("-")[0].split(",")[0].strip()


class Play:
    """A ``darkcity play`` in a pseudo-terminal, answered prompt by prompt."""

    def __init__(self, cwd: Path, *args: str, rows: int = 40, columns: int = 120) -> None:
        self.child = spawn(cwd, *args, rows=rows, columns=columns)
        self.screens: list[tuple[str, str, str]] = []  # (screen, allowed, typed)
        self.raw: list[str] = []  # everything written, escape sequences included
        self.child.logfile_read = _Collect(self.raw)

    def run(self, answer: Answerer | None = None, limit: int = 3000,
            stop: Callable[[str, str], bool] | None = None) -> bool:
        """Answer prompts until the program ends (False) or ``stop`` says so (True)."""
        for _ in range(limit):
            i = self.child.expect([PROMPT, pexpect.EOF])
            if i == 1:
                self.screens.append((plain(self.child.before), "", ""))
                return False
            screen, allowed = plain(self.child.before), self.child.match.group(1)
            if stop is not None and stop(screen, allowed):
                self.screens.append((screen, allowed, ""))
                return True
            line = answer(screen, allowed) if answer else None
            if line is None:
                line = first_key(allowed)
            self.screens.append((screen, allowed, line))
            self.child.sendline(line)
        raise AssertionError("the game does not end")

    def finish(self) -> int:
        self.child.expect(pexpect.EOF)
        self.screens.append((plain(self.child.before), "", ""))
        self.child.close()
        return int(self.child.exitstatus if self.child.exitstatus is not None else -1)

    @property
    def out(self) -> str:
        return "".join(s for s, _, _ in self.screens)


def option(screen: str, words: str) -> str | None:
    """The key of the option whose label contains ``words`` (in the last question)."""
    for line in reversed(screen.splitlines()):
        m = re.match(r"^[│ ]\s*(\d+)\s+(.*)$", line)
        if m and words in m.group(2):
            return m.group(1)
    return None


def record_in(folder: Path) -> list[Path]:
    return sorted(folder.glob("darkcity-game*.json"))


# ---------------------------------------------------------------------------
# 1. A new game never overwrites a saved one; --resume alone takes the latest


def test_1_a_new_game_does_not_overwrite_a_saved_one(tmp_path: Path) -> None:
    first = Play(tmp_path, "--humans", "A,B,C", "--bots", "random")
    first.run(lambda s, a: "q")
    assert first.finish() == 0
    [saved] = record_in(tmp_path)
    before = saved.read_text(encoding="utf-8")
    assert json.loads(before)["terminal"]["humans"] == ["A", "B", "C"]

    second = Play(tmp_path, "--seed", "3", "--bots", "random")
    second.run(lambda s, a: "q")
    assert second.finish() == 0
    records = record_in(tmp_path)
    assert len(records) == 2 and saved.read_text(encoding="utf-8") == before
    newer = next(p for p in records if p != saved)
    assert f"Game saved to {newer.name}" in second.out

    # --record onto the unfinished game asks first; "no" keeps it
    third = Play(tmp_path, "--seed", "4", "--record", saved.name)
    third.child.expect(r"holds an unfinished game \(night 1\)\. Overwrite it\? \[y/N\]")
    third.child.sendline("n")
    assert third.finish() == 2 and saved.read_text(encoding="utf-8") == before

    # --resume without a file: the latest unfinished game of the folder
    newer.touch()
    resumed = Play(tmp_path, "--resume", "--bots", "random")
    resumed.run(lambda s, a: "q")
    assert resumed.finish() == 0
    assert "The story so far" in resumed.out and f"Game saved to {newer.name}" in resumed.out


# ---------------------------------------------------------------------------
# 2, 3. The Zombie's victim and Death's name by seat; the Zombie's targets told


def keep(role: str) -> Answerer:
    """Keep a card of ``role`` when the hand holds one."""
    def answer(screen: str, allowed: str) -> str | None:
        if "Which card do you keep?" in screen:
            for line in screen.splitlines():
                m = re.match(rf"^\s*(\d+)\s+{role}\b", line)
                if m:
                    return m.group(1)
        return None
    return answer


def test_2_3_the_zombies_victim_is_a_seat_and_its_targets_are_told(tmp_path: Path) -> None:
    for seed in range(1, 30):
        game = Play(tmp_path, "--players", "5", "--seed", str(seed), "--bots", "random",
                    "--record", f"z{seed}.json")
        base = keep("Zombie")
        asked: list[tuple[str, str]] = []

        def answer(screen: str, allowed: str, base: Answerer = base,
                   asked: list[tuple[str, str]] = asked) -> str | None:
            if "Your Zombie's final victim? Type a seat number" in screen:
                keys = allowed.split(" · ")[0].split(", ")
                asked.append((screen, keys[-1]))
                return keys[-1]  # the seat number of a neighbour, not a menu position
            if "Do you withdraw?" in screen:
                return ""  # stay, to reach the Zombies' choice
            return base(screen, allowed)

        game.run(answer)
        assert game.finish() == 0
        if asked:
            break
    else:
        pytest.fail("no seed gave the Zombie's choice")
    screen, typed = asked[0]
    assert "your target now" in screen and "(left neighbour" in screen
    assert "(right neighbour" in screen
    doc = json.loads((tmp_path / f"z{seed}.json").read_text(encoding="utf-8"))
    players = doc["settings"]["players"]
    zombie = [d for d in doc["terminal"]["log"] if d["type"] == "zombie"]
    assert zombie and zombie[0]["target"] == players[int(typed) - 1]


def test_2_deaths_name_is_written_by_seat(tmp_path: Path) -> None:
    # six players: on night 2 seat 1 drafts last and is offered Death
    written: list[str] = []

    def answer(screen: str, allowed: str) -> str | None:
        if "Death is offered to you" in screen:
            return option(screen, "take Death")
        if "Which name does Death write? Type a seat number" in screen:
            written.append("3")
            return "3"
        return None

    game = Play(tmp_path, "--deck", "reporter-death-6", "--seed", "2", "--bots", "random",
                "--record", "d.json")
    game.run(answer)
    assert game.finish() == 0 and written
    doc = json.loads((tmp_path / "d.json").read_text(encoding="utf-8"))
    took = [d for d in doc["terminal"]["log"] if d["type"] == "take-death"]
    assert took and took[0]["names"] == doc["settings"]["players"][2]  # seat 3


# ---------------------------------------------------------------------------
# 4. Threats at a glance


def test_4_the_reveal_and_the_withdrawal_show_who_points_at_you(tmp_path: Path) -> None:
    game = Play(tmp_path, "--players", "4", "--seed", "5", "--bots", "random",
                "--record", "t.json")
    game.run()
    assert game.finish() == 0
    withdrawals = [s for s, _, _ in game.screens if "Do you withdraw?" in s]
    assert withdrawals
    for s in withdrawals:
        assert ("Aimed at you: " in s) != ("Nobody points at you." in s)
    aimed = [s for s in withdrawals if "Aimed at you: " in s]
    assert aimed, "seed 5: somebody should point at seat 1 at least once"
    for s in aimed:
        m = re.search(r"Aimed at you: (\d) (\w+) \((\w+)\)", s)
        assert m and "★" in s  # the arrow is marked on the table too


# ---------------------------------------------------------------------------
# 5. The last drafter's blind take is announced


def test_5_the_blind_take_is_announced_to_the_table(tmp_path: Path) -> None:
    # hot-seat, four seats: on night 2 Ana (seat 1) drafts last and takes a face-down card
    took = []

    def answer(screen: str, allowed: str) -> str | None:
        if "Which card do you keep?" in screen:
            key = option(screen, "face-down cards, blind")
            if key:
                took.append(key)
                return key
        return None

    game = Play(tmp_path, "--humans", "Ana,Bia", "--players", "4", "--seed", "6",
                "--bots", "random", "--record", "b.json")
    game.run(answer, stop=lambda s, a: bool(took) and "Phase 3: Withdrawal" in s)
    game.child.sendline("q")
    assert game.finish() == 0 and took
    out = game.out
    assert "You took a face-down card: nobody knows which." in out
    assert "Ana took a face-down card (nobody knows which)." in out  # on Bia's screens


# ---------------------------------------------------------------------------
# 6. Screens fit the terminal; a small one is warned about; ? and j redraw


def test_6_every_screen_fits_40_rows_and_help_redraws_the_question(tmp_path: Path) -> None:
    game = Play(tmp_path, "--players", "8", "--seed", "7", "--bots", "random",
                "--record", "f.json")
    helped = []

    def answer(screen: str, allowed: str) -> str | None:
        if "Which card do you keep?" in screen and not helped:
            helped.append(screen)
            return "?"
        return None

    game.run(answer, stop=lambda s, a: "Phase 3: Withdrawal" in s)
    game.child.sendline("q")
    assert game.finish() == 0
    for screen, _allowed, _typed in game.screens[:-1]:
        # the screen since the last answer (after a help, the question drawn again
        # under it), and the prompt line under it
        if "Rules of the cards in play" in screen:
            screen = screen[screen.rindex("DARK CITY"):]
        assert screen.count("\n") + 1 <= 40, screen
    after_help = [s for s, _, _ in game.screens if "Rules of the cards in play (1/2)" in s]
    assert after_help and "Which card do you keep?" in after_help[0].split(
        "Rules of the cards in play")[1]  # the question again, under the help


def test_6_a_small_terminal_is_warned_about(tmp_path: Path) -> None:
    game = Play(tmp_path, "--seed", "1", "--record", "s.json", rows=24, columns=80)
    game.run(lambda s, a: "q")
    assert game.finish() == 0
    assert "This terminal is 80×24" in game.out.replace("\n", "")


# ---------------------------------------------------------------------------
# 7. No rule ids; ? explains the cards in play from the engine's data


@pytest.mark.parametrize("deck,players,shown,hidden", [
    ("reporter-death-6", "6", ["Its flash", "lower one of its two bolts"],
     ["damn a soul", "Its doll", "exorcise the Demoniac"]),
    ("mummy-voodoo-7", "7", ["Its doll", "Two hits to kill it"], ["Its flash"]),
    ("advanced", "6", ["Or survive and damn a soul to Hell.", "both bolts at the same player",
                       "turns to its other neighbour"], ["Its flash"]),
])
def test_7_help_explains_the_cards_in_play(tmp_path: Path, deck: str, players: str,
                                          shown: list[str], hidden: list[str]) -> None:
    game = Play(tmp_path, "--deck", deck, "--players", players, "--seed", "1",
                "--record", "r.json")
    keys = iter(["?", "?", "q"])
    game.run(lambda s, a: next(keys))
    assert game.finish() == 0
    out = game.out.replace("\n", " ")
    out = re.sub(r"[│ ]+", " ", out)
    for words in shown:
        assert words in out, words
    for words in hidden:
        assert words not in out, words
    assert "Equal initiatives act at once" in out and "Combat panels" in out
    assert not RULE_ID.search(game.out), RULE_ID.search(game.out)


@pytest.mark.slow  # a whole game in the terminal (pexpect)
def test_7_no_rule_ids_in_a_whole_game(tmp_path: Path) -> None:
    game = Play(tmp_path, "--deck", "reporter-creature-6", "--players", "6", "--seed", "3",
                "--bots", "random", "--record", "w.json")
    game.run()
    assert game.finish() == 0
    assert "Victory: " in game.out
    assert not RULE_ID.search(game.out), RULE_ID.search(game.out)


# ---------------------------------------------------------------------------
# 8. Hot-seat keeps its context


def test_8_hotseat_keeps_settings_and_decisions_and_resume_recaps(tmp_path: Path) -> None:
    game = Play(tmp_path, "--humans", "Ana,Bia", "--players", "4", "--seed", "8",
                "--bots", "random", "--record", "h.json")
    game.run(stop=lambda s, a: "Night 2" in s)
    game.child.sendline("q")
    assert game.finish() == 0
    hides = [s for s, _, _ in game.screens if "Press Enter to hide your screen" in s]
    assert hides and all("→ " in s for s in hides)  # the decision, on screen until hidden
    settings = "At the keyboard: Ana, Bia · Bots (random): Caio, Duda · Deck: basic · Seed: 8"
    cleared = "".join(game.raw).split("\x1b[2J")[1:]
    assert len(cleared) > 10
    for part in cleared:  # every screen after a clear starts with the settings
        assert plain(part).lstrip().startswith(settings), plain(part)[:200]
    again = Play(tmp_path, "--resume", "h.json")
    again.run(lambda s, a: "q")
    assert again.finish() == 0
    assert "The story so far" in again.out and "Night 1: out: " in again.out
    assert "Resuming: night 2" in again.out


# ---------------------------------------------------------------------------
# 9. Small things


def test_9_enter_stays_1_confirms_and_arrow_keys_are_harmless(tmp_path: Path) -> None:
    seen = {"stay": 0, "one": 0, "arrows": 0}

    def answer(screen: str, allowed: str) -> str | None:
        if "Do you withdraw?" in screen:
            seen["stay"] += 1
            return ""  # Enter: stay
        if allowed.startswith("Enter/1"):
            seen["one"] += 1
            return "1"  # a single gesture (the Priest's) confirmed with 1
        if allowed.startswith("1-") and not seen["arrows"]:
            seen["arrows"] += 1
            return "\x1b[D\x1b[C9\x7f1"  # left, right, a typo erased: 1
        return None

    game = Play(tmp_path, "--players", "4", "--seed", "9", "--bots", "random",
                "--record", "n.json")
    game.run(answer)
    assert game.finish() == 0
    assert seen["stay"] and seen["arrows"]
    out = game.out
    assert "→ stay" in out and "Not allowed" not in out
    assert out.split("Where do you write your free XP?")[0].count("DARK CITY") == 1
    # a journal table keeps its padding: " 1 Player" rather than "1 Player" at the edge
    assert re.search(r"^ 1 Player ", out, re.M)
    # no "Zombies choose" screen where only bots are Zombies
    zombie_screens = [s for s, _, _ in game.screens if "The Mayor narrates steps 1+ to 3" in s]
    assert all("Your Zombie's final victim?" in s for s in zombie_screens)


def test_9_the_priests_only_gesture_accepts_1(tmp_path: Path) -> None:
    for seed in range(1, 40):
        confirmed: list[str] = []

        def answer(screen: str, allowed: str, confirmed: list[str] = confirmed
                   ) -> str | None:
            if "Which card do you keep?" in screen:
                return keep("Priest")(screen, allowed)
            if allowed.startswith("Enter/1") and "Priest" in screen.split("Your card")[-1]:
                confirmed.append(screen)
                return "1"
            return None

        game = Play(tmp_path, "--players", "4", "--seed", str(seed), "--bots", "random",
                    "--record", f"p{seed}.json")
        game.run(answer, stop=lambda s, a, c=confirmed: bool(c) and "1, 2, 3, now!" in s)
        game.child.sendline("q")
        game.finish()
        if confirmed:
            break
    else:
        pytest.fail("no seed kept a Priest")
    assert "→ Priest" in game.out and "Not allowed: '1'" not in game.out


# ---------------------------------------------------------------------------
# 10. Command-line errors in one line, naming the option and the value


@pytest.mark.parametrize("args,words", [
    (["--players", "x"], "--players: 'x' is not a number of players (4 to 8)"),
    (["--seed"], "--seed: needs a value"),
    (["--name", "   "], "--name: '   ' is blank"),
    (["--humans", "A,B,C,D,E,F,G,H,I"], "--humans: 9 names, but a table seats 8 at most"),
    (["--deck", "nonsense"], "--deck: 'nonsense':"),
    (["--name", "Zé", "--humans", "Ana,Bia"], "--name: not with --humans"),
    (["--players", "3"], "--players: 4 to 8, not 3"),
    (["--colour", "red"], "--colour: no such option"),
])
def test_10_bad_options_are_one_line(tmp_path: Path, args: list[str], words: str) -> None:
    game = Play(tmp_path, *args)
    assert game.finish() == 2
    lines = [x for x in game.out.strip().splitlines() if x.strip()]
    assert len(lines) == 1 and words in lines[0], game.out
    assert not record_in(tmp_path)


def test_10_options_resume_ignores_are_warned_about(tmp_path: Path) -> None:
    game = Play(tmp_path, "--seed", "1", "--record", "o.json")
    game.run(lambda s, a: "q")
    assert game.finish() == 0
    again = Play(tmp_path, "--resume", "o.json", "--players", "5", "--deck", "advanced")
    again.run(lambda s, a: "q")
    assert again.finish() == 0
    assert "--players, --deck: ignored with --resume" in again.out
    bad = Play(tmp_path, "--resume", "o.json", "--name", "Nobody")
    assert bad.finish() == 2 and "--name: 'Nobody' is not a player of o.json" in bad.out


class _Collect:
    def __init__(self, into: list[str]) -> None:
        self.into = into

    def write(self, s: str) -> None:
        self.into.append(s)

    def flush(self) -> None:
        pass
