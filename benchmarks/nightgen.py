"""Random *valid* ``darkcity-round/1`` documents, in plain Python.

One generator, two drivers: the benchmarks feed it a seeded :class:`random.Random`;
the test suite (``tests/strategies.py``) feeds it Hypothesis draws, so that the
property tests check that every night this module makes is valid.

Everything is decided through :meth:`Chooser.randint`, nothing else, which is what
lets Hypothesis shrink a failing night.

Covers 4-8 players and every cast configuration: the basic cast, advanced
editions (any mix), the special cast at 6+ (Death, both Creatures, Mummy and
Voodooist...), Devils disguised as any legal role, Hunters withdrawing one arrow,
advanced Hunters doubling, Creature holds respected (with the K-1 immunities),
Zombie switches, journals with earlier XP and ``journal_roles`` when needed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

__all__ = ["CASTS", "MAIN", "SPECIAL", "Chooser", "random_round"]

T = TypeVar("T")

MAIN = ("devil", "vampire", "werewolf", "zombie", "hunter", "priest")
SPECIAL = ("angel", "alien", "necromancer", "creature", "mummy", "demoniac", "reporter",
           "voodooist", "death")
DUAL = frozenset((*MAIN, "creature"))  # one feminine and one masculine card
FIXED = {"angel": "neutral", "alien": "neutral", "necromancer": "masculine",
         "mummy": "masculine", "reporter": "masculine", "demoniac": "feminine",
         "voodooist": "feminine"}
#: Cast configurations: main cast only (basic, or any mix of editions), special cast.
CASTS = ("basic", "advanced", "special")
NAMES = ("Ana", "Bia", "Caio", "Duda", "Enzo", "Fred", "Gil", "Hugo", "Íris", "Zé", "Lu",
         "Mo")
_NEVER_SHOWN = frozenset(("devil", "necromancer", "creature", "death"))
_PROPOSAL_IMMUNE = frozenset(("angel", "devil", "priest", "alien"))


class Chooser(Protocol):
    """The only source of randomness: ``random.Random`` satisfies it."""

    def randint(self, a: int, b: int) -> int: ...


def _choice(rng: Chooser, seq: Sequence[T]) -> T:
    return seq[rng.randint(0, len(seq) - 1)]


def _chance(rng: Chooser, percent: int) -> bool:
    return rng.randint(0, 99) < percent


def _sample(rng: Chooser, seq: Sequence[T], k: int) -> list[T]:
    pool = list(seq)
    out = []
    for _ in range(k):
        out.append(pool.pop(rng.randint(0, len(pool) - 1)))
    return out


def _shuffle(rng: Chooser, seq: Sequence[T]) -> list[T]:
    return _sample(rng, seq, len(seq))


def random_round(rng: Chooser, players: int | None = None, cast: str | None = None
                 ) -> dict[str, Any]:
    """A random valid round document.

    ``players``: 4-8 (random when None); ``cast``: one of :data:`CASTS` (random when
    None; ``special`` needs 6+ players and falls back to ``advanced`` below that).
    """
    n = players if players is not None else rng.randint(4, 8)
    if cast is None:
        cast = _choice(rng, CASTS if n >= 6 else CASTS[:2])
    if cast == "special" and n < 6:
        cast = "advanced"
    names = _sample(rng, NAMES, n)

    # --- cards: each main-cast role has two cards (one of each gender, R-90) ---------
    main_pool: list[tuple[str, str, str]] = []
    for role in MAIN:
        genders = _shuffle(rng, ("feminine", "masculine"))
        for g in genders:
            edition = "basic" if cast == "basic" else _choice(rng, ("basic", "advanced"))
            main_pool.append((role, edition, g))
    special_pool: list[tuple[str, str, str]] = []
    if cast == "special":
        for role in SPECIAL:
            if role == "creature":
                special_pool += [("creature", "basic", "feminine"),
                                 ("creature", "basic", "masculine")]
            else:
                special_pool.append((role, "basic", FIXED.get(role, "neutral")))
        k = rng.randint(1, min(n - 1, 6))
        dealt = _sample(rng, special_pool, k) + _sample(rng, main_pool, n - k)
    else:
        dealt = _sample(rng, main_pool, n)
    dealt = _shuffle(rng, dealt)
    role_of = {p: dealt[i][0] for i, p in enumerate(names)}
    cards: dict[str, dict[str, str]] = {}
    hidden_gender: dict[str, str] = {}
    for p, (role, edition, gender) in zip(names, dealt, strict=True):
        c: dict[str, str] = {"role": role}
        if role in MAIN and (edition == "advanced" or _chance(rng, 20)):
            c["edition"] = edition
        if role in DUAL:
            if _chance(rng, 50):
                c["gender"] = gender
            else:
                hidden_gender[p] = gender
        elif _chance(rng, 20):
            c["gender"] = gender
        cards[p] = c

    # --- the journal sheet (R-104, spec J-1) ------------------------------------------
    roles_in_cards: list[str] = []
    for p in names:
        if role_of[p] not in roles_in_cards:
            roles_in_cards.append(role_of[p])
    specials = [r for r in roles_in_cards if r not in MAIN]
    journal_roles: list[str] | None = None
    if len(MAIN) + len(specials) > 8 or _chance(rng, 15):
        sheet = list(roles_in_cards)
        for r in _shuffle(rng, MAIN):
            if len(sheet) >= 8 or (len(sheet) >= 6 and _chance(rng, 30)):
                break
            if r not in sheet:
                sheet.append(r)
        if cast == "special" and len(sheet) < 8 and _chance(rng, 40):
            extra = [r for r in SPECIAL if r not in sheet]
            sheet.append(_choice(rng, extra))
        journal_roles = _shuffle(rng, sheet)
        sheet_roles = journal_roles
    else:
        sheet_roles = list(MAIN) + specials
    possible = sorted(set(MAIN) | set(roles_in_cards) | set(sheet_roles))

    # --- seats --------------------------------------------------------------------------
    death = [p for p in names if role_of[p] == "death"]

    def neighbours(p: str) -> tuple[str, str]:
        i = names.index(p)
        left = names[(i + 1) % n]
        if left in death:
            left = names[(i + 2) % n]
        right = names[(i - 1) % n]
        if right in death:
            right = names[(i - 2) % n]
        return left, right

    def others(p: str) -> list[str]:
        return [q for q in names if q != p and q not in death]

    # --- gestures (Phase 2) -----------------------------------------------------------
    gestures: dict[str, dict[str, Any]] = {}
    for p in names:
        role = role_of[p]
        g: dict[str, Any] = {}
        shown = role
        if role == "devil":
            shown = _choice(rng, [r for r in possible if r not in _NEVER_SHOWN])
            g["shows"] = shown
        if shown in ("vampire", "werewolf", "angel"):
            g["targets"] = [_choice(rng, others(p))]
        elif shown in ("zombie", "creature"):
            g["targets"] = [_choice(rng, neighbours(p))]
            if shown == "creature":
                g["seeks"] = _choice(rng, ("feminine", "masculine"))
        elif shown == "hunter":
            if (role == "hunter" and cards[p].get("edition") == "advanced"
                    and _chance(rng, 30)):
                t = _choice(rng, others(p))
                g["targets"] = [t, t]
            else:
                g["targets"] = _sample(rng, others(p), 2)
        elif shown == "reporter":
            g["targets"] = _sample(rng, others(p), 2)
        elif shown == "necromancer":
            if _chance(rng, 50):
                g["targets"] = _shuffle(rng, neighbours(p))
        elif shown == "alien":
            g["kind"] = _choice(rng, [r for r in possible if r not in ("death", "alien")])
        elif shown == "voodooist":
            g["kind"] = _choice(rng, [r for r in possible if r != "death"])
        elif shown == "death":
            g["names"] = _choice(rng, [q for q in names if q != p])
        if g or _chance(rng, 10):
            gestures[p] = g

    # A Creature's target must carry its card's gender (spec ``gender``).
    for p in names:
        if role_of[p] == "creature":
            t = gestures[p]["targets"][0]
            if t in hidden_gender:
                cards[t]["gender"] = hidden_gender.pop(t)

    # --- withdrawals (Phase 3) --------------------------------------------------------
    withdrawals: dict[str, Any] = {}
    for p in names:
        role = role_of[p]
        if role == "death":
            continue
        r = rng.randint(0, 99)
        if role == "hunter" and r < 25:
            withdrawals[p] = _choice(rng, ([0], [1], [0], [1], [0, 1], [1, 0]))
        elif r < 15:
            withdrawals[p] = True
        elif r < 18:
            withdrawals[p] = False
    # The Creature's hold (R-63, K-1): a non-immune target may not withdraw altogether.
    for c in names:
        if role_of[c] != "creature":
            continue
        t = gestures[c]["targets"][0]
        w = withdrawals.get(t)
        full = w is True or (isinstance(w, list) and len(w) == 2)
        if not full:
            continue
        rt = role_of[t]
        immune = (rt in _PROPOSAL_IMMUNE
                  or (rt == "reporter" and c in gestures[t].get("targets", []))
                  or (rt == "voodooist" and gestures[t].get("kind") == "creature"))
        if not immune:
            if rt == "hunter" and _chance(rng, 50):
                withdrawals[t] = [_choice(rng, (0, 1))]
            else:
                del withdrawals[t]

    # --- zombie_targets (Phase 4) -----------------------------------------------------
    zombie_targets: dict[str, str] = {}
    for p in names:
        if role_of[p] == "zombie" and _chance(rng, 35):
            zombie_targets[p] = _choice(rng, neighbours(p))

    # --- journals ---------------------------------------------------------------------
    journals: dict[str, dict[str, int]] = {}
    for p in names:
        if _chance(rng, 40):
            rows = _sample(rng, sheet_roles, rng.randint(1, min(6, len(sheet_roles))))
            journals[p] = {r: rng.randint(0, 3) for r in rows}

    doc: dict[str, Any] = {"format": "darkcity-round/1", "players": names, "cards": cards}
    if gestures:
        doc["gestures"] = gestures
    if withdrawals:
        doc["withdrawals"] = withdrawals
    if zombie_targets:
        doc["zombie_targets"] = zombie_targets
    if journals:
        doc["journals"] = journals
    if journal_roles is not None:
        doc["journal_roles"] = journal_roles
    return doc
