"""Shared fixtures (where the adjudicated scenarios live), the suite's tiers and its
parallel workers.

Tiers (markers registered in pyproject.toml; CONTRIBUTING.md): ``browser`` (the tests
under ``tests/browser/`` that ask for Chromium, the ``browser`` or ``chromium_path``
fixture: marked here), ``compiled``, ``services`` (marked here too for a test that asks
for ``postgres`` or ``redis_server``), ``slow``; the fast tier is
``-m "not browser and not compiled and not services and not slow"``.

Workers: where pytest-xdist is installed (the test extra), a run of folders (no
argument, as the README's ``python3 -m pytest``, or ``tests/browser``, or a tier
with ``-m``) is spread over ``-n auto`` workers with ``--dist loadgroup``; a run of
named files or tests stays in one process. ``-n N`` (``-n 0`` for one process) says
otherwise, and ``-p no:xdist`` runs without the plugin. The tests of a module that
share a module-scoped fixture (a browser, a cluster, a build) run on one worker, so
the fixture is set up once.
"""

from __future__ import annotations

import inspect
import os
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = Path(os.environ.get("DARKCITY_SCENARIOS", ROOT.parent / "shared" / "scenarios"))


@pytest.fixture
def scenarios_dir() -> Path:
    if not SCENARIOS.is_dir():
        pytest.skip(f"no scenarios folder at {SCENARIOS}")
    return SCENARIOS


BROWSER_DIR = Path(__file__).resolve().parent / "browser"


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """``-n auto --dist loadgroup`` for a run of folders, where xdist is installed and
    the command line says nothing of workers (before xdist reads its options)."""
    if not config.pluginmanager.hasplugin("xdist"):
        return
    opt = config.option
    if os.environ.get("PYTEST_XDIST_WORKER"):
        # a worker parses the command line again: it learns of the groups from the
        # controller (pytest_configure_node below), before xdist reads them
        if getattr(config, "workerinput", {}).get("darkcity_loadgroup"):
            opt.loadgroup = True
        return
    if opt.dist != "no" or opt.tx:
        return  # the command line chose how
    if opt.numprocesses is None:
        if config.getoption("usepdb", False) or config.getoption("collectonly", False):
            return
        places = [a.split("::")[0] for a in config.args]
        if config.args_source is pytest.Config.ArgsSource.ARGS and not all(
                Path(config.invocation_params.dir, p).is_dir() for p in places):
            return  # named files or tests: one process, quick to start
        opt.numprocesses = "auto"
    if opt.numprocesses:
        opt.dist = "loadgroup"
        opt.loadscopereorder = False  # the order of pytest_collection_modifyitems below


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """(xdist, on the controller) Tell each worker that the groups are in force."""
    node.workerinput["darkcity_loadgroup"] = node.config.option.dist == "loadgroup"


def _group(item: pytest.Item) -> str | None:
    """The xdist group of a test that shares a module-scoped fixture: its module, or the
    test module the fixture comes from (test_pocket_play imports test_pocket_app's site:
    the two run on one worker, one after the other); None for a test that shares none."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return None
    here = Path(str(item.fspath)).resolve()
    group = None
    for defs in info.name2fixturedefs.values():
        for d in defs:
            if d.scope not in ("module", "class", "package"):
                continue
            group = group or here
            source = Path(inspect.getsourcefile(d.func) or here).resolve()
            if source.name.startswith("test_") and source != here:
                return source.relative_to(ROOT).as_posix()
    return group.relative_to(ROOT).as_posix() if group else None


CHROMIUM = {"browser", "chromium_path"}  # the fixtures of tests/browser/conftest.py
SERVICES = {"postgres", "redis_server"}  # the fixtures of tests/services.py


@pytest.hookimpl(tryfirst=True)  # before xdist's, which reads the groups on a worker
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A test under ``tests/browser/`` that asks for Chromium carries the ``browser``
    marker, one that asks for PostgreSQL or Redis the ``services`` marker (the tiers);
    the tests of a module that share a module-scoped fixture are one group of work for
    xdist (one worker sets the fixture up once)."""
    for item in items:
        path = Path(str(item.fspath)).resolve()
        fixtures = set(getattr(item, "fixturenames", ()))
        if BROWSER_DIR in path.parents and CHROMIUM & fixtures:
            item.add_marker(pytest.mark.browser)
        if SERVICES & fixtures:
            item.add_marker(pytest.mark.services)
        group = _group(item)
        if group and not item.get_closest_marker("xdist_group"):
            item.add_marker(pytest.mark.xdist_group(group))
    if os.environ.get("PYTEST_XDIST_WORKER") and getattr(config.option, "loadgroup", False):
        # (on a worker, xdist sets ``loadgroup`` for --dist loadgroup and resets ``dist``)
        items.sort(key=_first)  # (stable: a module's tests keep their order)


#: With workers, the longest work is handed out first (the others fill the gaps): the
#: compiled build and its suites on one worker, then the services, then each browser
#: module as one piece, then any other group, then the single tests.
_ORDER = ("compiled", "services", "browser")


def _first(item: pytest.Item) -> int:
    for rank, marker in enumerate(_ORDER):
        if item.get_closest_marker(marker):
            return rank
    return len(_ORDER) + (0 if item.get_closest_marker("xdist_group") else 1)
