"""A mesh's settings, and the address it knows a linked peer by."""
from __future__ import annotations

from dataclasses import dataclass, field

from .link_state import LinkConfig
from .peerbook import RedialPolicy
from .quic import QuicSettings


@dataclass(frozen=True, slots=True)
class MeshConfig:
    link: LinkConfig = field(default_factory=LinkConfig)
    gossip_interval: float = 5.0
    dial_grace: float = 1.0
    max_peers: int = 16
    # Handshake slots: a global cap, and a smaller one per remote address so that one
    # address (a flood of idle connections) cannot take them all.
    max_pending_handshakes: int = 64
    max_pending_per_address: int = 8
    redial: RedialPolicy = field(default_factory=RedialPolicy)
    redial_connect_timeout: float = 3.0  # a QUIC handshake over a lossy 150 ms path: 2 tries
    redial_tick: float = 0.2
    # An internet endpoint beside the TCP listener (netplay.quic); None: LAN only.
    quic: QuicSettings | None = None


@dataclass(slots=True)
class PeerAddress:
    peer_id: str
    host: str
    port: int
