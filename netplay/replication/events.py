"""What replication tells its listeners (``Replication.events``): a divergence found, a
private message, a peer named for misbehaving, an equivocation, a catch-up ended."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Divergence:
    peer_id: str
    version_vector: dict[str, int]
    our_hash: str
    their_hash: str


@dataclass(frozen=True, slots=True)
class PrivateReceived:
    peer_id: str
    body: dict[str, Any]


@dataclass(frozen=True, slots=True)
class PeerMisbehaved:
    """A peer sent something a correct peer never sends (its link was dropped, unless it only
    relayed another author's equivocation or claimed ops it did not send). ``reason`` names
    the peer and what it did, for the person at the table."""
    peer_id: str
    reason: str


@dataclass(frozen=True, slots=True)
class Equivocated:
    """``author`` signed two different ops as ``seq`` (one came from ``from_peer``)."""
    author: str
    seq: int
    from_peer: str


@dataclass(frozen=True, slots=True)
class CaughtUp:
    """``peer_id`` ended its catch-up having served ``vv``; ``gaps`` are the first op of each
    author it claimed but never sent (empty when complete)."""
    peer_id: str
    vv: dict[str, int]
    gaps: tuple[tuple[str, int], ...] = ()


ReplicationEvent = Divergence | PrivateReceived | PeerMisbehaved | Equivocated | CaughtUp
