"""Flags that follow the table: a flag about how the table is (a piece misplaced, a count
wrong) leaves the live views once the table no longer shows it.

A plugin names such rules in `Plugin.conditions` and answers `Plugin.still_shows`. After each
applied op that touched an object a live condition flag names, the runner asks whether the
table still shows it; when it does not, the flag is *resolved* at that op. Resolved flags leave
the assist panel, the log panel and the badges (every peer folds the same ops, so every view
agrees); the log's history keeps them (`sandtable assist`, the designer's report). A rollback
takes back the resolutions from its index on, and re-applying the ops finds them again.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field

from table.core.timeline import Record

from .api import AssistView, Flag, GameInfo, Plugin

log = logging.getLogger(__name__)


Which = tuple[str, tuple[str, ...]]


def which(flag: Flag) -> Which:
    """One flag among those an op raised under the same rule: its key and its pieces."""
    return flag.key, flag.objects


@dataclass
class Conditions:
    live: list[tuple[int, Flag]] = field(default_factory=list)  # (raised at, flag), oldest first
    # which(flag) -> the index it cleared at (several flags of one op share a key: one per piece)
    resolved: dict[Which, int] = field(default_factory=dict)
    _order: list[tuple[int, int, Flag]] = field(default_factory=list)  # (cleared at, raised, flag)

    def raised_at(self, resolved: Which) -> int | None:
        """The op index a resolved flag was raised at (its line in the log)."""
        return next((raised for _c, raised, f in self._order if which(f) == resolved), None)

    def reset(self) -> None:
        self.live.clear()
        self.resolved.clear()
        self._order.clear()

    def raised(self, index: int, flags: tuple[Flag, ...], plugin: Plugin) -> None:
        if flags:
            self.live.extend((index, f) for f in flags
                             if f.rule in plugin.conditions and f.objects)

    def follow(self, index: int, record: Record, plugin: Plugin, view: AssistView,
               game: GameInfo) -> bool:
        """Resolve the live flags the table no longer shows after `record`. True if any."""
        if not self.live or record.void is not None or not record.journal.entries:
            return False
        touched = record.journal.touched()
        kept: list[tuple[int, Flag]] = []
        cleared = False
        for raised_at, flag in self.live:
            if raised_at < index and touched.intersection(flag.objects) \
                    and not plugin.still_shows(flag, view, game):
                self.resolved[which(flag)] = index
                self._order.append((index, raised_at, flag))
                cleared = True
            else:
                kept.append((raised_at, flag))
        self.live = kept
        return cleared

    def rolled_back(self, index: int) -> None:
        """Ops from `index` on were taken back: so are the flags they raised or resolved."""
        while self._order and self._order[-1][0] >= index:
            _cleared, raised_at, flag = self._order.pop()
            del self.resolved[which(flag)]
            if raised_at < index:
                self.live.append((raised_at, flag))
        self.live = sorted((e for e in self.live if e[0] < index), key=lambda e: e[0])
