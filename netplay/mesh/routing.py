"""Peers reached through a common peer, when two peers of a table have no link of their own (two
homes behind NATs, both linked to a host with a public address).

Every ``peers`` message lists whom its sender is linked to (``links``); from those a mesh knows
which of its linked peers can carry a message to a peer it has no link to, and so which peers it
can reach at all (:meth:`Routes.reachable`). A message of a kind in :data:`RELAYABLE` (the joint
draws' and the private ones) to a peer without a link goes sealed and signed end to end
(:mod:`netplay.protocol.sealed`) to at most :data:`MAX_ROUTES` common peers, which hand it on
unopened; the receiver opens it and hears it as from its sender. A carrier hands on only what
its sender sealed itself (one hop), so nothing travels in circles. Ops need no sealing (they
are signed): replication relays them live (netplay.replication.replication).
"""
from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any, Protocol

from netplay.mesh.events import MeshEvent, MessageReceived
from netplay.protocol.identity import Identity
from netplay.protocol.messages import Message, decode_message, wire_form
from netplay.protocol.sealed import Relayed, Sealer
from netplay.protocol.wire import DEFAULT_LIMITS, ProtocolError, pack, unpack

log = logging.getLogger(__name__)

RELAYABLE = frozenset({"fair_start", "fair_commit", "fair_open", "fair_reveal", "fair_pub",
                       "priv"})
MAX_ROUTES = 2  # common peers one relayed message goes through (the receiver drops the second)


class Carrier(Protocol):
    """What routing uses of its mesh."""

    @property
    def peer_id(self) -> str: ...
    def peers(self) -> list[str]: ...
    def send(self, peer_id: str, msg: Message | dict[str, Any]) -> bool: ...
    def peer_key(self, peer_id: str) -> bytes | None: ...
    def tell(self, event: MeshEvent) -> None: ...


class Routes:
    """Who each linked peer is linked to, and the sealing of messages carried by them."""

    def __init__(self, identity: Identity, table_id: str) -> None:
        self.me = identity.peer_id
        self.sealer = Sealer(identity, table_id)
        self.links_of: dict[str, frozenset[str]] = {}  # linked peer -> the peers it links to
        self._reachable: frozenset[str] = frozenset()

    def heard(self, peer: str, links: Iterable[str]) -> None:
        """A linked peer's ``peers`` message listed ``links``."""
        self.links_of[peer] = frozenset(links) - {peer}

    def forget(self, peer: str) -> None:
        """Its link closed: what it said of its links no longer holds."""
        self.links_of.pop(peer, None)

    def reachable(self, direct: Iterable[str]) -> frozenset[str]:
        """The peers linked to this one, and those linked to one of them."""
        linked = frozenset(direct)
        through = frozenset().union(*(self.links_of.get(p, frozenset()) for p in linked))
        return (linked | through) - {self.me}

    def changed(self, direct: Iterable[str]) -> frozenset[str] | None:
        """The reachable peers, when they differ from the last time this was asked."""
        now = self.reachable(direct)
        if now == self._reachable:
            return None
        self._reachable = now
        return now

    def routes(self, peer: str, direct: Iterable[str]) -> list[str]:
        """The linked peers that say they are linked to ``peer`` (at most MAX_ROUTES)."""
        return [p for p in sorted(direct) if peer in self.links_of.get(p, ())][:MAX_ROUTES]

    def linked_to(self, peer: str, other: str) -> bool:
        """Whether ``peer`` (linked here) said it is linked to ``other``."""
        return other in self.links_of.get(peer, ())

    def send_through(self, mesh: Carrier, peer: str, msg: Message) -> bool:
        """``msg`` (a RELAYABLE kind) sealed for ``peer``, through the linked peers that link to
        it; False when none does (or its key is not known here)."""
        routes = self.routes(peer, mesh.peers())
        key = mesh.peer_key(peer)
        if not routes or key is None or msg.T not in RELAYABLE:
            return False
        sealed = self.sealer.seal(peer, key, pack(wire_form(msg)))
        return sum(mesh.send(route, sealed) for route in routes) > 0

    def on_relayed(self, mesh: Carrier, carrier: str, msg: Relayed) -> None:
        """A sealed message from ``carrier``'s link: for this peer (opened, heard as from its
        sender), or to hand on to the peer it is for, only as its sender sealed it (one hop).
        A fault in what the sender sealed is its own, not its carrier's: said in the log, and
        the carrier keeps its link."""
        if msg.dst != self.me:
            if msg.src != carrier:
                raise ProtocolError(f"relay: handed on a message from {msg.src} it did not seal")
            if not mesh.send(msg.dst, msg):
                log.debug("mesh %s: no link to %s for a relayed message", self.me, msg.dst)
            return
        key = mesh.peer_key(msg.src)
        try:
            if key is None:
                raise ProtocolError("relay: the sender's key is not known here")
            payload = self.sealer.open(msg, key)
            inner = decode_message(unpack(payload, DEFAULT_LIMITS))
            if inner.T not in RELAYABLE:
                raise ProtocolError(f"relay: a {inner.T!r} message cannot be relayed")
            mesh.tell(MessageReceived(msg.src, inner, payload, via=carrier))
        except ProtocolError as exc:
            log.warning("mesh %s: a message from %s through %s refused: %s", self.me, msg.src,
                        carrier, exc.reason)
