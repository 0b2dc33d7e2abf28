"""A LAN session: one peer's :class:`~table.core.replica.Replica` kept in sync with a table.

:class:`LanSession` ties the pieces together for one peer:

* a :class:`~netplay.mesh.mesh.Mesh` (links to every other peer) and a
  :class:`~netplay.replication.replication.Replication` (causal broadcast, catch-up, hash checks) around
  the replica, whose ``signer``/``verifier`` it sets (ops are signed with the same Ed25519 key
  that authenticates this peer's links, announced in its first op, ``hello``);
* local ops are published as soon as the replica has logged and applied them (a replica
  listener), so any caller of ``replica.issue`` / ``table.core.actions`` is networked;
* an optional :class:`~netplay.discovery.mdns.TableAnnouncer` listing the table (and its seats);
* private messages to one peer only (``priv``, sealed through a common peer when there is no
  link): secrets (a private ``show``, handed by
  ``replica.private_out``) and *requests* to the owner of a hidden pile (``request``), which
  the owner's peer performs and answers;
* divergence at equal version vectors is reported loudly (log error, ``replica.report``, a
  :class:`DivergenceReported` event), then resynced: the replica refolds, hashes are compared.

Pure asyncio: it runs under ``asyncio.run`` and under qasync. Nothing here blocks.
"""


from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from netplay.blobs.exchange import BlobExchange
from netplay.discovery.listing import TableAnnouncement
from netplay.discovery.mdns import TableAnnouncer, TableBrowser
from netplay.discovery.peer_sources import browse_for_peers, remember_saved_peers, save_known_peers
from netplay.discovery.table_search import interface_choice
from netplay.draws.watching import RECORD, EndOfGame, watchers_allowed
from netplay.mesh.events import MeshEvent, MessageReceived, PeerJoined, PeerLeft, PeerRefused
from netplay.mesh.mesh import Mesh
from netplay.protocol.identity import Identity
from netplay.protocol.messages import OpBatch, StateHash, vv_equal
from netplay.protocol.wire import ProtocolError
from netplay.replication.events import Divergence, PrivateReceived, ReplicationEvent
from netplay.replication.opsign import OpVerifier, op_signer
from netplay.replication.replication import Replication
from netplay.session.consent import REQUEST_TIMEOUT, ConsentAsker
from netplay.session.draws import SessionDraws
from netplay.session.events import (
    BACK_FOR,
    DivergenceReported,
    PeerInfo,
    PeersChanged,
    SessionEvent,
    peer_status,
)
from netplay.session.options import SessionOptions as SessionOptions
from netplay.session.pile_requests import OwnerRequests
from table.core import actions
from table.core.events import EventHub
from table.core.replica import Replica

log = logging.getLogger(__name__)


class LanSession:
    """One peer of a LAN table. Create with a replica and an identity, then ``await start()``."""

    def __init__(self, replica: Replica, identity: Identity, options: SessionOptions) -> None:
        if replica.peer_id != identity.peer_id:
            raise ValueError("the replica and the identity must have the same peer id")
        self.replica = replica
        self.identity = identity
        self.options = options
        host: Any = None if options.interfaces is None else (
            options.interfaces[0] if len(options.interfaces) == 1 else list(options.interfaces))
        self.mesh = Mesh(identity, replica.table_id, options.passphrase, host=host,
                         port=options.port, config=options.mesh)
        self.verifier = OpVerifier(self.mesh.pinned_key, self.replica.store.announced_key)
        replica.signer = op_signer(identity)
        replica.verifier = self.verifier
        replica.private_out = self._private_out
        self.replication = Replication(self.mesh, replica, options.replication)
        # the table's module and art, by hash (the table layer widens what is served)
        self.blobs = BlobExchange(self.mesh, replica.blobs.get)
        # the complete record for the watchers at the end of the game
        self.end_of_game = EndOfGame(replica, self.replication.send_private, self.mesh.reachable)
        # dice and shuffles drawn jointly with the reachable players (docs/protocol.md); the
        # others' draws judged as they arrive, dated by when each peer could be reached
        self.table_draws = SessionDraws(replica, self.mesh)
        self.fair, self.draws = self.table_draws.fair, self.table_draws.draws
        self.events: EventHub[SessionEvent] = EventHub()
        self.announcer: TableAnnouncer | None = None
        self.browser: TableBrowser | None = None
        self.divergences: list[str] = []
        self._published = replica.store.delivered(replica.peer_id)  # older ops: catch-up
        self._synced: dict[str, bool] = {}
        self._addresses: dict[str, str] = {}
        self.requests = OwnerRequests(self)
        self.consent: ConsentAsker | None = None  # asks the player (allow_requests "ask")
        self._resynced: set[tuple[str, str]] = set()
        self._last_seats: tuple[int, int] = (-1, -1)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._check_soon: asyncio.TimerHandle | None = None
        self._settle_soon: asyncio.Handle | None = None
        self._unsubs = [self.mesh.events.subscribe(self._on_mesh_event),
                        self.replication.events.subscribe(self._on_replication_event)]
        self._unsubs.append(replica.subscribe(self._on_change))
        self.started = False

    # -------------------------------------------------------------- lifecycle
    @property
    def peer_id(self) -> str:
        return self.replica.peer_id

    @property
    def port(self) -> int:
        return self.mesh.port

    async def start(self, hello: bool = True) -> None:
        """Listen, replicate and announce. With ``hello`` (the default) this peer's first op,
        announcing its key, is issued now unless its log already holds it; a joiner that
        opens its log only once it knows the game passes False and calls :meth:`say_hello`."""
        await self.mesh.start()
        self.replication.start()
        self.started = True
        remember_saved_peers(self.mesh, self.options.peers_file, self.replica.store.announced_key)
        self._schedule_settle()  # gifts a crash left un-re-handled (from the log)
        self.spawn(self.draws.keep_time())
        if hello:
            await self.say_hello()

    async def say_hello(self) -> None:
        """Issue this peer's ``hello`` (its signing key and name) if not done yet, and announce
        the table on the LAN if asked to."""
        if self.replica.store.delivered(self.peer_id) == 0:
            self.replica.issue("hello", {"key": self.identity.public_key.hex(),
                                         "name": self.options.player_name or None,
                                         **({"watch": True} if self.options.watch else {})})
        if self.options.announce and self.announcer is None:
            players, free = self._seat_counts()
            self.announcer = TableAnnouncer(
                TableAnnouncement(self.replica.table_id, self.options.table_name,
                                  self.options.game or self.replica.game, self.peer_id,
                                  self.mesh.port, players=players, free_seats=free,
                                  passphrase_needed=bool(self.options.passphrase),
                                  watchers=self.options.watchers
                                  and watchers_allowed(self.replica),
                                  local_draws=self.options.local_draws),
                interfaces=interface_choice(self.options.interfaces))
            self._last_seats = (players, free)
            # mDNS probes the name for about a second first: the table plays (and dials, and
            # is dialled) meanwhile, and is listed on the LAN once that is done.
            self.spawn(self._announce(self.announcer))

    async def _announce(self, announcer: TableAnnouncer) -> None:
        try:
            await announcer.start()
        except Exception:  # mDNS may be unavailable; manual connect still works
            log.exception("could not announce the table on the LAN")
            self.announcer = None
            return
        if self.options.browse and self.announcer is announcer:
            self.browser = await browse_for_peers(self.mesh, announcer.zeroconf,
                                                  self.replica.table_id)

    async def stop(self, graceful: bool = True) -> None:
        """Leave the table: stop announcing, close every link (the log stays complete)."""
        if self._check_soon is not None:
            self._check_soon.cancel()
        if self._settle_soon is not None:
            self._settle_soon.cancel()
            self._settle_soon = None
        for task in list(self._tasks):
            task.cancel()
        log_open = self.replica.log is None or not self.replica.log.closed
        if graceful and self.started and log_open:  # leaving on purpose: the game is over
            self.draws.publish_once()
            self.end_of_game.share()
        self.replica.joint_draws = None  # rolls after leaving are local
        self.fair.close()
        if self.browser is not None:
            self.browser.on_change = None
        for lan_presence in (self.browser, self.announcer):
            if lan_presence is not None:
                with contextlib.suppress(Exception):
                    await lan_presence.stop()
        self.browser = self.announcer = None
        await self.replication.stop()
        self.blobs.close()
        await self.mesh.stop(graceful)
        for unsub in self._unsubs:
            unsub()
        self.requests.abandon("left the table")
        self.started = False

    async def connect(self, host: str, port: int) -> bool:
        """Dial a peer of this table (manual host:port, or an address discovery listed)."""
        return await self.mesh.connect(host, port) is not None

    # -------------------------------------------------------------- state of the table
    def synced_with_all(self) -> bool:
        """True once every linked peer has reported the same version vector as ours."""
        peers = self.mesh.peers()
        return bool(peers) and all(self._synced.get(p) for p in peers)

    async def wait_caught_up(self, timeout: float) -> bool:
        """Wait until some peer ended its catch-up (``caught_up``: what it had when the link
        opened is here, or named as never sent). False on timeout; then
        ``replication.waiting_for()`` says which ops are still awaited."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            for pid in self.mesh.peers():
                if self.replication.catch_up.caught_up_with(pid):
                    return True
            if loop.time() >= deadline:
                return False
            await asyncio.sleep(0.02)

    def peer_list(self) -> list[PeerInfo]:
        """Every peer met at this table (from the log), with its link status."""
        state = self.replica.state
        linked = set(self.mesh.peers())
        out: list[PeerInfo] = []
        ids = sorted(set(state.peers) | linked)
        for pid in ids:
            info = state.peers.get(pid, {})
            seats = tuple(sorted(state.seats_of(pid)))
            status = "me" if pid == self.peer_id else peer_status(
                self.mesh.known_peer(pid), pid in linked, self._synced.get(pid, False),
                self.mesh.now())
            out.append(PeerInfo(pid, str(info.get("name") or ""), seats, status,
                                self._addresses.get(pid, ""), bool(info.get("watch"))))
        return out

    def seat_peer(self, seat: int) -> str | None:
        held = self.replica.state.seats.get(seat)
        return held.peer if held is not None else None

    # -------------------------------------------------------------- requests to owners
    async def request(self, entry: dict[str, Any], owner_seat: int,
                      timeout: float = REQUEST_TIMEOUT) -> tuple[bool, str]:
        """Ask the peer playing ``owner_seat`` to perform ``entry`` (JSON op form, e.g.
        ``{"op": "draw", "from": "p1.deck", "to": "p2.play"}``) as that seat. Returns
        (ok, error message)."""
        return await self.requests.ask(entry, owner_seat, timeout)

    # -------------------------------------------------------------- private secrets
    def _private_out(self, seat: int, payload: dict[str, Any]) -> None:
        peer = self.seat_peer(seat)
        if peer is None or peer == self.peer_id:
            return
        if not self.replication.send_private(peer, {"k": "secret", "data": payload}):
            what = "give" if "gift" in payload else "show"
            self.replica.report(f"could not {what} the card to seat {seat}: not connected")

    def _schedule_settle(self) -> None:
        """Soon (never inside another op's fold): re-handle each zone of ours a gift arrived in,
        and begin a turn another peer passed to our seat (its first phase, in its name)."""
        if self._settle_soon is not None:
            return

        def settle() -> None:
            self._settle_soon = None
            if self.started:
                actions.settle_gifts(self.replica)
                actions.begin_turn(self.replica)

        self._settle_soon = asyncio.get_running_loop().call_soon(settle)

    # -------------------------------------------------------------- events in
    def _on_change(self, change: Any) -> None:
        store, me = self.replica.store, self.peer_id
        delivered = store.delivered(me)
        while self._published < delivered:
            self._published += 1
            op = store.get(me, self._published)
            if op is not None and self.started:
                self.replication.publish(op.to_wire())
        if self.replica.pending_gifts or any(r.op.kind == "mark" for r in change.records):
            self._schedule_settle()  # a gift's op, or a turn passed to us, may just be here
        if self.started:
            self.end_of_game.on_change(change)
            if self.end_of_game.ended:
                self.draws.publish_once()
        players_free = self._seat_counts()
        if players_free != self._last_seats and self.announcer is not None:
            self._last_seats = players_free
            self.spawn(self.announcer.update(players=players_free[0], free_seats=players_free[1]))

    def _seat_counts(self) -> tuple[int, int]:
        taken = len(self.replica.state.seats)
        total = self.options.seats or taken
        return taken, max(0, total - taken)

    def _on_mesh_event(self, event: MeshEvent) -> None:
        if self.table_draws.on_mesh_event(event):
            return
        if isinstance(event, PeerJoined):
            self._synced[event.peer_id] = False
            link = self.mesh.link(event.peer_id)
            if link is not None and (link.via or link.remote_host):  # via: "quic:<endpoint>"
                self._addresses[event.peer_id] = link.via or f"{link.remote_host}:{link.peer_port}"
            announced = self.replica.store.announced_key(event.peer_id)
            pinned = self.mesh.pinned_key(event.peer_id)
            if announced is not None and pinned is not None and pinned.hex() != announced:
                self.replica.report(f"peer {event.peer_id} linked with a key other than the one "
                                    "its first op announced")
            self._schedule_check(0.3)
            save_known_peers(self.mesh, self.options.peers_file)
            self.events.emit(PeersChanged())
            known = self.mesh.known_peer(event.peer_id)
            if known is not None and known.back_at is not None:  # "back" fades to "connected"
                asyncio.get_running_loop().call_later(
                    BACK_FOR + 0.1, lambda: self.events.emit(PeersChanged()) if self.started
                    else None)
        elif isinstance(event, PeerRefused):  # another protocol version: say so here too
            self.replica.report(f"{event.address}: {event.reason}")
        elif isinstance(event, PeerLeft):
            self._synced.pop(event.peer_id, None)
            self.events.emit(PeersChanged())
        elif isinstance(event, MessageReceived):
            msg = event.message
            if isinstance(msg, OpBatch):
                self._schedule_check(0.2)
            elif isinstance(msg, StateHash):
                synced = vv_equal(self.replica.version_vector(), msg.vv)
                if self._synced.get(event.peer_id) != synced:
                    self._synced[event.peer_id] = synced
                    self.events.emit(PeersChanged())

    def _on_replication_event(self, event: ReplicationEvent) -> None:
        if isinstance(event, PrivateReceived):
            self._on_private(event.peer_id, event.body)
        elif isinstance(event, Divergence):
            self._on_divergence(event)

    def _on_private(self, peer_id: str, body: dict[str, Any]) -> None:
        kind = body.get("k")
        if kind == "secret":
            data = body.get("data")
            if not isinstance(data, dict):
                raise ProtocolError("malformed secret")
            self.replica.receive_private(data)  # announces the knowledge to its listeners
            self._schedule_settle()  # a gift: re-handle the zone once its op is here
        elif kind == RECORD:
            self.end_of_game.receive(peer_id, body)
        elif kind == "request":
            self.requests.received(peer_id, body)
        elif kind == "reply":
            self.requests.replied(body)
        else:
            raise ProtocolError(f"unknown private message {str(kind)[:40]!r}")

    def _on_divergence(self, event: Divergence) -> None:
        message = (f"STATE DIVERGENCE with peer {event.peer_id} at the same ops: our state hash "
                   f"{event.our_hash}, theirs {event.their_hash[:40]}")
        self.divergences.append(message)
        self.replica.report(message)
        key = (event.peer_id, event.our_hash)
        if key not in self._resynced:  # resync once per state: refold from the ops, compare
            self._resynced.add(key)
            log.error("%s; resynchronising (refolding every op) and comparing again", message)
            self.replica.refold()
            self._schedule_check(0.05)
        self.events.emit(DivergenceReported(event.peer_id, message))

    # -------------------------------------------------------------- helpers
    def _schedule_check(self, delay: float) -> None:
        if self._check_soon is not None or not self.started:
            return
        loop = asyncio.get_running_loop()

        def fire() -> None:
            self._check_soon = None
            if self.started:
                self.replication.check_now()

        self._check_soon = loop.call_later(delay, fire)

    def spawn(self, coro: Any) -> None:
        """Run `coro` until the session stops."""
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
