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

# The `socket` and `processes` marks, checked against what each test really opens; pytester
# for the plugin's own test.
pytest_plugins = ["tests.markers_plugin", "pytester"]

ROOT = Path(__file__).resolve().parents[1]

# Internet play in tests never reaches a public relay or discovery service: every peer the
# tests start (in process or as a `sandtable` process) defaults to relays off.
os.environ["SANDTABLE_RELAY"] = "off"
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


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[Any]) -> None:
    # The bundle's tests last: by then its build, started with the run, is done (a worker that
    # drew one early would wait for it idle).
    bundle = str(ROOT / "tests" / "packaging" / "test_bundle.py")
    items.sort(key=lambda item: str(item.fspath) == bundle)  # stable: the rest keep their order

