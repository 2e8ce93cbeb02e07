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
from collections.abc import Callable
from dataclasses import dataclass, fields, is_dataclass
from typing import Any

from darkcity.cast import Role
from darkcity.game import (
    Decision,
    DraftPick,
    FaceDownPick,
    FreeXp,
    Game,
    GestureChoice,
    IllegalDecision,
    LookAtHand,
    NightRecord,
    Phase,
    TakeDeath,
    WithdrawalChoice,
    ZombieChoice,
)
from darkcity.i18n import DEFAULT_LANGUAGE, Message, Translator, as_translator, msg
from darkcity.narration import render
from darkcity.night import Card, Event, Gesture, Night, Withdrawal
from darkcity.notation import gesture_document

__all__ = [
    "CardView",
    "EventView",
    "GestureView",
    "NightView",
    "SeatView",
    "View",
    "card_view",
    "decision_from_dict",
    "decision_to_dict",
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
        """Plain JSON data."""
        out = _plain(self)
        assert isinstance(out, dict)
        return out


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


def card_view(card: Card) -> CardView:
    gender = card.identity
    return CardView(card.role.key, card.edition.value, gender.value if gender else "")


def _gesture_view(g: Gesture | None, role: Role, *, names: bool) -> GestureView:
    if g is None:
        return GestureView(role.key)
    return GestureView(
        (g.shows or role).key,
        g.targets,
        g.kind.key if g.kind else None,
        g.seeks.value if g.seeks else None,
        g.names if names else None,
    )


def _event_view(e: Event, night: Night, t: Translator) -> EventView:
    players = night.players
    return EventView(e.step, e.key, players[e.actor],
                     players[e.target] if e.target >= 0 else None, render(e, night, t))


def _night_view(rec: NightRecord, t: Translator) -> NightView:
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
        tuple(_event_view(e, night, t) for e in res.events),
        res.winner_names,
    )


def decision_to_dict(d: Decision) -> dict[str, Any]:
    """A decision as plain data (``{"type": "gesture", "player": ..., ...}``)."""
    out: dict[str, Any] = {"type": _TYPE_NAMES[type(d)], "player": d.player}
    if isinstance(d, FreeXp):
        out["role"] = d.role.key
    elif isinstance(d, DraftPick):
        out["card"] = _plain(card_view(d.card))
    elif isinstance(d, TakeDeath):
        out["names"] = d.names
    elif isinstance(d, GestureChoice):
        out.update(gesture_document(d.gesture))  # the notation's own form
    elif isinstance(d, WithdrawalChoice):
        w = d.withdrawal
        out["withdrawal"] = w if isinstance(w, bool) else list(w)
    elif isinstance(d, ZombieChoice):
        out["target"] = d.target
    if d.at is not None:
        out["at"] = d.at
    return out


_TYPE_NAMES: dict[type, str] = {
    FreeXp: "free-xp", DraftPick: "draft-pick", FaceDownPick: "face-down-pick",
    TakeDeath: "take-death", LookAtHand: "look-at-hand", GestureChoice: "gesture",
    WithdrawalChoice: "withdrawal", ZombieChoice: "zombie",
}


def decision_from_dict(doc: dict[str, Any]) -> Decision:
    """The inverse of :func:`decision_to_dict`.

    Bad data raises :class:`~darkcity.game.IllegalDecision` with the code
    ``malformed`` (a ``ValueError``, whose ``message`` translates).
    """
    from darkcity.cast import Edition, Gender, parse_role

    def bad(message: Message) -> IllegalDecision:
        return IllegalDecision("malformed", message, p if isinstance(p, str) else None)

    def role(name: object) -> Role:
        r = parse_role(name) if isinstance(name, str) else None
        if r is None:
            raise bad(msg("unknown role {role!r}", role=name))
        return r

    t = doc.get("type")
    p = doc.get("player")
    at = doc.get("at")
    if not isinstance(p, str):
        raise bad(msg("a decision names its player"))
    if at is not None and (not isinstance(at, int) or isinstance(at, bool)):
        raise bad(msg("at is a decision point id"))
    if t == "free-xp":
        return FreeXp(p, role(doc.get("role")), at=at)
    if t == "draft-pick":
        c = doc.get("card")
        if not isinstance(c, dict):
            raise bad(msg("draft-pick needs a card"))
        try:
            gender = Gender(c["gender"]) if c.get("gender") else None
            card = Card(role(c.get("role")), Edition(c.get("edition", "basic")), gender)
        except (KeyError, ValueError) as e:
            raise bad(msg("bad card {card!r}", card=c)) from e
        return DraftPick(p, card, at=at)
    if t == "face-down-pick":
        return FaceDownPick(p, at=at)
    if t == "look-at-hand":
        return LookAtHand(p, at=at)
    if t == "take-death":
        names = doc.get("names")
        if not isinstance(names, str):
            raise bad(msg("take-death names a player"))
        return TakeDeath(p, names, at=at)
    if t == "gesture":
        targets = doc.get("targets", [])
        if not isinstance(targets, list) or not all(isinstance(x, str) for x in targets):
            raise bad(msg("targets is a list of players"))
        seeks = doc.get("seeks")
        try:
            seeking = Gender(seeks) if isinstance(seeks, str) else None
        except ValueError:
            raise bad(msg("unknown gender {gender!r}", gender=seeks)) from None
        g = Gesture(tuple(targets),
                    role(doc["shows"]) if "shows" in doc else None,
                    role(doc["kind"]) if "kind" in doc else None,
                    seeking)
        return GestureChoice(p, g, at=at)
    if t == "withdrawal":
        w = doc.get("withdrawal", False)
        wd: Withdrawal
        if isinstance(w, bool):
            wd = w
        elif isinstance(w, list) and all(isinstance(i, int) and not isinstance(i, bool)
                                         for i in w):
            wd = tuple(w)
        else:
            raise bad(msg("withdrawal is true, false or a list of arrow indices"))
        return WithdrawalChoice(p, wd, at=at)
    if t == "zombie":
        target = doc.get("target")
        if not isinstance(target, str):
            raise bad(msg("zombie needs a target"))
        return ZombieChoice(p, target, at=at)
    raise bad(msg("unknown decision type {type!r}", type=t))


def _history(game: Game, since: int, t: Translator, memo: bool) -> tuple[NightView, ...]:
    key = "views.history" if t.lang == DEFAULT_LANGUAGE else f"views.history.{t.lang}"
    done = game.memo.get(key) if memo else None
    if not isinstance(done, list):
        done = []
        if memo:
            game.memo[key] = done
    for rec in game.nights[len(done):]:
        done.append(_night_view(rec, t))
    return tuple(done[max(since, 1) - 1:])


def view(game: Game, player: str | None = None, *, since: int = 1,
         translate: Callable[[str], str] | None = None) -> View:
    """What ``player`` (None: a spectator) may know about ``game`` right now.

    ``history`` holds the finished nights numbered ``since`` and later (all of
    them by default; a server that already sent the earlier ones asks for less).
    The narration texts (``EventView.text``) are in ``translate``'s language (a
    :class:`~darkcity.i18n.Translator`, e.g. ``translator("pt")``; English by
    default).
    """
    t = as_translator(translate)
    memo = translate is None or isinstance(translate, Translator)
    if player is not None and player not in game.players:
        raise ValueError(f"{player!r} is not one of the players")
    phase = game.phase
    players = game.players
    dp = game.decision_point()
    pending = set(dp.pending)
    required = set(dp.required)
    setup_done = phase is not Phase.SETUP
    in_night = phase in (Phase.GESTURE, Phase.WITHDRAWAL, Phase.ZOMBIE)
    gestures_out = phase in (Phase.WITHDRAWAL, Phase.ZOMBIE)  # revealed together
    withdrawals_out = phase is Phase.ZOMBIE  # revealed together
    sheet = game.sheet

    seats = []
    for i, p in enumerate(players):
        mine = p == player
        if setup_done:
            j = game.journals[i]
            journal = tuple((r.key, j[r]) for r in sheet if j.get(r))
        elif mine and p in game.free_xp:
            journal = ((game.free_xp[p].key, 1),)
        else:
            journal = ()
        card = None
        is_death = game.death == p and phase is not Phase.OVER
        if (mine or is_death) and p in game.cards and phase is not Phase.OVER:
            card = card_view(game.cards[p])
        gesture = None
        if in_night and p in game.gestures and (mine or (gestures_out and not is_death)):
            g = game.gestures[p]
            gesture = _gesture_view(g, game.cards[p].role, names=mine)
        withdrawal: bool | tuple[int, ...] | None = None
        if p != game.death and (withdrawals_out or (
                mine and phase is Phase.WITHDRAWAL and p not in pending)):
            withdrawal = game.withdrawals.get(p, False)
        zombie = game.zombie_targets.get(p) if (mine and phase is Phase.ZOMBIE) else None
        decided = None if p not in required else p not in pending
        seats.append(SeatView(p, journal, decided, card, gesture, withdrawal, zombie, is_death))

    hand = None
    received: tuple[CardView, ...] = ()
    choices: tuple[dict[str, Any], ...] = ()
    if player is not None:
        if phase is Phase.DRAFT and player in pending and game.may_look:
            hand = tuple(card_view(c) for c in game.hand)
        if phase in (Phase.DRAFT, Phase.GESTURE, Phase.WITHDRAWAL, Phase.ZOMBIE) and \
                player in game.received:
            received = tuple(card_view(c) for c in game.received[player])
        choices = tuple(decision_to_dict(d) for d in game.legal(player))

    narration: tuple[EventView, ...] = ()
    fates_so_far: tuple[tuple[str, str], ...] = ()
    if phase is Phase.ZOMBIE and game.early is not None:
        night = game.early.night
        narration = tuple(_event_view(e, night, t) for e in game.early.events)
        fates_so_far = tuple((p, f.value) for p, f in zip(night.players, game.early.fates,
                                                          strict=True))

    return View(
        viewer=player,
        players=players,
        mayor=players[game.settings.mayor_seat],
        night=game.night,
        phase=phase.value,
        active=game.active_player,
        decision_id=dp.id,
        required=dp.required,
        pending=dp.pending,
        journal_roles=tuple(r.key for r in sheet),
        death_in_play=game.death_in_play,
        blind_pick=game.blind_pick,
        seats=tuple(seats),
        hand=hand,
        received=received,
        choices=choices,
        narration=narration,
        fates_so_far=fates_so_far,
        history=_history(game, since, t, memo),
        winners=game.winners,
    )
