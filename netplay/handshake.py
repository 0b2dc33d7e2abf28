"""The versioned handshake that opens every link.

The initiator is the side that opened the TCP connection. Both sides act alike:

1. send ``hello`` (plaintext frame): protocol version, table id, peer id, Ed25519 public key,
   whether a passphrase is used, the key-exchange message, a 16-byte random nonce and the TCP
   port the sender listens on (0 if none);
2. read the other ``hello``; check version, table, peer id and passphrase mode (on a version
   or table mismatch send ``reject`` with the reason and stop);
3. compute the shared secret (SPAKE2 or X25519, see ``netplay.secure``) and the transcript
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
typed it wrong. The identity keys and signatures travel only in the encrypted ``auth`` and the
hellos; no secret is ever sent.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from dataclasses import dataclass
from typing import Any

from nacl.encoding import RawEncoder
from nacl.hash import blake2b

from .identity import PUBLIC_KEY_BYTES, Identity, is_valid_peer_id, verify
from .messages import check_message
from .secure import FrameCipher, derive_keys, make_key_exchange
from .wire import DEFAULT_LIMITS, FrameError, ProtocolError, WireLimits, pack, read_frame, unpack, write_frame

log = logging.getLogger(__name__)

PROTOCOL_VERSION = 1
NONCE_BYTES = 16
MAX_TABLE_ID_LEN = 64
WRONG_PASSPHRASE = "handshake failed: wrong table passphrase (or the connection was tampered with)"


class HandshakeError(ProtocolError):
    """The handshake could not complete; ``reason`` says why."""


class AuthError(HandshakeError):
    """Authentication failed: wrong passphrase, or a forged identity (man in the middle)."""


@dataclass(frozen=True, slots=True)
class HandshakeResult:
    peer_id: str
    peer_key: bytes
    peer_port: int
    cipher: FrameCipher
    transcript_hash: bytes


def transcript_hash(initiator_hello: bytes, responder_hello: bytes) -> bytes:
    data = (
        b"sandtable-handshake-v1"
        + len(initiator_hello).to_bytes(4, "big") + initiator_hello
        + len(responder_hello).to_bytes(4, "big") + responder_hello
    )
    return blake2b(data, digest_size=32, encoder=RawEncoder)


def auth_payload(role_initiator: bool, th: bytes) -> bytes:
    return b"sandtable-auth-v1" + (b"I" if role_initiator else b"R") + th


async def _send_reject(writer: asyncio.StreamWriter, reason: str) -> None:
    try:
        await write_frame(writer, pack({"t": "reject", "reason": reason}))
    except (ConnectionError, OSError, FrameError):
        pass


async def _read_plain(reader: asyncio.StreamReader, limits: WireLimits) -> tuple[bytes, dict[str, Any]]:
    try:
        raw = await read_frame(reader, limits)
    except EOFError:
        raise HandshakeError("connection closed during the handshake") from None
    return raw, check_message(unpack(raw, limits))


async def perform_handshake(
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
    identity: Identity,
    table_id: str,
    passphrase: str | None,
    initiator: bool,
    listen_port: int = 0,
    limits: WireLimits = DEFAULT_LIMITS,
) -> HandshakeResult:
    """Run the handshake on a fresh connection (apply a timeout around it).

    Raises AuthError, HandshakeError, ProtocolError/FrameError, or OSError/ConnectionError.
    """
    kx = make_key_exchange(passphrase, table_id)
    hello = {
        "t": "hello",
        "v": PROTOCOL_VERSION,
        "table": table_id,
        "peer": identity.peer_id,
        "key": identity.public_key,
        "pake": bool(passphrase),
        "kx": kx.message,
        "nonce": secrets.token_bytes(NONCE_BYTES),
        "port": listen_port,
    }
    my_raw = pack(hello)
    await write_frame(writer, my_raw, limits)

    their_raw, theirs = await _read_plain(reader, limits)
    if theirs["t"] == "reject":
        raise HandshakeError(f"peer refused the handshake: {theirs['reason'][:200]}")
    if theirs["t"] != "hello":
        raise HandshakeError(f"expected hello, got {theirs['t']}")
    if theirs["v"] != PROTOCOL_VERSION:
        reason = f"protocol version mismatch (ours {PROTOCOL_VERSION}, theirs {theirs['v']})"
        await _send_reject(writer, reason)
        raise HandshakeError(reason)
    if theirs["table"] != table_id:
        reason = "different table id"
        await _send_reject(writer, reason)
        raise HandshakeError(reason)
    peer_id = theirs["peer"]
    if not is_valid_peer_id(peer_id):
        raise HandshakeError("malformed peer id")
    if peer_id == identity.peer_id:
        raise HandshakeError("connected to itself (same peer id)")
    if len(theirs["key"]) != PUBLIC_KEY_BYTES or len(theirs["nonce"]) != NONCE_BYTES:
        raise HandshakeError("malformed key or nonce in hello")
    port = theirs["port"]
    if not 0 <= port <= 65535:
        raise HandshakeError("bad port in hello")
    if theirs["pake"] != bool(passphrase):
        raise AuthError(WRONG_PASSPHRASE)

    try:
        shared = kx.finish(theirs["kx"])
    except ProtocolError as exc:
        raise HandshakeError(exc.reason) from None

    th = transcript_hash(my_raw, their_raw) if initiator else transcript_hash(their_raw, my_raw)
    send_key, recv_key = derive_keys(shared, th, initiator)
    cipher = FrameCipher(send_key, recv_key)

    auth = {"t": "auth", "sig": identity.sign(auth_payload(initiator, th))}
    await write_frame(writer, cipher.seal(pack(auth)), limits)

    try:
        sealed = await read_frame(reader, limits)
    except EOFError:
        raise AuthError(WRONG_PASSPHRASE) from None
    try:
        plain = cipher.open(sealed)
    except ProtocolError:
        raise AuthError(WRONG_PASSPHRASE) from None
    their_auth = check_message(unpack(plain, limits))
    if their_auth["t"] != "auth":
        raise HandshakeError(f"expected auth, got {their_auth['t']}")
    if not verify(theirs["key"], auth_payload(not initiator, th), their_auth["sig"]):
        raise AuthError("handshake failed: the peer's identity signature is invalid")
    return HandshakeResult(peer_id, theirs["key"], port, cipher, th)
