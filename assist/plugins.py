"""Finding a game's assist plugin: the entry points of group `sandtable.assist` (pyproject's
[project.entry-points]), each checked for the API version this table speaks before it is used.
A broken plugin is reported and skipped; the table plays on without it.

The plugins that ship with Sandtable are found by name, without a scan: reading every installed
distribution's entry points (importlib.metadata) is a good part of the program's start. Only a
game none of them serves scans for a third-party plugin, once per process.
"""
from __future__ import annotations

import importlib
import logging
from typing import TYPE_CHECKING, Any

from .api import API_VERSION, CARD_EFFECT, Plugin

if TYPE_CHECKING:
    from importlib import metadata

log = logging.getLogger(__name__)

ENTRY_POINT_GROUP = "sandtable.assist"
# the same as pyproject's [project.entry-points."sandtable.assist"] (tests/assist checks it)
BUILT_IN = {
    "dead-to-rites": "assist.dead_to_rites:plugin",
    "gauntlet": "assist.gauntlet:plugin",
    "mantle-of-the-keeper": "assist.mantle_of_the_keeper:plugin",
}
_scanned: list[metadata.EntryPoint] | None = None


class PluginLoadError(Exception):
    pass


def _instantiate(obj: Any) -> Plugin:
    if isinstance(obj, type) and issubclass(obj, Plugin):
        obj = obj()
    if callable(obj) and not isinstance(obj, Plugin):
        obj = obj()
    if not isinstance(obj, Plugin):
        raise PluginLoadError(f"{obj!r} is not an assist Plugin")
    version = getattr(obj, "api_version", None)
    if version != API_VERSION:
        raise PluginLoadError(f"plugin for {getattr(obj, 'game_id', '?')} was written for assist "
                              f"API {version}, this table speaks API {API_VERSION}")
    if not isinstance(getattr(obj, "game_id", None), str):
        raise PluginLoadError(f"plugin {obj!r} has no game_id")
    return obj


def entry_points() -> list[metadata.EntryPoint]:
    """Every installed plugin's entry point (scanned once per process)."""
    global _scanned
    if _scanned is None:
        from importlib import metadata

        _scanned = list(metadata.entry_points(group=ENTRY_POINT_GROUP))
    return _scanned


def _load_built_in(target: str) -> Any:
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)


def load_plugin(game_id: str, notices: list[str] | None = None) -> Plugin | None:
    """The plugin for a game: the built-in one named after it, else the entry point named
    after the game, else any whose plugin has that game_id; or None. Problems go to
    `notices`."""
    if game_id in BUILT_IN:
        found = _checked(game_id, lambda: _load_built_in(BUILT_IN[game_id]), game_id, notices)
        if found is not None:
            return found
    eps = [ep for ep in entry_points() if ep.value != BUILT_IN.get(ep.name)]
    named = [ep for ep in eps if ep.name == game_id]
    for ep in named or eps:
        plugin = _checked(ep.name, ep.load, game_id, notices)
        if plugin is not None:
            return plugin
    return None


def _checked(name: str, load: Any, game_id: str, notices: list[str] | None) -> Plugin | None:
    """The plugin `load` gives, if it loads, speaks this API and is `game_id`'s."""
    try:
        plugin = _instantiate(load())
    except Exception as err:  # a broken plugin must not break the table
        message = f"assist plugin {name!r} could not be loaded: {err}"
        log.warning(message)
        if notices is not None:
            notices.append(message)
        return None
    return plugin if plugin.game_id == game_id else None


def assist_declarations(game_id: str) -> list[str] | None:
    """The declaration names a game's assist knows (None: the game has no assist)."""
    plugin = load_plugin(game_id)
    if plugin is None:
        return None
    return [CARD_EFFECT, *(spec.name for spec in plugin.declarations())]
