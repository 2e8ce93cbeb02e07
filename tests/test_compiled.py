"""The compiled engine behaves exactly as the pure one.

A regular install compiles the modules of ``[tool.darkcity] compiled``
(``pyproject.toml``) with mypyc (``setup.py``); the suite itself runs the
editable, pure-Python package. This test builds the same extensions into a
copy of the package and runs the engine's and the game's tests against them
in a subprocess, the copy first on the path. A compiled module checks types
at run time and narrows ``int``/``bool`` differently, so code that is right
in Python can still go wrong there: this is where it shows.

Skipped, with the reason, where mypyc or a C compiler is missing (the
install then builds the pure package too).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path
from types import ModuleType

import pytest

pytestmark = pytest.mark.compiled

ROOT = Path(__file__).resolve().parent.parent

#: The tests run against the compiled modules: the rules, the notation, the
#: messages, the deck, the game, its views (against the reference views too) and
#: records, the server's reading of the views, the CLI (its subprocesses inherit
#: the path), the bots, the simulator and the environments. (The whole suite
#: passes compiled too; these are the ones that reach compiled code.)
SUITES = (
    "tests/test_rules_basic.py",
    "tests/test_rules_death.py",
    "tests/test_rules_devil.py",
    "tests/test_rules_editions.py",
    "tests/test_rules_hunter_werewolf.py",
    "tests/test_rules_journals.py",
    "tests/test_rules_matrix.py",
    "tests/test_rules_special.py",
    "tests/test_rules_zombies.py",
    "tests/test_scenarios.py",
    "tests/test_i18n.py",
    "tests/test_deck.py",
    "tests/test_validation.py",
    "tests/test_properties.py",
    "tests/test_game.py",
    "tests/test_views.py",
    "tests/test_views_reference.py",
    "tests/test_server.py",
    "tests/test_record.py",
    "tests/test_playout.py",
    "tests/test_cli.py",
    "tests/test_bots.py",
    "tests/test_sim.py",
    "tests/test_env.py",
    "tests/test_env_reference.py",
    "tests/test_env_openspiel.py",
)


def _setup_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("darkcity_setup", ROOT / "setup.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _compiler_missing() -> str | None:
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return "mypyc is not installed"
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(cc) is None:
        return f"no C compiler ({cc})"
    return None


@pytest.fixture(scope="module")
def compiled_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the package with its compiled modules built in place."""
    why = _compiler_missing()
    if why is not None:
        pytest.skip(why)
    setup = _setup_module()
    tmp = tmp_path_factory.mktemp("compiled")
    shutil.copytree(ROOT / "src" / "darkcity", tmp / "src" / "darkcity",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    shutil.copy(ROOT / "pyproject.toml", tmp / "pyproject.toml")  # mypy's settings
    build = (
        "import sys\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "import importlib.util\n"
        f"spec = importlib.util.spec_from_file_location('s', {str(ROOT / 'setup.py')!r})\n"
        "s = importlib.util.module_from_spec(spec); spec.loader.exec_module(s)\n"
        "from setuptools import setup\n"
        "setup(name='darkcity-compiled-test', ext_modules=s.mypyc_extensions("
        f"{setup.compiled_modules()!r}), script_args=['-q', 'build_ext', '--inplace'])\n"
    )
    done = subprocess.run([sys.executable, "-c", build], cwd=tmp, capture_output=True,
                          text=True, check=False, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return tmp


def _env(copy: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(copy / "src"), str(copy), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env.setdefault("DARKCITY_PLAYOUT_GAMES", "300")
    return env


def test_every_listed_module_is_compiled(compiled_copy: Path) -> None:
    setup = _setup_module()
    names = [p.removeprefix("src/").removesuffix(".py").replace("/", ".")
             for p in setup.compiled_modules()]
    check = (
        "import importlib, darkcity\n"
        f"names = {names!r}\n"
        "assert darkcity.compiled(), darkcity.__file__\n"
        "for n in names:\n"
        "    f = importlib.import_module(n).__file__\n"
        "    assert not f.endswith('.py'), f\n"
    )
    done = subprocess.run([sys.executable, "-c", check], env=_env(compiled_copy),
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


def test_the_engine_tests_pass_compiled(compiled_copy: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *SUITES],
        cwd=ROOT, env=_env(compiled_copy), capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
