"""What a LAN session tells the program (``LanSession.events``), and how it describes a peer."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from netplay.mesh.peerbook import KnownPeer

BACK_FOR = 10.0  # seconds a relinked peer is shown as "back"


@dataclass(frozen=True, slots=True)
class PeersChanged:
    """A peer joined, left, or finished catching up; read :meth:`LanSession.peer_list`."""


@dataclass(frozen=True, slots=True)
class DivergenceReported:
    peer_id: str
    message: str


@dataclass(frozen=True, slots=True)
class RequestDone:
    """A request this peer performed for another (or refused)."""
    peer_id: str
    entry: dict[str, Any]
    ok: bool
    error: str = ""


SessionEvent = PeersChanged | DivergenceReported | RequestDone


@dataclass(frozen=True, slots=True)
class PeerInfo:
    peer_id: str
    name: str
    seats: tuple[int, ...]
    # "connected" | "catching up" | "reconnecting" (link lost, redialling) | "back" (relinked
    # within BACK_FOR s) | "gone" (left the table, or not linked since this peer started) | "me"
    status: str
    address: str = ""
    watching: bool = False  # a watcher: no seat, sees the public table


def peer_status(known: KnownPeer | None, linked: bool, synced: bool, now: float) -> str:
    """What the peers panel says of another peer (see :attr:`PeerInfo.status`)."""
    if linked:
        if not synced:
            return "catching up"
        recent = known is not None and known.back_at is not None and now - known.back_at < BACK_FOR
        return "back" if recent else "connected"
    if known is not None and known.ever_linked and not known.left and known.addresses:
        return "reconnecting"
    return "gone"
