"""A message between two peers that have no link of their own, carried by a peer linked to
both (``relay``): sealed and signed end to end, so the carrier reads and changes nothing.

``{"t": "relay", "src": peer id, "dst": peer id, "box": bin}``: ``box`` is a 24-byte nonce then
``crypto_box_easy`` (X25519 + XSalsa20-Poly1305, libsodium: the 16-byte tag, then the
ciphertext) of a msgpack map ``{"m": bin, "sig":
bin(64)}`` under the two peers' identity keys turned into X25519 keys (libsodium's
``crypto_sign_ed25519_{pk,sk}_to_curve25519``). ``m`` is the inner message as packed bytes;
``sig`` is its sender's Ed25519 signature of ``"sandtable-relay-v2" 0 table 0 src 0 dst 0 nonce
m``. Only ``dst`` can open it, only ``src`` can have made it, and the signature binds it to this
table and these two peers. A nonce seen before is a replay: refused. Sans-IO, like the rest of
the protocol; docs/protocol.md, "Through a common peer", states it byte by byte.
"""
from __future__ import annotations

import secrets
from collections import OrderedDict
from dataclasses import dataclass

import nacl.bindings as sodium
from nacl.exceptions import CryptoError

from netplay.protocol.identity import Identity, is_valid_peer_id, verify
from netplay.protocol.messages import Message, message_kind
from netplay.protocol.wire import DEFAULT_LIMITS, ProtocolError, pack, unpack

DOMAIN = b"sandtable-relay-v2"
NONCE_BYTES = 24
MAC_BYTES = 16  # crypto_box_easy's tag, before the ciphertext
REMEMBERED = 4096  # nonces kept to refuse a replay


@message_kind("relay")
@dataclass(frozen=True, slots=True)
class Relayed(Message):
    src: str
    dst: str
    box: bytes

    def check(self) -> None:
        if not (is_valid_peer_id(self.src) and is_valid_peer_id(self.dst)):
            raise ProtocolError("relay: bad peer id")
        if len(self.box) < NONCE_BYTES + MAC_BYTES:
            raise ProtocolError("relay: box too short")


def signed_bytes(table_id: str, src: str, dst: str, nonce: bytes, payload: bytes) -> bytes:
    return b"\0".join((DOMAIN, table_id.encode(), src.encode(), dst.encode(), nonce + payload))


class Sealer:
    """One peer's sealing and opening of relayed messages (shared keys cached per peer key)."""

    def __init__(self, identity: Identity, table_id: str) -> None:
        self.identity, self.table_id = identity, table_id
        _pk, secret = sodium.crypto_sign_seed_keypair(identity.seed)
        self._curve_secret = sodium.crypto_sign_ed25519_sk_to_curve25519(secret)
        self._shared: dict[bytes, bytes] = {}
        self._seen: OrderedDict[bytes, None] = OrderedDict()

    def _key(self, peer_key: bytes) -> bytes:
        shared = self._shared.get(peer_key)
        if shared is None:
            try:
                curve = sodium.crypto_sign_ed25519_pk_to_curve25519(peer_key)
                shared = sodium.crypto_box_beforenm(curve, self._curve_secret)
            except (CryptoError, ValueError, TypeError):
                raise ProtocolError("relay: the peer's identity key is not a valid key") from None
            if len(self._shared) >= 256:
                self._shared.clear()
            self._shared[peer_key] = shared
        return shared

    def seal(self, dst: str, dst_key: bytes, payload: bytes, nonce: bytes | None = None
             ) -> Relayed:
        """``payload`` (a packed message) for ``dst`` only, signed by this peer (``nonce``
        replaces the random one: test vectors only)."""
        src = self.identity.peer_id
        nonce = secrets.token_bytes(NONCE_BYTES) if nonce is None else nonce
        sig = self.identity.sign(signed_bytes(self.table_id, src, dst, nonce, payload))
        inner = pack({"m": payload, "sig": sig})
        return Relayed(src, dst, nonce + sodium.crypto_box_easy_afternm(inner, nonce, self._key(dst_key)))

    def open(self, relayed: Relayed, src_key: bytes) -> bytes:
        """The packed message inside, once it is shown to come from ``relayed.src`` (whose key
        is ``src_key``) for this peer, this table, and for the first time. ProtocolError
        otherwise, naming what is wrong."""
        if relayed.dst != self.identity.peer_id:
            raise ProtocolError("relay: sealed for another peer")
        nonce, sealed = relayed.box[:NONCE_BYTES], relayed.box[NONCE_BYTES:]
        try:
            inner = sodium.crypto_box_open_easy_afternm(sealed, nonce, self._key(src_key))
        except CryptoError:
            raise ProtocolError("relay: the box does not open with the sender's key") from None
        body = unpack(inner, DEFAULT_LIMITS)
        if not isinstance(body, dict) or not isinstance(body.get("m"), bytes) \
                or not isinstance(body.get("sig"), bytes):
            raise ProtocolError("relay: the sealed body is malformed")
        payload = body["m"]
        if not verify(src_key, signed_bytes(self.table_id, relayed.src, relayed.dst, nonce,
                                            payload), body["sig"]):
            raise ProtocolError("relay: the sender's signature does not hold")
        if nonce in self._seen:
            raise ProtocolError("relay: a message already received (replayed)")
        self._seen[nonce] = None
        if len(self._seen) > REMEMBERED:
            self._seen.popitem(last=False)
        return bytes(payload)
