"""The mesh's side of gossip: the ``peers`` message it sends, and what it does with one it
receives (keys kept as hearsay, peers to dial, internet endpoints, whom the sender links to).
The message itself is built and checked in :mod:`netplay.mesh.gossip`, with no I/O."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from netplay.link.endpoint_claims import EndpointClaims
from netplay.link.link import Link
from netplay.link.quic import QuicTransport
from netplay.mesh.config import PeerAddress
from netplay.mesh.gossip import hearsay_keys, peers_message, read_links, read_peers
from netplay.mesh.redial import Redialer, dial_later
from netplay.mesh.routing import Routes
from netplay.protocol.messages import Peers


class GossipingMesh(Redialer, Protocol):
    """What gossip uses of its mesh (besides what redialling does)."""

    pins: dict[str, bytes]  # keys proven by a handshake
    hearsay: dict[str, bytes]  # keys heard of by gossip
    claims: EndpointClaims
    routes: Routes
    quic: QuicTransport | None

    def peers(self) -> list[str]: ...
    def now(self) -> float: ...
    def reach_may_change(self) -> None: ...


def gossip_message(mesh: GossipingMesh, links: Iterable[Link],
                   addresses: Mapping[str, PeerAddress]) -> dict[str, Any]:
    """This peer's ``peers`` message: its linked peers with an address to give, every key it
    knows, the signed endpoint claims, and every peer it is linked to."""
    linked = []
    for link in links:
        pid = link.peer_id
        addr = addresses.get(pid) if pid is not None else None
        key = mesh.pins.get(pid) if pid is not None else None
        if link.is_open and pid is not None and addr is not None and key is not None:
            linked.append((pid, addr.host, addr.port, key))
    return peers_message(linked, {**mesh.hearsay, **mesh.pins}, mesh.claims.entries(),
                         mesh.peers())


def on_peers(mesh: GossipingMesh, sender: str, msg: Peers) -> None:
    """A linked peer's ``peers`` message (malformed: ProtocolError, which drops its link)."""
    hearsay_keys(msg.keys or [], mesh.peer_id, mesh.pins, mesh.hearsay)
    now = mesh.now()
    for pid, host, port, key in read_peers(msg.peers):
        if pid == mesh.peer_id:
            continue
        if pid not in mesh.pins:
            mesh.hearsay.setdefault(pid, key)
        mesh.book.remember(pid, host, port, now)
        if mesh.is_linked(pid) or mesh.book.shunned(pid, now):
            continue
        if mesh.peer_id < pid:
            mesh.spawn(_dial(mesh, host, port))
        else:
            mesh.spawn(dial_later(mesh, pid, host, port))
    for peer_id, ticket in mesh.claims.receive(msg.quic):
        mesh.book.remember(peer_id, ticket, 0, now)
        if mesh.quic is not None and not mesh.is_linked(peer_id):
            mesh.spawn(dial_later(mesh, peer_id, ticket, 0))
    links = read_links(msg.links)
    if links is not None:
        mesh.routes.heard(sender, links)
        mesh.reach_may_change()


async def _dial(mesh: GossipingMesh, host: str, port: int) -> None:
    await mesh.connect(host, port)
