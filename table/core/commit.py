"""Handles, salts and commitments for hidden cards.

A hidden card is an opaque random handle plus a commitment H(handle, card, salt) that its owner
publishes. A reveal publishes card + salt; every peer recomputes the hash. Fields are
length-prefixed so no two different triples can hash the same bytes.
"""
from __future__ import annotations

import hashlib
import secrets


def _field(text: str) -> bytes:
    raw = text.encode("utf-8")
    return len(raw).to_bytes(4, "big") + raw


def commitment(handle: str, card: str, salt: str) -> str:
    return hashlib.sha256(_field(handle) + _field(card) + _field(salt)).hexdigest()


def verify(handle: str, card: str, salt: str, digest: str) -> bool:
    return secrets.compare_digest(commitment(handle, card, salt), digest)
