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
    "Whole",
    "parse_client_message",
    "unfold",
]

NAME_MAX = 24
VIEWER_MAX = 4096  # a record's seat, for /api/replay (the record itself is its bound)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", str_max_length=200)


class Hello(_Strict):
    type: Literal["hello"]
    token: str | None = Field(default=None, max_length=64)
    lang: str | None = Field(default=None, max_length=16)
    #: states may leave out the view's fields the client holds as they are, named in
    #: the state's ``kept`` (the connection's first state is whole)
    kept: bool = False


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
    # any seat of the record: the engine and the terminal take names of any length (a
    # room's are 1 to 24 characters, NAME_MAX, but a record may come from elsewhere)
    viewer: str | None = Field(default=None, min_length=1, max_length=VIEWER_MAX)


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


class Whole:
    """A client's side of the hello's ``kept``: the last state it received, whole, and
    each new state completed from it (the fields named in its ``kept`` are the last
    state's). Fresh for each connection: its first state is whole."""

    def __init__(self) -> None:
        self.last: dict[str, Any] | None = None

    def take(self, state: dict[str, Any]) -> dict[str, Any]:
        """``state`` whole: ``ValueError`` for one that names fields this client never
        received (a server's fault, said rather than shown as a broken table)."""
        kept = state.get("kept")
        if kept:
            last = self.last
            if last is None:
                raise ValueError("a state that keeps fields came first on its connection")
            view = dict(state["view"])
            state = {k: v for k, v in state.items() if k != "kept"}
            for name in kept:
                if name == "standing":
                    state["standing"] = last["standing"]
                else:
                    view[name] = last["view"][name]
            state["view"] = view
        self.last = state
        return state
