"""The versioned handshake that opens every link, as a sans-IO state machine.

:class:`Handshake` does no I/O and reads no clock of its own: :meth:`Handshake.start` gives the
bytes to send first, :meth:`Handshake.feed` takes the bytes received and returns a
:class:`Step` (bytes to send, and at most one event: :class:`Established` or
:class:`Rejected`), :meth:`Handshake.connection_lost` reports an end of stream and
:meth:`Handshake.poll` checks the deadline against the injected clock. ``netplay.link.streams``
drives it over an asyncio connection. The initiator is the side that opened the TCP connection.
Both sides act alike:

1. send ``hello`` (plaintext frame): protocol version, table id, peer id, Ed25519 public key,
   whether a passphrase is used, the key-exchange message, a 16-byte random nonce and the TCP
   port the sender listens on (0 if none). The initiator sends it at once; the responder only
   once it has read the initiator's (protocol 2; see ``RESPONDER_WAITS``);
2. read the other ``hello``; check version, table, peer id and passphrase mode (on a version
   or table mismatch send ``reject`` with the reason and stop: a responder then sends the
   ``reject`` in place of its hello, so a dialler of another version reads why at once);
3. compute the shared secret (SPAKE2 or X25519, see ``netplay.protocol.secure``) and the transcript
   hash ``TH = BLAKE2b-256(b"sandtable-handshake-v1" || len32(hello_I) || hello_I ||
   len32(hello_R) || hello_R)`` over the exact bytes of both hellos (initiator's first);
4. derive the two direction keys from the secret and TH;
5. send ``auth`` encrypted as frame 0 of its direction: ``sig`` = Ed25519 signature, by the
   sender's identity key, of ``b"sandtable-auth-v1" || role || TH`` (role ``b"I"`` or
   ``b"R"``);
6. read the other ``auth``: if it fails to decrypt, the secrets differ (wrong passphrase, or a
   tampered exchange): :class:`AuthError`; if the signature does not verify under the key in
   the peer's hello, someone is in the middle: :class:`AuthError`.

Both sides see the same AuthError message for a wrong passphrase, so neither learns which side
typed it wrong. docs/protocol.md states every byte, with test vectors.
"""

from __future__ import annotations

import enum
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from nacl.encoding import RawEncoder
from nacl.hash import blake2b

from netplay.protocol.identity import PUBLIC_KEY_BYTES, Identity, is_valid_peer_id, verify
from netplay.protocol.messages import check_message
from netplay.protocol.secure import FrameCipher, KeyExchange, derive_keys, make_key_exchange
from netplay.protocol.wire import (
    DEFAULT_LIMITS,
    FrameDecoder,
    ProtocolError,
    WireLimits,
    encode_frame,
    pack,
    unpack,
)

PROTOCOL_VERSION = 2
# What changed from protocol 1 (docs/protocol.md, "Versions"): the responder reads the
# initiator's first frame before it sends anything (its hello answers a hello of this version,
# or a table ``probe``; a hello of another version gets a ``reject`` instead), a version
# mismatch is told in words both sides show, and the messages that reach a peer through a
# common peer (``relay``, ops relayed live, ``links`` in ``peers``) are new.
NONCE_BYTES = 16
DEFAULT_TIMEOUT = 10.0
WRONG_PASSPHRASE = "handshake failed: wrong table passphrase (or the connection was tampered with)"
BAD_SIGNATURE = "handshake failed: the peer's identity signature is invalid"
CLOSED_EARLY = "connection closed during the handshake"
TIMED_OUT = "handshake timed out"
PROBE_ANSWERED = "answered a table probe"


class HandshakeError(ProtocolError):
    """The handshake could not complete; ``reason`` says why."""


class AuthError(HandshakeError):
    """Authentication failed: wrong passphrase, or a forged identity (man in the middle)."""


class _Answered(HandshakeError):
    """The handshake ends with ``error`` once ``send`` (a responder's hello) is sent: the answer
    to a table probe, or a passphrase mode that differs (the initiator must see it in our
    hello, to fail with the same words)."""

    def __init__(self, error: HandshakeError, send: bytes) -> None:
        super().__init__(error.reason)
        self.error, self.send = error, send


class VersionMismatch(HandshakeError):
    """The peer speaks another protocol version (its hello's ``v``, or its refusal of ours)."""


class _Refusal(HandshakeError):
    """A hello we refuse with a ``reject`` frame telling the peer why (``told``; ``reason`` is
    what we report here)."""

    def __init__(self, reason: str, told: str | None = None, *, version: bool = False) -> None:
        super().__init__(reason)
        self.told = told or reason
        self.version = version


def version_told(ours: int, theirs: Any, responder: bool) -> str:
    """The words a peer of another version reads in our ``reject``."""
    if responder:
        return f"this table speaks protocol {ours}; you have {theirs}"
    return f"this peer speaks protocol {ours}; the table has {theirs}"


def version_reason(ours: int, theirs: Any, responder: bool) -> str:
    """What we report when we refuse a peer of another version."""
    if responder:
        return f"refused a peer of protocol {theirs} (this table speaks protocol {ours})"
    return f"the table speaks protocol {theirs}; this program speaks protocol {ours}"


def is_version_refusal(reason: str) -> bool:
    """Whether a handshake's reason (ours, or a peer's reject) is a version mismatch."""
    return " speaks protocol " in reason or "protocol version mismatch" in reason


@dataclass(frozen=True, slots=True)
class Established:
    """The handshake succeeded: the peer's proven identity and the link's cipher.

    ``leftover`` holds the bytes the peer sent after its ``auth`` (already encrypted link
    frames that arrived in the same read): feed them to the open link's decoder first."""

    peer_id: str
    peer_key: bytes
    peer_port: int
    cipher: FrameCipher
    transcript_hash: bytes
    leftover: bytes = b""


@dataclass(frozen=True, slots=True)
class Rejected:
    """The handshake failed. ``reason`` is for logs and users; ``error`` is typed
    (:class:`AuthError` for a wrong passphrase or a forged identity)."""

    reason: str
    error: HandshakeError


@dataclass(frozen=True, slots=True)
class Step:
    """What one input produced: bytes to send to the peer, and the outcome once known."""

    send: bytes = b""
    event: Established | Rejected | None = None


class Phase(enum.Enum):
    NEW = "new"
    AWAIT_HELLO = "await hello"
    AWAIT_AUTH = "await auth"
    DONE = "done"


def transcript_hash(initiator_hello: bytes, responder_hello: bytes) -> bytes:
    data = (
        b"sandtable-handshake-v1"
        + len(initiator_hello).to_bytes(4, "big") + initiator_hello
        + len(responder_hello).to_bytes(4, "big") + responder_hello
    )
    return blake2b(data, digest_size=32, encoder=RawEncoder)


def auth_payload(role_initiator: bool, th: bytes) -> bytes:
    return b"sandtable-auth-v1" + (b"I" if role_initiator else b"R") + th


def _refused(reason: str) -> HandshakeError:
    """The peer's ``reject``: a version mismatch keeps its type."""
    text = f"peer refused the handshake: {reason[:200]}"
    return VersionMismatch(text) if is_version_refusal(reason) else HandshakeError(text)


def _plain_reject(raw: bytes, limits: WireLimits) -> HandshakeError | None:
    """A plaintext ``reject`` sent in place of the ``auth`` (the peer refused our hello after
    sending its own, e.g. a version it does not speak), or None."""
    try:
        msg = check_message(unpack(raw, limits))
    except ProtocolError:
        return None
    if msg["t"] != "reject":
        return None
    return _refused(msg["reason"])


def _reject_frame(reason: str) -> bytes:
    return encode_frame(pack({"t": "reject", "reason": reason}))


class Handshake:
    """One side of one handshake. Feed it bytes; it returns bytes to send and the outcome.

    ``clock`` (seconds, monotonic) and ``timeout`` set the deadline :meth:`poll` enforces;
    ``key_exchange`` and ``nonce`` replace the random ones, ``version`` the hello's protocol
    version (test vectors of an earlier version only).
    """

    def __init__(
        self,
        identity: Identity,
        table_id: str,
        passphrase: str | None,
        *,
        initiator: bool,
        listen_port: int = 0,
        limits: WireLimits = DEFAULT_LIMITS,
        clock: Callable[[], float] = time.monotonic,
        timeout: float = DEFAULT_TIMEOUT,
        hello_timeout: float | None = None,
        key_exchange: KeyExchange | None = None,
        nonce: bytes | None = None,
        version: int = PROTOCOL_VERSION,
    ) -> None:
        self.identity = identity
        self.table_id = table_id
        self.passphrase = passphrase or None
        self.initiator = initiator
        self.listen_port = listen_port
        self.limits = limits
        self.version = version
        self._clock = clock
        self._timeout = timeout
        # a responder's first bytes must come sooner: an idle connection frees its slot
        self._hello_timeout = hello_timeout
        self._heard = False
        self._kx = key_exchange or make_key_exchange(self.passphrase, table_id)
        self._nonce = secrets.token_bytes(NONCE_BYTES) if nonce is None else nonce
        self._decoder = FrameDecoder(limits)
        self.phase = Phase.NEW
        self.deadline = float("inf")
        self._full_deadline = float("inf")
        self.hello_bytes = b""  # the exact payload of our hello, once started
        self._peer_hello: dict[str, Any] = {}
        self._cipher: FrameCipher | None = None
        self._th = b""

    # ------------------------------------------------------------- inputs
    def start(self) -> bytes:
        """The bytes to send first (our ``hello`` frame); starts the deadline."""
        if self.phase is not Phase.NEW:
            raise RuntimeError("handshake already started")
        self.deadline = self._clock() + self._timeout
        if self._hello_timeout is not None:
            self._full_deadline = self.deadline
            self.deadline = min(self.deadline, self._clock() + self._hello_timeout)
        hello = {
            "t": "hello",
            "v": self.version,
            "table": self.table_id,
            "peer": self.identity.peer_id,
            "key": self.identity.public_key,
            "pake": self.passphrase is not None,
            "kx": self._kx.message,
            "nonce": self._nonce,
            "port": self.listen_port,
        }
        self.hello_bytes = pack(hello)
        self.phase = Phase.AWAIT_HELLO
        if not self.initiator:  # the responder answers the initiator's first frame
            return b""
        return self._hello_frame()

    def _hello_frame(self) -> bytes:
        return encode_frame(self.hello_bytes, self.limits)

    def feed(self, data: bytes) -> Step:
        """Bytes received from the peer (any chunking)."""
        if self.phase is Phase.NEW:
            raise RuntimeError("call start() before feed()")
        if self.phase is Phase.DONE:
            return Step()
        if data and not self._heard:
            self._heard = True
            if self._hello_timeout is not None:
                self.deadline = self._full_deadline
        out = b""
        try:
            frames = self._decoder.feed(data)
            while frames:
                for i, frame in enumerate(frames):
                    if self.phase is Phase.AWAIT_HELLO:
                        out += self._on_hello(frame)
                    else:
                        return Step(out, self._on_auth(frame, frames[i + 1:]))
                frames = self._decoder.feed(b"")
        except _Answered as exc:
            return self._fail(exc.error, out + exc.send)
        except _Refusal as exc:  # tell the peer why before hanging up
            error = VersionMismatch(exc.reason) if exc.version else HandshakeError(exc.reason)
            return self._fail(error, out + _reject_frame(exc.told))
        except HandshakeError as exc:
            return self._fail(exc, out)
        except ProtocolError as exc:
            return self._fail(HandshakeError(f"bad handshake message: {exc.reason}"), out)
        return Step(out)

    def connection_lost(self) -> Step:
        """The peer closed the stream (or it broke) before the handshake finished."""
        if self.phase in (Phase.NEW, Phase.DONE):
            return Step()
        try:
            self._decoder.eof()
        except ProtocolError as exc:
            return self._fail(HandshakeError(f"bad handshake message: {exc.reason}"))
        if self.phase is Phase.AWAIT_AUTH:  # the peer could not decrypt our auth
            return self._fail(AuthError(WRONG_PASSPHRASE))
        return self._fail(HandshakeError(CLOSED_EARLY))

    def poll(self) -> Step:
        """Check the deadline against the clock; a handshake past it is rejected."""
        if self.phase in (Phase.AWAIT_HELLO, Phase.AWAIT_AUTH) and self._clock() >= self.deadline:
            if not self._heard and self._hello_timeout is not None:
                return self._fail(HandshakeError(f"no hello within {self._hello_timeout:g} s"))
            return self._fail(HandshakeError(TIMED_OUT))
        return Step()

    # ------------------------------------------------------------- steps
    def _fail(self, error: HandshakeError, out: bytes = b"") -> Step:
        self.phase = Phase.DONE
        return Step(out, Rejected(error.reason, error))

    def _check_hello(self, theirs: dict[str, Any]) -> None:
        """Raise HandshakeError for a hello we cannot go on with; :class:`_Refusal` (a
        version or table mismatch) also sends the peer a ``reject`` saying why."""
        if theirs["t"] == "reject":
            raise _refused(theirs["reason"])
        if theirs["t"] != "hello":
            raise HandshakeError(f"expected hello, got {theirs['t']}")
        if theirs["v"] != self.version:
            responder = not self.initiator
            raise _Refusal(version_reason(self.version, theirs["v"], responder),
                           version_told(self.version, theirs["v"], responder), version=True)
        if theirs["table"] != self.table_id:
            raise _Refusal("different table id")
        if not is_valid_peer_id(theirs["peer"]):
            raise HandshakeError("malformed peer id")
        if theirs["peer"] == self.identity.peer_id:
            raise HandshakeError("connected to itself (same peer id)")
        if len(theirs["key"]) != PUBLIC_KEY_BYTES or len(theirs["nonce"]) != NONCE_BYTES:
            raise HandshakeError("malformed key or nonce in hello")
        if not 0 <= theirs["port"] <= 65535:
            raise HandshakeError("bad port in hello")
        if theirs["pake"] != (self.passphrase is not None):
            raise AuthError(WRONG_PASSPHRASE)

    def _on_hello(self, raw: bytes) -> bytes:
        """The peer's hello: check it, agree on keys, return our auth frame (a responder: its
        hello, then its auth)."""
        first = unpack(raw, self.limits)
        if not self.initiator and isinstance(first, dict) and first.get("t") == "probe":
            # a dialler that only wants the table id (docs/protocol.md, "Manual connect")
            raise _Answered(HandshakeError(PROBE_ANSWERED), self._hello_frame())
        theirs = check_message(first)
        try:
            self._check_hello(theirs)
        except AuthError as exc:
            if self.initiator:
                raise
            raise _Answered(exc, self._hello_frame()) from None
        try:
            shared = self._kx.finish(theirs["kx"])
        except ProtocolError as exc:
            raise HandshakeError(exc.reason) from None
        mine = self.hello_bytes
        th = transcript_hash(mine, raw) if self.initiator else transcript_hash(raw, mine)
        send_key, recv_key = derive_keys(shared, th, self.initiator)
        self._cipher = FrameCipher(send_key, recv_key)
        self._th, self._peer_hello = th, theirs
        self.phase = Phase.AWAIT_AUTH
        auth = {"t": "auth", "sig": self.identity.sign(auth_payload(self.initiator, th))}
        hello = b"" if self.initiator else self._hello_frame()
        return hello + encode_frame(self._cipher.seal(pack(auth)), self.limits)

    def _on_auth(self, sealed: bytes, later: list[bytes]) -> Established:
        """The peer's auth: it proves the same keys and the identity in its hello."""
        assert self._cipher is not None
        try:
            plain = self._cipher.open(sealed)
        except ProtocolError:
            raise _plain_reject(sealed, self.limits) or AuthError(WRONG_PASSPHRASE) from None
        their_auth = check_message(unpack(plain, self.limits))
        if their_auth["t"] != "auth":
            raise HandshakeError(f"expected auth, got {their_auth['t']}")
        theirs = self._peer_hello
        if not verify(theirs["key"], auth_payload(not self.initiator, self._th), their_auth["sig"]):
            raise AuthError(BAD_SIGNATURE)
        self.phase = Phase.DONE
        leftover = b"".join(encode_frame(f, self.limits) for f in later)
        leftover += self._decoder.take_buffered()
        return Established(theirs["peer"], theirs["key"], theirs["port"], self._cipher,
                           self._th, leftover)
