"""The whole game of Dark City as a state machine: set-up, then nights of five
phases (PT "Organização da partida") until somebody wins.

One :class:`Game` is driven through decision points. At any moment
:meth:`Game.decision_point` says which phase it is and who must still decide;
:meth:`Game.legal` enumerates a player's legal decisions (the one enumerator
that bots, the terminal, the server and the tests all use); a submitted
decision is checked by :meth:`Game.verify` (raises :class:`IllegalDecision`
with the reason), :meth:`Game.can` (yes or no) and applied by :meth:`Game.do`
(verify, then apply). :meth:`Game.apply` skips the check, for decisions taken
from :meth:`Game.legal` (the fast path of bots and simulations).

The phases (:class:`Phase`):

* ``SETUP`` — each player writes the free XP in one row of the sheet (R-103);
  simultaneous.
* ``DRAFT`` — Phase 1 (R-91, R-82): from the active player leftwards, each
  player keeps one card of the hand handed over; the last player may instead
  take one of the three face-down cards at random, or, with Death in play,
  take Death (naming a player, R-112) before looking at the hand.
* ``GESTURE`` — Phase 2 (R-110): everybody but Death commits a gesture in
  secret; they are revealed together.
* ``WITHDRAWAL`` — Phase 3 (R-111): everybody but Death commits a withdrawal
  (or none) in secret; revealed together.
* ``ZOMBIE`` — Phase 4, only when a real Zombie is still in play after step 3
  (R-113): each such Zombie chooses its final victim.
* Then the night is resolved by :func:`darkcity.night.resolve` (Phases 4 and
  5), the journals updated, the victory checked (R-101): the game is ``OVER``
  or the next night begins with the next active player (R-94).

All chance comes from the seed: the draft of night *k* shuffles with
``random.Random(f"darkcity:{seed}:deck:{k}")``; bots get their own stream
(:func:`bot_rng`). The rules are decided in :mod:`darkcity.validation`: a
gesture, a withdrawal or a Zombie's choice is verified by building the
candidate night and validating it.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping, Sequence
from typing import Final

from darkcity.cast import CAST, NO_DISGUISE, Edition, Gender, Reach, Role
from darkcity.decisions import (
    PHASE_OF,
    Decision,
    DecisionPoint,
    DraftPick,
    FaceDownPick,
    FreeXp,
    GestureChoice,
    IllegalDecision,
    LookAtHand,
    Phase,
    TakeDeath,
    WithdrawalChoice,
    ZombieChoice,
    check_well_formed,
    new_decision_point,
    phase_name,
)
from darkcity.deck import card_message
from darkcity.i18n import Message, msg
from darkcity.night import (
    Card,
    Fate,
    Gesture,
    Night,
    NightResult,
    RoundError,
    Withdrawal,
    held_by,
    neighbours,
    possible_cast,
    resolve,
)
from darkcity.settings import NightRecord, Pick, Settings, deck_rng
from darkcity.terms import role_term
from darkcity.validation import validate

__all__ = [
    "Game",
    "gesture_options",
    "play_randomly",
    "restore",
]

# The decisions (darkcity.decisions) and the settings and night records
# (darkcity.settings) were defined here once, and the docs imported them from here
# (``from darkcity.game import Game, Settings``): those imports still work, as the
# names are imported above, but are deprecated; new code imports each from its module.


def _rows(sheet: Sequence[Role]) -> Message:
    """The rows of a journal sheet, named in the reader's language."""
    names = {f"r{i}": role_term(r) for i, r in enumerate(sheet)}
    return Message(", ".join(f"{{{k}}}" for k in names), names)  # i18n: not prose


_DEATH, _DEVIL, _HUNTER, _ZOMBIE, _CREATURE, _NECRO, _ALIEN = (
    Role.DEATH, Role.DEVIL, Role.HUNTER, Role.ZOMBIE, Role.CREATURE, Role.NECROMANCER,
    Role.ALIEN)
_SEEKABLE: Final = (Gender.FEMININE, Gender.MASCULINE)
_EMPTY: Final = Gesture()
#: Phases whose decisions the validation of a candidate night decides.
_VALIDATED: Final = frozenset((Phase.GESTURE, Phase.WITHDRAWAL, Phase.ZOMBIE))
_TONIGHT: Final = frozenset((Phase.DRAFT, Phase.GESTURE, Phase.WITHDRAWAL, Phase.ZOMBIE))


class Game:
    """One game of Dark City, from set-up to the last night (mutable)."""

    def __init__(self, settings: Settings, seed: int | str = 0) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int | str):
            raise TypeError("the seed is an int or a str")
        self.settings: Final = settings
        self.seed: Final = seed
        self.players: Final = settings.players
        self.sheet: Final = settings.deck.journal_roles
        self._shuffled: Final = settings.deck.shuffled  # the draft's cards, every night
        self._death_in_play: Final = settings.deck.death
        self._n = len(self.players)
        self._seat = {p: i for i, p in enumerate(self.players)}
        self.phase = Phase.SETUP
        self.night = 0
        self.active = settings.mayor_seat
        self.journals: list[dict[Role, int]] = [{} for _ in self.players]
        self.free_xp: dict[str, Role] = {}
        self.nights: list[NightRecord] = []
        self.log: list[Decision] = []
        self.winners: tuple[str, ...] = ()
        #: Scratch space for derived public data (the views keep their rendering of
        #: finished nights here); never part of the game's state.
        self.memo: dict[str, object] = {}
        self._dp = 0
        self._pending: list[str] = []
        self._required: tuple[str, ...] = ()
        self._dpc: DecisionPoint | None = None  # decision_point(), made once per state
        # the night in progress
        self._order: tuple[str, ...] = ()
        self._turn = 0
        self._hand: list[Card] = []
        self._face_down: list[Card] = []
        self._set_aside: tuple[Card, ...] = ()
        self._looked = False
        self._picks: list[Pick] = []
        self.cards: dict[str, Card] = {}
        self.received: dict[str, tuple[Card, ...]] = {}
        self.death: str | None = None
        self._gestures: dict[str, Gesture] = {}
        self._withdrawals: dict[str, Withdrawal] = {}
        self._zombie_targets: dict[str, str] = {}
        self.early: NightResult | None = None  # through step 3, in the ZOMBIE phase
        self._cast: frozenset[Role] = frozenset()
        self._legal_cache: dict[str, tuple[Decision, ...]] = {}
        self._held: dict[str, str] = {}
        self._plain_withdrawals: dict[tuple[str, bool], tuple[Decision, ...]] = {}
        self._draft_picks: dict[tuple[str, Card], DraftPick] = {}
        self._bare: Night | None = None
        for p, r in settings.free_xp.items():
            self.free_xp[p] = r
        self._begin_setup()

    # -- public queries ------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def active_player(self) -> str:
        return self.players[self.active]

    def decision_point(self) -> DecisionPoint:
        """The current decision point: phase, night, who decides, who is pending.

        The same object until the game moves on: the id grows with every new point
        (and every change of phase), and within one point the pending players only
        leave, so the id and how many are pending name the state."""
        dp = self._dpc
        if dp is not None and dp.id == self._dp and len(dp.pending) == len(self._pending):
            return dp
        simultaneous = self.phase in (Phase.SETUP, Phase.GESTURE, Phase.WITHDRAWAL,
                                      Phase.ZOMBIE)
        dp = self._dpc = new_decision_point(self._dp, self.phase, self.night,
                                            self._required, tuple(self._pending),
                                            simultaneous)
        return dp

    @property
    def pending(self) -> tuple[str, ...]:
        """Who must still decide at the current point, in seat order."""
        return tuple(self._pending)

    @property
    def hand(self) -> tuple[Card, ...]:
        """The hand of the player choosing in Phase 1 (empty outside the draft)."""
        return tuple(self._hand) if self.phase is Phase.DRAFT else ()

    @property
    def face_down(self) -> tuple[Card, ...]:
        """The three face-down cards of this night (never in a view)."""
        return tuple(self._face_down)

    @property
    def death_in_play(self) -> bool:
        return self._death_in_play

    @property
    def blind_pick(self) -> str | None:
        """Who took a face-down card tonight, if anyone (never which card).

        A public fact: at a real table everybody sees the last drafter reach for
        the face-down cards (R-91)."""
        if self.phase not in _TONIGHT:
            return None
        for pick in self._picks:
            if pick.took == "face-down":
                return pick.player
        return None

    @property
    def gestures(self) -> Mapping[str, Gesture]:
        """The gestures committed so far this night (secret until revealed)."""
        return self._gestures

    @property
    def withdrawals(self) -> Mapping[str, Withdrawal]:
        """The withdrawals committed so far this night (secret until revealed)."""
        return self._withdrawals

    @property
    def zombie_targets(self) -> Mapping[str, str]:
        return self._zombie_targets

    @property
    def last_night(self) -> NightRecord | None:
        return self.nights[-1] if self.nights else None

    def neighbours(self, player: str) -> tuple[str, str]:
        """(left, right) of ``player`` tonight, Death's seat skipped (R-50, R-80)."""
        return neighbours(self.players, self.cards, player)

    def legal(self, player: str) -> tuple[Decision, ...]:
        """Every legal decision of ``player`` now (empty if not asked to decide).

        Gestures aimed at two players are given once, the targets in seat
        order (either order is legal when submitted).
        """
        if player not in self._pending:
            return ()
        cached = self._legal_cache.get(player)
        if cached is not None:
            return cached
        out: tuple[Decision, ...]
        phase = self.phase
        if phase is Phase.GESTURE:
            # the same card in the same seat, with Death in the same seat, has the
            # same gestures every night: enumerate once per game
            out = _gesture_choices(self.players, player, self.cards[player], self.death,
                                   self._cast)
        elif phase is Phase.WITHDRAWAL:
            hunter = self.cards[player].role is _HUNTER
            if player in self._held:
                out = tuple(WithdrawalChoice(player, w) for w in self._legal_withdrawals(player))
            else:  # free to flee: the same choices every night
                key = (player, hunter)
                plain = self._plain_withdrawals.get(key)
                if plain is None:
                    plain = tuple(WithdrawalChoice(player, w)
                                  for w in ((False, True, (0,), (1,)) if hunter
                                            else (False, True)))
                    self._plain_withdrawals[key] = plain
                out = plain
        elif phase is Phase.ZOMBIE:
            left, right = self.neighbours(player)
            out = (ZombieChoice(player, left), ZombieChoice(player, right))
        elif phase is Phase.DRAFT:
            out = self._legal_draft(player)
        else:  # SETUP
            out = tuple(FreeXp(player, r) for r in self.sheet)
        self._legal_cache[player] = out
        return out

    # -- verify / can / do -----------------------------------------------------

    def verify(self, decision: Decision) -> None:
        """Raise :class:`IllegalDecision` with the reason unless ``decision`` may be
        applied now. Changes nothing."""
        check_well_formed(decision, self._seat)  # before any field is read as its type
        kind = type(decision)
        player = decision.player
        if self.phase is Phase.OVER:
            raise IllegalDecision("game-over", msg("the game is over"), player)
        at = decision.at
        if at is not None and at != self._dp:
            raise IllegalDecision("stale", msg("made at decision point {at}; the game is at "
                                               "{now} ({phase}, night {night})", at=at,
                                               now=self._dp, phase=phase_name(self.phase),
                                               night=self.night), player)
        want = PHASE_OF[kind]
        if want is not self.phase:
            raise IllegalDecision("wrong-phase", msg("a {decision} belongs to the {want} phase; "
                                                     "the game is in the {phase} phase",
                                                     decision=kind.__name__,
                                                     want=phase_name(want),
                                                     phase=phase_name(self.phase)), player)
        if player not in self._pending:
            if player in self._required:
                raise IllegalDecision("already-decided", msg("{player} has already decided",
                                                             player=player), player)
            raise IllegalDecision("wrong-player", msg("{player} does not decide now; waiting "
                                                      "for {waiting}", player=player,
                                                      waiting=", ".join(self._pending)), player)
        if self.phase in _VALIDATED and decision in self.legal(player):
            return  # one of the enumerated choices, each of which validation accepts
        if isinstance(decision, FreeXp):
            self._verify_free_xp(decision)
        elif isinstance(decision, DraftPick | FaceDownPick | TakeDeath | LookAtHand):
            self._verify_draft(decision)
        elif isinstance(decision, GestureChoice):
            self._verify_gesture(decision)
        elif isinstance(decision, WithdrawalChoice):
            self._verify_withdrawal(decision)
        else:
            self._verify_zombie(decision)

    def can(self, decision: Decision) -> bool:
        """May ``decision`` be applied now?"""
        try:
            self.verify(decision)
        except IllegalDecision:
            return False
        return True

    def do(self, decision: Decision) -> None:
        """Verify ``decision`` (raising :class:`IllegalDecision`), then apply it."""
        self.verify(decision)
        self.apply(decision)

    def apply(self, decision: Decision) -> None:
        """Apply a decision known to be legal (one of :meth:`legal`), unchecked."""
        self.log.append(decision)
        p = decision.player
        self._pending.remove(p)
        if isinstance(decision, GestureChoice):
            self._gestures[p] = decision.gesture
            if not self._pending:
                self._begin_withdrawal()
        elif isinstance(decision, WithdrawalChoice):
            w = decision.withdrawal
            if w is not False and w != ():
                self._withdrawals[p] = w
            if not self._pending:
                self._after_withdrawal()
        elif isinstance(decision, ZombieChoice):
            self._zombie_targets[p] = decision.target
            if not self._pending:
                self._end_night()
        elif isinstance(decision, FreeXp):
            self.free_xp[p] = decision.role
            if not self._pending:
                self._end_setup()
        else:
            self._apply_draft(decision)

    # -- set-up -------------------------------------------------------------

    def _begin_setup(self) -> None:
        waiting = [p for p in self.players if p not in self.free_xp]
        if not waiting:
            self._end_setup()
            return
        self._point(Phase.SETUP, waiting)

    def _verify_free_xp(self, d: FreeXp) -> None:
        if d.role not in self.sheet:
            raise IllegalDecision("illegal", msg("{role:the} has no row on this journal "
                                                 "sheet ({rows})", role=role_term(d.role),
                                                 rows=_rows(self.sheet)), d.player,
                                  f"free_xp.{d.player}")

    def _end_setup(self) -> None:
        for i, p in enumerate(self.players):
            self.journals[i] = {self.free_xp[p]: 1}
        self._begin_night()

    def _point(self, phase: Phase, who: Sequence[str]) -> None:
        self.phase = phase
        self._dp += 1
        self._required = tuple(who)
        self._pending = list(who)
        self._legal_cache = {}

    # -- Phase 1: the draft ------------------------------------------------------

    def _begin_night(self) -> None:
        self.night += 1
        k = self.night
        if k > 1:
            self.active = (self.active + 1) % self._n
        cards = list(_draft_order(self.seed, k, self._shuffled))
        self._face_down = cards[:3]
        self._set_aside = tuple(cards[:3])
        self._hand = cards[3:]
        self._order = tuple(self.players[(self.active + i) % self._n] for i in range(self._n))
        self._turn = 0
        self._looked = not self._death_in_play
        self._picks = []
        self.cards = {}
        self.received = {}
        self.death = None
        self._gestures = {}
        self._withdrawals = {}
        self._zombie_targets = {}
        self.early = None
        self._bare = None
        self._draft_point()

    def _draft_point(self) -> None:
        p = self._order[self._turn]
        if self._looked or self._turn < self._n - 1:
            self.received[p] = tuple(self._hand)
        self._point(Phase.DRAFT, (p,))

    @property
    def choosing_last(self) -> bool:
        """Is the player choosing in Phase 1 the last one (the active player's right)?"""
        return self.phase is Phase.DRAFT and self._turn == self._n - 1

    @property
    def may_look(self) -> bool:
        """May the choosing player look at the hand (false while Death is offered)?"""
        return self.phase is Phase.DRAFT and (self._looked or self._turn < self._n - 1)

    def _legal_draft(self, p: str) -> tuple[Decision, ...]:
        if not self.may_look:
            return tuple([TakeDeath(p, q) for q in self.players if q != p] + [LookAtHand(p)])
        picks = self._draft_picks  # the same card to the same player: one value per game
        out: list[Decision] = []
        for c in self._hand:
            d = picks.get((p, c))
            if d is None:
                d = picks[(p, c)] = DraftPick(p, c)
            out.append(d)
        if self.choosing_last:
            out.append(FaceDownPick(p))
        return tuple(out)

    def _verify_draft(self, d: DraftPick | FaceDownPick | TakeDeath | LookAtHand) -> None:
        p = d.player
        last = self.choosing_last
        offered = not self.may_look
        if isinstance(d, TakeDeath | LookAtHand):
            if not offered:
                why = (msg("only the last player may take Death") if not last else
                       msg("Death is not in play") if not self.death_in_play else
                       msg("Death is taken before looking at the hand"))
                raise IllegalDecision("illegal", why, p, "cards")
            if isinstance(d, TakeDeath) and d.names == p:
                raise IllegalDecision("illegal", msg("Death names another player"),
                                      p, f"gestures.{p}.names")
            return
        if offered:
            raise IllegalDecision("illegal", msg("first take Death or look at the hand"),
                                  p)
        if isinstance(d, FaceDownPick):
            if not last:
                raise IllegalDecision("illegal", msg("only the last player may take a "
                                                     "face-down card"), p)
            return
        if d.card not in self._hand:
            raise IllegalDecision("illegal", msg("{player} holds no such card ({card})",
                                                 player=p, card=card_message(d.card)), p,
                                  "cards")

    def _apply_draft(self, d: Decision) -> None:
        p = d.player
        if isinstance(d, LookAtHand):
            self._looked = True
            self._draft_point()
            return
        if isinstance(d, TakeDeath):
            card = next(c for c in self.settings.deck.cards if c.role is _DEATH)
            self._face_down.extend(self._hand)  # unseen
            self._hand = []
            self.death = p
            self._gestures[p] = Gesture(names=d.names)  # committed now
            self._picks.append(Pick(p, (), "death", card, d.names))
        elif isinstance(d, FaceDownPick):
            card = self._face_down.pop(0)  # the face-down cards lie in random order
            self._picks.append(Pick(p, tuple(self._hand), "face-down", card))
        else:
            assert isinstance(d, DraftPick)
            card = d.card
            hand = tuple(self._hand)
            self._hand.remove(card)
            self._picks.append(Pick(p, hand, "hand", card))
        self.cards[p] = card
        self._turn += 1
        if self._turn < self._n:
            self._draft_point()
            return
        # the unchosen cards join the face-down ones, never shown
        self._face_down.extend(self._hand)
        self._hand = []
        self.cards = {q: self.cards[q] for q in self.players}
        self._bare = Night(self.players, self.cards, journal_roles=self.sheet)
        self._cast = possible_cast(self._bare)
        self._point(Phase.GESTURE, [q for q in self.players if q != self.death])

    # -- Phase 2: gestures ----------------------------------------------------------

    def _legal_gestures(self, p: str) -> list[Gesture]:
        return [d.gesture for d in _gesture_choices(self.players, p, self.cards[p], self.death,
                                                    self._cast)]

    def _verify_gesture(self, d: GestureChoice) -> None:
        p, g = d.player, d.gesture
        if g.names is not None:
            raise IllegalDecision("illegal", msg("only Death names a player, at the draft"), p,
                                  f"gestures.{p}.names")
        gestures = dict(self._gestures)
        for q in self.players:
            if q not in gestures and q != self.death:
                gestures[q] = self._legal_gestures(q)[0]
        gestures[p] = g
        _check(self._night(gestures=gestures), p)

    # -- Phase 3: withdrawals ---------------------------------------------------------

    def _begin_withdrawal(self) -> None:
        self._gestures = {q: self._gestures[q] for q in self.players if q in self._gestures}
        self._held = self._held_by()
        self._point(Phase.WITHDRAWAL, [q for q in self.players if q != self.death])

    def _held_by(self) -> dict[str, str]:
        """Players held by a Creature's proposal (R-63) -> that Creature."""
        night = self._night()
        held: dict[str, str] = {}
        for q in self.players:
            if self.cards[q].role is _CREATURE:
                g = self._gestures.get(q)
                if g is not None and g.targets and g.targets[0] not in held:
                    creature = held_by(night, g.targets[0])
                    if creature is not None:
                        held[g.targets[0]] = creature
        return held

    def _legal_withdrawals(self, p: str) -> list[Withdrawal]:
        out: list[Withdrawal] = [False]
        if p not in self._held:  # R-63, K-1
            out.append(True)
        if self.cards[p].role is _HUNTER:
            out += [(0,), (1,)]
        return out

    def _verify_withdrawal(self, d: WithdrawalChoice) -> None:
        p, w = d.player, d.withdrawal
        if w is False or w == ():
            return
        _check(self._night(withdrawals={p: w}), p)

    def _after_withdrawal(self) -> None:
        cards = self.cards
        zombies = [q for q in self.players
                   if cards[q].role is _ZOMBIE and q not in self._withdrawals]
        if zombies:
            early = resolve(self._night(), through="3")
            self.early = early
            seat = self._seat
            zombies = [q for q in zombies if early.fates[seat[q]] is Fate.ALIVE]
            if zombies:
                self._point(Phase.ZOMBIE, zombies)
                return
        self._end_night()

    # -- Phase 4: the Zombies ---------------------------------------------------------

    def _verify_zombie(self, d: ZombieChoice) -> None:
        p, t = d.player, d.target
        _check(self._night(zombie_targets={p: t}), p)

    # -- Phases 4 and 5 -----------------------------------------------------------------

    def _night(
        self,
        *,
        gestures: Mapping[str, Gesture] | None = None,
        withdrawals: Mapping[str, Withdrawal] | None = None,
        zombie_targets: Mapping[str, str] | None = None,
    ) -> Night:
        """The night so far (empty gestures left out), as the notation holds it."""
        g = self._gestures if gestures is None else gestures
        return Night(
            self.players,
            self.cards,
            {q: x for q, x in g.items() if x != _EMPTY},
            dict(self._withdrawals) if withdrawals is None else withdrawals,
            dict(self._zombie_targets) if zombie_targets is None else zombie_targets,
            {q: dict(self.journals[i]) for i, q in enumerate(self.players)},
            self.sheet,
        )

    def _end_night(self) -> None:
        night = self._night()
        result = resolve(night)
        self.journals = [dict(j) for j in result.journals]
        self.nights.append(NightRecord(self.night, self.players[self.active],
                                       self._set_aside, tuple(self._picks), night,
                                       result))
        self.early = None
        if result.winners:  # the game ends after this round
            self.winners = result.winner_names
            self.phase = Phase.OVER
            self._dp += 1
            self._required = ()
            self._pending = []
            self._legal_cache = {}
            return
        self._begin_night()

    def current_night(self) -> Night | None:
        """The night in progress as far as it has gone (secret parts included), or None
        before the cards are all drafted."""
        if self.phase not in (Phase.GESTURE, Phase.WITHDRAWAL, Phase.ZOMBIE):
            return None
        return self._night()

    def __reduce__(self) -> tuple[object, tuple[Settings, int | str, tuple[Decision, ...]]]:
        """Copied and pickled as its table, seed and decisions: :func:`restore` replays
        them, each one checked, to the same state."""
        return restore, (self.settings, self.seed, tuple(self.log))


@functools.lru_cache(maxsize=1024)
def _draft_order(seed: int | str, night: int, cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """The draft's cards of night ``night``, shuffled by :func:`deck_rng`.

    Memoised: a simulation plays each deal once per seat rotation, with the
    same seed, so the same shuffles (and seeding a generator from a string
    hashes it).
    """
    order = list(cards)
    deck_rng(seed, night).shuffle(order)
    return tuple(order)


@functools.lru_cache(maxsize=8192)
def _gesture_choices(
    players: tuple[str, ...], p: str, card: Card, death: str | None, cast: frozenset[Role]
) -> tuple[GestureChoice, ...]:
    """:func:`gesture_options` as the decisions of ``p``, memoised: the same table
    deals the same options night after night."""
    return tuple(GestureChoice(p, g) for g in gesture_options(players, p, card, death, cast))


def gesture_options(
    players: tuple[str, ...], p: str, card: Card, death: str | None, cast: frozenset[Role]
) -> tuple[Gesture, ...]:
    """Every legal Phase-2 gesture of ``p`` holding ``card`` (R-20, R-116), where
    ``death`` (or nobody) holds Death and ``cast`` is the possible cast.

    A pure function of the table: :meth:`Game.legal` offers these, and a bot
    weighing a card it does not hold yet asks the same question.
    """
    role = card.role
    if role is _DEVIL:
        out: list[Gesture] = []
        for shown in sorted(cast):
            if shown not in NO_DISGUISE:
                out += _shaped(players, p, death, cast, shown, shown, doubled=False)
        return tuple(out)
    doubled = role is _HUNTER and card.edition is Edition.ADVANCED
    return tuple(_shaped(players, p, death, cast, role, None, doubled=doubled))


def _shaped(players: tuple[str, ...], p: str, death: str | None, cast: frozenset[Role],
            shown: Role, shows: Role | None, *, doubled: bool) -> list[Gesture]:
    shape = CAST[shown].gesture
    reach = shape.reach
    if reach is Reach.NOBODY or reach is Reach.BOTH_NEIGHBOURS:
        return [Gesture(shows=shows)]
    if reach is Reach.ANYONE:
        others = [q for q in players if q != p and q != death]
        if shape.targets == 1:
            return [Gesture((q,), shows) for q in others]
        out = []
        for i, a in enumerate(others):
            if doubled:
                out.append(Gesture((a, a), shows))
            for b in others[i + 1:]:
                out.append(Gesture((a, b), shows))
        return out
    if reach is Reach.NEIGHBOUR:
        left, right = _neighbours(players, p, death)
        sides = (left,) if left == right else (left, right)
        if shape.seeks:
            return [Gesture((t,), shows, seeks=g) for t in sides for g in _SEEKABLE]
        return [Gesture((t,), shows) for t in sides]
    if reach is Reach.KIND:
        return [Gesture(shows=shows, kind=k) for k in sorted(cast)
                if k is not _DEATH and not (shown is _ALIEN and k is _ALIEN)]
    return []  # Reach.NAME: Death names at the draft


def _neighbours(players: tuple[str, ...], p: str, death: str | None) -> tuple[str, str]:
    """:func:`darkcity.night.neighbours` where ``death`` (if any) holds Death."""
    seats = {q: _DEATH_CARD if q == death else _ANY_CARD for q in players}
    return neighbours(players, seats, p)


_DEATH_CARD: Final = Card(Role.DEATH)
_ANY_CARD: Final = Card(Role.PRIEST)


def _check(night: Night, player: str) -> None:
    """Validate a candidate night; a refusal becomes :class:`IllegalDecision`."""
    try:
        validate(night)
    except RoundError as e:
        raise IllegalDecision("illegal", e.message, player, e.field) from None


def restore(settings: Settings, seed: int | str, decisions: Sequence[Decision]) -> Game:
    """The game reached from its table and seed by ``decisions`` (e.g. a server's
    stored log, or ``game.log``), each one checked (raises :class:`IllegalDecision`)."""
    game = Game(settings, seed)
    for d in decisions:
        game.do(d)
    return game


def play_randomly(game: Game, rng: random.Random, *, max_nights: int = 1000) -> Game:
    """Play ``game`` to its end with uniformly random legal decisions (the
    simultaneous phases answered in seat order). Returns ``game``."""
    while game.phase is not Phase.OVER:
        if game.night > max_nights:
            raise RuntimeError(f"no winner after {max_nights} nights")
        for p in game.pending:
            choices = game.legal(p)
            game.apply(choices[rng.randrange(len(choices))])
    return game
