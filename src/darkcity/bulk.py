"""Bulk adjudication: many round documents (JSON Lines) in, one result per line out.

The path of ``darkcity adjudicate nights.jsonl``. Large inputs are split into
chunks adjudicated by worker processes, one per core; the results come back
in input order. Nothing is returned unless every night was adjudicated: the
first refused line (by line number) is raised as :class:`BulkError`.
"""

from __future__ import annotations

import gc
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


def _chunk(lines: Sequence[tuple[int, str]], lang: str) -> list[bytes] | tuple[int, RoundError]:
    """Adjudicate lines; (line, error) for the first refusal."""
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
    return out


def adjudicate_lines(lines: Sequence[tuple[int, str]], *, lang: str = "en",
                     jobs: int | None = None) -> list[bytes]:
    """Compact ``darkcity-result/1`` documents (UTF-8 JSON) for ``(line number, text)`` pairs.

    ``jobs``: worker processes (default: one per core; small inputs are done
    in this process). A line that is not JSON is refused like a line that
    breaks the notation.
    """
    jobs = default_jobs() if jobs is None else max(1, jobs)
    if jobs == 1 or len(lines) < PARALLEL_THRESHOLD:
        done = _chunk(lines, lang)
        if isinstance(done, tuple):
            raise BulkError(*done)
        return done
    size = -(-len(lines) // (jobs * 4))  # a few chunks per worker evens the load
    chunks = [lines[i:i + size] for i in range(0, len(lines), size)]
    out: list[bytes] = []
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for done in pool.map(_chunk, chunks, [lang] * len(chunks)):
            if isinstance(done, tuple):
                raise BulkError(*done)
            out.extend(done)
    return out
