"""Every text of the web UI, marked for the catalogs, and the catalog a browser loads.

The browser's ``t("...")`` looks its English text up in :func:`catalog`'s
``ui`` table (``tests/test_server_i18n.py`` checks that every ``t("...")`` of
``static/app.js`` is listed here); role names, goals, gestures and the combat
panel come from the cast, translated the same way.
"""

from __future__ import annotations

import functools
from typing import Any, Final

from darkcity.bots.family import STYLES
from darkcity.bots.levels import LEGACY, LEVELS, level_key
from darkcity.cast import CAST, PANEL, Effect, Line, Role
from darkcity.companion.setup import PRESET_TITLES
from darkcity.deck import PRESETS
from darkcity.i18n import Message, _, translator
from darkcity.terms import EDITION_NAMES, GENDER_NAMES, GESTURES, role_term

__all__ = ["UI", "WORDS", "catalog", "level_word"]

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
    _("What each version changed"),
    _("Something went wrong."),
    _("Decision received."),
    _("1"),
    _("2"),
    _("3"),
    _("Now!"),
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
    _("New to Dark City? The game in one minute"),
    _("Each night every player secretly keeps one card of the hand passed around the "
      "table. On the count \"1, 2, 3, now!\" everyone shows that card's gesture at once, "
      "pointing at a player when the card targets one. Then the night is resolved card by "
      "card, in initiative order."),
    _("Meet your card's goal and you earn XP in that card's row of your Journal. The first "
      "to meet one of these wins:"),
    _("Bluffing is part of the game: the Devil shows another card's gesture, and anyone may "
      "withdraw from the night to stay safe (and earn nothing)."),
    _("Each card's gesture, goal and initiative are shown when you draft it."),
    _("See the cards in play"),
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
    _("lowered a bolt"),
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
    _("Final victim: {player}"),
    _("Waiting for {names}."),
    _("You have decided."),
    _("Nothing to decide now."),
    _("Keep one card; pass the rest on."),
    _("Show which role?"),
    _("Chosen: {names} (tap a seat again to clear)"),
    _("Tap or click seats on the table to choose your targets."),
    _("Tap or click seats to narrow the choice."),
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
    _("Change my decision"),
    _("Sending: {choice}"),
    # the pocket app's play page (pocket/site/play.js): a game against bots on a phone
    _("Play against bots"),
    _("On this phone: the app is the Mayor, bots fill the other seats, and nothing leaves "
      "the phone."),
    _("Bots' level"),
    _("Start the game"),
    _("Your games on this phone"),
    _("No game yet: set one up below."),
    _("Resume"),
    _("See the end"),
    _("Delete"),
    _("Delete this game from this phone? It cannot be undone: download its record first "
      "to keep it."),
    _("This browser may clear saved games when space runs short: download the game record "
      "to keep a copy."),
    _("The phone's storage is full: this move was not saved. Free some space, or delete an "
      "old game."),
    _("The phone refused to save: this move was not saved. Try again."),
    _("Loading the engine: Python…"),
    _("Loading the engine: the rules…"),
    _("The engine is ready: everything stays on this phone."),
    _("The engine could not start: {why}"),
    _("A new version of the app is ready."),
    _("Reload"),
    # the pocket app's play page, issue #50: one writer per game, whose game, the story
    # read together, the first download
    _("This game is open in another tab or window. Play it here instead, and that one "
      "stops."),
    _("This game was opened in another tab or window: it goes on there. Play it here "
      "instead, and that one stops."),
    _("{n} bots ({levels})"),
    _("Won by {names}"),
    _("{names} leads with {xp} XP"),
    _("{names} lead with {xp} XP"),
    _("Its save was damaged: it goes on from its last consistent move."),
    _("Delete this game from this phone? It cannot be undone."),
    _("There is no game {code} on this phone: it was deleted, or it is kept by another "
      "browser (each browser keeps its own games). Here are the ones on this phone."),
    _("This browser may delete these games if the phone runs short of space. To keep one "
      "for good, download its record once it is over; installing the app to the home "
      "screen makes the browser keep them."),
    _("Night {n} is over: read what happened together, then hand the phone on."),
    _("We have read it: hand the phone on"),
    _("Downloading the app for use offline: {percent}%"),
    # the record viewer (js/review.js: /replay, the pocket app's replay.html)
    _("Game record"),
    _("Open a game record"),
    _("Open a game record (a file from darkcity play, the server, the simulator or the "
      "pocket app)"),
    _("This file is not a game record (JSON): {why}"),
    _("Before the first night"),
    _("Night {n} of {m}"),
    _("Seen from"),
    _("All cards shown"),
    _("Nights"),
    _("Previous night"),
    _("Next night"),
    _("Step through this game"),
    _("Another person on this phone"),
    _("Name of player {n}"),
    _("Friends beside you? Add them: the phone is passed from hand to hand, and each sees "
      "only their own cards."),
    _("{name} is done."),
    _("Hand the phone on"),
    _("{name}'s turn"),
    _("Pass the phone to {name}. {name}: tap when only you can see the screen."),
    _("I am {name}: show me"),
    _("Keep my decision"),
    _("Play in this window"),
    _("{player} withdrew from the night."),
    _("{player} is out of the night."),
    _("1 XP from winning"),
    _("A bot plays this seat."),
    _("A new game is waiting at this table."),
    _("A night"),
    _("Aiming at you:"),
    _("Attacker"),
    _("Back to the home page"),
    _("Badges"),
    _("Bot level"),
    _("Card"),
    _("Check the code, or ask for a new link."),
    _("Close"),
    _("Combat panel: what the attacker (row) does to the target (column)"),
    _("Disconnected; after the grace period a bot decides for them."),
    _("Earlier nights"),
    _("Fate"),
    _("Join the new game"),
    _("Join this table"),
    _("Keep one card; pass the rest on. Open a card to read its rules."),
    _("Lower the bolt aimed at {player}"),
    _("Message to the table"),
    _("No role of this deck harms it."),
    _("Nobody aims at you tonight."),
    _("Nothing to any role of this deck."),
    _("One more XP in the right row meets a victory condition."),
    _("Only the people seated at the table can write."),
    _("Play again"),
    _("Playing with real cards? The companion counts and narrates for your table."),
    _("Roles: {roles}"),
    _("Rules"),
    _("Rules of the cards in play"),
    _("Send"),
    _("Shows"),
    _("Sound when it is my turn"),
    _("Table chat"),
    _("Table companion"),
    _("The Mayor: the first night's active player. The app counts and conducts the game, as "
      "the Mayor would."),
    _("The active player: starts tonight's draft; then the player to their left, clockwise, "
      "each night."),
    _("The cards in play"),
    _("The host can start another game with the same seats."),
    _("The server cannot be reached."),
    _("There is no room with that code."),
    _("There is nothing at this address."),
    _("Tiebreak: the most XP in all wins, then the most rows with XP; players still tied "
      "share the victory."),
    _("Time left: {time}"),
    _("Tonight's gestures"),
    _("Towards victory"),
    _("Victory"),
    _("What each role does to it"),
    _("What it does to each role"),
    _("Who"),
    _("Whom"),
    _("Withdrawal"),
    _("Your gesture points at {player}."),
    _("Your gesture: {gesture}"),
    _("Your seat."),
    _("Your turn"),
    _("bolt lowered"),
    _("winner"),
    _("{condition} ({xp} XP; rows with XP: {rows})"),
    _("{have} / {need} in {role}"),
    _("{player} took a face-down card."),
    _("{player}, showing {role}"),
    _("{host} invites you to a table of Dark City"),
    _("Whoever first meets one of these wins: {conditions}."),
    _("On you, if that is the card: {effect}"),
    _("On {player}, if that is the card shown ({role}): {effect}"),
    _("Phase 1: Draft — keep one card of the hand handed to you, pass the rest to your left."),
    _("Phase 2: Gestures — on the Mayor's \"1, 2, 3, now!\" everybody shows their gesture "
      "at once."),
    _("Phase 3: Withdrawal — anyone may flee the night (no attack, no XP); the target of a "
      "Creature may not."),
    _("Phase 4: Resolution — in initiative order (1+, 1, 2 … 8); * never acts."),
    _("Phase 5: Journal — XP for the goals met; then the next active player."),
    _("Before the first night: free XP"),
    _("Connection lost: reconnecting… Nothing you tap is sent until it is back."),
    _("Reconnect now"),
    _("Not sent: the connection is lost. Tap again once it is back."),
    _("Keep"),
    _("Keep {card}"),
    _("{time} left to decide; then a bot decides for you."),
    _("Everyone starts with 1 XP in a role of their choice (a row of the journal). You win "
      "with 4 XP in one row, 2 XP in three rows, 1 XP in six rows, or 8 XP in all."),
    _("Your role: {role}. {gesture}"),
    _("Your goal: {goal}"),
    _("Nobody sees your choice until everyone has chosen; then the Mayor counts “1, 2, 3, "
      "now!” and every gesture is shown at once."),
    _("Withdraw, and you flee the night: nobody can harm you, but your gesture does "
      "nothing and you earn no XP."),
    _("You choose last, so you may take Death instead of a card from the hand. Death sits "
      "the night out: nobody can harm you and you attack nobody. You secretly name a "
      "player; at the end of the night Death earns 1 XP if that player's role was "
      "eliminated or abducted."),
    _("Or leave Death and look at the hand passed to you, as usual."),
    _("The Zombie decides once and for all: keep the neighbour you pointed at, or switch "
      "to the one on your other side. Your attack falls on that player."),
    _("The game record is a file (JSON) with every card, gesture and decision of this "
      "game, to keep or to replay it (darkcity replay FILE)."),
    _("Players away"),
    _("The game goes on: a bot decides for a player who is away, until they come back "
      "with their link."),
    _("Give the seat to a bot"),
    _("Give {player}'s seat to a bot"),
    _("Give {player}'s seat to a bot for the rest of the game? Their link will stop "
      "working."),
    _("Your rooms on this device"),
    _("In play"),
    _("bots: {n}"),
    _("Copy the invite link"),
    _("Share the invite link"),
    _("Friends here with you? Show a QR code"),
    _("QR code of the invite link {url}"),
    _("Point a phone's camera at it: it opens the invite link."),
    _("Friends cannot open this link: darkcity listens on this computer only. Start it "
      "with “darkcity serve --host 0.0.0.0” on the same Wi-Fi network, then share the "
      "link again."),
    _("Join my table of Dark City"),
    _("Fill every seat (with people or bots) first."),
    _("More"),
    _("{player}'s voodoo doll: {kind}. A doll does not work on the {kind} (whose illusion "
      "harms nobody anyway)."),
    _("{player}'s voodoo doll: {kind}. If {player} really is the Voodooist, any attack on "
      "{player} by whoever holds the {kind} card fails."),
    _("{player}'s voodoo doll: {kind}. Any attack on {player} by whoever held the {kind} card "
      "failed."),
    _("{player} only showed the {shown} (the card was the {card}): the doll protected nobody."),
    _("{player} only showed the {shown} (the card was the {card}): nobody was abducted."),
    _("{player}'s Alien named the {kind}: at its step every player still in the night whose "
      "card was the {kind} was abducted, unless protected from the Alien."),
    _("{player}'s Alien names the {kind}, who cannot be abducted: nobody is taken."),
    _("{player}'s Alien names the {kind}: if {player} really is the Alien, at its step every "
      "player still in the night whose card is the {kind} is abducted, unless protected from "
      "the Alien."),
    _("A Mummy still asleep is only woken."),
    _("A Creature not yet wounded is only wounded."),
    _("A friend has to leave?"),
    _("Give their seat to a bot: it plays for them to the end of the game, and their link "
      "stops working."),
    _("You chose: {choice}"),
    _("Time is up: a bot chose for you."),
    _("Sealed until “now!”: nobody else sees it."),
    _("You have your card for tonight; the others are still choosing theirs."),
    _("The hand goes round the table: each player in turn keeps one card and passes the rest "
      "on. Your turn comes when it reaches you."),
    _("Whoever showed the Zombie now decides once and for all which neighbour the attack "
      "falls on: the one pointed at, or the one on the other side."),
    _("Your turn: {prompt}"),
    _("Choose the role to show first; its targets come next."),
    _("step {step}"),
    _("The game went on while you were away"),
    _("A bot played for you meanwhile:"),
    _("Before the first night: your free XP"),
    _("Night {n}: under way, on the table"),
    _("card: {role}"),
    _("gesture: {gesture}"),
    _("What each night did is in its story, below. From now on you decide again."),
    _("Got it"),
    # issue 31: why things happened (the winning row, a fate for one night, the
    # reader's night above the next question), the count that stops with the connection
    _("{xp} XP as the {role}"),
    _("{player} is one XP from a victory: one more as the {roles}."),
    _("Killed, damned or abducted lasts one night: they play again the next night."),
    _("{fate} tonight"),
    _("Lasts one night: plays again the next night."),
    _("Night {n}, for you"),
    _("Your fate: {fate} tonight; you play again the next night."),
    _("You withdrew: nobody could harm you, and you earned no XP."),
    _("You came through the night."),
    _("No XP for you tonight."),
    _("Your targets: {list}"),
    _("The night is still being told (below the table)."),
    _("first active"),
    _("The first night's active player (whom the rulebook calls the Mayor). Here the app "
      "itself counts and conducts the game, as the Mayor would."),
    _("face-down card"),
    _("This player took a card face down at random in tonight's draft."),
    _("The count stopped with the connection: the gestures are shown once it is back."),
    # the texts follow the deck in play, and the terms are explained where they are used
    _("Phase 3: Withdrawal — anyone may flee the night (no attack, no XP)."),
    _("The player a Creature proposes to may not withdraw."),
    _("1+ is the first step of all, before 1; * marks a card that is never called (no "
      "step of its own)."),
    _("1+ (the first step of all, before 1)"),
    _("Powers"),
    _("·: no effect on that role."),
    _("Silver reflex: a Werewolf that attacks the Hunter does the Hunter no harm, and at "
      "step 5 the Hunter kills it, no bolt needed."),
    _("The Devil harms no role of this deck: its gesture is only a disguise, another "
      "role's."),
    _("Friends who are not on this network cannot open this address. To play with them, "
      "put darkcity on a small server with HTTPS: docs/deploy.md, “Friends elsewhere”, says "
      "how, step by step, and what it costs."),
    # the home page's offer of the pocket app (js/install.js, issue #49)
    _("The app on your phone"),
    _("The table companion and a game against bots, on one phone, offline, with no server."),
    _("Install on this phone"),
    _("Open it, then your browser's “Install app” or “Add to Home Screen”."),
    _("Preparing the app for phones (once, about a minute)…"),
    _("This server cannot prepare the app: {why}"),
    _("Install it from the address the project publishes it at:"),
    _("A phone cannot install the app from this address: the page came over plain HTTP, "
      "and a browser keeps an app for offline use only from an HTTPS address."),
    _("Or from a darkcity server with HTTPS (docs/deploy.md)."),
    _("Other phones at the table? Show a QR code"),
    _("QR code of the pocket app's address {url}"),
    _("It leads to the app the project publishes: this server is not on an HTTPS address, "
      "where phones could install it."),
)

GOALS: Final[dict[Role, str]] = {r: CAST[r].goals for r in Role}  # cast.py marks them

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
    # the bots' levels, and how each plays (bots/levels.py marks both)
    "levels": {k: lv.word for k, lv in {**LEVELS, **LEGACY}.items()},
    "level_lines": {k: lv.line for k, lv in {**LEVELS, **LEGACY}.items()},
    # a bot seat's style, in its seat's tooltip (bots/family.py marks each description)
    "styles": {name: style.description for name, style in STYLES.items()},
    "conditions": {"six-roles": _("1 XP in six rows"), "eight-xp": _("8 XP in all"),
                   "three-pairs": _("2 XP in three rows"), "four-in-one": _("4 XP in one row")},
    "steps": {"end": _("end of the night")},
    # the decks' names, as the companion's set-up writes them
    "presets": dict(PRESET_TITLES),
}


def level_word(level: str) -> Message:
    """A bot level's word (``medium`` -> "médio"), as a message parameter."""
    key = level_key(level) or level  # an old name (``heuristic``) read as the new
    return Message(WORDS["levels"].get(key, key))


def _lines(lines: tuple[Line, ...], t: Any) -> list[list[str | None]]:
    """A card's lines, each with where it holds: [text, edition or None, role needed or
    None] (the Basic deck's Devil has no advanced goal; the Angel exorcises only where
    there is a Demoniac)."""
    return [[t(x.text), x.edition.value if x.edition else None, x.needs.key if x.needs else None]
            for x in lines]


#: A gesture as its basic card has it, where the card's text names an advanced power
#: (the basic Hunter may not aim both bolts at one player, R-15).
BASIC_GESTURES: Final[dict[Role, str]] = {
    Role.HUNTER: _("Points two arrows at two players."),
}


def _deck_editions() -> dict[str, dict[str, list[str]]]:
    """Per preset, the editions of each role's cards in it (a card's text follows its
    edition: the help panel shows a preset's lines only)."""
    out: dict[str, dict[str, list[str]]] = {}
    for name, (cards, _players, _about) in PRESETS.items():
        roles: dict[str, set[str]] = {}
        for c in cards:
            roles.setdefault(c.role.key, set()).add(c.edition.value if c.edition else "")
        out[name] = {k: sorted(v) for k, v in roles.items()}
    return out


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
        "gestures_basic": {r.key: t(v) for r, v in BASIC_GESTURES.items()},
        "goal_lines": {r.key: _lines(CAST[r].goal_lines, t) for r in Role},
        "powers": {r.key: _lines(CAST[r].powers, t) for r in Role},
        "deck_editions": _deck_editions(),
        "initiative": {r.key: CAST[r].step for r in Role},
        "role_class": {r.key: CAST[r].cls.value for r in Role},
        "panel": {a.key: {d.key: e.value for d, e in row.items()} for a, row in PANEL.items()},
        "effects": {k: t(v) for k, v in EFFECTS.items()},
        "editions": {e.value: t(v) for e, v in EDITION_NAMES.items()},
        "genders": {g.value: t(v) for g, v in GENDER_NAMES.items()},
        **words,
    }
