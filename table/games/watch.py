"""Watching a draft's folder during play: when its files change and settle, the new version is
loaded and, if the table can take it, put into the log (see reload.py).

Qt-free and clock-injected: the window polls it from a timer, a headless host from its event
loop. A folder is "settled" once its files have not changed for `settle` seconds (an editor's
save is often several writes).
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from table.core.replica import Replica

from .archive import module_files
from .loader import load_module
from .module import GameModule
from .problems import ModuleError
from .reload import ModuleChange, apply_change, plan_change
from .rule_sources import shadow_warnings
from .store import ModuleStore


@dataclass(slots=True)
class Reloaded:
    change: ModuleChange
    # the draft's changes that do nothing, or numbers it now states twice (rule_sources.py)
    warnings: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Broken:
    """The edited draft does not load: nothing changed; `problems` are file:line lines."""
    problems: list[str]


@dataclass(slots=True)
class Refused:
    """The draft loads but the table cannot take it: nothing changed."""
    reasons: list[str]


WatchEvent = Reloaded | Broken | Refused


def folder_signature(root: Path) -> tuple[tuple[str, int, int], ...]:
    out = []
    for path in module_files(root):
        try:
            st = path.stat()
        except OSError:
            continue
        out.append((path.relative_to(root).as_posix(), st.st_mtime_ns, st.st_size))
    return tuple(out)


class DraftWatcher:
    def __init__(self, replica: Replica, module: GameModule, folder: Path, *,
                 store: ModuleStore | None = None, settle: float = 0.1,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.replica, self.module, self.folder = replica, module, folder
        self.store, self.settle, self.clock = store, settle, clock
        self._seen = folder_signature(folder)
        self._changed_at: float | None = None
        self._failed_on: tuple[tuple[str, int, int], ...] | None = None

    def poll(self) -> WatchEvent | None:
        """Look at the folder once; an event when a settled change was handled."""
        now, signature = self.clock(), folder_signature(self.folder)
        if signature != self._seen:
            self._seen, self._changed_at = signature, now
            return None
        if self._changed_at is None or now - self._changed_at < self.settle:
            return None
        self._changed_at = None
        if signature == self._failed_on:
            return None
        return self._reload(signature)

    def _reload(self, signature: tuple[tuple[str, int, int], ...]) -> WatchEvent | None:
        try:
            new = load_module(self.folder)
        except ModuleError as err:
            self._failed_on = signature
            return Broken([str(p) for p in err.problems])
        if new.content_hash == self.module.content_hash:
            return None
        change = plan_change(self.module, new, self.replica)
        if change.refused:
            self._failed_on = signature
            return Refused(change.refused)
        apply_change(self.replica, change, self.store)
        warnings = shadowed_changes(change)
        self.module, self._failed_on = new, None
        return Reloaded(change, warnings)


def shadowed_changes(change: ModuleChange) -> list[str]:
    """Warnings about what this change did: a rule value it set that a card column shadows,
    or a number it made a card state twice (those the old version had already are not news,
    unless the change touched that rule)."""
    touched = {key.split(".", 1)[0] for key in change.rules}
    before = set(shadow_warnings(change.old))
    return [w for w in shadow_warnings(change.new)
            if w not in before or any(w.startswith(f"rules {r} ") for r in touched)]
