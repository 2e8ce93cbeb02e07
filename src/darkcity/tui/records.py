"""Where terminal games are saved, so that a new game never overwrites another.

* a new game gets a file of its own, ``darkcity-game-<date>-<time>.json``
  (:func:`new_record_path`), never an existing name;
* saving to a file that exists (``--record``) asks first, and without a person
  to ask it is refused (:func:`confirm_overwrite`);
* ``--resume`` without a file takes the latest unfinished game of the folder
  (:func:`latest_unfinished`): the newest ``darkcity-game*.json`` whose record
  is not over.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any, Final, TextIO

from rich.console import Console
from rich.text import Text

from darkcity.i18n import Message, Translator, msg
from darkcity.record import GAME_FORMAT

__all__ = ["PATTERN", "RecordKept", "confirm_overwrite", "latest_unfinished", "new_record_path",
           "summary"]

#: The names of the records ``darkcity play`` writes (the first versions wrote
#: ``darkcity-game.json``, which the pattern also matches).
PATTERN: Final = "darkcity-game*.json"
_YES: Final = frozenset(("y", "yes", "s", "sim"))


class RecordKept(Exception):
    """The record file is not overwritten (the message says why and what to do)."""

    def __init__(self, message: Message) -> None:
        self.message = message
        super().__init__(str(message))


def new_record_path(folder: Path, now: datetime | None = None) -> Path:
    """A file name in ``folder`` that no record holds yet, from the date and time."""
    stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
    for k in range(1, 1000):
        name = f"darkcity-game-{stamp}{'' if k == 1 else f'-{k}'}.json"
        if not (folder / name).exists():
            return folder / name
    raise FileExistsError(str(folder / f"darkcity-game-{stamp}.json"))  # pragma: no cover


def _read(path: Path) -> dict[str, Any] | None:
    """The record in ``path``, or None when it is not a darkcity-game/1 record."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return None
    return doc if isinstance(doc, dict) and doc.get("format") == GAME_FORMAT else None


def summary(path: Path) -> Message | None:
    """What a file holds, when it is a game record: unfinished (and how far) or over."""
    doc = _read(path)
    if doc is None:
        return None
    nights = doc.get("nights")
    done = len(nights) if isinstance(nights, list) else 0
    if doc.get("over") is True:
        return msg("{path} holds a finished game ({n} nights)", path=str(path), n=done)
    return msg("{path} holds an unfinished game (night {n})", path=str(path), n=done + 1)


def latest_unfinished(folder: Path) -> Path | None:
    """The newest record in ``folder`` whose game is not over (None: none)."""
    found = []
    for path in folder.glob(PATTERN):
        doc = _read(path)
        if doc is not None and doc.get("over") is False:
            try:
                found.append((path.stat().st_mtime, path.name, path))
            except OSError:
                continue
    return max(found)[2] if found else None


def confirm_overwrite(path: Path, t: Translator, console: Console, stdin: TextIO) -> None:
    """Return when ``path`` may be written: it does not exist, or a person at the
    keyboard said so. Otherwise raise :class:`RecordKept` with what the file holds."""
    if not path.exists():
        return
    what = summary(path) or msg("{path} exists", path=str(path))
    if not stdin.isatty():
        raise RecordKept(msg("--record: {what}: go on with it (--resume {path}) or choose "
                          "another file", what=what, path=str(path)))
    console.print(Text(t.render(msg("{what}. Overwrite it? [y/N] ", what=what)),
                       style="bold yellow"), end="")
    console.file.flush()
    try:
        answer = stdin.readline().strip().lower()
    except KeyboardInterrupt:  # Ctrl-C at the question: keep the file
        console.print()
        answer = ""
    if answer not in _YES:
        raise RecordKept(msg("--record: {path} kept; choose another file, or go on with it "
                          "(--resume {path})", path=str(path)))
