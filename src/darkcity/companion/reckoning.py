"""What the table knows of each card, and the night so far as the engine reads it.

The cards stay face down until they are called, so a companion reasons as a Mayor does:
a player's real role is known once it is turned over, once the Devils are settled, or
once a call of the role shown went by without them (:meth:`Reckoning._role_known`); the
cards still unknown are given one assignment the table allows
(:func:`darkcity.companion.cards.assign`), and the night so far, so completed, is asked
of the engine (:func:`darkcity.validation.validate`): its refusal, in plain words, is the
entry's (:meth:`Reckoning._check`). :meth:`Reckoning.final_night` is the finished night
with the cards as the table knows them.
"""

from __future__ import annotations

from collections.abc import Mapping

from darkcity.cast import CAST, Edition, Role
from darkcity.companion.cards import Knowledge, assign, could_be_devil, determined
from darkcity.companion.entries import Call, EntryError
from darkcity.companion.state import STEP_ROLE, TableState
from darkcity.deck import card_message
from darkcity.game import gesture_options
from darkcity.i18n import msg
from darkcity.night import Card, Gesture, Night, RoundError, possible_cast
from darkcity.terms import role_term
from darkcity.validation import validate

__all__ = ["Reckoning"]

_DEVIL, _DEATH, _HUNTER = Role.DEVIL, Role.DEATH, Role.HUNTER


class Reckoning(TableState):
    """Each card as far as the table knows it; the night so far, checked by the engine."""
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



def _default_gesture(c: TableState, p: str, card: Card) -> Gesture:
    """A legal gesture for a player whose gesture is not entered yet (the check of an
    entry needs a whole night)."""
    options = gesture_options(c.players, p, card, c.death, frozenset(
        possible_cast(Night((), {}, journal_roles=c.sheet))))
    return options[0] if options else Gesture()
