"""The docs stay readable: each states the present in a size one reads in ten minutes, and
the README's figures are the ones of the docs it links to (issue #52).

- every Markdown file of the project (README, CHANGELOG, CONTRIBUTING, docs/,
  benchmarks/) is at most :data:`MAX_BYTES`, and no line is over :data:`MAX_LINE`
  characters; the history of measurements lives in the dated logs (``docs/*-log.md``),
  which may grow, a line each still readable;
- every figure the README quotes (a number with its unit: ×, %, ms, s, MB, minutes…)
  appears in one of the docs its paragraph links to, so the two cannot drift apart.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MAX_BYTES = 20_000
MAX_LINE = 400
#: The logs of measurements kept beside the docs: dated entries that accumulate.
LOGS = re.compile(r".*-log\.md$")


def _docs() -> list[Path]:
    found = [ROOT / "README.md", *sorted(ROOT.glob("*.md")), *sorted((ROOT / "docs").glob("*.md")),
             *sorted((ROOT / "benchmarks").glob("*.md"))]
    return sorted(set(found))


@pytest.mark.parametrize("doc", _docs(), ids=lambda p: str(p.relative_to(ROOT)))
def test_each_doc_is_read_in_ten_minutes(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    long = [i for i, line in enumerate(text.splitlines(), 1) if len(line) > MAX_LINE]
    assert not long, f"{doc.relative_to(ROOT)}: lines over {MAX_LINE} characters: {long[:10]}"
    if not LOGS.match(doc.name):
        size = len(text.encode("utf-8"))
        assert size <= MAX_BYTES, (f"{doc.relative_to(ROOT)} is {size:,} bytes "
                                   f"(at most {MAX_BYTES:,}): state the present; "
                                   "move the history to its log")


#: A figure: a number (maybe a range or with a decimal point) and the unit that makes it one.
FIGURE = re.compile(r"(?<![\w.])(\d[\d.,]*(?:[–-]\d[\d.,]*)?)\s?(×|%|ms\b|s\b|MB\b|KB\b|GB\b|"
                    r"minutes?\b|seconds?\b)")
LINK = re.compile(r"\]\(((?:docs|benchmarks)/[\w./-]+\.md)(?:#[\w-]*)?\)")


def _paragraphs(text: str) -> list[str]:
    out, block, fenced = [], [], False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            continue
        if line.strip() and not line.startswith("#"):
            block.append(line)
        elif block:
            out.append(" ".join(block))
            block = []
    if block:
        out.append(" ".join(block))
    return out


def test_the_readmes_figures_are_the_docs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    missing = []
    for para in _paragraphs(readme):
        figures = {m.group(0) for m in FIGURE.finditer(para)}
        if not figures:
            continue
        linked = [ROOT / link for link in LINK.findall(para)]
        assert linked, f"the README quotes {sorted(figures)} without linking the doc that has them"
        texts = " ".join(p.read_text(encoding="utf-8") for p in linked if p.is_file())
        flat = re.sub(r"\s+", " ", texts)
        missing += [(f, [str(p.relative_to(ROOT)) for p in linked]) for f in sorted(figures)
                    if re.sub(r"\s+", " ", f) not in flat]
    assert not missing, f"README figures not found in the docs it links to: {missing}"
