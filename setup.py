"""Build darkcity: the pure-Python package, or, when asked, with the engine's hot
modules (and the views and the environments' encoders) compiled by mypyc.

The engine is plain, typed Python (``mypy --strict``). A regular install
(``pip install .``) builds the pure package: the README's first command is a
newcomer's, and it must reach a page in well under a minute, never silent for long
(issue #49; pip shows none of a build's output, and mypyc with the C compiler took
about three minutes on a 2-core machine). For speed (2-3x the engine's, for
simulations and busy servers), ``DARKCITY_COMPILE=1 pip install -v .`` compiles the
modules listed under ``[tool.darkcity] compiled`` in ``pyproject.toml`` into C
extensions, the way black and mypy ship (``-v`` shows its progress); the ``.py`` files
are installed beside them, and Python loads the compiled module first. mypy (which
brings mypyc) is then a build requirement of that build only (``setup_requires``,
which setuptools' PEP 517 backend hands to pip). The pure package is built instead,
with the same behaviour, when:

- ``DARKCITY_COMPILE`` is unset or ``0`` (the default);
- the install is editable (``pip install -e .``): an edited module must be the
  one that runs;
- mypyc or a C compiler is missing, or compiling fails (a warning says why).

``tests/test_compiled.py`` builds the compiled modules and runs the engine's
tests against them; ``benchmarks/bench_first_command.py`` times the first command.
"""

from __future__ import annotations

import os
import sys
import tomllib
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build import build
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
#: The mypy (and so mypyc) a compiled build uses: the test extra pins the same.
MYPYC = "mypy==2.4.1"


def compiled_modules() -> list[str]:
    """The paths (relative to this folder) of the modules mypyc compiles."""
    config = tomllib.loads((HERE / "pyproject.toml").read_text(encoding="utf-8"))
    return [f"src/{m.replace('.', '/')}.py" for m in config["tool"]["darkcity"]["compiled"]]


def _warn(why: str) -> None:
    print(f"darkcity: building the pure-Python engine ({why})", file=sys.stderr)


def compile_asked() -> bool:
    """Whether ``DARKCITY_COMPILE`` asks for the compiled engine (1, yes, true, on)."""
    return os.environ.get("DARKCITY_COMPILE", "").strip().lower() in ("1", "yes", "true", "on")


def _want_compiled() -> bool:
    if not compile_asked():
        return False
    # Only a build compiles: pip also runs this file for the metadata (egg_info,
    # dist_info), and an editable install (editable_wheel) runs the sources as
    # they are edited.
    return any(command in sys.argv for command in ("bdist_wheel", "build", "build_ext"))


def mypyc_extensions(paths: list[str]) -> list[Any]:
    """The extensions mypyc makes of ``paths`` (tests/test_compiled.py builds the same)."""
    from mypyc.build import mypycify

    # One shared library, darkcity__mypyc, holds the code of every module.
    return list(mypycify(paths, opt_level="3", group_name="darkcity"))


def _extensions() -> list[Any]:
    if not _want_compiled():
        return []
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        _warn("mypyc is not installed")
        return []
    # Said before the long silent part: mypyc and the C compiler take minutes, and an
    # install that printed nothing for that long looked stuck (issue 31). pip shows a
    # build's output with -v only; `python -m build` and `pip wheel -v` show it.
    print(f"darkcity: compiling {len(compiled_modules())} engine modules with mypyc "
          "(a few minutes)...", file=sys.stderr, flush=True)
    try:
        return mypyc_extensions(compiled_modules())
    except BaseException as e:  # mypyc reports a type error by exiting
        _warn(f"mypyc failed: {e!r}")
        return []


class CleanBuild(build):
    """A build that first drops the extensions an earlier build left in the build folder.

    pip builds in ``build/`` of the checkout and keeps it; an extension of a
    module that is no longer compiled (or of an older shared library) would
    otherwise go into the wheel and shadow the module's ``.py``.
    """

    def run(self) -> None:
        for pattern in ("*.so", "*.pyd"):
            for stale in Path(self.build_lib).rglob(pattern):
                stale.unlink()
        super().run()


class OptionalBuildExt(build_ext):
    """Compile the extensions, or none of them: a failure leaves the pure package.

    mypyc puts the code of every module in one shared library that each
    module's small extension imports, so a partial build would not import.
    """

    def run(self) -> None:
        try:
            super().run()
        except Exception as e:  # no compiler, a compiler error...
            _warn(f"compiling failed: {e}")
            for path in self.get_outputs():
                Path(path).unlink(missing_ok=True)
            self.extensions = []


if __name__ == "__main__":  # as pip's build backend runs it; tests import the helpers
    setup(ext_modules=_extensions(),
          # mypyc, for the compiled build only: the pure one needs nothing to install
          setup_requires=[MYPYC] if compile_asked() else [],
          cmdclass={"build": CleanBuild, "build_ext": OptionalBuildExt})
