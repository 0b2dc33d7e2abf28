"""Replication over the mesh: causal broadcast of ops, catch-up and divergence checks.

The table core plugs in as a :class:`~netplay.replication.seam.Replica` (``table.core.replica``,
declared in ``netplay.replication.seam`` with its verifier's hooks). Ops travel in
their wire form, a 9-field array ``[author, seq, lamport, kind, args, vv, time, seat, sig]``,
always in the canonical encoding (docs/protocol.md). Signatures are made by the replica's
``signer`` (:func:`op_signer`) and checked by its ``verifier`` (:class:`OpVerifier`) for every
op before it is stored or applied, first-hand or relayed. So a peer's version vector covers
exactly the ops it verified, stored and will relay.

* ``publish(op)`` sends a local op (signed, logged and applied) to every linked peer as ``op``.
* When a link opens (or is replaced) both sides send ``vv`` (their version vector); each
  answers with ``ops`` batches holding what the other lacks (``replica.ops_missing_for``),
  then ``caught_up`` with the vector it served (:mod:`netplay.replication.catchup`).
* A live ``op`` must be authored by the peer that sent it: nothing is forwarded unsolicited.
* An op not in canonical encoding, malformed, badly signed, with a stamp that skips ahead,
  or forged under a used number drops the link it came on; the sender is named (a log warning,
  ``replica.report`` and :class:`PeerMisbehaved`). An author that signed two different ops
  under one number is named too (:class:`Equivocated`): the first one stays, its ops from that
  number on are void everywhere (the two versions travel as proof), found even when each peer
  got one version (``heads``, per-author signature chains, in ``hash``).
* Every ``hash_interval`` each peer sends ``hash`` (its version vector and public state hash).
  A receiver whose version vector is equal compares hashes; a mismatch is logged as an error
  and emitted as :class:`Divergence`. A receiver that has ops the sender lacks sends them.
* ``send_private(peer_id, body)`` goes to that peer only (``priv``: on its link, or sealed end
  to end through a common peer), arrives as :class:`PrivateReceived`, and is never logged here.
* A live op is handed on (``ops``) to the linked peers with no link to its author.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any, NoReturn

from netplay.mesh.events import MeshEvent, MessageReceived, MessagesDone, PeerJoined, PeerLeft
from netplay.mesh.mesh import Mesh
from netplay.protocol.messages import CaughtUp as CaughtUpMessage
from netplay.protocol.messages import (
    LiveOp,
    Message,
    OpBatch,
    Private,
    StateHash,
    VersionVector,
    check_op_envelope,
    is_own_op,
    vv_equal,
    vv_merge,
)
from netplay.protocol.wire import ProtocolError
from netplay.replication.batches import HeldLive, op_batches, relay_live
from netplay.replication.canonical import check_canonical, raw_ops
from netplay.replication.catchup import AuthorChains, CatchUp
from netplay.replication.events import (
    CaughtUp,
    Divergence,
    Equivocated,
    PeerMisbehaved,
    PrivateReceived,
    ReplicationEvent,
)
from netplay.replication.held_versions import HeldVersions
from netplay.replication.opsign import next_in_line
from netplay.replication.seam import Replica, receiving_hooks
from netplay.replication.seam import ReplicationConfig as ReplicationConfig
from table.core.errors import BadOp, CausalityError
from table.core.events import EventHub
from table.core.ops import from_wire

log = logging.getLogger(__name__)


class Replication:
    """Keeps a :class:`Replica` in sync with the other peers of a :class:`Mesh`."""

    def __init__(self, mesh: Mesh, replica: Replica, config: ReplicationConfig | None = None) -> None:
        if replica.peer_id != mesh.peer_id:
            raise ValueError("the replica and the mesh must have the same peer id")
        self.mesh = mesh
        self.replica = replica
        self.config = config or ReplicationConfig()
        self.events: EventHub[ReplicationEvent] = EventHub()
        self._unsubscribe = mesh.events.subscribe(self._on_mesh_event)
        self._hash_task: asyncio.Task[None] | None = None
        self.divergences = 0
        self.ops_received = 0
        self.peer_vvs: dict[str, dict[str, int]] = {}  # each peer's latest announced vector
        self.catch_up = CatchUp(replica)
        self.chains = AuthorChains(replica)
        # (author, seq) -> the two versions: the proof, shown to every peer that links (a
        # replica read back from its log brings the proofs it logged)
        self.equivocations: dict[tuple[str, int], list[list[Any]]] = dict(replica.equivocations)
        self.held = HeldVersions()  # second versions that came before their first's delivery
        self._compared: set[tuple[str, str, int]] = set()  # (peer, author, count) sent once
        self.offences: list[PeerMisbehaved] = []
        self._live = HeldLive()  # live ops that came together, until the last of them
        self._handlers: dict[type[Message], Callable[[str, Message, bytes], None]] = {
            LiveOp: self._on_ops, OpBatch: self._on_ops, VersionVector: self._on_vv,
            CaughtUpMessage: self._on_caught_up, StateHash: self._on_hash, Private: self._on_private}

    def start(self) -> None:
        if self._hash_task is None:
            self._hash_task = asyncio.ensure_future(self._hash_loop())
        for pid in self.mesh.peers():
            self._send_vv(pid)

    async def stop(self) -> None:
        self._unsubscribe()
        if self._hash_task is not None:
            self._hash_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._hash_task
            self._hash_task = None

    # ------------------------------------------------------------------ outgoing
    def publish(self, op: list[Any]) -> None:
        """Broadcast a local op (wire form, already signed, logged and applied by the replica)."""
        if not is_own_op(op, self.mesh.peer_id):
            check_op_envelope(op)  # says what is wrong with it, if anything
            raise ValueError("publish() is for ops authored here")
        self.mesh.broadcast(LiveOp(op))

    def send_private(self, peer_id: str, body: dict[str, Any]) -> bool:
        """Send ``body`` to one peer only: over its link, or sealed end to end through a peer
        linked to it (netplay.mesh.routing); False if it cannot be reached."""
        return self.mesh.send_to(peer_id, Private(body))

    def check_now(self) -> None:
        """Send our version vector and state hash to every peer now."""
        self.mesh.broadcast(StateHash(self.replica.version_vector(),
                                      self.replica.public_state_hash(), self.chains.heads()))

    def _send_vv(self, peer_id: str) -> None:
        self.mesh.send(peer_id, VersionVector(self.replica.version_vector()))

    def _send_missing(self, peer_id: str, their_vv: dict[str, int]) -> int:
        """Send every op the holder of ``their_vv`` lacks. Every stored op was verified when
        it was delivered here (or made here), so everything is relayed as it is."""
        missing = self.replica.ops_missing_for(their_vv)
        self._send_ops(peer_id, missing)
        log.debug("sent %d ops to %s for catch-up", len(missing), peer_id)
        return len(missing)

    def _send_ops(self, peer_id: str, wires: list[list[Any]]) -> None:
        for batch in op_batches(wires, self.config):
            self.mesh.send(peer_id, batch)

    # ------------------------------------------------------------------ incoming
    def _on_mesh_event(self, event: MeshEvent) -> None:
        if isinstance(event, MessageReceived):
            msg = event.message
            if self._live and (type(msg) is not LiveOp or event.peer_id != self._live.peer_id):
                self._deliver_live()  # what came before this message, first
            if type(msg) is LiveOp:
                self._on_live(event.peer_id, msg, event.payload, event.more)
                return
            handler = self._handlers.get(type(msg))
            if handler is not None:
                handler(event.peer_id, msg, event.payload)
        elif isinstance(event, MessagesDone):
            self._deliver_live()
        elif isinstance(event, PeerJoined):
            self.catch_up.link_opened(event.peer_id)
            self._send_vv(event.peer_id)
        elif isinstance(event, PeerLeft):
            self.catch_up.link_closed(event.peer_id)

    def _on_live(self, peer_id: str, msg: LiveOp, payload: bytes, more: bool) -> None:
        """One live op, from its author: checked now; delivered now, or with the others
        that came with it (``more``) once the last of them is here."""
        ops, raws = self._checked_ops(peer_id, msg, payload)
        if not more and not self._live:  # alone: at once
            self._accept_ops(ops, raws, peer_id)
            relay_live(self.mesh, peer_id, ops)
            return
        self._live.hold(peer_id, ops, raws)
        if not more:
            self._deliver_live()

    def _deliver_live(self) -> None:
        if self._live:
            peer_id, ops, raws = self._live.take()
            self._accept_ops(ops, raws, peer_id)
            relay_live(self.mesh, peer_id, ops)

    def _on_ops(self, peer_id: str, msg: Message, payload: bytes) -> None:
        """``op`` (one live op, from its author) or ``ops`` (a batch, from anyone)."""
        ops, raws = self._checked_ops(peer_id, msg, payload)
        self._accept_ops(ops, raws, peer_id)

    def _checked_ops(self, peer_id: str, msg: Message, payload: bytes
                     ) -> tuple[list[list[Any]], list[bytes]]:
        """The ops of ``msg`` and the bytes each came as, each checked (envelope, encoding; a
        live op's author is its sender). Live ops held from before are delivered before a
        bad one's sender is named (as they would have been, one by one)."""
        live = isinstance(msg, LiveOp)
        ops = [msg.op] if isinstance(msg, LiveOp) else msg.ops if isinstance(msg, OpBatch) else []
        raws = raw_ops(msg, payload, len(ops))
        for op, raw in zip(ops, raws, strict=False):
            try:
                author, seq = check_op_envelope(op)
                check_canonical(raw, op)
            except ProtocolError as exc:
                self._deliver_live()
                self._offence(peer_id, f"peer {peer_id} sent a bad op: {exc.reason}")
            if live and author != peer_id:
                self._deliver_live()
                self._offence(peer_id, f"peer {peer_id} sent a live op authored by "
                              f"{author} (#{seq})")
        return ops, raws

    def _on_vv(self, peer_id: str, msg: Message, _payload: bytes) -> None:
        assert isinstance(msg, VersionVector)
        self.peer_vvs[peer_id] = msg.vv
        self._send_missing(peer_id, msg.vv)
        for (author, _seq), proof in self.equivocations.items():
            if author != peer_id:
                self.mesh.send(peer_id, OpBatch(proof))
        # Catch-up ends explicitly: everything up to this vector has been sent.
        self.mesh.send(peer_id, CaughtUpMessage(self.replica.version_vector()))

    def _on_caught_up(self, peer_id: str, msg: Message, _payload: bytes) -> None:
        assert isinstance(msg, CaughtUpMessage)
        served = msg.vv
        vv_merge(self.peer_vvs.setdefault(peer_id, {}), served)
        gaps = self.catch_up.served(peer_id, served)
        if gaps:
            named = ", ".join(f"{a}#{s}" for a, s in gaps[:5])
            self._name(peer_id, f"peer {peer_id} ended its catch-up without sending ops "
                       f"its version vector claims: {named}")
        self.events.emit(CaughtUp(peer_id, served, tuple(gaps)))

    def _on_hash(self, peer_id: str, msg: Message, _payload: bytes) -> None:
        assert isinstance(msg, StateHash)
        self.peer_vvs[peer_id] = msg.vv
        self._compare_hash(peer_id, msg.vv, msg.h)
        if vv_equal(self.replica.version_vector(), msg.vv):
            self._compare_heads(peer_id, msg.vv, msg.heads)

    def _on_private(self, peer_id: str, msg: Message, _payload: bytes) -> None:
        assert isinstance(msg, Private)
        self.events.emit(PrivateReceived(peer_id, msg.body))

    def _name(self, peer_id: str, reason: str) -> PeerMisbehaved:
        """Name a misbehaving peer: log, report to the person, emit :class:`PeerMisbehaved`."""
        log.warning("%s", reason)  # a warning, like every dropped link: not our failure
        offence = PeerMisbehaved(peer_id, reason)
        if len(self.offences) < 1000:
            self.offences.append(offence)
        self.replica.report(reason)
        self.events.emit(offence)
        return offence

    def _offence(self, peer_id: str, reason: str) -> NoReturn:
        """Name the peer and drop its link: the ProtocolError raised here reaches the link's
        read loop (through the mesh's event), which closes the link with this reason; the mesh
        then emits PeerLeft(peer_id, reason)."""
        self._name(peer_id, reason)
        raise ProtocolError(reason)

    def _accept_ops(self, ops: list[list[Any]], raws: list[bytes], from_peer: str) -> None:
        delivered = self.replica.store.delivered  # as it stands before this batch
        fresh: list[tuple[list[Any], bytes]] = []
        again: list[tuple[list[Any], bytes]] = []  # a number seen earlier in this batch
        seen: set[tuple[str, int]] = set()
        for op, raw in zip(ops, raws, strict=False):  # one raw per op (_raw_ops)
            ref = (op[0], op[1])
            if op[1] <= delivered(op[0]):
                self._check_duplicate(op, raw, from_peer)
            elif ref in seen:
                again.append((op, raw))
            else:
                seen.add(ref)
                fresh.append((op, raw))
        if fresh:
            self.ops_received += len(fresh)
            self._deliver(fresh, from_peer)
        for op, raw in again:  # e.g. both versions of an equivocation, shown as proof
            self._check_duplicate(op, raw, from_peer)

    def _deliver(self, fresh: list[tuple[list[Any], bytes]], from_peer: str) -> None:
        """Hand new ops to the replica, which verifies each one before it stores it. The
        verifier takes each op's signed bytes from the canonical bytes it arrived as
        (``OpVerifier.received_as``) instead of encoding them again, and checks a batch's
        signatures back to back first (``OpVerifier.check_ahead``), which is faster."""
        hooks = receiving_hooks(self.replica.verifier)
        built: list[Any] = []
        bad: BadOp | None = None
        for wire, raw in fresh:
            try:
                op = from_wire(wire)
            except BadOp as exc:  # the ops before it are still taken, as the replica would
                bad = exc
                break
            built.append(op)
            if hooks is not None:
                hooks.received_as(op, raw)
        store = self.replica.store
        if hooks is not None and len(built) > 1:
            hooks.check_ahead(next_in_line(store, built), store.key_for)
        try:
            if built:
                self.replica.receive_many(built, from_peer)
        except (BadOp, CausalityError) as exc:
            self._offence(from_peer, f"peer {from_peer} sent an op that was refused: {exc}")
        finally:
            if hooks is not None:
                hooks.forget_received()
        if bad is not None:
            self._offence(from_peer, f"peer {from_peer} sent an op that was refused: {bad}")
        if len(self.held):
            for wire, raw, sender in self.held.ready(lambda a, s: store.get(a, s) is not None):
                try:
                    self._check_duplicate(wire, raw, sender)
                except ProtocolError as exc:  # the held version's sender, not this one
                    link = self.mesh.link(sender)
                    if link is not None:
                        link.close(exc.reason)

    def _check_duplicate(self, wire: list[Any], raw: bytes, from_peer: str) -> None:
        """An op under a number already delivered: the same op (ignored), or another op
        under that number. That is either the author signing two ops with one number
        (equivocation: the author is named) or a forgery by the sender (named, link dropped).
        The op already delivered stays; the other is never applied."""
        store = self.replica.store
        known = store.get(wire[0], wire[1])
        if known is None:  # the first version still waits: compare later
            self.held.hold(wire, raw, from_peer)
        if known is None or known.canonical_wire() == raw:
            return
        try:
            op = from_wire(wire)
        except BadOp as exc:
            self._offence(from_peer, f"peer {from_peer} sent a bad op: {exc}")
        verifier = self.replica.verifier
        if verifier is not None and not verifier(op, store.key_for(op)):
            self._offence(from_peer, f"peer {from_peer} sent a forged op {op.author}#{op.seq} "
                          "(bad signature) in place of the one delivered")
        self.events.emit(Equivocated(op.author, op.seq, from_peer))
        reason = (f"peer {op.author} signed two different ops as #{op.seq}; the first one "
                  f"received is kept, the other (from {from_peer}) is never applied, and "
                  f"{op.author}'s ops from #{op.seq} on are void")
        proof = [known.to_wire(), wire]
        # the replica logs the proof: replay voids the same
        self.replica.void_author_from(op.author, op.seq, proof)
        if (op.author, op.seq) not in self.equivocations:
            # Show every other peer both versions (and every newcomer, after its catch-up):
            # each checks them itself and voids the same ops.
            self.equivocations[(op.author, op.seq)] = proof
            proof_msg = OpBatch(proof)
            for pid in self.mesh.peers():
                if pid != op.author:
                    self.mesh.send(pid, proof_msg)
        if from_peer == op.author:
            self._offence(from_peer, reason)
        self._name(op.author, reason)

    def _compare_hash(self, peer_id: str, their_vv: dict[str, int], their_hash: str) -> None:
        ours = self.replica.version_vector()
        if vv_equal(ours, their_vv):
            our_hash = self.replica.public_state_hash()
            if our_hash != their_hash:
                self.divergences += 1
                log.error(
                    "STATE DIVERGENCE with peer %s at version vector %s: ours %s, theirs %s",
                    peer_id, ours, our_hash, their_hash[:80],
                )
                self.events.emit(Divergence(peer_id, dict(ours), our_hash, their_hash))
        else:
            self._send_missing(peer_id, their_vv)

    def _compare_heads(self, peer_id: str, vv: dict[str, int], heads: Any) -> None:
        """At equal vectors, an author whose chain of signatures differs here and there has
        signed two versions of some op, one to each side: send the peer that author's ops, so
        that both find the op told two ways (:meth:`_check_duplicate`) and name its author."""
        if not isinstance(heads, dict):
            return  # an older peer, or none: only the state hash is compared
        ours = self.chains.heads()
        store = self.replica.store
        for author, theirs in heads.items():
            mine = ours.get(author)
            key = (peer_id, str(author), vv.get(author, 0))
            if mine is None or theirs == mine or key in self._compared:
                continue
            self._compared.add(key)
            self._send_ops(peer_id, [op.to_wire() for op in store.by_author.get(author, [])])

    async def _hash_loop(self) -> None:
        while True:
            await asyncio.sleep(self.config.hash_interval)
            if self.mesh.peers():
                self.check_now()

    def waiting_for(self) -> str:
        """What this peer still waits for from its linked peers, naming each missing op
        (author#seq); empty when nothing is awaited. For a stalled join."""
        return self.catch_up.describe(self.mesh.peers(), self.peer_vvs)
