"""A peer's identity: a random peer id and an Ed25519 signing key.

The peer id is 8 random bytes from :mod:`secrets`, as 16 lowercase hex characters. It names
the author of ops; it is never a seat. The signing key proves, in every handshake, that the
peer at the other end of a link holds the key it claims, and signs the ops the peer authors.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass

from nacl.exceptions import BadSignatureError, CryptoError
from nacl.signing import SigningKey, VerifyKey

PEER_ID_BYTES = 8
PUBLIC_KEY_BYTES = 32
SIGNATURE_BYTES = 64
_PEER_ID_RE = re.compile(r"^[0-9a-f]{16}$")


def new_peer_id() -> str:
    return secrets.token_hex(PEER_ID_BYTES)


def is_valid_peer_id(value: object) -> bool:
    return isinstance(value, str) and bool(_PEER_ID_RE.match(value))


@dataclass(frozen=True, slots=True)
class Identity:
    """A peer id with its Ed25519 signing key. Keep the seed secret."""

    peer_id: str
    signing_key: SigningKey

    @classmethod
    def generate(cls) -> Identity:
        return cls(new_peer_id(), SigningKey.generate())

    @classmethod
    def from_seed(cls, peer_id: str, seed: bytes) -> Identity:
        """Rebuild a saved identity (a restarted peer resuming its session)."""
        if not is_valid_peer_id(peer_id):
            raise ValueError(f"bad peer id {peer_id!r}")
        return cls(peer_id, SigningKey(seed))

    @property
    def seed(self) -> bytes:
        return bytes(self.signing_key)

    @property
    def public_key(self) -> bytes:
        return bytes(self.signing_key.verify_key)

    def sign(self, data: bytes) -> bytes:
        """A detached 64-byte Ed25519 signature of ``data``."""
        return bytes(self.signing_key.sign(data).signature)

    def __repr__(self) -> str:  # never show the key
        return f"Identity(peer_id={self.peer_id!r})"


def verify(public_key: bytes, data: bytes, signature: bytes) -> bool:
    """True if ``signature`` is a valid Ed25519 signature of ``data`` by ``public_key``.
    Malformed keys or signatures give False, never an exception."""
    if not isinstance(public_key, bytes) or len(public_key) != PUBLIC_KEY_BYTES:
        return False
    if not isinstance(signature, bytes) or len(signature) != SIGNATURE_BYTES:
        return False
    try:
        VerifyKey(public_key).verify(data, signature)
        return True
    except (BadSignatureError, CryptoError, ValueError, TypeError):
        return False
