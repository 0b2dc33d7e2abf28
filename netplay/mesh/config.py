"""A mesh's settings, and the address it knows a linked peer by."""
from __future__ import annotations

from dataclasses import dataclass, field

from netplay.link.link_state import LinkConfig
from netplay.link.quic import QuicSettings
from netplay.mesh.admission import AdmissionLimits
from netplay.mesh.peerbook import RedialPolicy


@dataclass(frozen=True, slots=True)
class MeshConfig:
    link: LinkConfig = field(default_factory=LinkConfig)
    gossip_interval: float = 5.0
    dial_grace: float = 1.0
    max_peers: int = 16
    # which connections are taken, so that no flood keeps a joiner out (netplay.mesh.admission)
    admission: AdmissionLimits = field(default_factory=AdmissionLimits)
    redial: RedialPolicy = field(default_factory=RedialPolicy)
    redial_connect_timeout: float = 3.0  # a QUIC handshake over a lossy 150 ms path: 2 tries
    redial_tick: float = 0.2
    offender_wait: float = 30.0  # a peer dropped for what it sent stays off (PeerBook.misbehaved)
    # An internet endpoint beside the TCP listener (netplay.link.quic); None: LAN only.
    quic: QuicSettings | None = None


@dataclass(slots=True)
class PeerAddress:
    peer_id: str
    host: str
    port: int
