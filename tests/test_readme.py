"""The README's Python examples run as written (doctest)."""

from __future__ import annotations

import doctest

from .conftest import ROOT


def test_readme_examples_run() -> None:
    failures, tried = doctest.testfile(str(ROOT / "README.md"), module_relative=False,
                                       optionflags=doctest.ELLIPSIS)
    assert tried > 0
    assert failures == 0
