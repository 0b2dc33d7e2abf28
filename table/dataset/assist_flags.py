"""The rules assist over a session as it is folded: attached to the timeline before the fold,
so each op is judged once, at its place, as the table stood then.

Optional: without the assist, a plugin for the game, or the game module, the session's row
says why (`flags_why`) and it has no flags.
"""
from __future__ import annotations

import logging
from typing import Any

_PLUGINS: dict[str, tuple[Any, list[str]]] = {}  # game -> (plugin or None, load notices)


def plugin_for(module: Any) -> tuple[Any, str, list[str]]:
    """(plugin, why not, notices) for a game, loaded once per process."""
    try:
        from assist import runner
    except ImportError:
        return None, "the rules assist is not installed", []
    if module.id not in _PLUGINS:
        notices: list[str] = []
        try:
            plugin = runner.load_plugin(module.id, notices)
        except Exception as err:  # a plugin never breaks the dataset or report
            plugin, notices = None, [f"the assist could not load: {err}"]
        _PLUGINS[module.id] = (plugin, notices)
    plugin, notices = _PLUGINS[module.id]
    why = "" if plugin is not None else (notices[0] if notices else
                                         f"no rules-assist plugin for {module.id}")
    return plugin, why, notices


class AssistWatch:
    """Flags raised on a session's ops: `attach` before the fold, `flags()` after it."""

    def __init__(self, module: Any, plugin: Any = None, *, seats: int | None = None,
                 knowledge: Any = None, enabled: bool = True) -> None:
        self.runner: Any = None
        self.why = ""
        if not enabled:
            self.why = "the rules assist was not run (--no-flags)"
            return
        if module is None:
            self.why = "the game module is not installed"
            return
        if plugin is None:
            plugin, self.why, _notices = plugin_for(module)
        if plugin is None:
            return
        from assist.runner import AssistRunner

        self.runner = AssistRunner(module, plugin, seats=seats, knowledge=knowledge)

    def attach(self, timeline: Any) -> None:
        if self.runner is not None:
            self.runner.attach(timeline)

    def occasions(self) -> dict[int, list[tuple[str, int | None]]]:
        """Op index -> the rules it was an occasion of (and whose), as the runner counted them
        beside its checks (call before `flags()`, which detaches the runner)."""
        if self.runner is None or self.runner.disabled:
            return {}
        return dict(self.runner.occasions.by_index)

    def flags(self) -> tuple[dict[int, list[Any]], str]:
        """(op index -> flags raised on it, why there are none: "" when the assist ran)."""
        if self.runner is None:
            return {}, self.why
        runner = self.runner
        by_index: dict[int, list[Any]] = {}
        try:
            runner.finish()  # the session's log read to its end: every open window closes
            for entry in runner.entries(include_acked=True, include_undone=True,
                                         include_resolved=True):
                by_index.setdefault(entry.index, []).append(entry.flag)
        finally:
            runner.detach()
        return by_index, runner.disabled or ""


def quiet_assist() -> int:
    """A plugin that fails is disabled for that log and said in its row: no tracebacks.
    Returns the level it had (to put back where the process goes on)."""
    quiet = logging.getLogger("assist")
    level = quiet.level
    quiet.setLevel(logging.CRITICAL)
    return level
