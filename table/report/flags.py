"""Flags from the rules assist for a whole log, when the assist and a plugin for the game exist.

For `sandtable log export` and the replay view (the report's flags come from the dataset's
pass, table.dataset.assist_flags, which judges each op as the log is folded). The assist
(`assist.runner`) is optional: without it, or without a plugin for the game, `run_assist`
says why and the export simply has no flags.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from table.dataset.assist_flags import plugin_for

log = logging.getLogger(__name__)


@dataclass(slots=True)
class FlagRun:
    available: bool
    why: str = ""  # when not available: what is missing
    by_index: dict[int, list[Any]] = field(default_factory=dict)  # op index -> flags
    notices: list[str] = field(default_factory=list)


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
    except Exception as err:  # the assist must never break an export
        log.warning("assist failed on a log: %s", err)
        return FlagRun(False, f"the assist failed: {err}", notices=notices)
    run = FlagRun(runner.disabled is None, runner.disabled or "", notices=notices + list(
        getattr(runner, "notices", [])))
    for entry in entries:
        run.by_index.setdefault(entry.index, []).append(entry.flag)
    return run
