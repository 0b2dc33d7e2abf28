"""Errors raised by the table core. Each carries enough context to point a person at the problem."""
from __future__ import annotations

from enum import Enum


class Fault(Enum):
    """A void op that no honest peer sends: its author is named to the player."""

    BAD_REVEAL = "bad reveal"  # a hidden card turned up as a card its commitment does not name
    FORGED_ROLL = "forged roll"  # a joint roll whose values do not derive from its shares
    WATCHER_OP = "watcher op"  # a watcher's op other than a note or chat


class CoreError(Exception):
    """Base class for every error the core raises on purpose."""


class BadOp(CoreError):
    """An op record is malformed (wrong fields or types). Raised before anything is applied."""


class Void(CoreError):
    """An op is well formed but does nothing at its canonical place (target gone, input consumed...).

    Void is not a failure: it is recorded in the timeline with its reason, as DESIGN.md requires.
    `fault` says when the op is one no honest peer sends (a bad reveal, a forged roll).
    """

    def __init__(self, reason: str, fault: Fault | None = None) -> None:
        super().__init__(reason)
        self.fault = fault


class CausalityError(CoreError):
    """An op breaks the causal rules (a stamp not above its dependencies, a reused sequence number)."""


class LogError(CoreError):
    """A log file cannot be read or written; the message names the file and record."""
