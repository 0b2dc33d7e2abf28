"""The window and a draft changed during play.

`follow_module` swaps a table window's catalog when the table moves to another version of its
module (a `module` op, from this peer's draft watcher or another peer's), so the cards on the
table re-render with their new text and stats. `DraftWatch` is the designer's side: it polls
the draft's folder from a Qt timer and puts each settled, valid edit into the log; a broken or
refused edit is shown in the window, and nothing changes.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QTimer

from table.games.store import default_store
from table.games.watch import Broken, DraftWatcher, Refused, Reloaded

from .catalog import Catalog

POLL_MS = 50  # a draft's folder is looked at this often (cheap: a stat per file)


def use_module(window: Any, module: Any) -> None:
    """Draw the table with `module` (a new version of the one it plays)."""
    current = window.ctl.catalog.module
    if current is not None and current.content_hash == module.content_hash:
        return
    window.ctl.catalog = Catalog.from_module(module)
    window.scene.refresh_view()
    window.preview.clear()
    window.statusBar().showMessage(f"The table now plays {module.name} {module.version}.",
                                   8000)


def follow_module(window: Any) -> None:
    """After ops arrive: when the table's module changed and this peer holds the new version
    (its cache has it), draw with it. A LAN peer still fetching it gets it from its follower."""
    recorded = window.replica.state.module
    digest = recorded.get("hash") if recorded else None
    current = window.ctl.catalog.module
    if not digest or current is None or getattr(current, "content_hash", None) == digest:
        return
    module = default_store().find(digest)
    if module is not None:
        use_module(window, module)


class DraftWatch(QObject):
    """Polls a draft's folder for a table window (hot-seat or a LAN host's window)."""

    def __init__(self, window: Any, module: Any, folder: Path) -> None:
        super().__init__(window)
        self.window = window
        self.watcher = DraftWatcher(window.replica, module, folder)
        self.timer = QTimer(self)
        self.timer.setInterval(POLL_MS)
        self.timer.timeout.connect(self.poll)
        self.timer.start()
        self.problem = ""  # what the window shows while the draft is broken or refused

    def poll(self) -> None:
        event = self.watcher.poll()
        bar = self.window.statusBar()
        if isinstance(event, Reloaded):
            self.problem = ""
            use_module(self.window, event.change.new)
            note = "".join(f" Note: {w}." for w in event.warnings)
            bar.showMessage(f"Module updated to {event.change.describe()}.{note}", 10000)
            bar.setToolTip("\n".join(event.warnings))
        elif isinstance(event, Broken):
            self.problem = "The draft has errors; nothing changed:\n" + "\n".join(event.problems)
            bar.showMessage(f"The draft has errors; nothing changed: {event.problems[0]}")
            bar.setToolTip(self.problem)
        elif isinstance(event, Refused):
            self.problem = ("The table cannot take this version; nothing changed:\n"
                            + "\n".join(event.reasons))
            bar.showMessage(f"The table cannot take this version: {event.reasons[0]}")
            bar.setToolTip(self.problem)
