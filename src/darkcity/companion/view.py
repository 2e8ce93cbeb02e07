"""What a reader of a table is sent: the table as the Mayor, a player's phone or a
stranger sees it (:func:`view`), drawn by the companion's page.

The one view of the table companion, free of any web framework: the server's
routes (:mod:`darkcity.server.companion`) and the phone's own engine in the
pocket app (:mod:`darkcity.pocket.worker`) both send it, so that the page draws
the same table from either.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from darkcity.cast import CAST, Reach, Role
from darkcity.companion.entries import entry_to_json
from darkcity.companion.state import STEP_ROLE, Stage, TableNight
from darkcity.companion.table import Companion
from darkcity.deck import card_key
from darkcity.i18n import Translator
from darkcity.journal import conditions_met, progress, total
from darkcity.narration import messages
from darkcity.night import Card

__all__ = ["card_json", "night_result", "view"]


def card_json(card: Card) -> dict[str, Any]:
    """A card as the page draws it (its key, role, edition and gender)."""
    return {"key": card_key(card), "role": card.role.key, "edition": card.edition.value,
            "gender": card.identity.value if card.identity else None}


def _shape(role: Role) -> dict[str, Any]:
    g = CAST[role].gesture
    return {"reach": g.reach.value, "targets": g.targets, "seeks": g.seeks,
            "kind": g.reach is Reach.KIND}


def _question(c: Companion, t: Translator) -> dict[str, Any] | None:
    q = c.question()
    if q is None:
        return None
    return {
        "step": q.step, "role": q.role.key if q.role is not None else None,
        "candidates": list(q.candidates), "chosen": list(q.chosen), "asked": list(q.asked),
        "options": {p: [card_json(x) for x in cards] for p, cards in q.options.items()},
        "zombies": {z: {"left": lft, "right": r, "aimed": a}
                    for z, (lft, r, a) in q.zombies.items()},
        # a card told by another's answer at this call: not asked when both turn over
        "follows": {b: [{"from": a,
                         "cards": [[card_json(x), card_json(y)] for x, y in rule.items()]}
                        for a, rule in rules] for b, rules in q.follows.items()},
        # two candidates the companion refuses together: the second tap is refused at
        # once, in these words (the engine's), not taken and then dropped
        "excludes": {b: [{"with": a, "why": e.render(t)} for a, e in pairs]
                     for b, pairs in q.excludes.items()},
    }


def _journals(c: Companion) -> dict[str, Any]:
    return {p: {r.key: x for r, x in c.journals[i].items()} for i, p in enumerate(c.players)}


def view(c: Companion, reader: str | None, t: Translator, *, code: str, version: int,
         lang: str, seated: Iterable[str] = (), set_aside: int = 0) -> dict[str, Any]:
    """The table as ``reader`` sees it: ``"mayor"``, a player's name, or None.

    ``code``, ``version`` and ``lang`` say where the table is kept (the server's
    table code and stored version, or the phone's saved table); ``seated`` names
    the players whose phones took a seat; ``set_aside`` counts the kept entries
    that no longer replay (said to the Mayor only).

    Journals are public (R-118); Death's written name is nobody's until the night
    is resolved, except its writer's.
    """
    night = c.number
    last = c.nights[-1] if c.nights and c.stage in (Stage.JOURNALS, Stage.OVER) else None
    doc: dict[str, Any] = {
        "code": code, "version": version, "lang": lang,
        "set_aside": set_aside if reader == "mayor" else 0,
        "reader": reader, "stage": c.stage.value, "night": night,
        "players": list(c.players), "mayor": c.setup.mayor, "active": c.active,
        "last_drafter": c.last_drafter, "draft_order": list(c.draft_order),
        "death_in_play": c.death_in_play, "death": c.death,
        "death_named": c.death_names is not None,
        # the name Death wrote, once the night is narrated (a correction shows it)
        "death_names": (c.death_names if reader == "mayor" and c.stage in (Stage.JOURNALS,
                                                                          Stage.OVER) else None),
        "deck": {"name": c.deck.name, "cards": [card_json(x) for x in c.deck.cards]},
        "sheet": [r.key for r in c.sheet],
        "showable": [r.key for r in c.showable],
        "shapes": {r.key: _shape(r) for r in Role},
        "kinds": {r.key: [k.key for k in c.kind_options(r)] for r in (Role.ALIEN,
                                                                      Role.VOODOOIST)},
        "neighbours": {p: list(c.neighbours(p)) for p in c.players},
        "gesturing": list(c.gesturing),
        "gestures": {p: {"shows": g.shows.key, "targets": list(g.targets),
                         "kind": g.kind.key if g.kind is not None else None,
                         "seeks": g.seeks.value if g.seeks is not None else None}
                     for p, g in c.gestures.items()} if reader == "mayor" or c.stage not in (
                         Stage.DRAFT, Stage.COUNT) else {},
        "to_enter": list(c.to_enter()) if c.stage is Stage.REVEAL else [],
        "withdrawals": {p: (w if isinstance(w, bool) else list(w))
                        for p, w in c.withdrawals.items()},
        "turned": {p: card_json(x) for p, x in c.turned.items()},
        # tonight's calls as entered (a correction enters one again)
        "calls": [{"step": e.step,
                   "role": STEP_ROLE[e.step].key if e.step != "end" else None,
                   "cards": {p: card_json(x) for p, x in e.cards.items()},
                   "zombies": dict(e.zombies)} for e in c.calls] if reader == "mayor" else [],
        "question": _question(c, t),
        "narration": [{"step": s, "lines": [t.render(m) for m in words]}
                      for s, words in c.narration],
        "journals": _journals(c),
        "totals": {p: total(c.journals[i]) for i, p in enumerate(c.players)},
        "winners": list(c.winners),
        # everybody who met a condition: the tiebreak ranks them
        "contenders": [{"player": p, "xp": total(j), "rows": sum(1 for x in j.values() if x),
                        "conditions": list(conditions_met(j))}
                       for p, j in zip(c.players, c.journals, strict=True)
                       if c.winners and conditions_met(j)],
        "seated": sorted(seated),
        "conditions": {p: list(conditions_met(c.journals[c.players.index(p)]))
                       for p in c.winners},
        "nights": len(c.nights),
        "can_undo": bool(c.entries),
        # what Undo takes back, said on its button; never Death's written name (the
        # Mayor's screen is seen by the table)
        "last_entry": ({k: x for k, x in entry_to_json(c.entries[-1]).items()
                        if k != "death_names"} if reader == "mayor" and c.entries else None),
    }
    if reader is not None and reader != "mayor" and reader == c.death:
        doc["my_death_names"] = c.death_names
    if reader is not None and reader in c.players:
        # how close the reader is to each victory condition, in the engine's count
        # (journal.progress): a newcomer's phone says it, not only the Mayor's journals
        j = c.journals[c.players.index(reader)]
        top = max(j.items(), key=lambda kv: kv[1], default=None)
        doc["my_progress"] = [
            {"condition": k, "have": have, "need": need,
             "row": top[0].key if k == "four-in-one" and top and have else None}
            for k, have, need in progress(j)]
        # the reader's own card, once the table knows it (Death taken, turned over at a
        # call, the night told): their phone puts its rules first
        mine = (last.night.cards.get(reader) if last is not None
                else next(x for x in c.deck.cards if x.role is Role.DEATH)
                if reader == c.death else c.turned.get(reader))
        doc["my_card"] = card_json(mine) if mine is not None else None
    if last is not None:
        doc["result"] = night_result(last, t)
    elif reader is not None and reader in c.players and c.nights:
        # a player's phone keeps the night just told while the next one is under way:
        # the Mayor taps Next night as soon as the story is read, and a player who
        # looked at their phone then found nothing of what happened to them
        doc["last_night"] = night_result(c.nights[-1], t)
    return doc


def night_result(last: TableNight, t: Translator) -> dict[str, Any]:
    """A finished night's fates, XP, cards and story, as the table was told it."""
    r = last.result
    return {
        "number": last.number,
        "players": {p: {"fate": r.fates[i].value, "xp": r.xp[i],
                        "marks": sorted(m.value for m in r.marks[i]),
                        "card": card_json(last.night.cards[p])}
                    for i, p in enumerate(last.night.players)},
        "events": [t.render(m) for m in messages(r.events, last.night)],
    }
