"""Replication over the mesh: causal broadcast of ops, catch-up and divergence checks.

The table core plugs in as a :class:`Replica` (``table.core.replica.Replica``). Ops travel in
their wire form, a 9-field array ``[author, seq, lamport, kind, args, vv, time, seat, sig]``;
this module checks only the envelope (author is a peer id, seq a positive int, sig 64 bytes).
Signatures are made by the replica's ``signer`` (:func:`op_signer`) when it issues an op and
checked by its ``verifier`` (:class:`OpVerifier`) when an op is delivered, against the key the
author announced in its first op (``hello``). Delivery order (causal buffering, canonical
order, rollback) is the replica's business; this module makes sure every op reaches every peer
once it is published, and that a peer that was away catches up.

* ``publish(op)`` sends a local op (signed, logged and applied) to every linked peer as ``op``.
* When a link opens (or is replaced) both sides send ``vv`` (their version vector); each
  answers with ``ops`` batches holding what the other lacks (``replica.ops_missing_for``).
  Ops relayed this way may have any author: their signatures are checked against the
  author's key, so a relaying peer cannot forge them.
* A live ``op`` must be authored by the peer that sent it: nothing is forwarded unsolicited.
* An op the replica refuses (malformed, bad signature, a stamp that skips ahead, a second
  op under a used sequence number) drops the link it came on.
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
from typing import Any, Callable, Protocol

from nacl.exceptions import BadSignatureError, CryptoError
from nacl.signing import VerifyKey

from table.core.errors import BadOp, CausalityError

from .events import EventHub
from .identity import PUBLIC_KEY_BYTES, SIGNATURE_BYTES, Identity, is_valid_peer_id
from .mesh import MessageReceived, Mesh, MeshEvent, PeerJoined
from .messages import check_version_vector
from .wire import ProtocolError, pack

log = logging.getLogger(__name__)

OP_SIGNATURE_DOMAIN = b"sandtable-op-v1"


class Replica(Protocol):
    """What replication needs from the table core (``table.core.replica.Replica``).

    Ops travel in their wire form, a 9-field array
    ``[author, seq, lamport, kind, args, vv, time, seat, sig]``; ``sig`` is made by the
    replica's ``signer`` (see :func:`op_signer`) and checked by its ``verifier``
    (see :class:`OpVerifier`) when the op is delivered.
    """

    @property
    def peer_id(self) -> str: ...

    def version_vector(self) -> dict[str, int]: ...

    def ops_missing_for(self, vv: dict[str, int]) -> list[list[Any]]: ...

    def receive_many(self, wires: list[Any], from_peer: str = "", *,
                     direct: bool = False) -> Any: ...

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


def op_signer(identity: Identity) -> Callable[[bytes], bytes]:
    """The replica's ``signer``: ``sig = Ed25519(author key, b"sandtable-op-v1" || body)``
    where ``body`` is ``Op.signing_bytes()`` (the op without its signature, maps sorted)."""

    def sign(body: bytes) -> bytes:
        return identity.sign(OP_SIGNATURE_DOMAIN + body)

    return sign


class OpVerifier:
    """The replica's ``verifier``: checks an op's signature against the key its author
    announced in its first op (``hello``). When this peer has a direct link to the author,
    the announced key must also be the key the author's handshake proved (pinned): a relayed
    ``hello`` with another key is a forgery. Keys are parsed once and cached."""

    def __init__(self, pinned_key: Callable[[str], bytes | None],
                 announced_key: Callable[[str], str | None] | None = None) -> None:
        self._pinned_key = pinned_key
        self._announced_key = announced_key
        self._keys: dict[str, VerifyKey | None] = {}
        self.failures = 0
        self.verified = 0  # Ed25519 checks made (for tests and benchmarks)
        self.unchecked: set[tuple[str, int]] = set()  # taken first-hand, signature not checked

    def _verify_key(self, key_hex: str) -> VerifyKey | None:
        vk = self._keys.get(key_hex, False)
        if vk is False:
            try:
                raw = bytes.fromhex(key_hex)
                vk = VerifyKey(raw) if len(raw) == PUBLIC_KEY_BYTES else None
            except (ValueError, TypeError, CryptoError):
                vk = None
            if len(self._keys) < 4096:
                self._keys[key_hex] = vk
        return vk  # type: ignore[return-value]

    def __call__(self, op: Any, key_hex: str | None) -> bool:
        author, sig = op.author, op.sig
        if key_hex is None and self._announced_key is not None:
            key_hex = self._announced_key(author)
        ok = isinstance(sig, bytes) and isinstance(key_hex, str)
        if ok:
            assert isinstance(key_hex, str)
            pinned = self._pinned_key(author)
            if pinned is not None and pinned.hex() != key_hex.lower():
                ok = False
            else:
                vk = self._verify_key(key_hex)
                try:
                    ok = vk is not None and bool(vk.verify(OP_SIGNATURE_DOMAIN + op.signing_bytes(), sig))
                except (BadSignatureError, CryptoError, ValueError, TypeError):
                    ok = False
        if not ok:
            self.failures += 1
            log.warning("op %s#%s: bad signature or key", author, getattr(op, "seq", "?"))
        else:
            self.verified += 1
        return ok

    def accept_direct(self, op: Any, key_hex: str | None) -> bool:
        """An op that came from its author itself, on a link whose handshake proved the
        author's identity key and whose every frame is AEAD-authenticated: its signature is
        not checked again (it is kept, for relaying, and checked before being relayed: see
        :meth:`check_before_relay`). The key the author announced must still be the key its
        handshake proved; without a pinned key the op is verified as usual."""
        if key_hex is None and self._announced_key is not None:
            key_hex = self._announced_key(op.author)
        pinned = self._pinned_key(op.author)
        if pinned is None or not isinstance(key_hex, str) or not isinstance(op.sig, bytes):
            return self(op, key_hex)
        if pinned.hex() != key_hex.lower():
            self.failures += 1
            log.warning("op %s#%s: announced key is not the key its link proved",
                        op.author, op.seq)
            return False
        if len(self.unchecked) < 1_000_000:
            self.unchecked.add((op.author, op.seq))
        return True

    def check_before_relay(self, wire: list[Any]) -> bool:
        """Before relaying an op (catch-up), check its signature if it was taken first-hand
        unchecked: a peer relays only ops whose signatures it verified, so an author that
        signs badly cannot make honest peers relay forgeries."""
        ref = (wire[0], wire[1])
        if ref not in self.unchecked:
            return True
        from table.core.ops import from_wire

        try:
            op = from_wire(wire)
        except Exception:
            return False
        if op.kind == "hello" and op.seq == 1:
            key = op.args.get("key")
            key_hex = key if isinstance(key, str) else None
        else:
            key_hex = self._announced_key(op.author) if self._announced_key else None
        if self(op, key_hex):
            self.unchecked.discard(ref)
            return True
        return False


def check_op_envelope(op: Any) -> tuple[str, int]:
    """The envelope of a wire op: a 9-field array whose author is a peer id, whose seq is a
    positive int and whose signature is 64 bytes. The rest is the table core's to check."""
    if type(op) is not list or len(op) != 9:
        raise ProtocolError("op is not a 9-field array")
    author, seq, sig = op[0], op[1], op[8]
    if not is_valid_peer_id(author):
        raise ProtocolError("op has a bad author")
    if type(seq) is not int or seq < 1:
        raise ProtocolError("op has a bad seq")
    if type(sig) is not bytes or len(sig) != SIGNATURE_BYTES:
        raise ProtocolError("op has no valid signature")
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
        self.peer_vvs: dict[str, dict[str, int]] = {}  # each peer's latest announced vector

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
        author, _ = check_op_envelope(op)
        if author != self.mesh.peer_id:
            raise ValueError("publish() is for ops authored here")
        self.mesh.broadcast({"t": "op", "op": op})

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
        check = getattr(getattr(self.replica, "verifier", None), "check_before_relay", None)
        batch: list[list[Any]] = []
        size = 0
        refused: set[str] = set()
        for op in missing:
            if op[0] in refused:
                continue
            if check is not None and op[0] != self.mesh.peer_id and not check(op):
                # Never relay a forgery. Its author's later ops depend on it: hold them too.
                refused.add(op[0])
                log.error("not relaying op %s#%s: its author's signature is bad", op[0], op[1])
                report = getattr(self.replica, "report", None)
                if callable(report):
                    report(f"peer {op[0]} sent an op (#{op[1]}) with a bad signature")
                continue
            op_size = len(pack(op))
            if op_size > self.config.max_batch_bytes:
                log.error("op %s/%s is too large to send (%d bytes)", op[0], op[1], op_size)
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
            op = msg["op"]
            author, _ = check_op_envelope(op)
            if author != peer_id:
                raise ProtocolError("live op not authored by the sending peer")
            self._accept_ops([op], peer_id, direct=True)
        elif t == "ops":
            ops = msg["ops"]
            for op in ops:
                check_op_envelope(op)
            self._accept_ops(ops, peer_id)
        elif t == "vv":
            vv = check_version_vector(msg["vv"], "vv")
            self.peer_vvs[peer_id] = vv
            self._send_missing(peer_id, vv)
        elif t == "hash":
            vv = check_version_vector(msg["vv"], "hash")
            self.peer_vvs[peer_id] = vv
            self._on_hash(peer_id, vv, msg["h"])
        elif t == "priv":
            self.events.emit(PrivateReceived(peer_id, msg["body"]))
        else:
            log.debug("replication ignores %r from %s", t, peer_id)

    def _accept_ops(self, ops: list[list[Any]], from_peer: str, direct: bool = False) -> None:
        vv = self.replica.version_vector()
        fresh = [op for op in ops if op[1] > vv.get(op[0], 0)]
        if not fresh:
            return  # all already delivered
        self.ops_received += len(fresh)
        try:
            if direct:
                # From its author, on its authenticated link: the signature need not be
                # checked again (see OpVerifier.accept_direct).
                self.replica.receive_many(fresh, from_peer, direct=True)
            else:
                self.replica.receive_many(fresh, from_peer)
        except (BadOp, CausalityError) as exc:
            raise ProtocolError(f"bad op from {from_peer}: {exc}") from None

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
