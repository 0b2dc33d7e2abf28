"""Leaving LAN tables: one leave task per table (a ``bye`` to every peer, then the log
closed), and on quit every table left at once within a bound, the stuck ones abandoned.
Its own concern, apart from the dialogs and windows of :mod:`table.app.lan_wiring`, which
share with it the lists of open tables and their windows."""
from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from table import lan
from table.ui.main_window import TableWindow

log = logging.getLogger(__name__)
CLOSE_BOUND = 5.0  # seconds close_all waits for the tables' byes before abandoning them


class Departures:
    """The tables being left; `tables` and `windows` are the app's own (updated in place)."""

    def __init__(self, tables: list[lan.LanTable], windows: dict[int, TableWindow]) -> None:
        self.tables = tables
        self.windows = windows
        self._leaving: dict[asyncio.Task[Any], lan.LanTable] = {}  # leave task -> its table
        self._left: set[int] = set()
        self.on_left: Callable[[], object] | None = None  # told once a table is left

    def leave(self, t: lan.LanTable) -> None:
        """Start leaving `t` (once: a second call for the same table does nothing)."""
        if id(t) in self._left:
            return
        self._left.add(id(t))

        async def leave() -> None:
            try:
                await t.close(graceful=True)
            except Exception:
                log.exception("leaving the table failed")
            finally:
                self._forget(t)

        task = asyncio.ensure_future(leave())
        self._leaving[task] = t
        task.add_done_callback(lambda done: self._leaving.pop(done, None))

    async def left(self, log_path: str) -> None:
        """Once no table of this log is still being left (its log closed): a place taken back
        right after leaving it never has two sessions on one log."""
        busy = [task for task, t in self._leaving.items()
                if str(getattr(t.replica.log, "path", "") or "") == log_path]
        if busy:
            await asyncio.wait(busy, timeout=CLOSE_BOUND)

    def _forget(self, t: lan.LanTable) -> None:
        if t in self.tables:
            self.tables.remove(t)
        self.windows.pop(id(t), None)
        if self.on_left is not None:
            self.on_left()

    async def close_all(self, bound: float = CLOSE_BOUND) -> list[str]:
        """Leave every table (on quit): close the windows, wait for the byes, at most `bound`
        seconds. A table whose leaving is still under way then (a peer stuck mid-close) is
        abandoned: its leaving is cancelled without waiting, its log closed (it is complete:
        every op is written as it is issued), and its name logged and returned."""
        for window in list(self.windows.values()):
            window.close()
        for t in list(self.tables):
            self.leave(t)
        if not self._leaving:
            return []
        # asyncio.wait, not wait_for: on timeout wait_for would wait for the cancelled
        # tasks' own cleanup, which is what may be stuck
        _done, stuck = await asyncio.wait(list(self._leaving), timeout=bound)
        abandoned = []
        for task in stuck:
            t = self._leaving.pop(task)
            task.cancel()
            for background in list(t.tasks):  # the table's own (setup) tasks
                background.cancel()
            with contextlib.suppress(Exception):
                t.replica.close()
            self._forget(t)
            abandoned.append(t.table_name)
        if abandoned:
            log.warning("left without waiting for the peers (still closing after %.0f s): %s",
                        bound, ", ".join(sorted(abandoned)))
        return sorted(abandoned)
