"""What a mesh tells its listeners (``Mesh.events``): a peer linked (``relinked`` when a
duplicate link replaced the current one, so callers re-synchronise), a peer's link gone, and
every message of a type above the mesh (replication and others)."""
from __future__ import annotations

from dataclasses import dataclass

from netplay.protocol.messages import Message


@dataclass(frozen=True, slots=True)
class PeerJoined:
    peer_id: str
    relinked: bool = False


@dataclass(frozen=True, slots=True)
class PeerLeft:
    peer_id: str
    reason: str


@dataclass(frozen=True, slots=True)
class MessageReceived:
    """A message of a kind above the mesh, decoded and checked (``netplay.protocol``), with the
    plaintext bytes it arrived as (replication checks each op's canonical encoding in them)."""

    peer_id: str
    message: Message
    payload: bytes
    # the next message from this peer, already here, is of the same kind: a listener may hold
    # this one to handle them together, until the one without ``more`` or MessagesDone
    more: bool = False
    via: str | None = None  # sealed by peer_id and carried by this peer (netplay.mesh.routing)


@dataclass(frozen=True, slots=True)
class MessagesDone:
    """The messages that arrived together from one peer have all been told (after a
    MessageReceived with ``more``, before anything else happens on the loop)."""

    peer_id: str


@dataclass(frozen=True, slots=True)
class PeerRefused:
    """A handshake ended because the other side speaks another protocol version (dialled or
    accepted): ``reason`` says both versions, for the person to read."""

    address: str
    reason: str


@dataclass(frozen=True, slots=True)
class ReachChanged:
    """The peers this one can reach, over its links or through a linked peer linked to them,
    are now ``reachable`` (netplay.mesh.routing)."""

    reachable: frozenset[str]


MeshEvent = PeerJoined | PeerLeft | MessageReceived | MessagesDone | PeerRefused | ReachChanged
