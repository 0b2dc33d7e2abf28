"""Key agreement, key derivation and the per-frame cipher of a link.

Key agreement (one message each way, sent inside the ``hello``):

* with a passphrase: SPAKE2 in symmetric mode (the ``spake2`` package, Ed25519 group), with
  the identity ``b"sandtable/v1/table:" + table_id``. The passphrase never travels, and a
  recorded handshake gives an eavesdropper nothing to guess a passphrase against offline; an
  active attacker gets one guess per connection attempt.
* without a passphrase: an ephemeral X25519 Diffie-Hellman.

Both give a 32-byte shared secret ``K``. With the transcript hash ``TH`` of the handshake,
each direction gets its own key: ``BLAKE2b-256(TH, key=K, person=b"sandtable i2r")`` for
initiator-to-responder and ``person=b"sandtable r2i"`` for the other way.

Frames are sealed with XChaCha20-Poly1305 (IETF AEAD, no associated data) under the
direction's key, with an implicit counter nonce: the nth frame sent in a direction (counting
from 0) uses the 24-byte nonce ``n`` as 8 little-endian bytes followed by 16 zero bytes. The
nonce is not sent; a dropped, replayed or reordered frame fails to decrypt.
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Callable
from typing import Protocol

import nacl.bindings as sodium
from nacl.encoding import RawEncoder
from nacl.exceptions import CryptoError
from nacl.hash import blake2b
from nacl.public import PrivateKey
from spake2 import SPAKE2_Symmetric

from netplay.protocol.wire import HEADER_SIZE, ProtocolError

try:  # PyNaCl's compiled libsodium module: the AEAD calls without the per-call Python checks
    from nacl._sodium import ffi as _ffi
    from nacl._sodium import lib as _lib

    _AEAD_ENCRYPT = _lib.crypto_aead_xchacha20poly1305_ietf_encrypt
    _AEAD_DECRYPT = _lib.crypto_aead_xchacha20poly1305_ietf_decrypt
except (ImportError, AttributeError):  # pragma: no cover - another PyNaCl layout
    _ffi = _lib = _AEAD_ENCRYPT = _AEAD_DECRYPT = None

KEY_BYTES = 32
TAG_BYTES = sodium.crypto_aead_xchacha20poly1305_ietf_ABYTES
NONCE_BYTES = sodium.crypto_aead_xchacha20poly1305_ietf_NPUBBYTES
_MAX_COUNTER = (1 << 64) - 1


class DecryptError(ProtocolError):
    """A frame failed authentication: wrong key, tampered, replayed or reordered."""


class KeyExchange(Protocol):
    @property
    def message(self) -> bytes: ...

    def finish(self, peer_message: bytes) -> bytes: ...


def normalize_passphrase(passphrase: str) -> bytes:
    """Passphrases compare as NFC-normalised UTF-8, so the same words typed on two systems match."""
    return unicodedata.normalize("NFC", passphrase).encode("utf-8")


def pake_identity(table_id: str) -> bytes:
    return b"sandtable/v1/table:" + table_id.encode("utf-8")


class PakeExchange:
    """SPAKE2 (symmetric) keyed by the passphrase and bound to the table id.

    ``entropy(n)`` gives n random bytes (default ``os.urandom``); tests inject a fixed source
    to reproduce the protocol's test vectors. The construction is stated in docs/protocol.md.
    """

    MESSAGE_BYTES = 33

    def __init__(self, passphrase: str, table_id: str,
                 entropy: Callable[[int], bytes] = os.urandom) -> None:
        self._spake = SPAKE2_Symmetric(
            normalize_passphrase(passphrase), idSymmetric=pake_identity(table_id),
            entropy_f=entropy,
        )
        self._message: bytes = self._spake.start()

    @property
    def message(self) -> bytes:
        return self._message

    def finish(self, peer_message: bytes) -> bytes:
        if len(peer_message) != self.MESSAGE_BYTES:
            raise ProtocolError("bad SPAKE2 message length")
        if peer_message[:1] != b"S":  # the package only asserts this (gone under python -O)
            raise ProtocolError("bad SPAKE2 message (not symmetric mode)")
        try:
            key: bytes = self._spake.finish(peer_message)
        except Exception as exc:  # spake2 raises its own errors on bad or reflected points
            raise ProtocolError(f"bad SPAKE2 message ({type(exc).__name__})") from None
        return key


class X25519Exchange:
    """An ephemeral X25519 key agreement (no passphrase)."""

    MESSAGE_BYTES = 32

    def __init__(self, private_key: bytes | None = None) -> None:
        """``private_key``: 32 bytes to use instead of a fresh random key (test vectors)."""
        self._private = PrivateKey.generate() if private_key is None else PrivateKey(private_key)

    @property
    def message(self) -> bytes:
        return bytes(self._private.public_key)

    def finish(self, peer_message: bytes) -> bytes:
        if len(peer_message) != self.MESSAGE_BYTES:
            raise ProtocolError("bad X25519 public key length")
        try:
            shared = sodium.crypto_scalarmult(bytes(self._private), peer_message)
        except (CryptoError, RuntimeError, ValueError):  # low-order point gives all zeros
            raise ProtocolError("bad X25519 public key") from None
        # Hash the raw DH output together with both public keys (as crypto_kx does).
        ours, theirs = self.message, peer_message
        lo, hi = sorted((ours, theirs))
        return blake2b(shared + lo + hi, digest_size=KEY_BYTES, encoder=RawEncoder)


def make_key_exchange(passphrase: str | None, table_id: str) -> KeyExchange:
    if passphrase:
        return PakeExchange(passphrase, table_id)
    return X25519Exchange()


def derive_keys(shared: bytes, transcript_hash: bytes, initiator: bool) -> tuple[bytes, bytes]:
    """Return (send key, receive key) for this side."""
    i2r = blake2b(
        transcript_hash, digest_size=KEY_BYTES, key=shared, person=b"sandtable i2r",
        encoder=RawEncoder,
    )
    r2i = blake2b(
        transcript_hash, digest_size=KEY_BYTES, key=shared, person=b"sandtable r2i",
        encoder=RawEncoder,
    )
    return (i2r, r2i) if initiator else (r2i, i2r)


def counter_nonce(counter: int) -> bytes:
    return counter.to_bytes(8, "little") + bytes(NONCE_BYTES - 8)


class FrameCipher:
    """Seals outgoing and opens incoming frames of one link, with counter nonces."""

    __slots__ = ("_recv_key", "_recv_n", "_send_key", "_send_n")

    def __init__(self, send_key: bytes, recv_key: bytes) -> None:
        if len(send_key) != KEY_BYTES or len(recv_key) != KEY_BYTES:
            raise ValueError("keys must be 32 bytes")
        self._send_key = send_key
        self._recv_key = recv_key
        self._send_n = 0
        self._recv_n = 0

    def seal(self, plaintext: bytes) -> bytes:
        return self._seal(plaintext, 0)

    def seal_frame(self, plaintext: bytes) -> bytes:
        """:meth:`seal`, with the sealed length before it as the big-endian header (a
        frame of ``netplay.protocol.wire``), made in one buffer. The caller checks the size."""
        return self._seal(plaintext, HEADER_SIZE)

    def _seal(self, plaintext: bytes, head: int) -> bytes:
        """The next sealed message, after a length header of `head` bytes (0: none)."""
        if self._send_n >= _MAX_COUNTER:
            raise ProtocolError("send nonce counter exhausted")
        nonce = counter_nonce(self._send_n)
        self._send_n += 1
        size = len(plaintext) + TAG_BYTES
        if _AEAD_ENCRYPT is not None and type(plaintext) is bytes:
            # Keys and nonce are checked here (constructor, counter_nonce): call libsodium
            # directly, as nacl.bindings would after its argument checks.
            out = _ffi.new("unsigned char[]", head + size)
            if head:
                out[0:head] = size.to_bytes(head, "big")
            if _AEAD_ENCRYPT(out + head, _ffi.NULL, plaintext, len(plaintext), _ffi.NULL, 0,
                             _ffi.NULL, nonce, self._send_key) != 0:
                raise ProtocolError("frame encryption failed")
            sealed: bytes = _ffi.buffer(out, head + size)[:]
            return sealed
        sealed = bytes(sodium.crypto_aead_xchacha20poly1305_ietf_encrypt(
            plaintext, None, nonce, self._send_key))
        return size.to_bytes(head, "big") + sealed if head else sealed

    def open(self, ciphertext: bytes) -> bytes:
        if len(ciphertext) < TAG_BYTES:
            raise DecryptError("encrypted frame shorter than its tag")
        if self._recv_n >= _MAX_COUNTER:
            raise DecryptError("receive nonce counter exhausted")
        if _AEAD_DECRYPT is not None and type(ciphertext) is bytes:
            size = len(ciphertext) - TAG_BYTES
            out = _ffi.new("unsigned char[]", max(size, 1))
            if _AEAD_DECRYPT(out, _ffi.NULL, _ffi.NULL, ciphertext, len(ciphertext), _ffi.NULL, 0,
                             counter_nonce(self._recv_n), self._recv_key) != 0:
                raise DecryptError("frame failed to decrypt (bad key, tampered or out of order)")
            self._recv_n += 1
            plain: bytes = _ffi.buffer(out, size)[:]
            return plain
        try:
            plaintext = sodium.crypto_aead_xchacha20poly1305_ietf_decrypt(
                ciphertext, None, counter_nonce(self._recv_n), self._recv_key
            )
        except CryptoError:
            raise DecryptError("frame failed to decrypt (bad key, tampered or out of order)") from None
        self._recv_n += 1
        return bytes(plaintext)
