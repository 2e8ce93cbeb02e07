"""The wire protocol: what a client may send (pydantic schemas, validated) and the
shapes of the server's replies. Every server message is a JSON object with a
``type``; every refusal is ``{"type": "error", "code", "message", "msgid",
"params", "ref"}`` with the message rendered in the reader's language.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

__all__ = [
    "AddBot",
    "Chat",
    "ClientMessage",
    "CreateRoom",
    "Decide",
    "Hello",
    "JoinRoom",
    "MakeHost",
    "Ping",
    "PlayAgain",
    "Remove",
    "Sit",
    "Stand",
    "Start",
    "ValidationError",
    "parse_client_message",
    "unfold",
]

NAME_MAX = 24


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", str_max_length=200)


class Hello(_Strict):
    type: Literal["hello"]
    token: str | None = Field(default=None, max_length=64)
    lang: str | None = Field(default=None, max_length=16)


class Ping(_Strict):
    type: Literal["ping"]
    t: float = 0.0


class Decide(_Strict):
    type: Literal["decide"]
    at: int  # the decision point answered (stale ones are refused)
    decision: dict[str, Any]
    ref: str | None = Field(default=None, max_length=32)
    change: bool = False  # replaces the sender's sealed decision at this point


class Sit(_Strict):
    type: Literal["sit"]
    seat: int = Field(ge=0, le=7)


class Stand(_Strict):
    type: Literal["stand"]


class AddBot(_Strict):
    type: Literal["add-bot"]
    seat: int = Field(ge=0, le=7)
    level: str = Field(default="random", max_length=16)


class Remove(_Strict):
    type: Literal["remove"]
    seat: int = Field(ge=0, le=7)


class MakeHost(_Strict):
    type: Literal["make-host"]
    seat: int = Field(ge=0, le=7)


class Start(_Strict):
    type: Literal["start"]


class Chat(_Strict):
    type: Literal["chat"]
    text: str = Field(max_length=300)


ClientMessage = Annotated[
    Hello | Ping | Decide | Sit | Stand | AddBot | Remove | MakeHost | Start | Chat,
    Field(discriminator="type"),
]
_ADAPTER: TypeAdapter[Any] = TypeAdapter(ClientMessage)


def parse_client_message(text: str) -> BaseModel:
    """A validated client message (raises ``ValidationError``)."""
    out = _ADAPTER.validate_json(text)
    assert isinstance(out, BaseModel)
    return out


class CreateRoom(_Strict):
    """``POST /api/rooms``."""

    name: str = Field(min_length=1, max_length=NAME_MAX)
    players: int = Field(default=6, ge=4, le=8)
    deck: str = Field(default="basic", max_length=40)  # a preset
    cards: list[str] | None = Field(default=None, max_length=14)  # a custom cast
    pace: str = Field(default="normal", max_length=16)
    decide_s: float | None = Field(default=None, ge=1, le=600)
    beat_s: float | None = Field(default=None, ge=0, le=3)
    lang: str = Field(default="en", max_length=16)
    timeout_level: str = Field(default="heuristic", max_length=16)
    grace_s: float | None = Field(default=None, ge=0, le=3600)
    bot_delay_s: float | None = Field(default=None, ge=0, le=10)


class JoinRoom(_Strict):
    """``POST /api/rooms/{code}/join``."""

    name: str = Field(min_length=1, max_length=NAME_MAX)


class ReviewStep(_Strict):
    """``POST /api/replay``: a step of a game record (``darkcity-game/1``): the game once
    night ``night`` was told (0: the free XP written), from ``viewer``'s seat (None: a
    spectator's)."""

    record: dict[str, Any]
    night: int = Field(ge=0, le=100_000)
    viewer: str | None = Field(default=None, min_length=1, max_length=NAME_MAX)


class PlayAgain(_Strict):
    """``POST /api/rooms/{code}/again``: the host's seat token."""

    token: str = Field(min_length=1, max_length=64)


def unfold(message: dict[str, Any]) -> list[dict[str, Any]]:
    """A server message and what rides in it as a message of its own, in the order a
    client takes them: a ``welcome`` that holds the connection's first ``state`` (a
    game in progress) gives both, and then its ``count`` (the Mayor counting when it
    came). (An ``ack`` or a ``lobby`` riding on a message is a field of it, read with
    it.)"""
    if message.get("type") != "welcome":
        return [message]
    return [message, *(x for x in (message.get("state"), message.get("count"))
                       if isinstance(x, dict))]
