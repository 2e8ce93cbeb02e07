"""Property tests over random valid nights (issue #2, "Property tests").

The nights come from :func:`tests.strategies.rounds`: 4-8 players, every cast
configuration. Invariants checked: validity, no exception, fates/marks/XP
(R-07, R-47, R-80, R-100, R-105, J-5), journals after = before + XP, winners meet
a condition (R-101, R-102), the writer round trip, key-order independence, and
that the Python API equals the CLI's JSON Lines output.
"""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

from benchmarks.nightgen import random_round
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from darkcity import RoundError, adjudicate, read_round, resolve, validate, write_round
from darkcity.journal import conditions_met

from .strategies import rounds

ROOT = Path(__file__).resolve().parent.parent
SETTINGS = settings(max_examples=400, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
LIGHT = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

ROLE_MARKS = {"wounded": "creature", "awakened": "mummy", "exorcised": "demoniac"}


def _fully_withdrawn(doc: dict[str, Any], p: str) -> bool:
    w = doc.get("withdrawals", {}).get(p)
    return w is True or (isinstance(w, list) and len(set(w)) == 2)


@SETTINGS
@given(rounds())
def test_valid_random_night_invariants(doc: dict[str, Any]) -> None:
    """Every generated night is valid and adjudicates; the result keeps the invariants."""
    night = read_round(copy.deepcopy(doc))  # validates (spec) or raises
    validate(night)
    res = adjudicate(doc)
    roles = {p: c["role"] for p, c in doc["cards"].items()}
    assert list(res["players"]) == doc["players"]
    for p, r in res["players"].items():
        fate, marks, xp = r["fate"], set(r["marks"]), r["xp"]
        role = roles[p]
        # Death is absent; nobody else is.
        assert (fate == "absent") == (role == "death")
        # a withdrawn player earns nothing; only they are withdrawn.
        assert (fate == "withdrawn") == _fully_withdrawn(doc, p)
        if fate == "withdrawn":
            assert xp == 0 and not marks
        # 0 or 1, only the Alien may earn 2.
        assert 0 <= xp <= (2 if role == "alien" else 1)
        # J-5 and R-04: marks belong to their roles.
        for m, owner in ROLE_MARKS.items():
            if m in marks:
                assert role == owner, (p, role, marks)
        if "wounded" in marks:
            assert fate == "alive"
        if "undead" in marks:
            assert fate == "killed" and role not in ("devil", "alien", "angel")
        if fate == "damned":
            assert role in ("angel", "demoniac")
        if fate == "abducted":
            assert "alien" in roles.values()
    # Phase 5: journals after = before + XP in the card's row.
    before = doc.get("journals", {})
    for p in doc["players"]:
        want = dict(before.get(p, {}))
        xp = res["players"][p]["xp"]
        if xp:
            want[roles[p]] = want.get(roles[p], 0) + xp
        assert res["journals"][p] == want
    # winners meet a condition and lead the tiebreak.
    ranked = {p: (sum(j.values()), sum(1 for x in j.values() if x > 0))
              for p, j in res["journals"].items() if conditions_met(_roles(j))}
    if ranked:
        best = max(ranked.values())
        assert sorted(res["winners"]) == sorted(p for p, k in ranked.items() if k == best)
    else:
        assert res["winners"] == []
    # a withdrawn player is never struck, abducted, raised or married.
    struck = {"kill", "kill-guardian", "abduct", "hit", "raise", "marry", "damn", "exorcise"}
    for e in res["events"]:
        if e.get("event") in struck and "target" in e:
            assert res["players"][e["target"]]["fate"] != "withdrawn", e
    # events: in initiative order.
    order = ["1+", "1", "2", "3", "4", "5", "6", "7", "8", "end"]
    idx = [order.index(e["step"]) for e in res["events"]]
    assert idx == sorted(idx)


def _roles(journal: dict[str, int]) -> dict[Any, int]:
    from darkcity.cast import parse_role

    out: dict[Any, int] = {}
    for k, v in journal.items():
        role = parse_role(k)
        assert role is not None
        out[role] = v
    return out


@LIGHT
@given(rounds())
def test_writer_round_trip(doc: dict[str, Any]) -> None:
    """The notation writer is canonical: a night written out reads back to the same night
    (spec: "a night written out reads back to the same night")."""
    night = read_round(doc)
    written = write_round(night)
    assert read_round(written) == night
    assert write_round(read_round(written)) == written
    assert json.loads(json.dumps(written)) == written
    assert adjudicate(written) == adjudicate(doc)


def _permuted(value: Any, rnd: random.Random) -> Any:
    if isinstance(value, dict):
        items = list(value.items())
        rnd.shuffle(items)
        return {k: _permuted(v, rnd) for k, v in items}
    if isinstance(value, list):
        return [_permuted(v, rnd) for v in value]
    return value


@LIGHT
@given(rounds(), st.randoms(use_true_random=False))
def test_result_does_not_depend_on_key_order(doc: dict[str, Any], rnd: random.Random) -> None:
    """JSON objects are unordered: permuting every object's keys changes nothing
    (lists, such as ``players`` and ``targets``, keep their order)."""
    assert adjudicate(_permuted(doc, rnd)) == adjudicate(doc)


@LIGHT
@given(rounds())
def test_resolve_does_not_touch_the_document_and_is_deterministic(doc: dict[str, Any]) -> None:
    before = copy.deepcopy(doc)
    night = read_round(doc)
    assert resolve(night) == resolve(night)
    assert doc == before


def test_python_api_equals_cli_json_lines_for_a_batch(tmp_path: Path) -> None:
    """The bulk CLI path gives, line by line, exactly what the Python API gives."""
    rng = random.Random(2026)
    docs = [random_round(rng) for _ in range(300)]
    f = tmp_path / "nights.jsonl"
    f.write_text("".join(json.dumps(d, ensure_ascii=False) + "\n" for d in docs),
                 encoding="utf-8")
    p = subprocess.run([sys.executable, "-m", "darkcity", "adjudicate", str(f)],
                       capture_output=True, text=True, cwd=ROOT, timeout=120, encoding="utf-8")
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert len(lines) == len(docs)
    for line, doc in zip(lines, docs, strict=True):
        assert json.loads(line) == adjudicate(doc)


def test_generator_covers_every_cast_configuration() -> None:
    """The night generator reaches every configuration the issue names (plain seeded
    run, so the coverage does not depend on Hypothesis' choices)."""
    rng = random.Random(7)
    seen: set[str] = set()
    for _ in range(3000):
        doc = random_round(rng)
        n = len(doc["players"])
        seen.add(f"players:{n}")
        for p, c in doc["cards"].items():
            seen.add(f"role:{c['role']}")
            if c.get("edition") == "advanced":
                seen.add(f"advanced:{c['role']}")
            g = doc.get("gestures", {}).get(p, {})
            if "shows" in g:
                seen.add(f"shows:{g['shows']}")
            if c["role"] == "hunter" and len(set(g.get("targets", []))) == 1:
                seen.add("hunter-doubled")
        for w in doc.get("withdrawals", {}).values():
            if isinstance(w, list) and len(w) == 1:
                seen.add("hunter-partial")
            if w is True:
                seen.add("withdrawal")
        roles = [c["role"] for c in doc["cards"].values()]
        if roles.count("creature") == 2:
            seen.add("two-creatures")
        if doc.get("zombie_targets"):
            seen.add("zombie-switch-field")
        if "journal_roles" in doc:
            seen.add("journal_roles")
        if doc.get("journals"):
            seen.add("journals")
    want = ({f"players:{n}" for n in range(4, 9)}
            | {f"role:{r}" for r in ("devil", "vampire", "werewolf", "zombie", "hunter",
                                     "priest", "angel", "alien", "necromancer", "creature",
                                     "mummy", "demoniac", "reporter", "voodooist", "death")}
            | {f"advanced:{r}" for r in ("devil", "vampire", "werewolf", "zombie", "hunter",
                                         "priest")}
            | {f"shows:{r}" for r in ("vampire", "werewolf", "zombie", "hunter", "priest",
                                      "angel", "alien", "mummy", "demoniac", "reporter",
                                      "voodooist")}
            | {"hunter-doubled", "hunter-partial", "withdrawal", "two-creatures",
               "zombie-switch-field", "journal_roles", "journals"})
    assert want <= seen, sorted(want - seen)


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 9) | st.floats(allow_nan=False)
    | st.sampled_from(["", "Ana", "Bia", "vampire", "hunter", "creature", "death", "feminine",
                       "advanced", "true", "0", "1+"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["role", "targets", "shows", "kind", "seeks", "names", "Ana", "x"]),
        inner, max_size=3),
    max_leaves=6)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*prefix, i))
    return out


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rounds(), st.data())
def test_broken_documents_are_refused_cleanly(doc: dict[str, Any], data: st.DataObject) -> None:
    """Issue #2 "Clear errors": whatever breaks the spec raises RoundError with one line,
    never another exception (no traceback at the CLI)."""
    paths = _paths(doc)[1:]
    path = data.draw(st.sampled_from(paths))
    parent: Any = doc
    for k in path[:-1]:
        parent = parent[k]
    if isinstance(parent, dict) and data.draw(st.booleans()):
        del parent[path[-1]]
    else:
        parent[path[-1]] = data.draw(_JSON)
    try:
        adjudicate(doc)
    except RoundError as e:
        assert "\n" not in str(e)
        assert str(e)
