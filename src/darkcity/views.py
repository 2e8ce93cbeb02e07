"""What one player, or a spectator, may know: THE per-player view.

:func:`view` is the only way game state should leave the engine for a
player (a server sends it, a bot reads it, the terminal prints it). It is a
frozen tree of dataclasses holding strings, numbers and tuples only;
:meth:`View.to_dict` gives plain JSON data.

What a view shows (rulings R-110 .. R-114, R-118; PT "Fase 1", "Morte"):

* always: the seating, the Mayor, the night, the phase, who must decide and
  who has decided (never what), the journal sheet, the journals (public,
  R-118) — the free XP once everybody has chosen it —, Death face up when in
  play and who took it, and every finished night in full (all played cards
  are shown at the end of a night, R-114), its narration and winners;
* to a player: their own card, the hand they hold when it is their turn in
  Phase 1 (not while Death is offered, R-82) and the hands they received
  tonight, their own gesture, withdrawal and Zombie choice once committed,
  Death's name if they wrote it, and their legal decisions;
* during a night, who took a face-down card (the table sees the last drafter
  reach for them; never which card);
* after the reveal of Phase 2, every gesture but Death's name; after the
  reveal of Phase 3, every withdrawal; during the Zombies' choice, the
  narration of steps 1+ to 3 and everyone's fate after them (R-113).

Never: another player's card or hand before the night ends, the face-down
or unchosen cards, the seed or any random state.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields, is_dataclass
from types import MappingProxyType
from typing import Any, Final, TypeVar

from darkcity.cast import Edition, Gender, Role
from darkcity.decisions import (
    Decision,
    DecisionPoint,
    Phase,
    decision_to_dict,
)
from darkcity.game import Game
from darkcity.i18n import DEFAULT_LANGUAGE, Translator, as_translator
from darkcity.narration import render_all
from darkcity.night import Card, Event, Gesture, Night
from darkcity.settings import NightRecord

__all__ = [
    "CardView",
    "EventView",
    "GestureView",
    "LazyView",
    "NightView",
    "SeatView",
    "View",
    "card_view",
    "fields_to_dict",
    "view",
]


@dataclass(frozen=True, slots=True)
class CardView:
    role: str
    edition: str
    gender: str


@dataclass(frozen=True, slots=True)
class GestureView:
    shows: str  # the role whose gesture is made
    targets: tuple[str, ...] = ()
    kind: str | None = None
    seeks: str | None = None
    names: str | None = None  # Death's name: its writer only, or after the night


@dataclass(frozen=True, slots=True)
class EventView:
    step: str
    event: str  # the narration key
    player: str
    target: str | None
    text: str


@dataclass(frozen=True, slots=True)
class SeatView:
    name: str
    journal: tuple[tuple[str, int], ...]  # (role, XP), sheet order
    decided: bool | None  # None: not asked at this decision point
    card: CardView | None  # own card; Death's (face up) for all
    gesture: GestureView | None
    withdrawal: bool | tuple[int, ...] | None
    zombie_target: str | None
    death: bool  # took Death tonight (public: the card lay face up)


# each field's setter, in field order: a slot's descriptor in Python, an attribute's
# in the compiled module (mypyc makes SeatView a native class; both set a frozen field)
_SEAT_SLOTS: Final = tuple(vars(SeatView)[f.name].__set__ for f in fields(SeatView))


def _seat_view(name: str, journal: tuple[tuple[str, int], ...], decided: bool | None,
               card: CardView | None, gesture: GestureView | None,
               withdrawal: bool | tuple[int, ...] | None, zombie_target: str | None,
               death: bool) -> SeatView:
    """``SeatView(name, journal, ...)``: the same object, made by setting its slots
    directly. A frozen dataclass's ``__init__`` calls ``object.__setattr__`` once a
    field, most of what the views' most-made object costs (the research environment
    makes about one an observation); this is a third of it. (Compiled, that
    ``__init__`` is still the interpreted one ``dataclass`` writes: a fifth.)"""
    s = SeatView.__new__(SeatView)
    a, b, c, d, e, f, g, h = _SEAT_SLOTS
    a(s, name)
    b(s, journal)
    c(s, decided)
    d(s, card)
    e(s, gesture)
    f(s, withdrawal)
    g(s, zombie_target)
    h(s, death)
    return s


@dataclass(frozen=True, slots=True)
class NightView:
    """A finished night: public in full (R-114), never its draft."""

    number: int
    active: str
    cards: tuple[tuple[str, CardView], ...]
    gestures: tuple[tuple[str, GestureView], ...]
    withdrawals: tuple[tuple[str, bool | tuple[int, ...]], ...]
    zombie_targets: tuple[tuple[str, str], ...]
    fates: tuple[tuple[str, str], ...]
    marks: tuple[tuple[str, tuple[str, ...]], ...]
    xp: tuple[tuple[str, int], ...]
    events: tuple[EventView, ...]
    winners: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class View:
    viewer: str | None  # None: a spectator
    players: tuple[str, ...]
    mayor: str
    night: int
    phase: str
    active: str
    decision_id: int
    required: tuple[str, ...]
    pending: tuple[str, ...]
    journal_roles: tuple[str, ...]
    death_in_play: bool
    blind_pick: str | None  # who took a face-down card tonight (public, never the card)
    seats: tuple[SeatView, ...]
    hand: tuple[CardView, ...] | None  # the viewer's hand while choosing
    received: tuple[CardView, ...]  # the hand the viewer received tonight
    choices: tuple[dict[str, Any], ...]  # the viewer's legal decisions
    narration: tuple[EventView, ...]  # tonight's public narration so far
    #: While the Zombies choose: every player's fate after steps 1+ to 3 ("alive",
    #: "withdrawn", "killed", "damned", "abducted", "absent"), public as narrated.
    fates_so_far: tuple[tuple[str, str], ...]
    history: tuple[NightView, ...]
    winners: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data (new lists and dicts every call: the caller's to change)."""
        return {name: plain(getattr(self, name)) for name, plain in _FIELD_PLAIN.items()}


def fields_to_dict(part: Mapping[str, Any]) -> dict[str, Any]:
    """Some of a :class:`View`'s fields (name to value, as ``getattr`` gives them) as
    plain JSON data, each as :meth:`View.to_dict` has it: a ``state`` message that
    leaves out the fields its reader holds (``room/broadcast.py``)."""
    return {name: _FIELD_PLAIN[name](value) for name, value in part.items()}


def _plain(x: object) -> Any:
    if is_dataclass(x) and not isinstance(x, type):
        return {f.name: _plain(getattr(x, f.name)) for f in fields(x)}
    if isinstance(x, tuple | list):
        return [_plain(v) for v in x]
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    if isinstance(x, enum.Enum):
        return x.value
    return x


def _card_dict(c: CardView) -> dict[str, Any]:
    return {"role": c.role, "edition": c.edition, "gender": c.gender}


def _gesture_dict(g: GestureView) -> dict[str, Any]:
    return {"shows": g.shows, "targets": list(g.targets), "kind": g.kind, "seeks": g.seeks,
            "names": g.names}


def _event_dict(e: EventView) -> dict[str, Any]:
    return {"step": e.step, "event": e.event, "player": e.player, "target": e.target,
            "text": e.text}


def _withdrawal_plain(w: bool | tuple[int, ...] | None) -> bool | list[int] | None:
    return list(w) if isinstance(w, tuple) else w


def _seat_dict(s: SeatView) -> dict[str, Any]:
    return {"name": s.name, "journal": [[r, x] for r, x in s.journal], "decided": s.decided,
            "card": None if s.card is None else _card_dict(s.card),
            "gesture": None if s.gesture is None else _gesture_dict(s.gesture),
            "withdrawal": _withdrawal_plain(s.withdrawal), "zombie_target": s.zombie_target,
            "death": s.death}


def _night_dict(n: NightView) -> dict[str, Any]:
    return {
        "number": n.number, "active": n.active,
        "cards": [[p, _card_dict(c)] for p, c in n.cards],
        "gestures": [[p, _gesture_dict(g)] for p, g in n.gestures],
        "withdrawals": [[p, _withdrawal_plain(w)] for p, w in n.withdrawals],
        "zombie_targets": [[p, t] for p, t in n.zombie_targets],
        "fates": [[p, f] for p, f in n.fates],
        "marks": [[p, list(m)] for p, m in n.marks],
        "xp": [[p, x] for p, x in n.xp],
        "events": [_event_dict(e) for e in n.events],
        "winners": list(n.winners),
    }


def _same(x: Any) -> Any:
    return x


def _listed(x: Any) -> Any:
    return list(x)


#: Each field of a :class:`View` and how it is written as plain JSON data.
_FIELD_PLAIN: Final[Mapping[str, Callable[[Any], Any]]] = MappingProxyType({
    "viewer": _same, "players": _listed, "mayor": _same, "night": _same, "phase": _same,
    "active": _same, "decision_id": _same, "required": _listed, "pending": _listed,
    "journal_roles": _listed, "death_in_play": _same, "blind_pick": _same,
    "seats": lambda seats: [_seat_dict(s) for s in seats],
    "hand": lambda hand: None if hand is None else [_card_dict(c) for c in hand],
    "received": lambda cards: [_card_dict(c) for c in cards],
    "choices": lambda choices: [_plain(c) for c in choices],
    "narration": lambda events: [_event_dict(e) for e in events],
    "fates_so_far": lambda fates: [[p, f] for p, f in fates],
    "history": lambda nights: [_night_dict(n) for n in nights],
    "winners": _listed,
})


def _new_card_view(card: Card) -> CardView:
    gender = card.identity
    return CardView(card.role.key, card.edition.value, gender.value if gender else "")


#: Every card there can be, viewed once (cards and their views are immutable values).
_CARD_VIEWS: Final[Mapping[Card, CardView]] = MappingProxyType({
    Card(r, e, g): _new_card_view(Card(r, e, g))
    for r in Role for e in Edition for g in (None, *Gender)})


def card_view(card: Card) -> CardView:
    """What a card shows: its role, edition and gender (the drawn identity)."""
    cv = _CARD_VIEWS.get(card)
    return cv if cv is not None else _new_card_view(card)


def _gesture_view(g: Gesture | None, role: Role, *, names: bool) -> GestureView:
    if g is None:
        return GestureView(role.key)
    return GestureView(
        (g.shows or role).key,
        g.targets,
        g.kind.key if g.kind is not None else None,
        g.seeks.value if g.seeks is not None else None,
        g.names if names else None,
    )


def _event_views(events: Sequence[Event], night: Night, t: Translator
                 ) -> tuple[EventView, ...]:
    players = night.players
    return tuple(EventView(e.step, e.key, players[e.actor],
                           players[e.target] if e.target >= 0 else None, text)
                 for e, text in zip(events, render_all(events, night, t), strict=True))


def _night_view(rec: NightRecord, t: Translator | None) -> NightView:
    """A finished night; with no translator, without its narration (``events`` empty)."""
    night, res = rec.night, rec.result
    players = night.players
    return NightView(
        rec.number,
        rec.active,
        tuple((p, card_view(night.cards[p])) for p in players),
        tuple((p, _gesture_view(night.gestures.get(p), night.cards[p].role, names=True))
              for p in players),
        tuple((p, w) for p in players if (w := night.withdrawals.get(p)) is not None),
        tuple((p, night.zombie_targets[p]) for p in players if p in night.zombie_targets),
        tuple((p, res.fates[i].value) for i, p in enumerate(players)),
        tuple((p, tuple(sorted(m.value for m in res.marks[i]))) for i, p in enumerate(players)),
        tuple((p, res.xp[i]) for i, p in enumerate(players)),
        () if t is None else _event_views(res.events, night, t),
        res.winner_names,
    )


_In = TypeVar("_In")
_Out = TypeVar("_Out")


def _scratch(game: Game, key: str) -> dict[Any, Any]:
    """A memo of the views in ``game.memo`` (a copied or restored game starts empty)."""
    got = game.memo.get(key)
    if not isinstance(got, dict):
        got = game.memo[key] = {}
    return got


def _per_tuple(game: Game, key: str, items: tuple[_In, ...], make: Callable[[_In], _Out],
               limit: int) -> tuple[_Out, ...]:
    """``make`` over a tuple the game holds, once per tuple: the memo is keyed by the
    tuple's id and keeps the tuple, so the id stays its own; at ``limit`` entries it
    starts again."""
    memo = _scratch(game, key)
    got = memo.get(id(items))
    if got is not None and got[0] is items:
        out: tuple[_Out, ...] = got[1]
        return out
    out = tuple(map(make, items))
    if len(memo) >= limit:
        memo.clear()
    memo[id(items)] = (items, out)
    return out


def _history(game: Game, since: int, t: Translator, memo: bool) -> tuple[NightView, ...]:
    """The finished nights from ``since``: each rendered once per game and language."""
    key = "views.history" if t.lang == DEFAULT_LANGUAGE else f"views.history.{t.lang}"
    done = game.memo.get(key) if memo else None
    if not isinstance(done, list):
        done = []
        if memo:
            game.memo[key] = done
    for rec in game.nights[len(done):]:
        done.append(_night_view(rec, t))
    if since > 1:
        return tuple(done[since - 1:])
    if memo:  # all of them, as one tuple until the next night ends
        whole = _scratch(game, "views.history.tuple")
        got = whole.get(t.lang)
        if got is None or len(got) != len(done):
            got = whole[t.lang] = tuple(done)
        assert isinstance(got, tuple)
        return got
    return tuple(done)


def _bare_history(game: Game, since: int) -> tuple[NightView, ...]:
    """The finished nights from ``since`` without their narration, each made once."""
    done = game.memo.get("views.nights")
    if not isinstance(done, list):
        done = game.memo["views.nights"] = []
    if len(done) < len(game.nights):
        done.extend(_night_view(rec, None) for rec in game.nights[len(done):])
    if since > 1:
        return tuple(done[since - 1:])
    whole = _scratch(game, "views.nights.tuple")
    got = whole.get("all")
    if got is None or len(got) != len(done):
        got = whole["all"] = tuple(done)
    assert isinstance(got, tuple)
    return got


def _choices(game: Game, legal: tuple[Decision, ...]) -> tuple[dict[str, Any], ...]:
    """The legal decisions as plain data, made once per tuple the engine hands out
    (the engine keeps a player's choices at a decision point, and a card's gestures
    in a seat for the game, in one tuple)."""
    if not legal:
        return ()
    return _per_tuple(game, "views.choices", legal, decision_to_dict, 1024)


def _journals(game: Game) -> tuple[tuple[tuple[str, int], ...], ...]:
    """Every seat's journal (role, XP) in sheet order: they change only when a night
    ends (and when the set-up does), so they are made once per finished night."""
    memo = _scratch(game, "views.journals")
    done = len(game.nights)
    got = memo.get("at")
    if got is not None and got[0] == done:
        out: tuple[tuple[tuple[str, int], ...], ...] = got[1]
        return out
    sheet = game.sheet
    out = tuple(tuple((r.key, j[r]) for r in sheet if j.get(r)) for j in game.journals)
    memo["at"] = (done, out)
    return out


def _seat_gesture(game: Game, g: Gesture, role: Role, mine: bool) -> GestureView:
    """A committed gesture's view in a seat, made once a night: its player's (with
    Death's name) and everyone's are the same object when it names nobody."""
    names = mine and g.names is not None
    memo = _scratch(game, "views.gestures")
    key = (id(g), role, names)  # (a gesture may be one object for two roles)
    got = memo.get(key)
    if got is not None and got[0] is g:
        out: GestureView = got[1]
        return out
    if len(memo) >= 256:
        memo.clear()
    out = _gesture_view(g, role, names=names)
    memo[key] = (g, out)
    return out


def _seat(game: Game, i: int, p: str, mine: bool, phase: Phase,
          pending: tuple[str, ...], required: tuple[str, ...]) -> SeatView:
    """Seat ``i`` (player ``p``) as its player (``mine``) or anybody else sees it."""
    if phase is not Phase.SETUP:
        journal = _journals(game)[i]
    elif mine and p in game.free_xp:
        journal = ((game.free_xp[p].key, 1),)
    else:
        journal = ()
    over = phase is Phase.OVER
    is_death = game.death == p and not over
    card = None
    if (mine or is_death) and not over and p in game.cards:
        card = card_view(game.cards[p])
    gesture = None
    # gestures are revealed together, withdrawals after them
    if phase in _IN_NIGHT and p in game.gestures and (
            mine or (phase is not Phase.GESTURE and not is_death)):
        gesture = _seat_gesture(game, game.gestures[p], game.cards[p].role, mine)
    withdrawal: bool | tuple[int, ...] | None = None
    if p != game.death and (phase is Phase.ZOMBIE or (
            mine and phase is Phase.WITHDRAWAL and p not in pending)):
        withdrawal = game.withdrawals.get(p, False)
    zombie = game.zombie_targets.get(p) if (mine and phase is Phase.ZOMBIE) else None
    decided = None if p not in required else p not in pending
    return _seat_view(p, journal, decided, card, gesture, withdrawal, zombie, is_death)


_IN_NIGHT: Final = frozenset((Phase.GESTURE, Phase.WITHDRAWAL, Phase.ZOMBIE))
_TONIGHT: Final = frozenset((Phase.DRAFT, *_IN_NIGHT))


def _faces(game: Game) -> dict[Any, Any]:
    """The seats' faces made this night and phase (forgotten when either moves on)."""
    memo = _scratch(game, "views.seats")
    at = (game.night, game.phase)
    if memo.get("at") != at:
        memo.clear()
        memo["at"] = at
    return memo


#: The phases whose public faces are the same: the draft shows no more than the
#: gestures' phase does (the journals, and Death's card face up), since the gestures
#: are revealed together at the end of their phase (R-110).
_FACE_CLASS: Final = {Phase.SETUP: 0, Phase.DRAFT: 1, Phase.GESTURE: 1, Phase.WITHDRAWAL: 2,
                      Phase.ZOMBIE: 3, Phase.OVER: 4}


def _public_faces(game: Game) -> tuple[SeatView, ...]:
    """Every seat's public face tonight, ``decided`` left None: one tuple, the same
    object for every decision point of a phase (of the draft and the gestures'
    phase, which show the same) while Death stays where it is.

    Within one night and phase a seat's public face changes only with whether its
    player has decided and whether it holds Death: the journals change between
    nights, the gestures are all in when Phase 3 reveals them, the withdrawals
    when the Zombies' phase does, and Death's card lies face up from the pick on.
    Whether a seat is asked and has decided is the decision point's (``required``
    and ``pending``); the rest, the face, is made once per night, phase and seat
    of Death (``tests/test_views_reference.py`` checks every view of random games
    against views made from scratch)."""
    memo = _scratch(game, "views.faces")
    phase = game.phase
    death = game.death if phase is not Phase.OVER else None
    at = (game.night, _FACE_CLASS[phase], death)
    got = memo.get("at")
    if got is not None and got[0] == at:
        faces: tuple[SeatView, ...] = got[1]
        return faces
    if memo.get("night") != at[:2]:
        memo.clear()
        memo["night"] = at[:2]
    out = []
    for i, p in enumerate(game.players):
        key = (p, p == death)
        face = memo.get(key)
        if face is None:
            face = memo[key] = _seat(game, i, p, False, phase, (), ())
        out.append(face)
    faces = tuple(out)
    memo["at"] = (at, faces)
    return faces


def _public_seats(game: Game, dp: DecisionPoint) -> tuple[SeatView, ...]:
    """Every seat as a spectator sees it: the faces (:func:`_public_faces`) with
    whether each seat has decided; one tuple per decision point and pending
    players, shared by every view made there, and one seat object per face and
    ``decided``."""
    memo = _faces(game)
    state = (dp.id, dp.pending)
    got = memo.get("state")
    if got is not None and got[0] == state:
        seats: tuple[SeatView, ...] = got[1]
        return seats
    pending = dp.pending
    required = dp.required
    out = []
    for face in _public_faces(game):
        p = face.name
        if p not in required:
            out.append(face)
            continue
        decided = p not in pending
        key = (p, decided, face.death)
        seat = memo.get(key)
        if seat is None:
            seat = memo[key] = _seat_view(p, face.journal, decided, face.card, face.gesture,
                                          face.withdrawal, face.zombie_target, face.death)
        out.append(seat)
    seats = tuple(out)
    memo["state"] = (state, seats)
    return seats


def _own_seat(game: Game, dp: DecisionPoint, p: str) -> SeatView:
    """Player ``p``'s seat as ``p`` sees it.

    Within one night and phase it changes with what changes the public face, and
    with whether ``p`` holds a card (drafted in Phase 1): what ``p`` commits (the
    free XP, a gesture, a withdrawal, a Zombie's victim) is in as ``p`` has decided.
    Made once per night, phase and those three."""
    memo = _faces(game)
    phase = game.phase
    pending = dp.pending
    required = dp.required
    death = game.death if phase is not Phase.OVER else None
    key = ("own", p, None if p not in required else p not in pending, p == death,
           p in game.cards)
    seat = memo.get(key)
    if seat is None:
        seat = memo[key] = _seat(game, game.players.index(p), p, True, phase, pending,
                                 required)
    assert isinstance(seat, SeatView)
    return seat


def _cards(game: Game, cards: tuple[Card, ...]) -> tuple[CardView, ...]:
    """The views of a tuple of cards the game holds (a hand received), made once."""
    return _per_tuple(game, "views.cards", cards, card_view, 256)


def _tonight(game: Game, t: Translator, memo: bool
             ) -> tuple[tuple[EventView, ...], tuple[tuple[str, str], ...]]:
    """While the Zombies choose: the narration of steps 1+ to 3 and the fates after."""
    early = game.early
    if game.phase is not Phase.ZOMBIE or early is None:
        return (), ()
    cache = _scratch(game, "views.early") if memo else {}
    got = cache.get(t.lang)
    if got is not None and got[0] is early:
        return got[1], got[2]
    night = early.night
    narration = _event_views(early.events, night, t)
    fates = tuple((p, f.value) for p, f in zip(night.players, early.fates, strict=True))
    cache[t.lang] = (early, narration, fates)
    return narration, fates


class LazyView:
    """A :class:`View` read field by field: each field is made when it is read, by
    the same code that makes the :class:`View` (:meth:`view` gives it whole), so a
    reader that needs less (the research environment never reads the choices as
    dicts, nor the narration) pays for less. Made for one decision point: read it
    before the game moves on.

    Besides the fields of a :class:`View`, :attr:`public_seats` is every seat as a
    spectator sees it (the same tuple for every viewer at this decision point;
    :attr:`seats` is it with the viewer's own seat in its place)."""

    __slots__ = ("_dp", "_game", "_memo", "_own", "_since", "_tr", "_translate", "viewer")

    def __init__(self, game: Game, player: str | None = None, *, since: int = 1,
                 translate: Callable[[str], str] | None = None) -> None:
        if player is not None and player not in game.players:
            raise ValueError(f"{player!r} is not one of the players")
        self._game = game
        self.viewer = player
        self._since = since
        self._translate = translate
        self._tr: Translator | None = None
        self._memo = translate is None or isinstance(translate, Translator)
        self._dp = game.decision_point()
        self._own: SeatView | None = None

    @property
    def _t(self) -> Translator:
        """The language of the narration (made when a field with texts is read)."""
        if self._tr is None:
            self._tr = as_translator(self._translate)
        return self._tr

    @property
    def players(self) -> tuple[str, ...]:
        return self._game.players

    @property
    def point(self) -> DecisionPoint:
        """The decision point this view is of (its id, phase, night, required and
        pending): the same object while the game stays there."""
        return self._dp

    @property
    def mayor(self) -> str:
        g = self._game
        return g.players[g.settings.mayor_seat]

    @property
    def night(self) -> int:
        return self._dp.night

    @property
    def phase(self) -> str:
        return self._dp.phase.value

    @property
    def active(self) -> str:
        return self._game.active_player

    @property
    def decision_id(self) -> int:
        return self._dp.id

    @property
    def required(self) -> tuple[str, ...]:
        return self._dp.required

    @property
    def pending(self) -> tuple[str, ...]:
        return self._dp.pending

    @property
    def journal_roles(self) -> tuple[str, ...]:
        return tuple(r.key for r in self._game.sheet)

    @property
    def death_in_play(self) -> bool:
        return self._game.death_in_play

    @property
    def blind_pick(self) -> str | None:
        return self._game.blind_pick

    @property
    def public_seats(self) -> tuple[SeatView, ...]:
        """Every seat as a spectator sees it (shared by the views at this point)."""
        return _public_seats(self._game, self._dp)

    @property
    def public_faces(self) -> tuple[SeatView, ...]:
        """Every seat's public face, ``decided`` left None (:attr:`required` and
        :attr:`pending` say who is asked and who has decided): the same tuple for
        every decision point of a phase while no face changes, for a reader that
        keeps what it made of a face (the research environment)."""
        return _public_faces(self._game)

    @property
    def own_seat(self) -> SeatView | None:
        """The viewer's seat as the viewer sees it (None: a spectator)."""
        if self.viewer is None:
            return None
        if self._own is None:
            self._own = _own_seat(self._game, self._dp, self.viewer)
        return self._own

    @property
    def seats(self) -> tuple[SeatView, ...]:
        public = self.public_seats
        own = self.own_seat
        if own is None:
            return public
        i = self._game.players.index(own.name)
        return (*public[:i], own, *public[i + 1:])

    @property
    def hand(self) -> tuple[CardView, ...] | None:
        g = self._game
        p = self.viewer
        if p is not None and self._dp.phase is Phase.DRAFT and p in self._dp.pending and \
                g.may_look:
            return tuple(map(card_view, g.hand))
        return None

    @property
    def received(self) -> tuple[CardView, ...]:
        g = self._game
        p = self.viewer
        if p is not None and self._dp.phase in _TONIGHT and p in g.received:
            return _cards(g, g.received[p])
        return ()

    @property
    def choices(self) -> tuple[dict[str, Any], ...]:
        if self.viewer is None:
            return ()
        return _choices(self._game, self._game.legal(self.viewer))

    @property
    def narration(self) -> tuple[EventView, ...]:
        return _tonight(self._game, self._t, self._memo)[0]

    @property
    def fates_so_far(self) -> tuple[tuple[str, str], ...]:
        return _tonight(self._game, self._t, self._memo)[1]

    @property
    def history(self) -> tuple[NightView, ...]:
        return _history(self._game, self._since, self._t, self._memo)

    @property
    def nights(self) -> tuple[NightView, ...]:
        """:attr:`history` without the narration: each night's ``events`` is empty,
        the rest the same (for a reader that shows no narration: made once per
        game, in no language)."""
        return _bare_history(self._game, self._since)

    @property
    def winners(self) -> tuple[str, ...]:
        return self._game.winners

    def view(self) -> View:
        """The whole :class:`View`."""
        return View(self.viewer, self.players, self.mayor, self.night, self.phase,
                    self.active, self.decision_id, self.required, self.pending,
                    self.journal_roles, self.death_in_play, self.blind_pick, self.seats,
                    self.hand, self.received, self.choices, self.narration,
                    self.fates_so_far, self.history, self.winners)


def view(game: Game, player: str | None = None, *, since: int = 1,
         translate: Callable[[str], str] | None = None) -> View:
    """What ``player`` (None: a spectator) may know about ``game`` right now.

    ``history`` holds the finished nights numbered ``since`` and later (all of
    them by default; a server that already sent the earlier ones asks for less).
    The narration texts (``EventView.text``) are in ``translate``'s language (a
    :class:`~darkcity.i18n.Translator`, e.g. ``translator("pt")``; English by
    default).

    A view is a value: asked again at the same decision point (with the same
    players pending), the same object comes back, and the parts that did not
    change since an earlier view (a seat, a card, a finished night, the dicts of
    the legal choices) are the earlier objects. Read it, never change it in
    place (:meth:`View.to_dict` gives fresh data to change). :class:`LazyView`
    gives the same fields one at a time.
    """
    lazy = LazyView(game, player, since=since, translate=translate)
    if not lazy._memo:
        return lazy.view()
    dp = lazy._dp
    state = (dp.id, dp.pending)
    cache = game.memo.get("views.view")
    if not isinstance(cache, tuple) or cache[0] != state:
        cache = (state, {})
        game.memo["views.view"] = cache
    key = (player, max(since, 1), lazy._t.lang)
    got = cache[1].get(key)
    if got is None:
        got = cache[1][key] = lazy.view()
    assert isinstance(got, View)
    return got
