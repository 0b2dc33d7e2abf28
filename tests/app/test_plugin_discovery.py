"""The built-in assist plugins are found by name, without scanning the installed
distributions (a good part of the program's start): the same plugins the entry points give."""
from __future__ import annotations

import tomllib
from pathlib import Path

from assist import plugins

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def test_the_built_in_list_is_pyprojects_entry_points() -> None:
    declared = tomllib.loads(PYPROJECT.read_text())["project"]["entry-points"]
    assert declared[plugins.ENTRY_POINT_GROUP] == plugins.BUILT_IN


def test_found_by_name_is_what_the_entry_point_loads() -> None:
    for ep in plugins.entry_points():  # the slow path: every installed distribution scanned
        if ep.name in plugins.BUILT_IN:
            fast, loaded = plugins.load_plugin(ep.name), ep.load()
            slow = loaded() if isinstance(loaded, type) else loaded
            assert fast is not None and type(fast) is type(slow)
            assert fast.game_id == ep.name


def test_a_game_no_plugin_serves_has_none() -> None:
    assert plugins.load_plugin("no-such-game") is None


def test_a_broken_built_in_is_reported_and_skipped(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setitem(plugins.BUILT_IN, "dead-to-rites", "assist.no_such_module:plugin")
    monkeypatch.setattr(plugins, "_scanned", [])  # no installed entry point stands in for it
    notices: list[str] = []
    assert plugins.load_plugin("dead-to-rites", notices) is None
    assert notices and "dead-to-rites" in notices[0]
