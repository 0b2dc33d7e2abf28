"""A flag at its place in the log, as the runner lists them (assist.runner.AssistRunner.entries)."""
from __future__ import annotations

from dataclasses import dataclass

from .api import Flag, OpRef


@dataclass(frozen=True, slots=True)
class FlagEntry:
    """A flag at its place in the log."""

    index: int  # position of the triggering op in canonical order (0-based)
    ref: OpRef  # the triggering op
    flag: Flag

    @property
    def key(self) -> str:
        return self.flag.key

    @property
    def number(self) -> int:
        """1-based op number, as `sandtable log show` numbers ops."""
        return self.index + 1
