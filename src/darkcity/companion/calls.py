"""Phase 4 at the table: the steps called in initiative order, and the cards turned over.

At each call the Mayor asks a :class:`CallQuestion` (the role called, who may turn its
card over, who must, the deck cards that fit each, the Zombies' last choice), and the
answer (a :class:`~darkcity.companion.entries.Call`) is checked against it and against
the night so far; each step is narrated from ``resolve(night, through=step)``, and once
no call is left the night is resolved, its journals written and the victory checked
(:meth:`Calls._after_call`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from darkcity.cast import CAST, STEPS, Edition, Role
from darkcity.companion.cards import Knowledge, assign, determined, fits
from darkcity.companion.entries import Call, EntryError
from darkcity.companion.reckoning import Reckoning
from darkcity.companion.state import STEP_ROLE, Stage, TableNight
from darkcity.deck import card_message
from darkcity.i18n import msg
from darkcity.narration import messages
from darkcity.night import Card, Fate, resolve
from darkcity.terms import role_term

__all__ = ["CallQuestion", "Calls"]

_DEVIL, _DEATH, _ZOMBIE, _HUNTER, _CREATURE, _ANGEL = (
    Role.DEVIL, Role.DEATH, Role.ZOMBIE, Role.HUNTER, Role.CREATURE, Role.ANGEL)
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

    At the Devil's and the Angel's calls, where the Mayor taps who turns the card
    over, a player is a candidate only if the companion would take that answer, and
    ``options`` holds only the cards it would take (the engine asked, one trial
    each: a player who lowered one bolt is a Hunter, never the Devil, D-7).
    ``excludes[q]`` holds ``(p, refusal)`` for each candidate ``p`` that cannot turn
    the card over together with ``q``, with the companion's refusal in words: the
    page refuses the second tap with it.
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
    excludes: Mapping[str, tuple[tuple[str, EntryError], ...]] = field(default_factory=dict)

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


class Calls(Reckoning):
    """The call the Mayor makes now, and its answer checked and applied."""

    def question(self) -> CallQuestion | None:
        """The call the Mayor makes now (None outside the resolution)."""
        if self.stage is not Stage.RESOLUTION:
            return None
        step = self._next_step()
        assert step is not None
        return self._question(step)

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

    def _question(self, step: str, *, offer: bool = True) -> CallQuestion:
        """The call ``step``; with ``offer`` False, its candidates and cards unsifted by
        trials (an answer is checked whole by :meth:`_call` anyway)."""
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
        excludes: dict[str, tuple[tuple[str, EntryError], ...]] = {}
        if offer and (role is _DEVIL or role is _ANGEL):
            forced = self._forced(role, candidates)
            candidates, options, excludes = self._offered(step, role, candidates, tuple(asked),
                                                          options)
            chosen = tuple(p for p in candidates if p in chosen or p in forced)
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
                            self._follows(q), excludes)

    def _offered(self, step: str, role: Role, candidates: tuple[str, ...],
                 asked: tuple[str, ...], options: Mapping[str, tuple[Card, ...]]
                 ) -> tuple[tuple[str, ...], dict[str, tuple[Card, ...]],
                            dict[str, tuple[tuple[str, EntryError], ...]]]:
        """At a call where the Mayor taps who turns the card over: the candidates and
        cards the companion would take in some answer (alone, or beside one other: a
        deck holds at most two cards of a role, R-92), and the pairs it refuses
        together, with the refusal. A tap is never taken and then dropped: what
        cannot be entered is not offered, or is refused at the tap in the engine's
        words."""
        q = CallQuestion(step, role, candidates, (), asked, options)
        base = {a: options[a][0] for a in asked if options.get(a)}

        def ok(cards: Mapping[str, Card]) -> bool:
            return self._trial(Call(step, {**base, **cards}, {}), q) is None

        usable = {(p, c) for p in candidates for c in options.get(p, ()) if ok({p: c})}
        together: dict[tuple[str, str], bool] = {}
        for i, b in enumerate(candidates):
            for a in candidates[:i]:
                found = False
                for x in options.get(a, ()):
                    for y in options.get(b, ()):
                        if x != y and ok({a: x, b: y}):
                            usable.update(((a, x), (b, y)))
                            found = True
                            break
                together[(a, b)] = found
        if not usable and not ok({}):
            return candidates, dict(options), {}  # Next says why, whatever is tapped
        kept: dict[str, tuple[Card, ...]] = {a: options[a] for a in asked}
        offered: list[str] = []
        for p in candidates:
            fit = tuple(c for c in options.get(p, ()) if (p, c) in usable)
            if fit:
                offered.append(p)
                kept[p] = fit
        excludes: dict[str, tuple[tuple[str, EntryError], ...]] = {}
        for i, b in enumerate(offered):
            for a in offered[:i]:
                if together[(a, b) if candidates.index(a) < candidates.index(b) else (b, a)]:
                    continue
                why = self._trial(Call(step, {**base, a: kept[a][0], b: kept[b][0]}, {}), q)
                if why is None:  # (the same card twice: the deck's one card)
                    why = self._trial(Call(step, {**base, a: kept[a][0], b: kept[b][-1]}, {}), q)
                if why is None:
                    continue
                excludes[b] = (*excludes.get(b, ()), (a, why))
                excludes[a] = (*excludes.get(a, ()), (b, why))
        return tuple(offered), kept, excludes

    def _forced(self, role: Role, candidates: Iterable[str]) -> tuple[str, ...]:
        """The candidates whose card can only be ``role`` (three players showing the
        Vampire with two Vampire cards in the deck: one is the Devil): pressed at the
        call, and tried with every other candidate."""
        known = self._knowledge(set())
        deck = [c for c in self._cards if c.role is not _DEATH]
        others = frozenset(r for r in Role if r is not role)
        out = []
        for p in candidates:
            k = known.get(p, Knowledge())
            if k.revealed is not None:
                continue
            rest = (k.roles or others) & others
            mine = dict(known)
            mine[p] = Knowledge(roles=rest, advanced=k.advanced)
            if not rest or isinstance(assign(deck, mine, self.gesturing), str):
                out.append(p)
        return tuple(out)

    def _trial(self, e: Call, q: CallQuestion) -> EntryError | None:
        """The companion's refusal of the call ``e`` (None: it would be taken), the
        table left as it was: the checks of :meth:`_call`, nothing narrated."""
        night = self._night
        saved = (dict(night.turned), dict(night.zombies), set(night.prefer), len(night.calls))
        try:
            self._verify_call(e, q)
            night.calls.append(e)
            night.turned.update(e.cards)
            self._check(prefer=set())
        except EntryError as err:
            return err
        finally:
            del night.calls[saved[3]:]
            night.turned, night.zombies, night.prefer = saved[0], saved[1], saved[2]
        return None

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
        q = self._question(step, offer=False)
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
            words = tuple(messages([ev for ev in result.events if ev.step == step],
                                   result.night))
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
        end = tuple(messages([ev for ev in result.events if ev.step == "end"], night))
        self._night.narration.append(("end", end))
        self.journals = [dict(j) for j in result.journals]
        self.nights.append(TableNight(self._night.number, self.active, night, result))
        self.finished_at.append(len(self.entries) + 1)  # the entry being applied ends it
        if result.winners:
            self.winners = result.winner_names
            self.stage = Stage.OVER
        else:
            self.stage = Stage.JOURNALS



def _known_or(role: Role | None, other: Role) -> Role:
    """``role`` unless it is None (a Role is an int: the Devil is 0, and false)."""
    return other if role is None else role
