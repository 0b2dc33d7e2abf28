"""The mesh: every peer of a table directly linked to every other (at most 15 links for 6).

A :class:`Mesh` listens on a TCP port (and, configured, an internet endpoint: netplay.link.quic,
whose tickets are addresses with port 0), dials the peers it is given, and gossips its linked
peers and the signed endpoint claims (``peers`` message) on every new link and every
``gossip_interval``. A peer that learns of a peer it has no link to dials it: at once if its
own id is lower, after ``dial_grace`` otherwise (a ticket always then), so usually one dials.

Two links between one pair (both dialed at once) are deduplicated: the link *initiated by
the lower peer id* is kept, on both sides, and the other closed. A peer dropped for what it
sent is kept off for ``offender_wait``. Identity pinning: a peer id's first handshake pins its
Ed25519 key (a later link with another key is refused). Gossip carries the keys of every peer
met, departed ones too, as "hearsay" (first heard wins, a handshake overrides), so ops relayed
during catch-up can be verified.
Events (:attr:`Mesh.events`, netplay.mesh.events): a peer joined (or relinked), left, and each
message of a kind above the mesh, decoded, with the bytes it came as; and whom it can reach
(directly, or through a linked peer linked to it: netplay.mesh.routing)."""
from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import replace
from typing import Any

from netplay.link.endpoint_claims import EndpointClaims
from netplay.link.link import Link
from netplay.link.outbox import pack_message
from netplay.link.quic import QuicSettings, QuicTransport, stream_opener
from netplay.mesh.accepting import room_for_connections, take_connection
from netplay.mesh.admission import Admission, duplicate_verdict
from netplay.mesh.config import MeshConfig as MeshConfig
from netplay.mesh.config import PeerAddress
from netplay.mesh.events import (
    MeshEvent,
    MessageReceived,
    MessagesDone,
    PeerJoined,
    PeerLeft,
    PeerRefused,
    ReachChanged,
)
from netplay.mesh.gossiping import gossip_message, on_peers
from netplay.mesh.leaving import close_server, let_go, stop_accepting
from netplay.mesh.peerbook import KnownPeer, PeerBook
from netplay.mesh.redial import redial_loop
from netplay.mesh.routing import Routes
from netplay.protocol.channel import Received
from netplay.protocol.handshake import VersionMismatch
from netplay.protocol.identity import PUBLIC_KEY_BYTES, Identity, is_valid_peer_id
from netplay.protocol.messages import Message, Peers
from netplay.protocol.sealed import Relayed
from netplay.protocol.wire import ProtocolError
from table.core.events import EventHub

log = logging.getLogger(__name__)


class Mesh:
    """Links to every peer of one table. ``host=None`` listens on all interfaces."""

    def __init__(self, identity: Identity, table_id: str, passphrase: str | None = None, *,
                 host: str | None = None, port: int = 0, config: MeshConfig | None = None
                 ) -> None:
        self.identity = identity
        self.table_id = table_id
        self._passphrase = passphrase
        self._host = host
        self._requested_port = port
        self.config = config or MeshConfig()
        self.events: EventHub[MeshEvent] = EventHub()

        self._server: asyncio.base_events.Server | None = None
        self._port = 0
        self._links: dict[str, Link] = {}
        self.pins: dict[str, bytes] = {}
        self.hearsay: dict[str, bytes] = {}
        self._addresses: dict[str, PeerAddress] = {}
        self._dialing: dict[tuple[str, int], asyncio.Future[str | None]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self.admission = Admission(self.config.admission, lambda address: any(
            address == host for p in self.book.peers() for host, _port in p.addresses))
        self.book = PeerBook(identity.peer_id, self.config.redial)
        self.dial_failures: dict[tuple[str, int], str] = {}  # last failure per address dialled
        self._running = False
        self.quic: QuicTransport | None = None  # the internet endpoint, when configured
        self.claims = EndpointClaims(identity, table_id, self.peer_key)
        self.routes = Routes(identity, table_id)  # peers reached through a common peer

    # ------------------------------------------------------------------ lifecycle
    @property
    def peer_id(self) -> str:
        return self.identity.peer_id

    @property
    def port(self) -> int:
        return self._port

    async def start(self) -> None:
        room_for_connections(self.config.admission)
        self._server = await asyncio.start_server(  # a backlog a flood's reconnects cannot fill
            self._on_accept, self._host, self._requested_port, backlog=self.config.admission.idle)
        sockets = self._server.sockets or ()
        self._port = sockets[0].getsockname()[1] if sockets else self._requested_port
        if self.config.quic is not None:
            await self.open_internet(self.config.quic)
        self._running = True
        self.spawn(self._gossip_loop())
        self.spawn(redial_loop(self))
        log.info("mesh %s listening on %s:%d", self.peer_id, self._host or "*", self._port)

    async def stop(self, graceful: bool = True) -> None:
        """Leave the table: close the listener and every link (``graceful=False``: drop them
        without a bye, as a crash would)."""
        self._running = False
        if self._server is not None:
            await stop_accepting(self._server)
        for task in list(self._tasks):
            task.cancel()
        await let_go(self._links.values(), graceful)
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._server is not None:
            await close_server(self._server)
            self._server = None
        if self.quic is not None:
            await self.quic.close()
        log.info("mesh %s stopped", self.peer_id)

    async def open_internet(self, settings: QuicSettings) -> QuicTransport:
        """The internet endpoint beside the LAN listener, opened now if it is not yet (at
        start, or during play); the peers hear its signed ticket at once."""
        if self.quic is None:
            self.quic = await QuicTransport.bind(self.identity.seed, settings)
            self.claims.claim_own(self.quic.ticket())
            self.quic.serve(self._on_accept)
            if self._links:
                self.broadcast(self.gossip_message())
        return self.quic

    @property
    def running(self) -> bool:
        return self._running

    def is_linked(self, peer_id: str) -> bool:
        link = self._links.get(peer_id)
        return link is not None and link.is_open

    def spawn(self, coro: Any) -> asyncio.Task[Any]:
        """Run `coro` until the mesh stops."""
        return self.track(asyncio.ensure_future(coro))

    def track(self, task: asyncio.Task[Any]) -> asyncio.Task[Any]:
        """Count `task` among the mesh's own: stop() cancels it and waits for it."""
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # ------------------------------------------------------------------ queries
    def peers(self) -> list[str]:
        """Peer ids with an open link, sorted."""
        return sorted(pid for pid, link in self._links.items() if link.is_open)

    def link(self, peer_id: str) -> Link | None:
        return self._links.get(peer_id)

    def peer_key(self, peer_id: str) -> bytes | None:
        """The peer's Ed25519 key: pinned from a direct handshake, else as gossiped."""
        if peer_id == self.peer_id:
            return self.identity.public_key
        return self.pins.get(peer_id) or self.hearsay.get(peer_id)

    def pinned_key(self, peer_id: str) -> bytes | None:
        """The key a direct handshake proved for this peer id (never hearsay)."""
        if peer_id == self.peer_id:
            return self.identity.public_key
        return self.pins.get(peer_id)

    def remember(self, peer_id: str, host: str, port: int, key: bytes | None = None,
                 linked_before: bool = False) -> None:
        """Know a peer of this table at host:port (from our own log, our address file or
        mDNS): it is redialled whenever it has no link. ``key`` (from our own verified log)
        is pinned: only that key may link as this peer id. ``linked_before``: we were linked
        to it before this peer restarted (so it is "reconnecting" until linked)."""
        if not is_valid_peer_id(peer_id) or peer_id == self.peer_id:
            return
        if key is not None and len(key) == PUBLIC_KEY_BYTES:
            self.pins.setdefault(peer_id, key)
        known = self.book.remember(peer_id, host, port, self.now())
        if known is not None and linked_before:
            known.ever_linked = True

    def known_peer(self, peer_id: str) -> KnownPeer | None:
        return self.book.get(peer_id)

    @staticmethod
    def now() -> float:
        try:
            return asyncio.get_running_loop().time()
        except RuntimeError:  # not in the loop yet; the default loop clock is monotonic
            return time.monotonic()

    async def wait_for_peers(self, count: int, timeout: float) -> bool:
        """Wait until ``count`` peers are linked; False on timeout."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while len(self.peers()) < count:
            if loop.time() > deadline:
                return False
            await asyncio.sleep(0.02)
        return True

    # ------------------------------------------------------------------ sending
    def send(self, peer_id: str, msg: Message | dict[str, Any]) -> bool:
        link = self._links.get(peer_id)
        return link.send(msg) if link is not None else False

    def send_to(self, peer_id: str, msg: Message) -> bool:
        """Send to a peer over its link, or, with none, sealed through a linked peer linked to
        it (netplay.mesh.routing). False if it cannot be reached."""
        return self.send(peer_id, msg) or self.routes.send_through(self, peer_id, msg)

    def reachable(self) -> list[str]:
        """The peers linked to this one and those linked to one of them, sorted."""
        return sorted(self.routes.reachable(self.peers()))

    def linked_to(self, peer_id: str, other: str) -> bool:
        """Whether linked peer ``peer_id`` says it is linked to ``other``."""
        return self.routes.linked_to(peer_id, other)

    def reach_may_change(self) -> None:
        reachable = self.routes.changed(self.peers())
        if reachable is not None:
            self.events.emit(ReachChanged(reachable))

    def broadcast(self, msg: Message | dict[str, Any]) -> int:
        """Send to every linked peer; returns how many links took it. The message is checked
        and packed once, then sealed for each link."""
        links = list(self._links.values())
        if len(links) <= 1:
            return sum(1 for link in links if link.send(msg))
        packed = pack_message(msg)
        return sum(1 for link in links if link.send_packed(packed))

    # ------------------------------------------------------------------ links
    def new_link(self) -> Link:
        return Link(
            self.identity, self.table_id, self._passphrase,
            config=self.config.link, listen_port=self._port,
            on_message=self._on_link_message, on_open=self._on_link_open,
            on_closed=self._on_link_closed, on_run_end=self._on_link_run_end,
            on_closing=self._on_link_closing,
        )

    async def connect(self, host: str, port: int, connect_timeout: float | None = None
                      ) -> str | None:
        """Dial a peer (manual host:port connect). Returns its peer id once linked, else None
        (the reason is in ``dial_failures[(host, port)]``)."""
        key = (host, port)
        if not self._running:
            return None
        pending = self._dialing.get(key)
        if pending is not None:  # already being dialled (the redial loop, say): same answer
            return await asyncio.shield(pending)
        result: asyncio.Future[str | None] = asyncio.get_running_loop().create_future()
        self._dialing[key] = result
        peer_id: str | None = None
        try:
            link = self.new_link()
            if connect_timeout is not None:
                link.config = replace(link.config, connect_timeout=connect_timeout)
            opener = stream_opener(self.quic, host, self.config.link.connect_timeout)
            if await link.connect(host, port, opener):
                self.dial_failures.pop(key, None)
                peer_id = link.peer_id
            else:
                self.dial_failures[key] = link.close_reason or "failed"
                self.refused(link, f"{host}:{port}" if port else host[:24] + "...")
            return peer_id
        finally:
            del self._dialing[key]
            result.set_result(peer_id)

    async def _on_accept(self, reader: Any, writer: Any, address: str | None = None) -> None:
        """An accepted stream (TCP, or QUIC with the remote endpoint as ``address``)."""
        await take_connection(self, reader, writer, address)

    def refused(self, link: Link, address: str) -> bool:
        """A handshake that failed on a protocol version: said loudly (PeerRefused)."""
        if not isinstance(link.close_error, VersionMismatch):
            return False
        reason = link.close_reason or "another protocol version"
        log.warning("mesh %s: %s: %s", self.peer_id, address, reason)
        self.events.emit(PeerRefused(address, reason))
        return True

    def _on_link_open(self, link: Link) -> bool:
        pid = link.peer_id
        assert pid is not None and link.peer_key is not None
        if not self._running:
            link.close_reason = "mesh is stopping"
            return False
        pinned = self.pins.get(pid)
        if pinned is not None and pinned != link.peer_key:
            link.close_reason = "identity key differs from the key pinned for this peer id"
            log.warning("mesh %s: peer %s presented a different identity key; refused", self.peer_id, pid)
            return False
        if self.book.shunned(pid, self.now()):
            link.close_reason = "dropped a moment ago for what it sent; refused for now"
            return False
        existing = self._links.get(pid)
        if existing is None and len(self._links) >= self.config.max_peers:
            link.close_reason = "table full"
            return False
        self.pins[pid] = link.peer_key
        hearsay = self.hearsay.pop(pid, None)
        if hearsay is not None and hearsay != link.peer_key:
            log.warning("mesh %s: gossiped key for %s was wrong; using the handshake's", self.peer_id, pid)
        if link.remote_host is not None and (link.peer_port or link.initiator):  # a ticket: port 0
            if link.peer_port:
                self._addresses[pid] = PeerAddress(pid, link.remote_host, link.peer_port)
            self.book.remember(pid, link.remote_host, link.peer_port, self.now())
        relinked = existing is not None
        if existing is not None and existing.is_open:
            refused = duplicate_verdict(self.peer_id, pid, link.initiator, existing.initiator)
            if refused is not None:
                link.close_reason = refused
                return False
            self._links[pid] = link
            existing.close("duplicate link replaced (keeping the one the lower peer id dialed)")
        else:
            self._links[pid] = link
        self.book.linked(pid, self.now())
        self.events.emit(PeerJoined(pid, relinked=relinked))
        self.reach_may_change()
        link.send(self.gossip_message())
        if not relinked:
            # Tell everyone else about the newcomer so the mesh closes quickly.
            msg = self.gossip_message()
            for other_id, other in list(self._links.items()):
                if other_id != pid:
                    other.send(msg)
        return True

    def _on_link_closing(self, link: Link) -> None:
        """The others learn at once that this peer no longer links that one (routing)."""
        if self._running and link.peer_id is not None and self._links.get(link.peer_id) is link:
            self.broadcast(self.gossip_message())

    def _on_link_closed(self, link: Link) -> None:
        pid = link.peer_id
        if pid is None or self._links.get(pid) is not link:
            return
        del self._links[pid]
        self.routes.forget(pid)
        reason = link.close_reason or "closed"
        self.book.unlinked(pid, self.now(), left="leaving the table" in reason)
        log.info("mesh %s: peer %s left (%s)", self.peer_id, pid, reason)
        self.events.emit(PeerLeft(pid, reason))
        self.reach_may_change()

    def _on_link_message(self, link: Link, received: Received) -> None:
        pid = link.peer_id
        if pid is None or self._links.get(pid) is not link:
            return  # a duplicate link on its way out
        msg = received.message
        if isinstance(msg, Peers):
            on_peers(self, pid, msg)
            return
        if isinstance(msg, Relayed):
            self.routes.on_relayed(self, pid, msg)
            return
        self._emit_from(pid, MessageReceived(pid, msg, received.payload, received.more))

    def _on_link_run_end(self, link: Link) -> None:
        if link.peer_id is not None:  # (a link replaced meanwhile: what it told, done too)
            self._emit_from(link.peer_id, MessagesDone(link.peer_id))

    def tell(self, event: MeshEvent) -> None:  # a ProtocolError comes back to the caller
        self.events.emit(event, propagate=(ProtocolError,))

    def _emit_from(self, pid: str, event: MeshEvent) -> None:
        try:
            self.events.emit(event, propagate=(ProtocolError,))
        except ProtocolError:  # its link is dropped for it (the link's read loop)
            self.book.misbehaved(pid, self.now(), self.config.offender_wait)
            raise

    # ------------------------------------------------------------------ gossip
    def gossip_message(self) -> dict[str, Any]:
        return gossip_message(self, self._links.values(), self._addresses)

    async def _gossip_loop(self) -> None:
        while self._running:
            await asyncio.sleep(self.config.gossip_interval)
            if self._links:
                self.broadcast(self.gossip_message())
