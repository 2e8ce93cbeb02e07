"""Bulk adjudication: many round documents (JSON Lines) in, one result per line out.

The path of ``darkcity adjudicate nights.jsonl``. Large inputs are split into
chunks adjudicated by worker processes, one per core; the results come back
in input order. Nothing is returned unless every night was adjudicated: the
first refused line (by line number) is raised as :class:`BulkError`.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from darkcity import notation
from darkcity.i18n import Message, translator
from darkcity.night import RoundError, resolve
from darkcity.notation import read_round, result_document

__all__ = ["BulkError", "adjudicate_lines", "default_jobs"]

#: Below this many nights, worker processes cost more than they save.
PARALLEL_THRESHOLD = 4000


class BulkError(ValueError):
    """Line ``line`` of the input was refused; ``error`` says why."""

    def __init__(self, line: int, error: RoundError) -> None:
        super().__init__(line, error)
        self.line = line
        self.error = error

    @property
    def message(self) -> Message:
        return self.error.message

    def __str__(self) -> str:
        return f"line {self.line}: {self.error}"


def default_jobs() -> int:
    """One worker per core this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def _codec() -> tuple[Callable[[str], Any], Callable[[Any], bytes]]:
    try:
        import orjson
    except ImportError:  # pragma: no cover - orjson is a dependency
        import json

        return json.loads, lambda d: json.dumps(d, ensure_ascii=False,
                                                separators=(",", ":")).encode("utf-8")
    return orjson.loads, orjson.dumps


def _chunk(lines: Sequence[tuple[int, str]], lang: str) -> bytes | tuple[int, RoundError]:
    """Adjudicate lines: their results, one per line; (line, error) for the first refusal.

    The results come back as one block of bytes, so that a worker process hands
    the parent a single object to unpickle, not one per night.
    """
    loads, dumps = _codec()
    t = translator(lang)
    out: list[bytes] = []
    enabled = gc.isenabled()
    gc.disable()  # the results hold no reference cycles; collecting would only cost
    try:
        for number, line in lines:
            try:
                try:
                    doc = loads(line)
                except ValueError:
                    doc = notation.loads(line)  # raises, in Python's parser's words
                out.append(dumps(result_document(resolve(read_round(doc)), t)))
            except RoundError as e:
                return number, e
    finally:
        if enabled:
            gc.enable()
    out.append(b"")
    return b"\n".join(out)


#: The input, left where forked workers find it (they inherit the parent's memory).
_INHERITED: Sequence[tuple[int, str]] = ()


def _inherited(start: int, stop: int, lang: str) -> bytes | tuple[int, RoundError]:
    return _chunk(_INHERITED[start:stop], lang)


def adjudicate_lines(lines: Sequence[tuple[int, str]], *, lang: str = "en",
                     jobs: int | None = None) -> bytes:
    """The ``darkcity-result/1`` documents of ``(line number, text)`` pairs, as JSON Lines.

    One compact UTF-8 JSON document per input line, in input order, each
    ending in a newline. ``jobs``: worker processes (default: one per core;
    small inputs are done in this process). A line that is not JSON is refused
    like a line that breaks the notation: :class:`BulkError` names the first.
    """
    global _INHERITED
    jobs = default_jobs() if jobs is None else max(1, jobs)
    if jobs == 1 or len(lines) < PARALLEL_THRESHOLD:
        done = _chunk(lines, lang)
        if isinstance(done, tuple):
            raise BulkError(*done)
        return done
    size = -(-len(lines) // (jobs * 4))  # a few chunks per worker evens the load
    bounds = [(i, min(i + size, len(lines))) for i in range(0, len(lines), size)]
    out: list[bytes] = []
    if "fork" in multiprocessing.get_all_start_methods():
        # Workers forked from here read the lines from memory: nothing to pickle.
        _INHERITED = lines
        try:
            with ProcessPoolExecutor(jobs, multiprocessing.get_context("fork")) as pool:
                blocks = list(pool.map(_inherited, [a for a, _ in bounds],
                                       [b for _, b in bounds], [lang] * len(bounds)))
        finally:
            _INHERITED = ()
    else:  # pragma: no cover - Windows, macOS' default
        with ProcessPoolExecutor(jobs) as pool:
            blocks = list(pool.map(_chunk, [lines[a:b] for a, b in bounds],
                                   [lang] * len(bounds)))
    for done in blocks:
        if isinstance(done, tuple):
            raise BulkError(*done)
        out.append(done)
    return b"".join(out)
