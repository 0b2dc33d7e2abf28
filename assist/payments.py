"""Costs paid from a tracker in the same action, for every game that states costs.

An entry (a card played, an Order used) is paid by the run of tracker changes right before it,
or right after it. So an entry is judged once its payment is over, at the first op after it
that neither changes the tracker nor is transparent. A run of changes between two entries of
one player is the later entry's payment ("pay, play, pay, play"), never both. Paying nothing
is a payment of 0 like any other. Each game says what its entries are, which op is a change
of its tracker, and what a player paid in a span of ops.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from table.core import opkinds
from table.core.timeline import Record

Pays = Callable[[Record], bool]  # does this op change the tracker costs are paid from?
Paid = Callable[[int, int], int]  # what one player paid in the ops [start, stop)


def transparent(rec: Record) -> bool:
    """Ops that neither pay nor end a payment: void ones, notes, chat, acks, rolls, reveals."""
    kind = rec.op.kind
    return rec.void is not None or kind in opkinds.QUIET or kind in (opkinds.ROLL,
                                                                    opkinds.REVEAL)


def pending_entry(records: Sequence[Record], index: int, pays: Pays) -> int | None:
    """The op whose payment run the op at `index` ends (it may be no entry at all), or None
    when the op at `index` is itself part of a run."""
    if transparent(records[index]) or pays(records[index]):
        return None
    i = index - 1
    while i >= 0 and (transparent(records[i]) or pays(records[i])):
        i -= 1
    return i if i >= 0 else None


def paid_around(records: Sequence[Record], entry: int, index: int, pays: Pays, paid: Paid, *,
                next_entry_pays: bool) -> tuple[int, int]:
    """(paid in the run right before `entry`, paid in the run from it up to `index`); the run
    after is 0 when it belongs to the next entry of the same player (the op at `index`)."""
    start = entry
    while start > 0 and (transparent(records[start - 1]) or pays(records[start - 1])):
        start -= 1
    before = paid(start, entry)
    after = 0 if next_entry_pays else paid(entry + 1, index)
    return before, after


def settled(cost: int, before: int, after: int) -> bool:
    """Paid before the entry (a later change is something else), or across it."""
    return before == cost or before + after == cost
