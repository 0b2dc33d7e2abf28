"""Which connections a mesh takes, decided with no I/O.

* Handshake slots: a global cap and a smaller one per remote address, so a flood of idle
  connections from one address cannot take every slot and lock out a joiner; a connection
  over the cap is told "busy" and retries.
* Duplicate links: when two peers dial each other at once, both sides keep the link the lower
  peer id initiated, and close the other.
"""
from __future__ import annotations

BUSY_REASON = "table busy"  # the reject a joiner reads as "retry", not "nobody is there"
BUSY_LOG_EVERY = 10.0  # seconds between two "refusing connections" warnings


class HandshakeSlots:
    def __init__(self, total: int, per_address: int) -> None:
        self.total, self.per_address = total, per_address
        self.pending = 0
        self._from: dict[str, int] = {}

    def take(self, address: str) -> bool:
        """Take a slot for a handshake from `address`; False when the table is busy."""
        if self.pending >= self.total or self._from.get(address, 0) >= self.per_address:
            return False
        self.pending += 1
        self._from[address] = self._from.get(address, 0) + 1
        return True

    def release(self, address: str) -> None:
        self.pending -= 1
        left = self._from.pop(address, 1) - 1
        if left > 0:
            self._from[address] = left


def duplicate_verdict(me: str, peer: str, new_initiated_by_me: bool,
                      old_initiated_by_me: bool) -> str | None:
    """With a link to `peer` already open, whether a new one replaces it: None when it does,
    else the reason the new link is closed. The link the lower peer id dialed is kept."""
    preferred = min(me, peer)
    if (me if new_initiated_by_me else peer) != preferred:
        return "duplicate link (keeping the one the lower peer id dialed)"
    if (me if old_initiated_by_me else peer) == preferred:  # both preferred: keep the older
        return "duplicate link"
    return None
