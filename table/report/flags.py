"""Flags from the rules assist for a whole log, when the assist and a plugin for the game exist.

The assist (`assist.runner`) is optional here: without it, or without a plugin for the game,
`run_assist` says why and the report and exports simply have no flags.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger(__name__)


@dataclass(slots=True)
class FlagRun:
    available: bool
    why: str = ""  # when not available: what is missing
    by_index: dict[int, list[Any]] = field(default_factory=dict)  # op index -> flags
    notices: list[str] = field(default_factory=list)


_PLUGINS: dict[str, tuple[Any, list[str]]] = {}  # game -> (plugin or None, load notices)


def plugin_for(module: Any) -> tuple[Any, str, list[str]]:
    """(plugin, why not, notices) for a game, loaded once per process."""
    try:
        from assist import runner as assist_runner
    except ImportError:
        return None, "the rules assist is not installed", []
    if module.id not in _PLUGINS:
        notices: list[str] = []
        try:
            plugin = assist_runner.load_plugin(module.id, notices)
        except Exception as err:  # noqa: BLE001 - the assist must never break a report
            plugin, notices = None, [f"the assist could not load: {err}"]
        _PLUGINS[module.id] = (plugin, notices)
    plugin, notices = _PLUGINS[module.id]
    why = "" if plugin is not None else (notices[0] if notices else
                                         f"no rules-assist plugin for {module.id}")
    return plugin, why, notices


class Follower:
    """The assist attached to a timeline before a log is folded into it (one fold, not two)."""

    def __init__(self, module: Any, plugin: Any = None, *, seats: int | None = None,
                 knowledge: Any = None) -> None:
        self.runner: Any = None
        self.why = ""
        self.notices: list[str] = []
        if module is None:
            self.why = "the game module is not installed"
            return
        if plugin is None:
            plugin, self.why, self.notices = plugin_for(module)
        if plugin is None:
            return
        from assist.runner import AssistRunner

        self.runner = AssistRunner(module, plugin, seats=seats, knowledge=knowledge)

    def attach(self, timeline: Any) -> None:
        if self.runner is not None:
            self.runner.attach(timeline)

    def result(self) -> FlagRun:
        if self.runner is None:
            return FlagRun(False, self.why, notices=self.notices)
        runner = self.runner
        run = FlagRun(runner.disabled is None, runner.disabled or "",
                      notices=self.notices + list(runner.notices))
        try:
            for entry in runner.entries(include_acked=True, include_undone=True,
                                        include_resolved=True):
                run.by_index.setdefault(entry.index, []).append(entry.flag)
        finally:
            runner.detach()
        return run


def run_assist(replica: Any, module: Any, plugin: Any = None) -> FlagRun:
    """Run the game's assist plugin (or `plugin`) over every op of `replica`'s log."""
    if module is None:
        return FlagRun(False, "the game module is not installed")
    try:
        from assist import runner as assist_runner
    except ImportError:
        return FlagRun(False, "the rules assist is not installed")
    notices: list[str] = []
    if plugin is None:
        plugin, why, notices = plugin_for(module)
        if plugin is None:
            return FlagRun(False, why, notices=list(notices))
    try:
        runner = assist_runner.run_over([r.op for r in replica.records()], module, plugin,
                                        seats=len(replica.state.seats) or None,
                                        knowledge=replica.knowledge)
        entries = runner.entries(include_acked=True, include_undone=True,
                                 include_resolved=True)
    except Exception as err:  # noqa: BLE001
        log.warning("assist failed on a log: %s", err)
        return FlagRun(False, f"the assist failed: {err}", notices=notices)
    run = FlagRun(runner.disabled is None, runner.disabled or "", notices=notices + list(
        getattr(runner, "notices", [])))
    for entry in entries:
        run.by_index.setdefault(entry.index, []).append(entry.flag)
    return run
