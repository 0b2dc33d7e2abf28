"""Every peer a table has met, with its addresses, and when to dial it again.

A mesh keeps one :class:`PeerBook`. Peers enter it when a link to them opens, when a linked
peer gossips them, and when the session remembers them (from this peer's log and its address
file, or from mDNS during play). Whenever a known peer has no link, the mesh redials it on the
schedule kept here: a first try soon, then a backoff that doubles up to ``max_delay`` with
±25 % jitter (so that peers cut at the same moment do not all dial in step), for as long as the
table is open. A peer that said ``bye`` because it left the table is not redialled: it dials
us when it comes back, since it remembers us too.

Pure bookkeeping: no sockets, no asyncio; times are the event loop's clock, passed in.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from netplay.link.addresses import is_ticket_address

MAX_ADDRESSES = 3  # LAN addresses per peer, newest first (a restart may change the port)


@dataclass(slots=True)
class KnownPeer:
    peer_id: str
    addresses: list[tuple[str, int]] = field(default_factory=list)
    linked: bool = False
    ever_linked: bool = False
    left: bool = False  # said bye: left the table on purpose
    lost_at: float | None = None  # when its last link went away (None: never lost)
    back_at: float | None = None  # when it linked again after being lost
    next_dial: float = 0.0
    delay: float = 0.0
    dialing: bool = False
    attempts: int = 0
    shunned_until: float = 0.0  # dropped for what it sent: neither dialled nor let in till then


@dataclass(frozen=True, slots=True)
class RedialPolicy:
    first_delay: float = 0.3
    min_delay: float = 0.5
    max_delay: float = 2.5
    yield_delay: float = 0.7  # the higher peer id waits this much longer (fewer duplicates)


class PeerBook:
    def __init__(self, me: str, policy: RedialPolicy | None = None,
                 rng: random.Random | None = None) -> None:
        self.me = me
        self.policy = policy or RedialPolicy()
        self._rng = rng or random.Random()
        self._peers: dict[str, KnownPeer] = {}

    def get(self, peer_id: str) -> KnownPeer | None:
        return self._peers.get(peer_id)

    def peers(self) -> list[KnownPeer]:
        return [self._peers[pid] for pid in sorted(self._peers)]

    def remember(self, peer_id: str, host: str, port: int, now: float) -> KnownPeer | None:
        """Add an address for a peer (newest first; internet endpoint tickets, port 0, come
        last: the LAN is tried first). None for this peer itself."""
        ticket = port == 0 and is_ticket_address(host)
        if peer_id == self.me or not host or not (ticket or 0 < port <= 65535):
            return None
        peer = self._peers.get(peer_id)
        if peer is None:
            peer = self._peers[peer_id] = KnownPeer(peer_id)
            peer.next_dial = now + self._first_delay(peer_id)
        lan = [a for a in peer.addresses if a[1] != 0 and a != (host, port)]
        tickets = [a for a in peer.addresses if a[1] == 0]
        if ticket:  # the newest two: the one that worked and the one the peer claims now
            tickets = [(host, port), *[t for t in tickets if t != (host, port)][:1]]
        else:
            lan.insert(0, (host, port))
        peer.addresses[:] = lan[:MAX_ADDRESSES] + tickets
        return peer

    def linked(self, peer_id: str, now: float) -> None:
        peer = self._peers.setdefault(peer_id, KnownPeer(peer_id))
        if peer.lost_at is not None and not peer.linked:
            peer.back_at = now
        peer.linked = peer.ever_linked = True
        peer.left = False
        peer.delay, peer.attempts = 0.0, 0

    def unlinked(self, peer_id: str, now: float, left: bool) -> None:
        peer = self._peers.setdefault(peer_id, KnownPeer(peer_id))
        peer.linked = False
        peer.left = left
        peer.lost_at, peer.back_at = now, None
        peer.delay = 0.0
        peer.next_dial = now + self._first_delay(peer_id)

    def due(self, now: float) -> list[KnownPeer]:
        """Peers to dial now: known addresses, no link, not left, not being dialled, not
        shunned."""
        return [p for p in self._peers.values()
                if not p.linked and not p.left and not p.dialing and p.addresses
                and now >= max(p.next_dial, p.shunned_until)]

    def misbehaved(self, peer_id: str, now: float, wait: float) -> None:
        """Its link was dropped for what it sent (a forged op, a malformed message): keep it
        off for `wait` seconds, so that neither side's redial brings it straight back (a
        forger relinked at once would send again, dropped and relinked in a loop)."""
        peer = self._peers.setdefault(peer_id, KnownPeer(peer_id))
        peer.shunned_until = max(peer.shunned_until, now + wait)

    def shunned(self, peer_id: str, now: float) -> bool:
        peer = self._peers.get(peer_id)
        return peer is not None and now < peer.shunned_until

    def failed(self, peer_id: str, now: float) -> None:
        """A redial round found nobody: wait longer (capped, jittered) before the next."""
        peer = self._peers.get(peer_id)
        if peer is None:
            return
        policy = self.policy
        peer.attempts += 1
        peer.delay = min(policy.max_delay, max(policy.min_delay, peer.delay * 2))
        peer.next_dial = now + peer.delay * self._rng.uniform(0.75, 1.25)

    def _first_delay(self, peer_id: str) -> float:
        extra = self.policy.yield_delay if self.me > peer_id else 0.0
        return self.policy.first_delay + extra
