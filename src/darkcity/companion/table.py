"""The table companion: the Mayor's assistant for a game with the physical cards.

A :class:`Companion` is the game as the Mayor sees it: the players are seated
and the deck chosen (:class:`TableSetup`), and then, night after night, the
Mayor enters what happens at the table (:mod:`darkcity.companion.entries`):
whether Death was taken and the name written, the end of the count, each
revealed gesture (what it *looks like*: a Devil's illusion is entered as the
role it shows), the withdrawals, and, as each initiative step is called, the
cards turned over and the Zombies' last choice. The cards stay unknown until
they are called, so the companion reasons as a Mayor does
(:mod:`darkcity.companion.cards`) and asks the engine everything else: every
entry is checked by building the night so far and validating it
(:func:`darkcity.validation.validate`), so a refusal is the engine's reason
in plain words; each step is narrated from ``resolve(night, through=step)``;
the finished night is resolved, its journals written and the victory checked
by :func:`darkcity.night.resolve`, exactly as ``darkcity adjudicate`` does on
the exported round document.

The companion is the replay of its entries: :meth:`Companion.undo` and
:meth:`Companion.undo_night` rebuild it from fewer entries, and its JSON form
(:meth:`Companion.to_json`) is the set-up and the entries. Pure: no I/O, no
clock, no randomness.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from darkcity.cast import CAST, NO_DISGUISE, STEPS, Edition, Reach, Role, parse_role
from darkcity.companion.cards import Knowledge, assign, could_be_devil, determined, fits
from darkcity.companion.entries import (
    Call,
    Counted,
    Drafted,
    Entry,
    EntryError,
    GestureEntry,
    NextNight,
    RevealDone,
    WithdrawalEntry,
    WithdrawalsDone,
    entry_from_json,
    entry_to_json,
)
from darkcity.deck import Deck, DeckError, card_message, parse_card
from darkcity.game import gesture_options
from darkcity.i18n import Message, msg
from darkcity.narration import event_message
from darkcity.night import (
    Card,
    Fate,
    Gesture,
    Night,
    NightResult,
    RoundError,
    Withdrawal,
    neighbours,
    possible_cast,
    resolve,
)
from darkcity.notation import write_round
from darkcity.settings import Settings
from darkcity.terms import role_term
from darkcity.validation import validate

__all__ = [
    "CallQuestion",
    "Companion",
    "Stage",
    "TableNight",
    "TableSetup",
    "showable_roles",
]

#: The role each initiative step calls.
STEP_ROLE: Final = {s: next(r for r in Role if CAST[r].step == s) for s in STEPS}
_DEVIL, _DEATH, _ZOMBIE, _HUNTER, _CREATURE, _ANGEL = (
    Role.DEVIL, Role.DEATH, Role.ZOMBIE, Role.HUNTER, Role.CREATURE, Role.ANGEL)


class Stage(enum.StrEnum):
    """Where the table is: the rulebook's phases as the Mayor runs them."""

    DRAFT = "draft"  # Phase 1, with the real cards
    COUNT = "count"  # "1, 2, 3, now!"
    REVEAL = "reveal"  # Phase 2: the gestures are entered
    WITHDRAWAL = "withdrawal"  # Phase 3
    RESOLUTION = "resolution"  # Phase 4: the steps are called
    JOURNALS = "journals"  # Phase 5: journals written, the next night may start
    OVER = "over"  # somebody won


@dataclass(frozen=True, slots=True)
class TableSetup:
    """The seating (clockwise: each player's left neighbour is the next name), the
    deck, the Mayor (the first active player) and each player's free XP."""

    players: tuple[str, ...]
    deck: Deck
    free_xp: Mapping[str, Role]
    mayor: str

    @classmethod
    def of(cls, players: Sequence[str], deck: Deck, free_xp: Mapping[str, Role],
           mayor: str | None = None) -> TableSetup:
        """A checked set-up; :class:`~darkcity.deck.DeckError` says what is wrong, as
        for an online game (the same rules, the same words)."""
        names = tuple(players)
        settings = Settings(players=names, deck=deck, mayor=mayor, free_xp=dict(free_xp))
        for p in names:
            if p not in free_xp:
                raise DeckError(f"free_xp.{p}", msg("{player} has not chosen a row for the "
                                                    "free XP", player=p))
        return cls(names, settings.deck, dict(free_xp), mayor or names[0])

    def to_json(self) -> dict[str, Any]:
        return {"players": list(self.players), "mayor": self.mayor,
                "deck": {"name": self.deck.name, "cards": self.deck.keys()},
                "journal_roles": [r.key for r in self.deck.journal_roles],
                "free_xp": {p: self.free_xp[p].key for p in self.players}}

    @classmethod
    def from_json(cls, doc: object) -> TableSetup:
        """The set-up :meth:`to_json` wrote; :class:`DeckError` names the bad field."""
        if not isinstance(doc, dict):
            raise DeckError("settings", msg("must be an object"))
        players = doc.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise DeckError("players", msg("must be a list of names"))
        deck_doc = doc.get("deck")
        if not isinstance(deck_doc, dict) or not isinstance(deck_doc.get("cards"), list):
            raise DeckError("deck", msg("must hold the deck's cards"))
        cards = [parse_card(str(c)) for c in deck_doc["cards"]]
        deck = Deck.of(cards, len(players), str(deck_doc.get("name", "custom")))
        free_xp = read_free_xp(doc.get("free_xp"))
        mayor = doc.get("mayor")
        return cls.of(players, deck, free_xp, mayor if isinstance(mayor, str) else None)


@dataclass(frozen=True, slots=True)
class TableNight:
    """A finished night: its number, active player, the night and its result."""

    number: int
    active: str
    night: Night
    result: NightResult

    def round_document(self) -> dict[str, Any]:
        """The night in the round notation: ``darkcity adjudicate`` gives its result."""
        return write_round(self.night)


@dataclass(frozen=True, slots=True)
class CallQuestion:
    """What the Mayor asks at one call, for a face to draw.

    ``role`` is the role called (None for ``"end"``: the cards still unknown
    are turned over). ``candidates``: who may turn the called card over (the
    Mayor taps who does); ``chosen``: who does, unless the Mayor says
    otherwise (everybody, after the Devil's call: only a Devil disguises).
    ``asked``: players who must turn their card over at this call (the Angel's
    targets, who may be Devils; a Creature's target, whose gender is read).
    ``options``: for each of them, the deck cards that fit. ``zombies``: each
    called Zombie's (left, right) neighbours and its Phase-2 target.
    ``follows``: a player whose card is told by another's when both turn theirs
    over at this call (the two Vampires of a deck with one of each edition: once
    one is entered, the other is the other card), so the Mayor asks only the
    first: ``follows[q]`` holds ``(p, {p's answer: q's card})`` for each player
    ``p`` before ``q`` whose answer tells ``q``'s (answers as :meth:`answer` makes
    them); :meth:`followed` says which one applies.
    """

    step: str
    role: Role | None
    candidates: tuple[str, ...]
    chosen: tuple[str, ...]
    asked: tuple[str, ...]
    options: Mapping[str, tuple[Card, ...]]
    zombies: Mapping[str, tuple[str, str, str]] = field(default_factory=dict)
    follows: Mapping[str, tuple[tuple[str, Mapping[Card, Card]], ...]] = field(
        default_factory=dict)

    def gendered(self, player: str) -> bool:
        """Is ``player`` asked the card's gender too (a Creature's target at step 8)?"""
        return self.step == "8" and player in self.asked

    def answer(self, player: str, card: Card) -> Card:
        """What the Mayor enters for ``card``: its role and edition, and its gender
        when the question is the gender (:meth:`gendered`)."""
        return Card(card.role, card.edition, card.identity if self.gendered(player) else None)

    def answers(self, player: str) -> tuple[Card, ...]:
        """The distinct answers the Mayor may enter for ``player``, in the deck's order."""
        return tuple(dict.fromkeys(self.answer(player, c) for c in self.options.get(player, ())))

    def followed(self, player: str, entered: Mapping[str, Card]) -> Card | None:
        """``player``'s card when the answer ``entered`` for another player who turns a
        card over at this call tells it (the first of :attr:`follows` entered), else
        None: the Mayor asks ``player``. ``entered`` holds only the answers asked."""
        for by, rule in self.follows.get(player, ()):
            if by in entered:
                return rule.get(self.answer(by, entered[by]))
        return None


def showable_roles(deck: Deck) -> tuple[Role, ...]:
    """The roles a gesture may show at this table: the deck's, and every role a
    Devil may imitate (R-20) when a Devil is in the deck. Nobody shows the Devil."""
    roles = {c.role for c in deck.cards}
    if _DEVIL in roles:
        night = Night((), {}, journal_roles=deck.journal_roles)
        roles |= {r for r in possible_cast(night) if r not in NO_DISGUISE}
    return tuple(r for r in Role if r in roles and r is not _DEVIL and r is not _DEATH)


class _Night:
    """The night in progress (mutable; private to :class:`Companion`)."""

    def __init__(self, number: int, active: int) -> None:
        self.number = number
        self.active = active
        self.death: str | None = None  # who took Death
        self.death_names: str | None = None
        self.gestures: dict[str, GestureEntry] = {}
        self.withdrawals: dict[str, Withdrawal] = {}
        self.calls: list[Call] = []
        self.turned: dict[str, Card] = {}  # cards turned over at the calls
        self.zombies: dict[str, str] = {}
        self.narration: list[tuple[str, tuple[Message, ...]]] = []
        self.prefer: set[str] = set()  # players taken for Devils in the unknown cards


class Companion:
    """One game at a real table, as the Mayor enters it (mutable).

    :meth:`enter` checks an entry and applies it, or raises
    :class:`~darkcity.companion.entries.EntryError` with the reason; the
    queries say what the Mayor's screen shows now.
    """

    def __init__(self, setup: TableSetup) -> None:
        self.setup: Final = setup
        self.players: Final = setup.players
        self.deck: Final = setup.deck
        self.sheet: Final = setup.deck.journal_roles
        self._cards: Final = setup.deck.cards
        self._n = len(self.players)
        self._seat = {p: i for i, p in enumerate(self.players)}
        self._showable = frozenset(showable_roles(setup.deck))
        self._deck_roles = frozenset(c.role for c in self._cards)
        self.entries: list[Entry] = []
        self.nights: list[TableNight] = []
        #: How many entries each finished night's table had, its last entry included.
        self.finished_at: list[int] = []
        self.journals: list[dict[Role, int]] = [{setup.free_xp[p]: 1} for p in self.players]
        self.winners: tuple[str, ...] = ()
        self.stage = Stage.DRAFT
        self._night = _Night(1, self._seat[setup.mayor])

    # -- the state -------------------------------------------------------------

    @property
    def number(self) -> int:
        """The night in progress (or the last one, once the game is over)."""
        return self._night.number

    @property
    def active(self) -> str:
        """The active player: the draft starts with them (R-94)."""
        return self.players[self._night.active]

    @property
    def last_drafter(self) -> str:
        """The active player's right neighbour, who chooses last and alone may take
        Death (R-82)."""
        return self.players[(self._night.active - 1) % self._n]

    @property
    def draft_order(self) -> tuple[str, ...]:
        """Who chooses in Phase 1, in order: the hand passes to the left (clockwise)."""
        a = self._night.active
        return tuple(self.players[(a + i) % self._n] for i in range(self._n))

    @property
    def death_in_play(self) -> bool:
        return self.deck.death

    @property
    def death(self) -> str | None:
        """Who took Death tonight (public: the card lies face up, R-82)."""
        return self._night.death

    @property
    def death_names(self) -> str | None:
        """The name Death wrote (secret until the end of the night)."""
        return self._night.death_names

    @property
    def gesturing(self) -> tuple[str, ...]:
        """Everybody who gestures tonight, from the active player on (all but Death)."""
        return tuple(p for p in self.draft_order if p != self._night.death)

    @property
    def gestures(self) -> Mapping[str, GestureEntry]:
        return self._night.gestures

    @property
    def withdrawals(self) -> Mapping[str, Withdrawal]:
        return self._night.withdrawals

    @property
    def turned(self) -> Mapping[str, Card]:
        """The cards turned over at the calls so far."""
        return self._night.turned

    @property
    def calls(self) -> tuple[Call, ...]:
        """Tonight's calls so far, in order (the cards turned over, the Zombies)."""
        return tuple(self._night.calls)

    @property
    def zombie_choices(self) -> Mapping[str, str]:
        return self._night.zombies

    @property
    def narration(self) -> tuple[tuple[str, tuple[Message, ...]], ...]:
        """What the Mayor has narrated tonight: (step, sentences) for each call."""
        return tuple(self._night.narration)

    @property
    def showable(self) -> tuple[Role, ...]:
        """The roles a gesture may show at this table, in the order of the cast."""
        return tuple(r for r in Role if r in self._showable)

    def to_enter(self) -> tuple[str, ...]:
        """Players whose gesture is not entered yet, from the active player on."""
        return tuple(p for p in self.gesturing if p not in self._night.gestures)

    def neighbours(self, player: str) -> tuple[str, str]:
        """(left, right) of ``player`` tonight, Death's seat skipped (R-50, R-80)."""
        death = self._night.death
        seats = {q: Card(_DEATH) if q == death else Card(Role.PRIEST) for q in self.players}
        return neighbours(self.players, seats, player)

    def aim_options(self, player: str, shows: Role) -> tuple[str, ...]:
        """Whom ``player`` may point at when showing ``shows`` (R-116)."""
        reach = CAST[shows].gesture.reach
        if reach is Reach.ANYONE:
            return tuple(q for q in self.players if q != player and q != self._night.death)
        if reach is Reach.NEIGHBOUR:
            left, right = self.neighbours(player)
            return (left,) if left == right else (left, right)
        return ()

    def kind_options(self, shows: Role) -> tuple[Role, ...]:
        """The roles an Alien or a Voodooist may name at this table."""
        cast = possible_cast(Night((), {}, journal_roles=self.sheet))
        return tuple(r for r in Role if r in cast and r is not _DEATH
                     and not (shows is Role.ALIEN and r is Role.ALIEN))

    # -- entries ------------------------------------------------------------------

    def enter(self, entry: Entry) -> None:
        """Check ``entry`` and apply it; :class:`EntryError` says why not."""
        stage = self.stage
        if stage is Stage.OVER:
            raise EntryError("entry", msg("the game is over"))
        if isinstance(entry, Drafted):
            if (stage is Stage.COUNT and entry.death_names is not None
                    and self.death_names is not None):
                # Death's name written again before the count (its writer's phone: one
                # tap had ended the draft for good): the draft's entry is corrected in
                # its place, nothing else having been entered since
                self.correct(entry)
                return
            self._expect(Stage.DRAFT)
            self._drafted(entry)
        elif isinstance(entry, Counted):
            self._expect(Stage.COUNT)
            self.stage = Stage.REVEAL
        elif isinstance(entry, GestureEntry):
            self._expect(Stage.REVEAL)
            self._gesture(entry)
        elif isinstance(entry, RevealDone):
            self._expect(Stage.REVEAL)
            missing = self.to_enter()
            if missing:
                raise EntryError("gestures", msg("the gesture of {player} is not entered yet",
                                                 player=missing[0]), missing[0])
            self.stage = Stage.WITHDRAWAL
        elif isinstance(entry, WithdrawalEntry):
            self._expect(Stage.WITHDRAWAL)
            self._withdrawal(entry)
        elif isinstance(entry, WithdrawalsDone):
            self._expect(Stage.WITHDRAWAL)
            self.stage = Stage.RESOLUTION
            self._after_call()
        elif isinstance(entry, Call):
            self._expect(Stage.RESOLUTION)
            self._call(entry)
        else:
            self._expect(Stage.JOURNALS)
            n = self._night
            self._night = _Night(n.number + 1, (n.active + 1) % self._n)
            self.stage = Stage.DRAFT
        self.entries.append(entry)

    def _expect(self, stage: Stage) -> None:
        if self.stage is not stage:
            raise EntryError("entry", msg("not now: the table is at {stage}",
                                          stage=stage_message(self.stage)))

    def _player(self, name: str, where: str = "player") -> None:
        if name not in self._seat:
            raise EntryError(where, msg("{player!r} is not one of the players", player=name),
                             name)

    # -- Phase 1 -------------------------------------------------------------------

    def _drafted(self, e: Drafted) -> None:
        names = e.death_names
        if names is not None:
            if not self.death_in_play:
                raise EntryError("death_names", msg("Death is not in this deck"))
            self._player(names, "death_names")
            if names == self.last_drafter:
                raise EntryError("death_names", msg("Death names another player"),
                                 self.last_drafter)
            self._night.death = self.last_drafter
            self._night.death_names = names
        self.stage = Stage.COUNT

    # -- Phase 2 -------------------------------------------------------------------

    def _gesture(self, e: GestureEntry) -> None:
        p = e.player
        self._player(p)
        if p == self._night.death:
            raise EntryError("player", msg("{player} holds Death and makes no gesture tonight",
                                           player=p), p)
        if e.shows is _DEVIL:
            raise EntryError("shows", msg("nobody shows the Devil: a Devil makes another "
                                          "role's gesture until it is called"), p)
        if e.shows not in self._showable:
            raise EntryError("shows", msg("{role:the} is not in this deck, and no Devil could "
                                          "imitate it", role=role_term(e.shows)), p)
        for t in e.targets:
            self._player(t, "targets")
        before = self._night.gestures.get(p)
        self._night.gestures[p] = e
        try:
            self._check(prefer={p})
        except EntryError:
            if before is None:
                del self._night.gestures[p]
            else:
                self._night.gestures[p] = before
            raise
        # a correction after the withdrawals began is not possible (stage checked)

    # -- Phase 3 -------------------------------------------------------------------

    def _withdrawal(self, e: WithdrawalEntry) -> None:
        p, w = e.player, e.withdrawal
        self._player(p)
        if p == self._night.death:
            raise EntryError("player", msg("Death never withdraws"), p)
        if isinstance(w, tuple) and w and self._night.gestures[p].shows is not _HUNTER:
            raise EntryError("withdrawal", msg("only the Hunter lowers a single arrow; {player} "
                                               "shows {role:the}", player=p,
                                               role=role_term(self._night.gestures[p].shows)),
                             p)
        before = self._night.withdrawals.get(p)
        if w is False or w == ():
            self._night.withdrawals.pop(p, None)
            return
        self._night.withdrawals[p] = w
        try:
            self._check(prefer={p})
        except EntryError:
            if before is None:
                del self._night.withdrawals[p]
            else:
                self._night.withdrawals[p] = before
            raise

    # -- Phase 4: the calls ------------------------------------------------------------

    def question(self) -> CallQuestion | None:
        """The call the Mayor makes now (None outside the resolution)."""
        if self.stage is not Stage.RESOLUTION:
            return None
        step = self._next_step()
        assert step is not None
        return self._question(step)

    def _called(self, role: Role) -> Call | None:
        for c in self._night.calls:
            if c.step != "end" and STEP_ROLE[c.step] is role:
                return c
        return None

    def _devil_settled(self) -> bool:
        """Are the Devils known (called, or none in the deck)?"""
        return _DEVIL not in self._deck_roles or self._called(_DEVIL) is not None

    def _shown(self, p: str) -> Role:
        return self._night.gestures[p].shows

    def _role_known(self, p: str) -> Role | None:
        """The real role of ``p`` if the table knows it."""
        if p == self._night.death:
            return _DEATH
        card = self._night.turned.get(p)
        if card is not None:
            return card.role
        shown = self._shown(p)
        if self._devil_settled() or not could_be_devil(shown, self._cards):
            return shown
        for c in self._night.calls:  # a shower of a called role who did not turn it over
            if c.step != "end" and STEP_ROLE[c.step] is shown and p not in c.cards:
                return _DEVIL
        return None

    def _holders(self, role: Role) -> tuple[str, ...]:
        """Who may turn the card of ``role`` over when it is called."""
        out = []
        for p in self.gesturing:
            known = self._role_known(p)
            if role is _DEVIL:
                if known is None or known is _DEVIL:
                    out.append(p)
            elif known is role or (known is None and self._shown(p) is role):
                out.append(p)
        return tuple(out)

    def _next_step(self) -> str | None:
        done = {c.step for c in self._night.calls}
        for s in STEPS:
            if s in done:
                continue
            role = STEP_ROLE[s]
            later = any(STEPS.index(c.step) > STEPS.index(s) for c in self._night.calls
                        if c.step != "end")  # the steps are called in order
            if role in self._deck_roles and not later and self._holders(role):
                return s
        if "end" not in done and self._unknown_editions():
            return "end"
        return None

    def _taken(self, but: str | None = None) -> list[Card]:
        """The deck cards known to be in front of a player (but ``but``): turned over
        with their gender, or turned over without it when the deck holds one card of
        that role and edition (the Devil's call tells the edition, not the gender)."""
        out = []
        for p, c in self._night.turned.items():
            if p == but:
                continue
            if c.gender is not None:
                out.append(c)
                continue
            same = [d for d in self._cards if d.role is c.role and d.edition is c.edition]
            if len(same) == 1:
                out.append(same[0])
        return out

    def _options(self, p: str, roles: Iterable[Role]) -> tuple[Card, ...]:
        """The deck cards of ``roles`` that ``p`` may turn over (not turned over by
        another), one per distinct card."""
        wanted = frozenset(roles)
        taken = self._taken(but=p)
        return tuple(c for c in self._cards if c.role in wanted and c not in taken)

    def _unknown_editions(self) -> tuple[str, ...]:
        """Players whose card's edition neither a call nor the deck tells."""
        out = []
        for p in self.gesturing:
            if p in self._night.turned:
                continue
            role = self._role_known(p)
            if role is None or CAST[role].special:
                continue
            edition, _gender = determined(self._cards, role, None, self._taken())
            if edition is None:
                out.append(p)
        return tuple(out)

    def _question(self, step: str) -> CallQuestion:
        night = self._night
        if step == "end":
            unknown = self._unknown_editions()
            return CallQuestion("end", None, (), (), unknown, {
                p: self._options(p, (_known_or(self._role_known(p), self._shown(p)),))
                for p in unknown})
        role = STEP_ROLE[step]
        candidates = self._holders(role)
        settled = self._devil_settled()
        if role is _DEVIL:
            chosen = tuple(p for p in candidates if self._role_known(p) is _DEVIL)
        elif settled or role is not _ANGEL:
            chosen = candidates
        else:  # the Angel: a Devil may show it too
            chosen = candidates if len(candidates) == 1 else ()
        options: dict[str, tuple[Card, ...]] = {p: self._options(p, (role,)) for p in candidates}
        asked: list[str] = []
        if role is _ANGEL and not settled:
            for a in candidates:
                g = night.gestures[a]
                if a in night.withdrawals:
                    continue
                for t in g.targets:
                    if (t not in asked and t not in candidates and self._role_known(t) is None):
                        asked.append(t)
                        options[t] = self._options(t, (self._shown(t), _DEVIL))
        if role is _CREATURE:
            for c in candidates:
                g = night.gestures[c]
                for t in g.targets:
                    t_role = self._role_known(t)
                    was = night.turned.get(t)  # turned over at an earlier call
                    if was is not None and was.gender is not None:
                        continue
                    # the other Creature, called now too, is asked its gender as well:
                    # its holder turns it over without saying it otherwise
                    if t_role is None or t in asked:
                        continue
                    edition = was.edition if was is not None else None
                    _edition, gender = determined(self._cards, t_role, edition,
                                                  self._taken(but=t))
                    if gender is None:
                        asked.append(t)
                        options[t] = tuple(c for c in self._options(t, (t_role,))
                                           if edition is None or c.edition is edition)
        options = {p: self._possible(p, cards) for p, cards in options.items()}
        zombies: dict[str, tuple[str, str, str]] = {}
        if role is _ZOMBIE:
            early = resolve(self._provisional(), through="3")
            for z in candidates:
                if z in night.withdrawals or early.fates[self._seat[z]] is not Fate.ALIVE:
                    continue
                left, right = self.neighbours(z)
                zombies[z] = (left, right, night.gestures[z].targets[0])
        q = CallQuestion(step, role, candidates, chosen, tuple(asked), options, zombies)
        return CallQuestion(step, role, candidates, chosen, tuple(asked), options, zombies,
                            self._follows(q))

    def _could_hold(self, known: Mapping[str, Knowledge], p: str, card: Card) -> bool:
        """May ``p`` hold ``card`` (as far as given: a gender may be None), everything
        the table knows of every card considered?"""
        k = known.get(p, Knowledge())
        if k.revealed is not None:
            if not fits(card, k.revealed):
                return False
        elif (k.roles and card.role not in k.roles) or (k.advanced and (
                card.role is not _HUNTER or card.edition is not Edition.ADVANCED)):
            return False
        mine = dict(known)
        mine[p] = Knowledge(revealed=card)
        deck = [c for c in self._cards if c.role is not _DEATH]
        return not isinstance(assign(deck, mine, self.gesturing), str)

    def _possible(self, p: str, cards: tuple[Card, ...]) -> tuple[Card, ...]:
        """``cards`` less those ``p`` cannot hold given every other card: one turned
        over earlier tonight keeps its edition, both arrows at one player make an
        advanced Hunter, a card another player must hold is not offered."""
        if len(cards) < 2:
            return cards
        known = self._knowledge(set())
        return tuple(c for c in cards if self._could_hold(known, p, c))

    def _follows(self, q: CallQuestion
                 ) -> dict[str, tuple[tuple[str, Mapping[Card, Card]], ...]]:
        """The players whose card another's answer at this call tells (see
        :class:`CallQuestion`): for each, every earlier player whose answer does, when
        both turn their cards over (at the Devil's call, the Mayor taps who does)."""
        order = [p for p in q.candidates if p not in q.asked] + list(q.asked)
        asked = [p for p in order if len(q.answers(p)) > 1]
        known = self._knowledge(set())
        deck = [c for c in self._cards if c.role is not _DEATH]
        out: dict[str, tuple[tuple[str, Mapping[Card, Card]], ...]] = {}
        for i, b in enumerate(asked):
            for a in asked[:i]:
                if not set(q.options[a]) & set(q.options[b]):
                    continue
                rule: dict[Card, Card] = {}
                for x in q.answers(a):
                    fitting = []
                    for y in q.answers(b):
                        both = dict(known)
                        both[a], both[b] = Knowledge(revealed=x), Knowledge(revealed=y)
                        if not isinstance(assign(deck, both, self.gesturing), str):
                            fitting.append(y)
                    if len(fitting) != 1:
                        break
                    rule[x] = fitting[0]
                else:
                    out[b] = (*out.get(b, ()), (a, rule))
        return out

    def _call(self, e: Call) -> None:
        step = self._next_step()
        if e.step != step:
            raise EntryError("step", msg("the Mayor calls step {expected} now, not {given}",
                                         expected=str(step), given=e.step))
        q = self._question(step)
        self._verify_call(e, q)
        night = self._night
        saved = (dict(night.turned), dict(night.zombies))
        night.calls.append(e)
        night.turned.update(e.cards)
        for z, (_left, _right, aimed) in q.zombies.items():
            night.zombies[z] = e.zombies.get(z, aimed)
        try:
            self._check(prefer=set())
        except EntryError:
            night.calls.pop()
            night.turned, night.zombies = saved
            raise
        if step != "end":
            result = resolve(self._provisional(), through=step)
            words = tuple(event_message(ev, result.night) for ev in result.events
                          if ev.step == step)
            night.narration.append((step, words))
        self._after_call()

    def _verify_call(self, e: Call, q: CallQuestion) -> None:
        """Refuse a call whose cards or Zombies do not answer the question ``q``."""
        allowed = set(q.candidates) | set(q.asked)
        for p, card in e.cards.items():
            self._player(p, f"cards.{p}")
            if p not in allowed:
                raise EntryError(f"cards.{p}", msg("{player} turns no card over at this call",
                                                   player=p), p)
            if q.role is not None and p in q.candidates and card.role is not q.role:
                raise EntryError(f"cards.{p}", msg("{player} turns over {role:the} when "
                                                   "{called:the} is called", player=p,
                                                   role=role_term(card.role),
                                                   called=role_term(q.role)), p)
            if not any(fits(c, card) for c in q.options.get(p, ())):
                raise EntryError(f"cards.{p}", msg("the deck holds no {card} card that "
                                                   "{player} could turn over",
                                                   card=card_message(card), player=p), p)
        for p in q.asked:
            if p not in e.cards:
                raise EntryError(f"cards.{p}", msg("{player} must turn the card over now",
                                                   player=p), p)
        # at the Angel's and the Devil's calls the Mayor says who turns the card over (a
        # Devil may show the Angel; anyone may be a Devil); at the others the holders are
        # known, and each of them turns it over
        if q.role is not None and q.role is not _DEVIL and q.role is not _ANGEL:
            for p in q.candidates:
                if p not in e.cards:
                    raise EntryError(f"cards.{p}", msg("{player} holds {role:the} and turns it "
                                                       "over now", player=p,
                                                       role=role_term(q.role)), p)
        for z in e.zombies:
            if z not in q.zombies:
                raise EntryError(f"zombies.{z}", msg("{player} is not a Zombie called now",
                                                     player=z), z)

    def _after_call(self) -> None:
        if self._next_step() is not None:
            return
        night = self.final_night()
        result = resolve(night)
        end = tuple(event_message(ev, night) for ev in result.events if ev.step == "end")
        self._night.narration.append(("end", end))
        self.journals = [dict(j) for j in result.journals]
        self.nights.append(TableNight(self._night.number, self.active, night, result))
        self.finished_at.append(len(self.entries) + 1)  # the entry being applied ends it
        if result.winners:
            self.winners = result.winner_names
            self.stage = Stage.OVER
        else:
            self.stage = Stage.JOURNALS

    # -- the night, as the engine reads it -----------------------------------------

    def _knowledge(self, prefer: set[str]) -> dict[str, Knowledge]:
        night = self._night
        out: dict[str, Knowledge] = {}
        for p in self.gesturing:
            turned = night.turned.get(p)
            if turned is not None:
                out[p] = Knowledge(revealed=turned)
                continue
            g = night.gestures.get(p)
            if g is None:
                out[p] = Knowledge()
                continue
            known = self._role_known(p)
            roles = {known} if known is not None else {g.shows, _DEVIL}
            w = night.withdrawals.get(p)
            hunter = isinstance(w, tuple) and len(w) == 1
            doubled = (len(g.targets) == 2 and g.targets[0] == g.targets[1])
            if hunter or doubled:
                roles = {_HUNTER}
            if p in prefer and _DEVIL in roles and len(roles) > 1:
                roles = {_DEVIL}
            out[p] = Knowledge(roles=frozenset(roles), advanced=doubled)
        return out

    def _assignment(self, prefer: set[str]) -> dict[str, Card]:
        order = self.gesturing
        deck = [c for c in self._cards if c.role is not _DEATH]
        found = assign(deck, self._knowledge(prefer), order)
        if isinstance(found, str):
            raise self._no_card(found)
        if self._night.death is not None:
            found[self._night.death] = next(c for c in self._cards if c.role is _DEATH)
        return {p: found[p] for p in self.players}

    def _no_card(self, p: str) -> EntryError:
        g = self._night.gestures.get(p)
        turned = self._night.turned.get(p)
        if turned is not None:
            return EntryError(f"cards.{p}", msg("the deck holds no {card} card left for {player}",
                                                card=card_message(turned), player=p), p)
        if g is None:
            return EntryError("cards", msg("the deck has no card left for {player}", player=p),
                              p)
        return EntryError(f"gestures.{p}.shows", msg(
            "{player} shows {role:the}, but no {role} card of the deck is left for them "
            "(nor a Devil to imitate it)", player=p, role=role_term(g.shows)), p)

    def _gestures(self, cards: Mapping[str, Card]) -> dict[str, Gesture]:
        out: dict[str, Gesture] = {}
        night = self._night
        for p in self.gesturing:
            e = night.gestures.get(p)
            if e is None:
                out[p] = _default_gesture(self, p, cards[p])
                continue
            shows = e.shows if cards[p].role is _DEVIL else None
            out[p] = Gesture(e.targets, shows, e.kind, e.seeks)
        if night.death is not None:
            out[night.death] = Gesture(names=night.death_names)
        return {p: g for p, g in out.items() if g != Gesture()}

    def _provisional(self, prefer: set[str] | None = None) -> Night:
        """The night so far with one assignment of the unknown cards that fits."""
        cards = self._assignment(self._night.prefer if prefer is None else prefer)
        return self._night_of(cards)

    def _night_of(self, cards: Mapping[str, Card]) -> Night:
        night = self._night
        return Night(self.players, dict(cards), self._gestures(cards), dict(night.withdrawals),
                     dict(night.zombies),
                     {p: dict(self.journals[i]) for i, p in enumerate(self.players)},
                     self.sheet)

    def _check(self, prefer: set[str]) -> None:
        """Validate the night so far with the engine; a refusal becomes an EntryError.

        The unknown cards are assigned the likeliest way first (nobody a Devil who
        need not be); when the engine refuses the night because of a player who may
        be a Devil in disguise (a Creature's target who fled, say), that player is
        tried as a Devil, and so on: the entry is refused only when no assignment
        the table allows is a night the rules allow.
        """
        night = self._night
        tried = set(night.prefer)
        queue = [set(tried), tried | prefer] if prefer - tried else [set(tried)]
        first: RoundError | None = None
        while queue:
            pref = queue.pop(0)
            try:
                validate(self._provisional(pref))
            except RoundError as e:
                first = first or e
                who = e.player
                if who is not None and who not in pref and who in night.gestures:
                    queue.append(pref | {who})
                continue
            night.prefer = pref
            return
        assert first is not None
        raise EntryError(first.field, first.message, first.player) from None

    def final_night(self) -> Night:
        """The finished night with the cards as the table knows them: the role, the
        edition and the gender where seen or where the deck leaves one choice."""
        night = self._night
        cards: dict[str, Card] = {}
        for p in self.players:
            if p == night.death:
                cards[p] = next(c for c in self._cards if c.role is _DEATH)
                continue
            turned = night.turned.get(p)
            role = self._role_known(p)
            assert role is not None
            edition = turned.edition if turned is not None else None
            gender = turned.gender if turned is not None else None
            det_edition, det_gender = determined(self._cards, role, edition,
                                                 self._taken(but=p))
            edition = edition or det_edition or Edition.BASIC
            gender = gender or det_gender
            if len(CAST[role].genders) == 1:
                gender = CAST[role].genders[0]
            cards[p] = Card(role, edition, gender)
        return self._night_of(cards)

    # -- undo ------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The set-up and the entries: :meth:`from_json` replays them."""
        return {"setup": self.setup.to_json(),
                "entries": [entry_to_json(e) for e in self.entries]}

    @classmethod
    def replayed(cls, setup: TableSetup, entries: Iterable[Entry]) -> Companion:
        """The companion reached from ``setup`` by ``entries``, each one checked."""
        c = cls(setup)
        for e in entries:
            c.enter(e)
        return c

    @classmethod
    def from_json(cls, doc: object) -> Companion:
        """The companion :meth:`to_json` wrote (:class:`EntryError`/:class:`DeckError`)."""
        c, refused = cls._replay(doc)
        if refused is not None:
            i, e = refused
            raise EntryError(f"entries[{i}].{e.field}", e.message, e.player)
        return c

    @classmethod
    def restore(cls, doc: object) -> tuple[Companion, int]:
        """A stored table, replayed as far as this version's rules take it, and how many
        of its entries were set aside: from the first one refused to the last (a table
        stored by an earlier version whose bookkeeping has changed since is not lost;
        the Mayor enters what was set aside again). The set-up must still hold."""
        c, refused = cls._replay(doc)
        if refused is None:
            return c, 0
        raw = doc.get("entries") if isinstance(doc, dict) else None
        return c, (len(raw) if isinstance(raw, list) else 0) - refused[0]

    @classmethod
    def _replay(cls, doc: object) -> tuple[Companion, tuple[int, EntryError] | None]:
        """The companion of ``doc``'s set-up with its entries entered up to the first
        refused (its index and refusal, or None)."""
        if not isinstance(doc, dict):
            raise EntryError("table", msg("must be an object"))
        setup = TableSetup.from_json(doc.get("setup"))
        raw = doc.get("entries", [])
        if not isinstance(raw, list):
            raise EntryError("entries", msg("must be a list"))
        c = cls(setup)
        for i, item in enumerate(raw):
            try:
                c.enter(entry_from_json(item))
            except EntryError as e:
                return c, (i, e)
        return c, None

    def undo(self) -> Entry | None:
        """Take the last entry back (a correction); returns it, or None if none."""
        if not self.entries:
            return None
        last = self.entries[-1]
        self._rebuild(self.entries[:-1])
        return last

    def _span(self, number: int) -> range:
        """The indexes of night ``number``'s entries, its Next night excluded."""
        starts = [0] + [i + 1 for i, e in enumerate(self.entries) if isinstance(e, NextNight)]
        if not 1 <= number <= len(starts):
            raise EntryError("night", msg("there is no night {n} to correct", n=number))
        end = starts[number] - 1 if number < len(starts) else len(self.entries)
        return range(starts[number - 1], end)

    def at(self, number: int, step: str | None = None) -> Companion:
        """The table as it stood at the end of night ``number`` (before Next night), or,
        given ``step``, just before that night's call of ``step``: the question a
        correction of that call answers again. :class:`EntryError` if it was not called."""
        span = self._span(number)
        end = span.stop
        if step is not None:
            end = self._call_at(span, step, number)
        return Companion.replayed(self.setup, self.entries[:end])

    def _call_at(self, span: range, step: str, number: int) -> int:
        for i in span:
            e = self.entries[i]
            if isinstance(e, Call) and e.step == step:
                return i
        raise EntryError("step", msg("step {step} was not called on night {n}", step=step,
                                     n=number))

    def correct(self, entry: GestureEntry | WithdrawalEntry | Call | Drafted,
                night: int | None = None) -> int:
        """Correct one answer of night ``night`` (tonight by default: the night in
        progress, or the one just resolved) without undoing what came after it: a gesture
        once the reveal is over ("wait, I showed the Werewolf"), a withdrawal once the
        withdrawals are over ("Bia did not flee"), or the cards turned over at a call and
        its Zombies' choices ("I tapped the wrong Vampire"), or the name Death wrote
        (a ``Drafted`` entry, when Death was taken). ``entry`` takes the place of
        the player's gesture (of their withdrawal, entered again just before the end of
        Phase 3; of that step's call), and the entries after it, the later nights'
        included, are entered again, each checked as the first time, up to the first
        that the correction makes wrong (a call that is no longer made, a night that now
        ends the game): that one and those after it are dropped, for the Mayor to enter
        again. Returns how many were dropped. :class:`EntryError` if that night has no
        such entry or the new one is refused; nothing changes then. While the
        withdrawals are still open, a withdrawal is simply entered, as is the call
        asked now."""
        number = self.number if night is None else night
        span = self._span(number)
        if isinstance(entry, Drafted):
            # the name Death wrote, tapped wrong; who took Death is the table's to see
            i = next((i for i in span if isinstance(self.entries[i], Drafted)), -1)
            old = self.entries[i] if i >= 0 else None
            if not isinstance(old, Drafted) or old.death_names is None:
                raise EntryError("death_names", msg("nobody took Death on night {n}",
                                                    n=number))
            if entry.death_names is None:
                raise EntryError("death_names", msg("Death names another player"))
            return self._reentered(self.entries[:i], entry, self.entries[i + 1:])
        if isinstance(entry, Call):
            q = self.question()
            if number == self.number and q is not None and q.step == entry.step:
                self.enter(entry)
                return 0
            i = self._call_at(span, entry.step, number)
            return self._reentered(self.entries[:i], entry, self.entries[i + 1:])
        if isinstance(entry, WithdrawalEntry):
            done = [i for i in span if isinstance(self.entries[i], WithdrawalsDone)]
            if not done:
                if number != self.number:
                    raise EntryError("night", msg("there is no night {n} to correct",
                                                  n=number))
                self.enter(entry)
                return 0
            # that night's withdrawals of that player give way to the new one (another
            # night's stay)
            before = [e for i, e in enumerate(self.entries[:done[0]])
                      if i not in span or not (isinstance(e, WithdrawalEntry)
                                               and e.player == entry.player)]
            later = self.entries[done[0]:]
            if entry.withdrawal is False or entry.withdrawal == ():
                return self._reentered(before, None, later)
            return self._reentered(before, entry, later)
        at = [i for i in span
              if isinstance(x := self.entries[i], GestureEntry) and x.player == entry.player]
        if not at:
            raise EntryError("player", msg("{player} has no gesture entered tonight",
                                           player=entry.player), entry.player)
        return self._reentered(self.entries[:at[-1]], entry, self.entries[at[-1] + 1:])

    def _reentered(self, before: Sequence[Entry], entry: Entry | None,
                   later: Sequence[Entry]) -> int:
        """The table again from ``before``, then ``entry`` (which must hold), then the
        entries of ``later`` that still hold; returns how many of them did not."""
        c = Companion.replayed(self.setup, before)
        fixed = [*before] if entry is None else [*before, entry]
        if entry is not None:
            c.enter(entry)
        kept = 0
        for e in later:
            try:
                c.enter(c._answering(e))
            except EntryError:
                # an entry refused may have been half applied: rebuild without it
                c = Companion.replayed(self.setup, [*fixed, *later[:kept]])
                break
            kept += 1
        self.__dict__.update(c.__dict__)
        return len(later) - kept

    def _answering(self, e: Entry) -> Entry:
        """A later entry entered again after a correction, as it answers the question now:
        a call's choice for a Zombie that is no longer asked (the correction put it out of
        the night before step 4) is moot and left out; a Zombie asked now and not then
        makes the call refused, to be asked again (its player never chose)."""
        q = self.question() if isinstance(e, Call) else None
        if not isinstance(e, Call) or q is None or q.step != e.step:
            return e
        new = [z for z in q.zombies if z not in e.zombies]
        if new:
            raise EntryError(f"zombies.{new[0]}", msg("{player} is a Zombie called now",
                                                      player=new[0]), new[0])
        zombies = {z: x for z, x in e.zombies.items() if z in q.zombies}
        return e if zombies == dict(e.zombies) else Call(e.step, e.cards, zombies)

    def undo_night(self) -> int | None:
        """Take the last finished night back, journals and all: the table is again at
        that night's draft. Returns its number, or None if no night is finished."""
        if not self.nights:
            return None
        number = self.nights[-1].number
        starts = [0] + [i + 1 for i, e in enumerate(self.entries) if isinstance(e, NextNight)]
        self._rebuild(self.entries[:starts[number - 1]])
        return number

    def _rebuild(self, entries: Sequence[Entry]) -> None:
        fresh = Companion.replayed(self.setup, entries)
        self.__dict__.update(fresh.__dict__)


def _known_or(role: Role | None, other: Role) -> Role:
    """``role`` unless it is None (a Role is an int: the Devil is 0, and false)."""
    return other if role is None else role


def _default_gesture(c: Companion, p: str, card: Card) -> Gesture:
    """A legal gesture for a player whose gesture is not entered yet (the check of an
    entry needs a whole night)."""
    options = gesture_options(c.players, p, card, c.death, frozenset(
        possible_cast(Night((), {}, journal_roles=c.sheet))))
    return options[0] if options else Gesture()


_STAGE_NAMES: Final = {
    Stage.DRAFT: msg("the draft"),
    Stage.COUNT: msg("the count"),
    Stage.REVEAL: msg("the gestures"),
    Stage.WITHDRAWAL: msg("the withdrawals"),
    Stage.RESOLUTION: msg("the resolution"),
    Stage.JOURNALS: msg("the journals"),
    Stage.OVER: msg("the end of the game"),
}


def stage_message(stage: Stage) -> Message:
    """The name of a stage, for a reader."""
    return _STAGE_NAMES[stage]


def read_free_xp(value: object) -> dict[str, Role]:
    """Each player's free XP row from its plain form (``{"Ana": "priest"}``), or a
    :class:`DeckError` naming the entry that is wrong.

    The message says what is missing and what to send, in words that stand alone: a
    set-up sent without its free XP was refused with "Must be an object" (the refusal
    leaves the field's name out), which named neither the field nor what to do. A row
    left empty (``""``, the set-up's "—") is a row not chosen yet, said by name in
    :meth:`TableSetup.of`."""
    if value is None:
        raise DeckError("free_xp", msg(
            "The free XP are missing: each player writes one XP in a row of their journal "
            "before the first night (free_xp: each player's name and a row, such as "
            "“priest”)."))
    if not isinstance(value, dict):
        raise DeckError("free_xp", msg(
            "The free XP (free_xp) give each player's name a row of their journal, such "
            "as “priest”."))
    out: dict[str, Role] = {}
    for p, r in value.items():
        if r == "" or r is None:
            continue
        role = parse_role(r) if isinstance(r, str) else None
        if role is None:
            raise DeckError(f"free_xp.{p}", msg(
                "{player}'s free XP: {name!r} is not a role; choose a row of their journal, "
                "such as “priest”.", player=str(p), name=str(r)))
        out[str(p)] = role
    return out
