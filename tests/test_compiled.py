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

The build (a few minutes of mypyc and the C compiler) is kept in the cache
(``$DARKCITY_CACHE``, else ``~/.cache/darkcity``) under the hash of what it is made
of (the package's sources, ``setup.py``, the compiled modules' list and mypy's
settings in ``pyproject.toml``, Python's and mypy's versions): a run whose sources
did not change since the last build copies it. It is made under a lock of the
machine, so that two runs side by side build it once.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

from .services import machine_lock

# one worker builds and runs them all (under workers, this group is handed out first);
# the build alone passed the suite's 900 s on a 2-core machine loaded by other work
pytestmark = [pytest.mark.compiled, pytest.mark.xdist_group("compiled"),
              pytest.mark.timeout(2400)]

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


def _build_key() -> str:
    """The hash of what the build is made of: the package's sources, setup.py, the
    list of compiled modules and mypy's settings, Python's and mypy's versions."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]
    h = hashlib.sha256(f"{sys.version} mypy {importlib.metadata.version('mypy')}".encode())
    h.update(json.dumps([config.get("darkcity"), config.get("mypy")], sort_keys=True).encode())
    for f in [ROOT / "setup.py", *sorted((ROOT / "src" / "darkcity").rglob("*.py"))]:
        h.update(f.relative_to(ROOT).as_posix().encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()[:20]


def _cache_root() -> Path:
    return Path(os.environ.get("DARKCITY_CACHE") or Path(
        os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "darkcity")


KEEP_BUILDS = 3  # the newest builds kept in the cache


@pytest.fixture(scope="session")
def compiled_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the package with its compiled modules built in place (from the cache
    when the sources are those of a build kept there)."""
    why = _compiler_missing()
    if why is not None:
        pytest.skip(why)
    tmp = tmp_path_factory.mktemp("compiled")
    shutil.copytree(ROOT / "src" / "darkcity", tmp / "src" / "darkcity",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    shutil.copy(ROOT / "pyproject.toml", tmp / "pyproject.toml")  # mypy's settings
    key = _build_key()
    kept = _cache_root() / "compiled-tests" / key
    with machine_lock(f"compiled-{key}"):
        if not (kept / "done").exists():
            _build(tmp)
            part = kept.with_name(f"{key}.part{os.getpid()}")
            shutil.rmtree(part, ignore_errors=True)
            for so in tmp.rglob("*.so"):
                if "build" not in so.relative_to(tmp).parts:
                    (part / so.relative_to(tmp)).parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(so, part / so.relative_to(tmp))
            (part / "done").write_text(key, encoding="utf-8")
            shutil.rmtree(kept, ignore_errors=True)
            part.rename(kept)
            builds = sorted((d for d in kept.parent.iterdir() if ".part" not in d.name),
                            key=lambda d: d.stat().st_mtime)
            for old in builds[:-KEEP_BUILDS]:
                shutil.rmtree(old, ignore_errors=True)
        else:
            for so in kept.rglob("*.so"):
                shutil.copy2(so, tmp / so.relative_to(kept))
            kept.touch()
    return tmp


def _build(tmp: Path) -> None:
    """mypyc and the C compiler: the listed modules' extensions, in place in ``tmp``."""
    setup = _setup_module()
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
