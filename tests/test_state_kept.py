"""States that leave out what their reader holds (a hello's ``kept``, issue #33): a
client that completes each from the last (``protocol.Whole``, and ``net.js`` in the
browser) holds, message for message, the same states as a client sent whole ones."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from darkcity.room import RoomConfig
from darkcity.room.local import LocalHost, LocalReader
from darkcity.server.protocol import Whole, unfold


def _size(m: dict[str, Any]) -> int:
    return len(json.dumps(m, separators=(",", ":"), ensure_ascii=False).encode())


def _table(seed: int, lang: str, log: list[dict[str, Any]] | None = None,
           again_in_count: bool = False,
           ) -> tuple[dict[str, int], list[tuple[LocalReader, LocalReader]]]:
    """Six people, each on two connections (one whole, one keeping), answering at random
    from their view to the end of the game; returns the bytes each kind of connection got.
    ``log``: every message, in order; ``again_in_count``: P1's two pages reconnect
    whenever the Mayor starts counting."""
    config = RoomConfig(6, "basic", (), "fast", 20.0, 0.5, lang, "random", 30.0, 0.8)
    host = LocalHost(config, code="KEPT", now=1000.0)
    members = [host.add_member(f"P{i}")[0] for i in range(6)]
    pairs = []
    for m in members:
        full = host.open(m, lang)
        keeping = LocalReader(lang, host.room.clock)
        keeping.keeps = True
        host.room.connect(keeping, m)
        pairs.append((full, keeping))
    host.handle(pairs[0][0], {"type": "start"})
    rng = random.Random(seed)
    wholes = [Whole() for _ in pairs]
    views: list[dict[str, Any] | None] = [None] * 6
    answered = [-1] * 6
    sizes = {"whole": 0, "kept": 0, "states": 0, "left_out": 0}
    for _ in range(100_000):
        for i, (full, keeping) in enumerate(pairs):
            a = [m for m in full.take() if m["type"] != "error"]  # (answers to its sends)
            b = keeping.take()
            if again_in_count:  # (the two pages' lobbies then differ by who came back first)
                a, b = ([m for m in x if m["type"] != "lobby"] for x in (a, b))
            if log is not None:
                log.extend({k: x for k, x in m.items() if k != "server_time"} for m in a + b)
            assert [m["type"] for m in a] == [m["type"] for m in b]
            sizes["whole"] += sum(map(_size, a))
            sizes["kept"] += sum(map(_size, b))
            for ma, mb in zip(a, b, strict=True):
                for sa, sb in zip(unfold(ma), unfold(mb), strict=True):
                    if sa["type"] != "state":
                        continue
                    sizes["states"] += 1
                    sizes["left_out"] += bool(sb.get("kept"))
                    assert "history" not in sb.get("kept", ())
                    done = wholes[i].take(sb)
                    sa = {k: x for k, x in sa.items() if k != "ack"}  # (the decider's own)
                    if again_in_count:
                        sa, done = ({k: x for k, x in d.items() if k != "lobby"}
                                    for d in (sa, done))
                    assert done == sa, (sa, sb)
                    views[i] = done["view"]
            # (after what the old connections got: a decider's state can come with the count)
            if again_in_count and i == 1 and any(m["type"] == "count" for m in a):
                for reader in (full, keeping):
                    host.room.disconnect(reader)
                for reader in (full, keeping):
                    host.room.connect(reader, members[1])
                wholes[i] = Whole()  # (a new connection)
        room = host.room
        if room.game is not None and room.game.over and host.due() is None:
            return sizes, pairs
        moved = False
        for i, (full, _) in enumerate(pairs):
            v = views[i]
            if v and v["choices"] and f"P{i}" in v["pending"] and \
                    v["decision_id"] != answered[i] and room.reveal_at is None:
                choice = dict(rng.choice(v["choices"]))
                choice.pop("player", None)
                answered[i] = v["decision_id"]
                host.handle(full, {"type": "decide", "at": v["decision_id"], "decision": choice})
                moved = True
        if not moved:
            due = host.due()
            assert due is not None, "stuck"
            host.advance_to(due)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("seed", "lang"), [(1, "en"), (2, "pt_BR")])
def test_a_keeping_connection_holds_what_a_whole_one_is_sent(seed: int, lang: str) -> None:
    sizes, _ = _table(seed, lang)
    assert sizes["states"] > 100 and sizes["left_out"] > sizes["states"] // 2
    # most of a state repeats the last one: a keeping client is sent well under half
    assert sizes["kept"] < 0.6 * sizes["whole"], sizes


def test_the_reveal_made_during_the_count_is_the_one_made_at_now(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The reveal's states are built while the Mayor counts (issue #33) and leave at
    "now!": message for message what they would be if built then, a reconnection
    during the count included."""
    import darkcity.room.lobby as lobby
    from darkcity.room.broadcast import Broadcaster

    monkeypatch.setattr(lobby.secrets, "token_hex", lambda n=16: "ab" * n)
    made: list[dict[str, Any]] = []
    ready = Broadcaster._ready_state
    used: list[bool] = []

    def counted(self: Broadcaster, conn: Any) -> dict[str, Any] | None:
        state = ready(self, conn)
        used.append(state is not None)
        return state

    monkeypatch.setattr(Broadcaster, "_ready_state", counted)
    _table(3, "en", made, again_in_count=True)
    assert sum(used) > 100  # the reveals left as made during the count
    monkeypatch.setattr(Broadcaster, "prepare_reveal", lambda self: None)
    built: list[dict[str, Any]] = []
    _table(3, "en", built, again_in_count=True)
    assert len(made) > 1000 and sum(m["type"] == "count" for m in made) > 20
    assert made == built


def test_a_state_that_keeps_fields_first_on_its_connection_is_refused() -> None:
    with pytest.raises(ValueError, match="came first"):
        Whole().take({"type": "state", "view": {}, "kept": ["seats"]})


if __name__ == "__main__":  # the bytes a table's six connections get, whole and keeping
    for seed in (1, 2, 3):
        got, _ = _table(seed, "en")
        print(seed, got, f"{got['kept'] / got['whole']:.2f}")
