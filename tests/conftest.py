"""Every test run keeps Sandtable's per-user data (the module cache, saved games) in a folder
of its own, never in the user's real data directory; a run that includes the bundle tests
starts the bundle's build first thing (tests/bundle_build.py)."""
from __future__ import annotations

import gc
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest

from tests import bundle_build

ROOT = Path(__file__).resolve().parents[1]

if "SANDTABLE_HOME" not in os.environ:
    os.environ["SANDTABLE_HOME"] = tempfile.mkdtemp(prefix="sandtable-tests-")


def pytest_configure(config: Any) -> None:
    # In parallel runs only the controller starts it (before its workers start, so that they
    # inherit STARTED_VAR); a worker has `workerinput`.
    if not hasattr(config, "workerinput") and bundle_build.wanted(config):
        bundle_build.start()


def pytest_unconfigure(config: Any) -> None:
    if not hasattr(config, "workerinput"):
        bundle_build.finish()


def pytest_collection_finish(session: Any) -> None:
    # What collecting the tests built (modules, parameters) lives to the end of the run: the
    # collector need not walk it again in every full collection.
    gc.freeze()


# The tests that take longest (processes, LAN tables with real sockets and waits) go first,
# so that parallel workers do not end the run waiting on one of them; the bundle's tests go
# last, by when its build (started with the run) is done.
_LONG_FIRST = ("tests/e2e/", "tests/packaging/test_wheel", "tests/ui/test_lan_",
               "tests/ui/test_xwindow")


def _weight(item: Any) -> int:
    where = Path(str(item.fspath)).resolve().relative_to(ROOT).as_posix()
    if where.startswith(_LONG_FIRST) or item.get_closest_marker("multiprocess"):
        return 0
    if where == "tests/packaging/test_bundle.py":
        return 3
    return 1 if item.get_closest_marker("socket") else 2


@pytest.hookimpl(trylast=True)  # after the folders' own hooks have marked their tests
def pytest_collection_modifyitems(items: list[Any]) -> None:
    items.sort(key=_weight)  # stable: the order within each weight stays
