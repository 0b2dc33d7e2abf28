"""Finding a game's assist plugin: the entry points of group `sandtable.assist` (pyproject's
[project.entry-points]), each checked for the API version this table speaks before it is used.
A broken plugin is reported and skipped; the table plays on without it."""
from __future__ import annotations

import logging
from importlib import metadata
from typing import Any

from .api import API_VERSION, CARD_EFFECT, Plugin

log = logging.getLogger(__name__)

ENTRY_POINT_GROUP = "sandtable.assist"


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
    return list(metadata.entry_points(group=ENTRY_POINT_GROUP))


def load_plugin(game_id: str, notices: list[str] | None = None) -> Plugin | None:
    """The plugin registered for a game (entry point named after the game, else any whose
    plugin has that game_id), or None. Problems go to `notices`."""
    eps = entry_points()
    named = [ep for ep in eps if ep.name == game_id]
    for ep in named or eps:
        try:
            plugin = _instantiate(ep.load())
        except Exception as err:  # a broken plugin must not break the table
            message = f"assist plugin {ep.name!r} could not be loaded: {err}"
            log.warning(message)
            if notices is not None:
                notices.append(message)
            continue
        if plugin.game_id == game_id:
            return plugin
    return None


def assist_declarations(game_id: str) -> list[str] | None:
    """The declaration names a game's assist knows (None: the game has no assist)."""
    plugin = load_plugin(game_id)
    if plugin is None:
        return None
    return [CARD_EFFECT, *(spec.name for spec in plugin.declarations())]
