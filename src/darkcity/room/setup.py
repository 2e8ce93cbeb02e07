"""A room's settings from what a host asked for: the players, the deck or a custom cast,
the pace, the language, the bots' level; checked, each refusal naming what is wrong.

The server's room manager and the phone's worker make a room's
:class:`~darkcity.room.state.RoomConfig` here, with the same checks and words.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from darkcity.deck import Deck, DeckError, parse_card, preset
from darkcity.i18n import msg
from darkcity.room.bots import canonical_level
from darkcity.room.common import Refusal
from darkcity.room.state import RoomConfig, deck_reason

__all__ = ["PACES", "room_config"]

#: The Mayor's pace: (seconds to decide, seconds per beat of "1, 2, 3, now!").
PACES: Final[dict[str, tuple[float, float]]] = {
    "relaxed": (90.0, 1.0),
    "normal": (45.0, 0.8),
    "fast": (20.0, 0.6),
}


def room_config(*, players: int, deck: str, cards: Sequence[str] | None, pace: str,
                lang: str, timeout_level: str, decide_s: float | None,
                beat_s: float | None, bot_delay_s: float, grace_s: float,
                floors: tuple[float, float, float] = (0.0, 0.0, 0.0)) -> RoomConfig:
    """A room's settings, or a :class:`~darkcity.room.common.Refusal` (``bad-pace``,
    ``bad-level``, ``bad-deck``). ``decide_s`` / ``beat_s``: the pace's own numbers when
    ``None``; ``floors``: the least seconds to decide, per beat and of a bot's delay
    (the server's ``min_*`` settings), each number raised to its floor."""
    if pace not in PACES and pace != "custom":
        raise Refusal("bad-pace", msg("Unknown pace {pace!r}.", pace=pace))
    level = canonical_level(timeout_level)  # an old name (``heuristic``) read as the new
    if level is None:
        raise Refusal("bad-level", msg("Unknown bot level {level!r}.", level=timeout_level))
    timeout_level = level
    decide, beat = PACES.get(pace, PACES["normal"])
    language = "pt_BR" if lang.lower().startswith("pt") else "en"
    chosen: tuple[str, ...] = ()
    deck_name = deck
    if cards is not None and not cards:
        raise Refusal("bad-deck", msg("Choose the cards of the custom cast: none is "
                                      "chosen."))
    try:
        if cards:
            deck_name = "custom"
            chosen = tuple(cards)
            Deck.of([parse_card(k) for k in chosen], players, "custom")
        else:
            preset(deck, players)
    except (DeckError, ValueError) as e:
        raise Refusal("bad-deck", msg("The deck cannot be played: {reason}",
                                      reason=deck_reason(e))) from None
    least_decide, least_beat, least_bot = floors
    return RoomConfig(
        players, deck_name, chosen, pace,
        max(decide_s if decide_s is not None else decide, least_decide),
        max(beat_s if beat_s is not None else beat, least_beat), language, timeout_level,
        grace_s, max(bot_delay_s, least_bot))
