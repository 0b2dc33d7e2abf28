"""Replication over the mesh: causal broadcast of ops, catch-up and divergence checks.

The table core plugs in as a :class:`Replica`. This module never interprets an op beyond its
envelope: ``author`` (peer id), ``seq`` (the author's sequence number, from 1) and ``sig``
(Ed25519 signature by the author, see :func:`op_signing_bytes`). Delivery order (causal
buffering, canonical order, rollback) is the replica's business; this module makes sure every
op reaches every peer once it is published, and that a peer that was away catches up.

* ``publish(op)`` signs a local op (if unsigned) and sends it to every linked peer as ``op``.
* When a link opens (or is replaced) both sides send ``vv`` (their version vector); each
  answers with ``ops`` batches holding what the other lacks (``replica.ops_missing_for``).
  Ops relayed this way may have any author: their signatures are checked against the
  author's key, so a relaying peer cannot forge them.
* A live ``op`` must be authored by the peer that sent it: nothing is forwarded unsolicited.
* Every ``hash_interval`` each peer sends ``hash`` (its version vector and public state hash).
  A receiver whose version vector is equal compares hashes; a mismatch is logged as an error
  and emitted as :class:`Divergence`. A receiver that has ops the sender lacks sends them.
* ``send_private(peer_id, body)`` travels on the direct link only (``priv``) and arrives as
  :class:`PrivateReceived`; it is never relayed or logged by this module.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from typing import Any, Protocol

from .events import EventHub
from .identity import Identity, is_valid_peer_id, verify
from .mesh import MessageReceived, Mesh, MeshEvent, PeerJoined
from .messages import check_version_vector
from .wire import ProtocolError, pack

log = logging.getLogger(__name__)

OP_SIGNATURE_DOMAIN = b"sandtable-op-v1"


class Replica(Protocol):
    """What replication needs from the table core."""

    @property
    def peer_id(self) -> str: ...

    def version_vector(self) -> dict[str, int]: ...

    def ops_missing_for(self, vv: dict[str, int]) -> list[dict[str, Any]]: ...

    def receive(self, op: dict[str, Any], from_peer: str) -> None: ...

    def public_state_hash(self) -> str: ...


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


ReplicationEvent = Divergence | PrivateReceived


@dataclass(frozen=True, slots=True)
class ReplicationConfig:
    hash_interval: float = 5.0
    max_batch_ops: int = 256
    max_batch_bytes: int = 512 * 1024


def _canonical(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _canonical(value[k]) for k in sorted(value, key=lambda k: str(k).encode("utf-8"))}
    if isinstance(value, (list, tuple)):
        return [_canonical(v) for v in value]
    return value


def op_signing_bytes(op: dict[str, Any]) -> bytes:
    """What an op's signature covers: the domain tag, then the op without ``sig`` as msgpack
    with every map's keys sorted by their UTF-8 bytes."""
    body = {k: v for k, v in op.items() if k != "sig"}
    return OP_SIGNATURE_DOMAIN + pack(_canonical(body))


def sign_op(identity: Identity, op: dict[str, Any]) -> dict[str, Any]:
    """Return a copy of ``op`` with ``sig`` set; its ``author`` must be the identity's."""
    if op.get("author") != identity.peer_id:
        raise ValueError("an op can only be signed by its author")
    signed = dict(op)
    signed["sig"] = identity.sign(op_signing_bytes(op))
    return signed


def check_op_envelope(op: Any) -> tuple[str, int]:
    if not isinstance(op, dict):
        raise ProtocolError("op is not a map")
    author, seq, sig = op.get("author"), op.get("seq"), op.get("sig")
    if not is_valid_peer_id(author):
        raise ProtocolError("op has a bad author")
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
        raise ProtocolError("op has a bad seq")
    if not isinstance(sig, bytes):
        raise ProtocolError("op has no signature")
    assert isinstance(author, str)
    return author, seq


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
    def publish(self, op: dict[str, Any]) -> dict[str, Any]:
        """Broadcast a local op (already applied by the replica). Signs it if unsigned and
        returns the signed op, which is what the log should keep."""
        if "sig" not in op:
            op = sign_op(self.mesh.identity, op)
        author, _ = check_op_envelope(op)
        if author != self.mesh.peer_id:
            raise ValueError("publish() is for ops authored here")
        self.mesh.broadcast({"t": "op", "op": op})
        return op

    def send_private(self, peer_id: str, body: dict[str, Any]) -> bool:
        """Send ``body`` to one peer over the direct link only; False if not linked."""
        return self.mesh.send(peer_id, {"t": "priv", "body": body})

    def check_now(self) -> None:
        """Send our version vector and state hash to every peer now."""
        self.mesh.broadcast(
            {"t": "hash", "vv": self.replica.version_vector(), "h": self.replica.public_state_hash()}
        )

    def _send_vv(self, peer_id: str) -> None:
        self.mesh.send(peer_id, {"t": "vv", "vv": self.replica.version_vector()})

    def _send_missing(self, peer_id: str, their_vv: dict[str, int]) -> int:
        missing = self.replica.ops_missing_for(their_vv)
        if not missing:
            return 0
        batch: list[dict[str, Any]] = []
        size = 0
        for op in missing:
            op_size = len(pack(op))
            if op_size > self.config.max_batch_bytes:
                log.error("op %s/%s is too large to send (%d bytes)", op.get("author"), op.get("seq"), op_size)
                continue
            if batch and (len(batch) >= self.config.max_batch_ops or size + op_size > self.config.max_batch_bytes):
                self.mesh.send(peer_id, {"t": "ops", "ops": batch})
                batch, size = [], 0
            batch.append(op)
            size += op_size
        if batch:
            self.mesh.send(peer_id, {"t": "ops", "ops": batch})
        log.debug("sent %d ops to %s for catch-up", len(missing), peer_id)
        return len(missing)

    # ------------------------------------------------------------------ incoming
    def _on_mesh_event(self, event: MeshEvent) -> None:
        if isinstance(event, PeerJoined):
            self._send_vv(event.peer_id)
        elif isinstance(event, MessageReceived):
            self._on_message(event.peer_id, event.message)

    def _on_message(self, peer_id: str, msg: dict[str, Any]) -> None:
        t = msg["t"]
        if t == "op":
            author, _ = check_op_envelope(msg["op"])
            if author != peer_id:
                raise ProtocolError("live op not authored by the sending peer")
            self._accept_op(msg["op"], peer_id)
        elif t == "ops":
            ops = msg["ops"]
            for op in ops:
                check_op_envelope(op)
            for op in ops:
                self._accept_op(op, peer_id)
        elif t == "vv":
            self._send_missing(peer_id, check_version_vector(msg["vv"], "vv"))
        elif t == "hash":
            self._on_hash(peer_id, check_version_vector(msg["vv"], "hash"), msg["h"])
        elif t == "priv":
            self.events.emit(PrivateReceived(peer_id, msg["body"]))
        else:
            log.debug("replication ignores %r from %s", t, peer_id)

    def _accept_op(self, op: dict[str, Any], from_peer: str) -> None:
        author, seq = check_op_envelope(op)
        if seq <= self.replica.version_vector().get(author, 0):
            return  # already delivered
        key = self.mesh.peer_key(author)
        if key is None:
            log.warning("op %s/%d from %s: author's key unknown; not delivered", author, seq, from_peer)
            return
        if not verify(key, op_signing_bytes(op), op["sig"]):
            raise ProtocolError(f"op {author}/{seq} has an invalid signature")
        self.ops_received += 1
        self.replica.receive(op, from_peer)

    def _on_hash(self, peer_id: str, their_vv: dict[str, int], their_hash: str) -> None:
        ours = self.replica.version_vector()
        if _vv_equal(ours, their_vv):
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

    async def _hash_loop(self) -> None:
        while True:
            await asyncio.sleep(self.config.hash_interval)
            if self.mesh.peers():
                self.check_now()


def _vv_equal(a: dict[str, int], b: dict[str, int]) -> bool:
    keys = set(a) | set(b)
    return all(a.get(k, 0) == b.get(k, 0) for k in keys)
