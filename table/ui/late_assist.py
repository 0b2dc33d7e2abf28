"""The rules assist started once the table is on screen (the program's start path): loading
and attaching it is a good part of a start, and the first frame shows none of it.

It loses nothing by waiting: attaching checks every op the table already holds, so the first
illegal move is flagged however soon it comes; a Declare menu opened before then starts it at
once. Only a game whose plugin ships with Sandtable waits (found by name, no scan); any other
table loads its assist as it opens, as before.
"""
from __future__ import annotations

from typing import Any

from .catalog import Catalog
from .panels.assist_panel import make_assist_runner


def assist_can_wait(catalog: Catalog) -> bool:
    from assist.plugins import BUILT_IN

    module = catalog.module
    return module is not None and hasattr(module, "players") and module.id in BUILT_IN


def start_assist(window: Any) -> None:
    """Attach the table window's rules assist (once; not after the window shut down)."""
    if window.assist_runner is not None or window.shut:
        return
    runner = make_assist_runner(window.replica, window.ctl.catalog)
    window.assist.waiting = False
    if runner is None:
        window.assist.refresh()
        return
    window.assist_runner = runner
    window.assist.runner = runner
    window.log_panel.flags_at = runner.flags_at
    window.log_panel.rebuild()
    window.declaring.fill_menu(runner)
    window.refresh_panels()  # the flags of the ops so far, at once
