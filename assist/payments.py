"""Costs paid from a tracker in the same action, for every game that states costs.

An entry (a card played, an Order used) is paid by the run of tracker changes right before it,
or right after it. Its verdict waits on the run after it: the entry is judged when that run is
over, at the first op after it that neither changes the tracker nor is transparent, or when the
input ends. A run of changes between two entries of one player is the later entry's payment
("pay, play, pay, play"), never both. Paying nothing is a payment of 0 like any other.

The plugin reads each entry once, at its own op (the card's face, zone and owner as they stood
then), and keeps what it read in a `Due`, the data of the entry's `Pending` verdict; at each
later op it asks `follow` what that op does to the payment. So a verdict given later never reads
the table again, and no op is read twice. Each game says what its entries are, which op is a
change of its tracker, and whose tracker it is.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from table.core import opkinds
from table.core.timeline import Record

Change = Callable[[Record], tuple[int, int] | None]  # (seat, paid) if the op changes a tracker


def transparent(rec: Record) -> bool:
    """Ops that neither pay nor end a payment: void ones, notes, chat, acks, rolls, reveals."""
    kind = rec.op.kind
    return rec.void is not None or kind in opkinds.QUIET or kind in (opkinds.ROLL,
                                                                    opkinds.REVEAL)


@dataclass(frozen=True, slots=True)
class Due:
    """An entry's payment as it stands (a Pending verdict's data)."""

    seat: int
    cost: int  # what it costs, all told (a Rite's Threat included)
    before: int  # paid in the run right before the entry
    after: int = 0  # paid since, in the run that follows it
    window: int = 0  # the index where the entry's timing window began (for excuses)

    @property
    def paid(self) -> int:
        return self.before + self.after

    def met(self, after: int | None = None) -> bool:
        """Paid before the entry (a later change is something else), or across it."""
        later = self.after if after is None else after
        return self.before == self.cost or self.before + later == self.cost


def paid_before(records: Sequence[Record], index: int, change: Change, seat: int) -> int:
    """What `seat` paid in the run of tracker changes right before the op at `index`."""
    paid = 0
    i = index - 1
    while i >= 0:
        rec = records[i]
        if not transparent(rec):
            found = change(rec)
            if found is None:
                break
            if found[0] == seat:
                paid += found[1]
        i -= 1
    return paid


def follow(due: Due, rec: Record, change: Change, entry_seats: set[int]) -> Due | int:
    """What the op `rec`, after the entry, does to its payment: the Due as it stands when the op
    pays (or is transparent), else the run is over and this is what counts as paid after the
    entry (0 when `rec` is the same player's next entry: that run pays it)."""
    if transparent(rec):
        return due
    found = change(rec)
    if found is not None:
        return replace(due, after=due.after + found[1]) if found[0] == due.seat else due
    return 0 if due.seat in entry_seats else due.after
