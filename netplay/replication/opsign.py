"""Op signatures: the signer a replica signs its ops with, and the verifier every received op
passes before it is stored (first-hand or relayed).

``sig = Ed25519(author key, b"sandtable-op-v1" || Op.signing_bytes())``: the canonical encoding
of the op without its signature (docs/protocol.md). The key is the one its author announced in
its first op (``hello``). Every op is verified before it is delivered, each by this peer:
a live op just before, a batch (catch-up) back to back first and then delivered, each op
checked once. A check costs about 60 us when checks follow each other and up to twice that
between other work (the Ed25519 code and tables leave the CPU's caches), so a 10,000-op
catch-up spends about 0.6 s in them (`sandtable bench net`). The signed bytes of a received
op are cut from the canonical bytes it arrived as, not encoded again. Verifying catch-up
batches in parallel threads measured no faster on a loaded two-core machine.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from nacl.exceptions import BadSignatureError, CryptoError
from nacl.signing import VerifyKey

from netplay.protocol.identity import PUBLIC_KEY_BYTES, SIGNATURE_BYTES, Identity
from table.core.errors import BadOp

log = logging.getLogger(__name__)

OP_SIGNATURE_DOMAIN = b"sandtable-op-v1"


_ARRAY_9, _ARRAY_8, _BIN8 = 0x99, b"\x98", 0xc4


def signed_part(raw: bytes) -> bytes | None:
    """The signed bytes of a canonically encoded op (docs/protocol.md): the wire form is a
    9-field array ending in the 64-byte signature (bin8), and the signed bytes are the 8-field
    array of the other fields, so they are ``raw`` with the array header for 8 fields and the
    signature cut off. None if ``raw`` is not shaped so."""
    tail = 2 + SIGNATURE_BYTES
    if (len(raw) > tail + 1 and raw[0] == _ARRAY_9 and raw[-tail] == _BIN8
            and raw[-tail + 1] == SIGNATURE_BYTES):
        return _ARRAY_8 + raw[1:-tail]
    return None


def op_signer(identity: Identity) -> Callable[[bytes], bytes]:
    """The replica's ``signer``: ``sig = Ed25519(author key, b"sandtable-op-v1" || body)``
    where ``body`` is ``Op.signing_bytes()`` (the canonical encoding of the op without its
    signature)."""

    def sign(body: bytes) -> bytes:
        return identity.sign(OP_SIGNATURE_DOMAIN + body)

    return sign


class OpVerifier:
    """The replica's ``verifier``: checks an op's signature against the key its author
    announced in its first op (``hello``), for every op, first-hand or relayed. When this peer
    has a direct link to the author, the announced key must also be the key the author's
    handshake proved (pinned): a relayed ``hello`` with another key is a forgery. Keys are
    parsed once and cached."""

    def __init__(self, pinned_key: Callable[[str], bytes | None],
                 announced_key: Callable[[str], str | None] | None = None) -> None:
        self._pinned_key = pinned_key
        self._announced_key = announced_key
        self._keys: dict[str, VerifyKey | None] = {}
        # id(op) -> [op, its signed bytes cut from the canonical bytes it arrived as (or
        # None), the key its signature was checked good with ahead of delivery (or None)]
        self._received: dict[int, list[Any]] = {}
        self.failures = 0
        self.verified = 0  # Ed25519 checks made (for tests and benchmarks)

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

    def _key_for(self, op: Any, key_hex: str | None) -> str | None:
        """The key to check ``op`` with, or None if none is acceptable (pinned mismatch)."""
        if key_hex is None and self._announced_key is not None:
            key_hex = self._announced_key(op.author)
        if not isinstance(key_hex, str):
            return None
        pinned = self._pinned_key(op.author)
        if pinned is not None and pinned.hex() != key_hex.lower():
            return None
        return key_hex

    def received_as(self, op: Any, raw: bytes) -> None:
        """``raw`` is the canonical encoding ``op`` (this very object) arrived in, already
        checked (``netplay.replication.canonical.check_canonical``): its signed bytes are cut from it
        rather than encoded again, until :meth:`forget_received`."""
        body = signed_part(raw)
        if body is not None:
            self._received[id(op)] = [op, body, None]

    def check_ahead(self, ops: list[Any], given_key: Callable[[Any], str | None]) -> None:
        """Check the signatures of a batch back to back, before any of its ops is delivered:
        the Ed25519 code and tables stay in the CPU's caches (checks interleaved with other
        work cost up to twice as much). ``given_key(op)`` is the key the replica will pass
        when it delivers the op (None if not known yet: that op is checked on delivery). A
        good result is kept for that op object and that key until :meth:`forget_received`;
        anything else is checked again, and reported, on delivery. The first bad signature
        ends the checks ahead (delivery stops there too: no work is done for a hostile batch
        that delivery would not have done)."""
        for op in ops:
            key_hex = self._key_for(op, given_key(op))
            if key_hex is None or not isinstance(op.sig, bytes):
                continue
            if not self._check(op, key_hex):
                return
            entry = self._received.get(id(op))
            if entry is not None and entry[0] is op:
                entry[2] = key_hex
            else:
                self._received[id(op)] = [op, None, key_hex]

    def forget_received(self) -> None:
        self._received.clear()

    def _check(self, op: Any, key_hex: str) -> bool:
        """One Ed25519 check of ``op``'s signature under ``key_hex``."""
        vk = self._verify_key(key_hex)
        entry = self._received.get(id(op))
        body = entry[1] if entry is not None and entry[0] is op else None
        try:
            ok = vk is not None and bool(vk.verify(
                OP_SIGNATURE_DOMAIN + (body if body is not None else op.signing_bytes()),
                op.sig))
        except (BadSignatureError, CryptoError, ValueError, TypeError, BadOp):
            ok = False
        if ok:
            self.verified += 1
        return ok

    def __call__(self, op: Any, key_hex: str | None) -> bool:
        key_hex = self._key_for(op, key_hex)
        ok = isinstance(op.sig, bytes) and key_hex is not None
        if ok:
            assert key_hex is not None
            entry = self._received.get(id(op))
            ok = (entry is not None and entry[0] is op and entry[2] == key_hex) or \
                self._check(op, key_hex)
        if not ok:
            self.failures += 1
            log.warning("op %s#%s: bad signature or key", op.author, getattr(op, "seq", "?"))
        return ok


def next_in_line(store: Any, ops: list[Any]) -> list[Any]:
    """The ops that continue their author's delivered ones without a gap (those the store
    will deliver once their other dependencies are in): the only ones checked ahead."""
    following: dict[str, int] = {}
    out = []
    for op in ops:
        seq = following.get(op.author)
        if seq is None:
            seq = store.delivered(op.author) + 1
        if op.seq == seq:
            out.append(op)
            following[op.author] = seq + 1
    return out
