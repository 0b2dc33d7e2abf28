"""Which connections a mesh takes, decided with no I/O.

* Admission (:class:`Admission`), so that a flood of connections cannot keep a joiner out:

  - an accepted connection first waits for its first bytes (its hello) in an *idle* pool;
    when the pool is full, the connection waiting longest is closed for the newcomer, so idle
    connections, however many and from however many addresses, only ever push each other out:
    a joiner's connection sends its hello at once and leaves the pool within milliseconds;
  - a connection whose hello started takes a *handshake slot*; a quarter of them are kept for
    the addresses of known peers (the peer book: the peer file, links, gossip), which no
    stranger can take; a slot whose connection has sent nothing for ``stall_after`` seconds
    is reclaimed for a newcomer that needs it (a real handshake is a few round trips);
  - one address holds at most ``per_address`` connections (idle and handshaking together).

  A connection that finds no slot is told "busy" and retries. docs/lan-play.md says what an
  attacker with N addresses can and cannot do.
* Duplicate links: when two peers dial each other at once, both sides keep the link the lower
  peer id initiated, and close the other.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

BUSY_REASON = "table busy"  # the reject a joiner reads as "retry", not "nobody is there"
BUSY_LOG_EVERY = 10.0  # seconds between two "refusing connections" warnings


@dataclass(frozen=True, slots=True)
class AdmissionLimits:
    idle: int = 1024  # connections waiting for their first bytes, all addresses together
    handshakes: int = 64  # handshakes under way
    known_share: int = 16  # of those, kept for the addresses of known peers
    per_address: int = 8  # connections one address may hold (idle and handshaking)
    stall_after: float = 1.0  # a handshake silent this long may be reclaimed


@dataclass(eq=False, slots=True)
class Ticket:
    """One accepted connection's place: idle until its first bytes, then a handshake slot."""
    address: str
    known: bool
    opened: float
    close: Callable[[], None] = field(repr=False)
    # bytes arrived that its task has not read yet (a joiner's hello, under a flood's churn)
    pending_bytes: Callable[[], bool] = field(default=lambda: False, repr=False)
    heard: float | None = None  # when it last sent bytes (None: idle)
    done: bool = False  # released (or evicted)


class Admission:
    def __init__(self, limits: AdmissionLimits | None = None,
                 known: Callable[[str], bool] = lambda _address: False) -> None:
        self.limits = limits or AdmissionLimits()
        self.known = known
        self._idle: list[Ticket] = []  # oldest first
        self._busy: list[Ticket] = []  # handshaking
        self._from: dict[str, int] = {}
        self.evicted = 0  # connections closed for a newcomer (a flood shows here)
        self.busy_logged = -BUSY_LOG_EVERY  # when "refusing connections" was last logged

    @property
    def pending(self) -> int:
        return len(self._idle) + len(self._busy)

    def open(self, address: str, now: float, close: Callable[[], None],
             pending_bytes: Callable[[], bool] = lambda: False) -> Ticket | None:
        """A connection from ``address`` was accepted: its idle place, or None (busy). The
        connection closed for it is the longest-waiting one that has sent nothing: one whose
        bytes wait to be read has spoken already (its task just did not run yet)."""
        if self._from.get(address, 0) >= self.limits.per_address:
            mine = [t for t in self._idle if t.address == address]
            victim = self._silent(mine)
            if victim is None:
                return None
            self._evict(victim)  # its own longest-waiting connection makes room
        if len(self._idle) >= self.limits.idle:
            victim = self._silent([t for t in self._idle if not t.known]) or \
                self._silent(self._idle)
            if victim is None:
                return None
            self._evict(victim)
        ticket = Ticket(address, self.known(address), now, close, pending_bytes)
        self._idle.append(ticket)
        self._from[address] = self._from.get(address, 0) + 1
        return ticket

    def started(self, ticket: Ticket, now: float) -> bool:
        """Its first bytes came: move it to a handshake slot; False when none can be had."""
        if ticket.done:
            return False
        free = self._free_for(ticket.known)
        if not free:
            stalled = [t for t in self._busy if now - (t.heard or t.opened)
                       >= self.limits.stall_after and (ticket.known or not t.known)]
            if not stalled:
                return False
            self._evict(min(stalled, key=lambda t: t.heard or t.opened))
        self._idle.remove(ticket)
        ticket.heard = now
        self._busy.append(ticket)
        return True

    def _free_for(self, known: bool) -> bool:
        if len(self._busy) >= self.limits.handshakes:
            return False
        strangers = sum(1 for t in self._busy if not t.known)
        return known or strangers < self.limits.handshakes - self.limits.known_share

    def heard(self, ticket: Ticket, now: float) -> None:
        """More bytes of its handshake came: not stalled."""
        ticket.heard = now

    def release(self, ticket: Ticket) -> None:
        """Its handshake ended (or it never started): the place is free. Idempotent."""
        if ticket.done:
            return
        ticket.done = True
        (self._busy if ticket.heard is not None else self._idle).remove(ticket)
        left = self._from.pop(ticket.address, 1) - 1
        if left > 0:
            self._from[ticket.address] = left

    @staticmethod
    def _silent(tickets: list[Ticket]) -> Ticket | None:
        """The longest-waiting of ``tickets`` with no bytes waiting to be read."""
        return next((t for t in tickets if not t.pending_bytes()), None)

    def _evict(self, ticket: Ticket) -> None:
        self.release(ticket)
        self.evicted += 1
        ticket.close()


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
