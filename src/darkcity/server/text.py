"""Every text of the web UI, marked for the catalogs, and the catalog a browser loads.

The browser's ``t("...")`` looks its English text up in :func:`catalog`'s
``ui`` table (``tests/test_server_i18n.py`` checks that every ``t("...")`` of
``static/app.js`` is listed here); role names, goals, gestures and the combat
panel come from the cast, translated the same way.
"""

from __future__ import annotations

import functools
from typing import Any, Final

from darkcity.cast import CAST, PANEL, Effect, Role
from darkcity.deck import PRESETS
from darkcity.i18n import _, translator
from darkcity.terms import EDITION_NAMES, GENDER_NAMES, role_term

__all__ = ["UI", "catalog"]

#: The web UI's texts (English message ids).
UI: Final = (
    _("Custom cast"),
    _("Create a room"),
    _("Your name"),
    _("Players"),
    _("Deck"),
    _("Pace"),
    _("Language"),
    _("A player who runs out of time is played by a bot of level"),
    _("Create room"),
    _("Join a room"),
    _("Room code"),
    _("Join"),
    _("Watch"),
    _("Friends at a virtual table; the app is the Mayor."),
    _("Something went wrong."),
    _("Decision received."),
    _("1"),
    _("2"),
    _("3"),
    _("Now!"),
    _("Copy link"),
    _("Connected"),
    _("Reconnecting…"),
    _("Connecting…"),
    _("Copied."),
    _("Copy this:"),
    _("Free seat"),
    _("bot: {level}"),
    _("host"),
    _("away"),
    _("Sit here"),
    _("Add a bot"),
    _("Remove"),
    _("Make host"),
    _("Waiting for players"),
    _("Share the code {code} or the link."),
    _("{n} players · deck: {deck} · pace: {pace}"),
    _("You are watching."),
    _("Stand up"),
    _("Not seated: {names}"),
    _("Start the game"),
    _("The host starts the game."),
    _("Seat link for another device"),
    _("Lobby"),
    _("kind: {role}"),
    _("seeks: {gender}"),
    _("names {player}"),
    _("Night {n}"),
    _("Mayor"),
    _("active"),
    _("you"),
    _("bot"),
    _("{n} XP"),
    _("decided"),
    _("deciding…"),
    _("withdrew"),
    _("lowered an arrow"),
    _("The game is over"),
    _("Night {n} · {phase}"),
    _("Free XP: {role}"),
    _("Take a face-down card at random"),
    _("Take Death and name {player}"),
    _("Leave Death and look at the hand"),
    _("show {role}"),
    _("Make your gesture"),
    _("Stay"),
    _("Withdraw"),
    _("Lower arrow {n}"),
    _("Final victim: {player}"),
    _("Waiting for {names}."),
    _("You have decided."),
    _("Nothing to decide now."),
    _("Keep one card; pass the rest on."),
    _("Show which role?"),
    _("Chosen: {names} (click a seat again to clear)"),
    _("Click seats on the table to choose your targets."),
    _("Click seats to narrow the choice."),
    _("Your card"),
    _("Your card last night"),
    _("Your hand: {cards}"),
    _("No card yet."),
    _("Initiative"),
    _("none (never called)"),
    _("Goal"),
    _("Gesture"),
    _("Combat panel"),
    _("Tonight so far"),
    _("Night {n}: what happened"),
    _("Winners: {names}"),
    _("Player"),
    _("XP"),
    _("Journals"),
    _("A tie: the journals decide (total XP, then the number of roles)."),
    _("Full reveal"),
    _("Download the game record"),
    _("The Mayor says"),
)

GOALS: Final[dict[Role, str]] = {r: CAST[r].goals for r in Role}  # cast.py marks them

GESTURES: Final[dict[Role, str]] = {
    Role.DEVIL: _("Shows the gesture of another role in play (a disguise)."),
    Role.VAMPIRE: _("Points at one player."),
    Role.WEREWOLF: _("Points at one player."),
    Role.ZOMBIE: _("Points at the left or the right neighbour."),
    Role.HUNTER: _("Points two arrows at two players (advanced: may aim both at one)."),
    Role.PRIEST: _("Prays: no target."),
    Role.ANGEL: _("Points at one player."),
    Role.ALIEN: _("Names a kind of role: every player of that role is abducted."),
    Role.NECROMANCER: _("Points at both neighbours."),
    Role.CREATURE: _("Proposes to the left or the right neighbour, seeking a gender."),
    Role.MUMMY: _("Sleeps: no target."),
    Role.DEMONIAC: _("No target."),
    Role.REPORTER: _("Photographs two players."),
    Role.VOODOOIST: _("Names a kind of role with a doll."),
    Role.DEATH: _("Writes down a player's name at the draft."),
}

EFFECTS: Final[dict[str, str]] = {
    Effect.NOTHING.value: _("no effect"),
    Effect.MISS.value: _("misses (illusion)"),
    Effect.KILL.value: _("kills"),
    Effect.KILL_NO_XP.value: _("kills, no XP"),
    Effect.HIT.value: _("one hit"),
    Effect.EXORCISE.value: _("exorcises"),
    Effect.DAMN.value: _("damns to Hell"),
    Effect.ATTACKER_DIES.value: _("the attacker dies"),
    Effect.REFLEX.value: _("silver reflex: the Werewolf dies"),
    Effect.ABDUCT.value: _("abducts"),
    Effect.CANNIBAL.value: _("cannibal rule"),
}

WORDS: Final[dict[str, dict[str, str]]] = {
    "classes": {"monster": _("monster"), "guardian": _("guardian"), "neither": _("neither")},
    "phases": {"setup": _("free XP"), "draft": _("draft"), "gesture": _("gestures"),
               "withdrawal": _("withdrawal"), "zombie": _("the Zombies' choice"),
               "over": _("over")},
    "prompts": {"setup": _("Write your free XP in one row"),
                "draft": _("Choose your card"),
                "gesture": _("Make your gesture in secret"),
                "withdrawal": _("Stay, or withdraw?"),
                "zombie": _("Zombie: choose your final victim")},
    "fates": {"alive": _("alive"), "withdrawn": _("withdrawn"), "killed": _("killed"),
              "damned": _("damned"), "abducted": _("abducted"), "absent": _("absent")},
    "marks": {"wounded": _("wounded"), "awakened": _("awakened"), "exorcised": _("exorcised"),
              "undead": _("raised as undead")},
    "paces": {"relaxed": _("relaxed"), "normal": _("normal"), "fast": _("fast"),
              "custom": _("custom")},
    "levels": {"random": _("random"), "heuristic": _("heuristic"), "strong": _("strong")},
    "presets": {
        "basic": _("Basic (12 cards)"),
        "advanced": _("Advanced (12 cards)"),
        "angel-alien-6": _("Angel and Alien (6 players)"),
        "reporter-death-6": _("Reporter and Death (6 players)"),
        "undead-7": _("Necromancer and Demoniac (7-8)"),
        "creatures-7": _("Creatures (7-8)"),
        "mummy-voodoo-7": _("Mummy, Voodooist and Alien (7-8)"),
        "death-alien-7": _("Death and Alien (7-8)"),
        "reporter-creature-6": _("Reporter and Creatures (6-8)"),
        "creature-mummy-6": _("Creatures, Mummy and Voodooist (6-8)"),
    },
}


@functools.cache
def catalog(lang: str) -> dict[str, Any]:
    """Everything the browser shows, in ``lang`` (``en`` or ``pt_BR``)."""
    t = translator(lang)
    words = {group: {k: t(v) for k, v in table.items()} for group, table in WORDS.items()}
    for name in PRESETS:
        words["presets"].setdefault(name, name)
    return {
        "lang": t.lang,
        "ui": {s: t(s) for s in UI},
        "roles": {r.key: t.term(role_term(r)) for r in Role},
        "goals": {r.key: t(GOALS[r]) for r in Role},
        "gestures": {r.key: t(GESTURES[r]) for r in Role},
        "initiative": {r.key: CAST[r].step for r in Role},
        "role_class": {r.key: CAST[r].cls.value for r in Role},
        "panel": {a.key: {d.key: e.value for d, e in row.items()} for a, row in PANEL.items()},
        "effects": {k: t(v) for k, v in EFFECTS.items()},
        "editions": {e.value: t(v) for e, v in EDITION_NAMES.items()},
        "genders": {g.value: t(v) for g, v in GENDER_NAMES.items()},
        **words,
    }
