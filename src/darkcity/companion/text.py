"""The companion's words: every text its faces show, marked for the catalogs.

The web page's ``t("...")`` looks its English text up in :func:`table_catalog`'s
``ui`` table (``tests/test_companion_web.py`` checks that every ``t("...")`` of
``static/table/*.js`` is listed here); role names, calls, goals and the words
for fates and victory conditions come with it, translated the same way. The
terminal face uses the same messages.
"""

from __future__ import annotations

import functools
from typing import Any, Final

from darkcity.cast import CAST, Edition, Gender, Role
from darkcity.i18n import _, msg, translator
from darkcity.journal import VICTORY_CONDITIONS
from darkcity.night import Fate
from darkcity.terms import EDITION_NAMES, GENDER_NAMES, GESTURES, role_term

__all__ = ["CONDITIONS", "FATES", "UI", "call_message", "table_catalog"]

#: The web page's texts (English message ids).
UI: Final = (
    _("How to win"),
    _("Whoever first meets one of these wins. Yours so far, from your journal:"),
    _("{have} / {need} in {role}"),
    _('Tiebreak among those who met a condition: most XP, then most rows with XP.'),
    _('{player}: {xp} XP in {rows} rows'),
    _('{player}: {xp} XP in 1 row'),
    _('Phones at the table: {names}'),
    _('No phone has joined.'),
    _("Free the phones' seats"),
    _("1"),
    _("2"),
    _("3"),
    _("Add a player"),
    _("Cancel"),
    _("Card"),
    _("Change"),
    _("Count: 1, 2, 3, now!"),
    _("Custom cards"),
    _("Death is in the deck: only {player}, the last to choose, may take it."),
    _("Deck"),
    _("Each player writes one XP in a row of their journal."),
    _("End of the night"),
    _("Everyone has a card"),
    _("Everyone is entered: withdrawals"),
    _("Everyone ready? Count aloud with the app; on “now!” everyone makes their gesture "
      "and holds it."),
    _("Fate"),
    _("For a game with the real cards: the app is the Mayor's assistant."),
    _("Free XP"),
    _("Free XP of {player}"),
    _("If you take Death, tap the name you write on it (nobody else sees it):"),
    _("Its target:"),
    _("Its two targets:"),
    _("Journal"),
    _("Journals"),
    _("Language"),
    _("Links and language"),
    _("Loading the table…"),
    _("Move up"),
    _("Next"),
    _("Next night"),
    _("New game with these players"),
    _("Night {n}"),
    _("Night {n} (round notation)"),
    _("Nobody took Death"),
    _("Nothing happens."),
    _("Now!"),
    _("Or {player} enters the name on their own phone, from the table's link."),
    _("Phase 1: the draft"),
    _("Phase 2: the gestures"),
    _("Phase 2: what everyone shows"),
    _("Phase 3: withdrawals"),
    _("Phase 4: step {step}"),
    _("Phase 4: the resolution"),
    _("Phase 5: night {n}"),
    _("You held {card}: {fate}"),
    _("Correct a gesture"),
    _("Correct an entry"),
    _("Tap the player whose gesture or withdrawal was entered wrong, then enter it again; "
      "or the call, below. Everything entered after it is kept while it still holds."),
    _("A card or a Zombie's choice entered wrong at a call: tap the call."),
    _("nobody turns it over"),
    _("Which night?"),
    _("Correct step {step}"),
    _("The calls after it are kept while they still hold; any that no longer does is asked "
      "again."),
    _("Night {n} is over: after the correction, every entry since is checked again, and one "
      "that no longer holds is taken back with all after it (the page says how many)."),
    _("Corrected: {what}. What was entered after it and no longer holds was taken back: "
      "enter it again."),
    _("Corrected: {what}; everything entered after it still holds."),
    _("The night is not over any more; still to call: {what}."),
    _("This correction takes back what was entered after it ({what}), back to night "
      "{night}: you enter it again. Correct anyway?"),
    _("This correction takes back what was entered after it ({what}): you enter it again. "
      "Correct anyway?"),
    _("1 entry"),
    _("Death ({player}) wrote {name}. Tapped wrong? Tap the name written:"),
    _("the name Death wrote"),
    _("{n} entries"),
    _("Phase 3, the withdrawal:"),
    _("The count was done, but it did not reach the server. Everyone has made their gesture: "
      "go on without counting again."),
    _("Counted: enter the gestures"),
    _("Count again"),
    _("A greyed name is already on another phone. Yours? Ask the Mayor to free the phones' "
      "seats (under “Links and language”)."),
    _("Not {player}? Choose your name again"),
    _("Change the Mayor's link"),
    _("Entered wrong? Tap the name to enter that gesture again."),
    _("Correct night {n}"),
    _("The answer was lost on the way, but the entry was saved: the page shows it."),
    _("Every phone at the table ({names}) loses its seat and picks its name again. Free "
      "the seats?"),
    _("A new Mayor's link for this device: every other device that opened the old one "
      "becomes a player's phone and no longer enters anything. Change it?"),
    _("The Mayor's link changed: only this device has it."),
    _("Back to night {n}'s draft? Everything entered since is taken back: night {n}'s "
      "gestures, withdrawals and calls, what the journals got from it, and anything entered "
      "after it."),
    _("To fix one answer (a gesture, a withdrawal, a card at a call), cancel and tap "
      "“Correct an entry”: everything else is kept while it holds."),
    _("To fix one answer of night {n} (a gesture, a withdrawal, a card at a call), cancel and "
      "tap “Correct night {n}”: everything else is kept while it holds."),
    _("A player leaves, or a friend joins?"),
    _("The players are fixed for a game: the deck and the journals are for these {n}. Finish "
      "this game, or set up a new one with the players changed; this one stays under “Games "
      "in progress on this device”."),
    _("New game, players changed"),
    _("Stayed"),
    _("Corrected: {player}'s withdrawal. What was entered after it and no longer holds was "
      "taken back: enter it again."),
    _("Corrected: {player}'s withdrawal; everything entered after it still holds."),
    _("Tap the player whose gesture was entered wrong, then enter what they showed. "
      "Everything entered after it is kept while it still holds."),
    _("Corrected: {player}'s gesture. What was entered after it and no longer holds "
      "was taken back: enter it again."),
    _("Corrected: {player}'s gesture; everything entered after it still holds."),
    _("Phase 5: the journals"),
    _("Player"),
    _("Player {n}"),
    _("Players' phones: {link}"),
    _("QR code of the players' link {link}"),
    _("The players' phones cannot open this link: darkcity listens on this computer only. "
      "Start it with “darkcity serve --host 0.0.0.0” on the same Wi-Fi network."),
    _("Players point their phone's camera at the code to follow the table: their journal "
      "and every card's rules."),
    _("Players, clockwise"),
    _("Remove"),
    _("Shuffle, put three cards face down, deal the hand to {player}."),
    _("Speak"),
    _("Start the game"),
    _("Starting…"),
    _("Step {step}"),
    _("Table companion"),
    _("Table {code}"),
    _("Tap who turns the card over:"),
    _("The Angel strikes {player}: the card is turned over."),
    _("The Creature proposes to {player}: the card is turned over."),
    _("The Mayor's link (keep it to yourself): {link}"),
    _("The first player is the Mayor, the first active player. Each player's left "
      "neighbour is the next one."),
    _("The game is over"),
    _("The gender it seeks:"),
    _("The gesture it shows:"),
    _("The hand passes to the left (clockwise): {order}"),
    _("The kind it names:"),
    _("The night so far"),
    _("The other cards"),
    _("The rules of a card"),
    _("Your card: {card}"),
    _("Entered for you: {gesture}"),
    _("Not what you did? Tell the Mayor: it can be corrected."),
    _("your card"),
    _("Which card did you draft?"),
    _("Choose the card you hold to read its rules first; only this phone knows it."),
    _("The whole game (record)"),
    _("They turn the card over:"),
    _("Turns the card over:"),
    _("1 gesture still to enter"),
    _("Basic cards"),
    _("Advanced cards"),
    _("Special cast"),
    _("Night {n}: what happened"),
    _("First target: {target}. The second:"),
    _("{n} gestures still to enter"),
    _("Tick"),
    _("Total"),
    _("Turn over the cards still unknown"),
    _("Undo"),
    _("Undo: {what}"),
    _("Nobody turns it over: next"),
    _("Taken back: {what}"),
    _("{player}'s gesture"),
    _("{player}'s withdrawal"),
    _("step {step}"),
    _("the draft"),
    _("the count"),
    _("the end of Phase 2"),
    _("the end of Phase 3"),
    _("the start of night {n}"),
    _("Undo night {n}"),
    _("Which player are you?"),
    _("Who lowered their hands and fled the confrontation?"),
    _("Whose name did you write on Death's card?"),
    _("Winners: {names}"),
    _("Withdrawals entered: resolve"),
    _("XP"),
    _("You wrote {player} on Death's card."),
    _("Your journal"),
    _("lowers the bolt at {target}"),
    _("{n} cards chosen"),
    _("1 card chosen"),
    _("{player} fled"),
    _("{player} is the active player"),
    _("{player} only"),
    _("{player} took Death"),
    _("{player}'s card:"),
    _("{player}: the other card, {card}"),
    _("{player}, the Zombie, attacks:"),
    _("Ask {player} (the Zombie): keep attacking {target}, or turn to {other}?"),
    _("Games in progress on this device"),
    _("Mayor"),
    _("The server cannot be reached."),
    _("The server could not answer (error {status})."),
    _("That entry was not saved: try again."),
    _("No connection to the server: what you tap now is not saved. The page tries again "
      "every second."),
    _("This table was saved by an earlier version of darkcity: its last entry no longer "
      "holds and was taken back. Enter it again from here."),
    _("This table was saved by an earlier version of darkcity: its last {n} entries no "
      "longer hold and were taken back. Enter them again from here."),
    _("Choose the free XP of {names}."),
    # the pocket app (issue #29): the phone's own engine, its tables, its updates
    _("This table is open in another tab or window."),
    _("This table was opened in another tab or window: it goes on there."),
    _("This table changed in another tab or window: the page shows it as saved now."),
    _("Use it here instead (the other tab stops)"),
    _("Downloading the app for use offline: {percent}%"),
    _("A new version of the app is ready."),
    _("Thank you, {player}."),
    _("Hand the phone back to the Mayor."),
    _("I am the Mayor: show the table"),
    _("Play against bots on this phone"),
    _("No cards at hand? The app is the Mayor and bots fill the other seats."),
    _("Delete"),
    _("Delete table {code} from this phone? It cannot be undone: export the game first to "
      "keep it."),
    _("Everything stays on this phone, with no network. Players' own phones (their journal, "
      "Death's name typed in secret) need darkcity's server; here the phone is handed over "
      "for a secret."),
    _("Game imported: table {code}."),
    _("Import a game (file)"),
    _("Loading the engine: Python…"),
    _("Loading the engine: the rules…"),
    _("No table yet: set one up below."),
    _("Players' own phones need darkcity's server: in this app the Mayor's phone is the whole"
      " table."),
    _("Reload"),
    _("Tables on this phone"),
    _("The engine could not start: {why}"),
    _("The engine is ready: everything stays on this phone."),
    _("The phone refused to save: this entry was not saved. Try again."),
    _("The phone's storage is full: this entry was not saved. Free some space, or export the "
      "game and delete an old table."),
    _("This browser may clear saved tables when space runs short: export the game to keep a copy."),
    _("finished"),
    _("There is no table with that code."),
    # the table's pace (issue #28): the withdrawals counted, the gestures beside the names
    _("Who wants to withdraw?"),
    _("Who wants to withdraw? 1, 2, 3, now!"),
    _("Give the table a few seconds to see who attacks whom, then count: on “now!” whoever "
      "withdraws lowers their hands to the table."),
    _("fled"),
    _("The journals"),
    _("You write {player} on Death's card: the Mayor's draft ends with it. Send it?"),
    _("Spoken calls"),
    _("Spoken calls: each call is said aloud, with a pause to turn the card over; a call "
      "that asks nothing goes on by itself."),
    _("Turn the card over: the next call comes by itself."),
    _("Tapped wrong? Tap the name you wrote, before the count:"),
)

#: A night's fates (spec: result ``fate``).
FATES: Final[dict[Fate, str]] = {
    Fate.ALIVE: _("alive"), Fate.WITHDRAWN: _("withdrawn"), Fate.KILLED: _("killed"),
    Fate.DAMNED: _("damned"), Fate.ABDUCTED: _("abducted"), Fate.ABSENT: _("absent"),
}

#: The four victory conditions (R-101).
CONDITIONS: Final[dict[str, str]] = dict(zip(VICTORY_CONDITIONS, (
    _("1 XP in six rows"), _("8 XP in all"), _("2 XP in three rows"), _("4 XP in one row")),
    strict=True))


def call_message(role: Role) -> object:
    """What the Mayor calls at a step: "The Devil?"."""
    return msg("{role:The}?", role=role_term(role))


@functools.lru_cache(maxsize=8)
def table_catalog(lang: str) -> dict[str, Any]:
    """Every text of the companion's page in ``lang`` (``en`` or ``pt_BR``)."""
    t = translator(lang)
    return {
        "lang": t.lang,
        "ui": {m: t(m) for m in UI},
        "roles": {r.key: t(role_term(r).name) for r in Role},
        "calls": {r.key: t.render(msg("{role:The}?", role=role_term(r))) for r in Role},
        "goals": {r.key: t(CAST[r].goals) for r in Role},
        "powers": {r.key: [t(line.text) for line in CAST[r].powers] for r in Role},
        "gestures": {r.key: t(GESTURES[r]) for r in Role},
        "genders": {g.value: t(GENDER_NAMES[g]) for g in Gender},
        "editions": {e.value: t(EDITION_NAMES[e]) for e in Edition},
        "fates": {f.value: t(FATES[f]) for f in Fate},
        "conditions": {k: t(v) for k, v in CONDITIONS.items()},
    }
