"""From a view's legal choices to questions, and from keystrokes to answers.

Pure: nothing here reads a terminal. A human decision is a series of
:class:`Question` s produced by :func:`next_question` from the view's
``choices`` (the engine's one legal-choice enumerator, :meth:`Game.legal`)
and the answers so far; when one choice is left it is returned. Only legal
choices are ever offered.

Keys: a menu answers ``1``..``n``; every question about a player (whom to
point at, the Zombie's final victim, the name Death writes) answers with the
player's seat number, as drawn around the table; Enter answers a
confirmation, or the question's default (``Question.default``: "stay" at the
withdrawal). Everywhere ``?`` shows the rules of the cards in play, ``j`` the
journals and the table, ``q`` saves and quits. Anything else is refused with
the list of what is allowed (:func:`allowed`); the escape sequences of arrow
and editing keys are ignored.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from darkcity.i18n import Translator, _, msg

__all__ = [
    "ENTER",
    "SEAT_FIELDS",
    "Answer",
    "Option",
    "Question",
    "allowed",
    "matches",
    "next_question",
    "parse",
    "refusal",
]

#: The key of a confirmation (an empty line).
ENTER: Final = ""

Field = Literal["pick", "shows", "first", "second", "kind", "seeks", "take", "names",
                "target"]

#: Fields whose options are players, keyed by seat number.
SEAT_FIELDS: Final = frozenset(("first", "second", "names", "target"))


@dataclass(frozen=True, slots=True)
class Option:
    key: str  # what the player types
    value: Any  # a role key, a player, a gender, or a whole choice (field "pick")
    label: str = ""  # filled by the screens, in the reader's language


@dataclass(frozen=True, slots=True)
class Question:
    field: Field
    options: tuple[Option, ...]
    default: str | None = None  # the key Enter stands for

    @property
    def keys(self) -> tuple[str, ...]:
        """What may be typed: the options' keys, and Enter when there is a default."""
        keys = tuple(o.key for o in self.options)
        return (ENTER, *keys) if self.default is not None else keys

    def option(self, key: str) -> Option:
        if key == ENTER and self.default is not None:
            key = self.default
        return next(o for o in self.options if o.key == key)


def _targets(c: Mapping[str, Any]) -> list[str]:
    t = c.get("targets", [])
    return list(t) if isinstance(t, list) else []


def matches(c: Mapping[str, Any], picked: Mapping[str, Any]) -> bool:
    """Does the choice ``c`` agree with the answers ``picked`` so far?"""
    for f, v in picked.items():
        if f == "shows" and c.get("shows") != v:
            return False
        if f == "first" and v not in _targets(c):
            return False
        if f == "second" and sorted(_targets(c)) != sorted([picked["first"], v]):
            return False
        if f in ("kind", "seeks", "target", "names") and c.get(f) != v:
            return False
    return True


def _seat_options(players: Sequence[str], who: Collection[str]) -> tuple[Option, ...]:
    return tuple(Option(str(i + 1), p) for i, p in enumerate(players) if p in who)


def next_question(
    choices: Sequence[Mapping[str, Any]], picked: Mapping[str, Any], players: Sequence[str]
) -> Question | Mapping[str, Any]:
    """The next question, or the choice itself once it is decided.

    A gesture is asked in parts (only the parts with more than one legal
    answer): the role shown (the Devil), the first target, the second target,
    the kind (Alien, Voodooist), the sought gender (Creature). Any other
    decision is one menu of all the legal choices. A single legal choice is
    still asked, as a confirmation, so that a hot-seat table learns nothing
    from a player who did not have to think.
    """
    if "pick" in picked:
        return picked["pick"]  # type: ignore[no-any-return]
    left = [c for c in choices if matches(c, picked)]
    if not left:
        raise ValueError("no legal choice matches the answers")
    kind = left[0].get("type")
    if kind in ("take-death", "look-at-hand"):
        return _death_question(left, picked, players)
    if kind == "zombie":
        if "target" in picked:
            return left[0]
        return Question("target", _seat_options(players, {str(c["target"]) for c in left}))
    if kind != "gesture":
        options = tuple(Option(str(i + 1), c) for i, c in enumerate(left))
        stay = next((o.key for o in options if o.value.get("withdrawal") is False), None)
        return Question("pick", options, default=stay)
    if "shows" not in picked:
        shows = sorted({c.get("shows") for c in left}, key=lambda s: (s is None, s or ""))
        if len(shows) > 1:
            return Question("shows", tuple(Option(str(i + 1), s) for i, s in enumerate(shows)))
    if "first" not in picked:
        seats = {t for c in left for t in _targets(c)}
        if seats:
            return Question("first", _seat_options(players, seats))
    elif "second" not in picked:
        first = picked["first"]
        seconds = set()
        for c in left:
            ts = _targets(c)
            if len(ts) == 2:
                rest = list(ts)
                rest.remove(first)
                seconds.add(rest[0])
        if seconds:
            return Question("second", _seat_options(players, seconds))
    for f in ("kind", "seeks"):
        if f not in picked:
            values = sorted({str(c[f]) for c in left if c.get(f) is not None})
            if len(values) > 1:
                return Question(f, tuple(Option(str(i + 1), v)
                                         for i, v in enumerate(values)))
    if len(left) == 1 and not picked:
        return Question("pick", (Option("1", left[0]),), default="1")
    return left[0]


def _death_question(left: Sequence[Mapping[str, Any]], picked: Mapping[str, Any],
                    players: Sequence[str]) -> Question | Mapping[str, Any]:
    """Death offered: take it or look at the hand; then the name, by seat."""
    takes = [c for c in left if c.get("type") == "take-death"]
    look = next((c for c in left if c.get("type") == "look-at-hand"), None)
    if "take" not in picked:
        options = []
        if takes:
            options.append(Option("1", True))
        if look is not None:
            options.append(Option(str(len(options) + 1), False))
        return Question("take", tuple(options))
    if picked["take"] is False and look is not None:
        return look
    if "names" not in picked:
        return Question("names", _seat_options(players, {str(c["names"]) for c in takes}))
    return next(c for c in takes if c["names"] == picked["names"])


# ---------------------------------------------------------------------------
# Keystrokes

Kind = Literal["key", "rules", "journals", "quit", "bad"]


@dataclass(frozen=True, slots=True)
class Answer:
    kind: Kind
    key: str = ""


_QUIT: Final = frozenset(("q", "quit", "sair"))
_RULES: Final = frozenset(("?", "h", "help", "ajuda"))
_JOURNALS: Final = frozenset(("j", "journal", "journals", "diário", "diario"))


#: The escape sequences of arrow, editing and function keys (CSI, SS3 and the
#: other two-character ones), which a line carries when no line editor read it.
_ESCAPES: Final = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1bO.|\x1b.?")


def _typed(text: str) -> str:
    """What a line says once escape sequences are dropped and backspaces applied."""
    out: list[str] = []
    for ch in _ESCAPES.sub("", text):
        if ch in "\x7f\x08":
            if out:
                out.pop()
        elif ch >= " ":
            out.append(ch)
    return "".join(out)


def parse(text: str, keys: Sequence[str]) -> Answer:
    """What a line typed at a prompt means (never raises)."""
    s = _typed(text).strip()
    low = s.lower()
    if s in keys:
        return Answer("key", s)
    if low in _RULES:
        return Answer("rules")
    if low in _JOURNALS:
        return Answer("journals")
    if low in _QUIT:
        return Answer("quit")
    if s.isdigit() and s.lstrip("0") in keys:
        return Answer("key", s.lstrip("0"))
    return Answer("bad", s)


def _compact(keys: Sequence[str]) -> str:
    """``1 2 3 4`` -> ``1-4``; ``2 3 5`` -> ``2, 3, 5``."""
    if all(k.isdigit() for k in keys):
        nums = [int(k) for k in keys]
        if len(nums) > 2 and nums == list(range(nums[0], nums[0] + len(nums))):
            return f"{nums[0]}-{nums[-1]}"
    return ", ".join(keys)


def allowed(keys: Sequence[str], t: Translator, default: str | None = None) -> str:
    """The allowed keys of a prompt, as the prompt shows them (``default``: the key
    Enter stands for)."""
    parts = []
    digits = [k for k in keys if k != ENTER]
    if default is not None and digits == [default]:
        parts.append(f"{t(_('Enter'))}/{default}")
    else:
        if ENTER in keys and default is None:
            parts.append(t(_("Enter")))
        if digits:
            parts.append(_compact(digits))
        if default is not None:
            parts.append(t.render(msg("Enter = {key}", key=default)))
    parts.append(t(_("? rules")))
    parts.append(t(_("j journals")))
    parts.append(t(_("q save and quit")))
    return " · ".join(parts)


def refusal(text: str, keys: Sequence[str], t: Translator, default: str | None = None
            ) -> str:
    """The message for a refused keystroke."""
    return t.render(msg("Not allowed: {text!r}. Allowed: {keys}", text=text,
                        keys=allowed(keys, t, default)))
