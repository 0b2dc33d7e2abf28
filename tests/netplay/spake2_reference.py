"""The passphrase key exchange written again from docs/protocol.md alone (tests).

It uses what a peer in another language would: HKDF-SHA256 and SHA-256 (hashlib/hmac), and
libsodium's Ed25519 group operations (``crypto_core_ed25519_*``, ``crypto_scalarmult_ed25519_*``
through PyNaCl), plus plain integer arithmetic for the hash-to-point of the blinding point S.
Nothing here imports the ``spake2`` package; test_protocol_vectors.py checks that both agree.
"""

from __future__ import annotations

import hashlib
import hmac
import unicodedata

import nacl.bindings as sodium

P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493
D = -121665 * pow(121666, P - 2, P) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)


def hkdf_sha256(ikm: bytes, info: bytes, length: int) -> bytes:
    """RFC 5869 with an empty salt (HMAC keyed with the empty string, same as 32 zero bytes)."""
    prk = hmac.new(b"", ikm, hashlib.sha256).digest()
    out, block, i = b"", b"", 1
    while len(out) < length:
        block = hmac.new(prk, block + info + bytes([i]), hashlib.sha256).digest()
        out += block
        i += 1
    return out[:length]


def _x_from_y(y: int) -> int | None:
    """The even x with (x, y) on edwards25519, or None."""
    xx = (y * y - 1) * pow(D * y * y + 1, P - 2, P) % P
    x = pow(xx, (P + 3) // 8, P)
    if (x * x - xx) % P:
        x = x * SQRT_M1 % P
    if (x * x - xx) % P:
        return None
    return P - x if x & 1 else x


def _add(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    (x1, y1), (x2, y2) = a, b
    t = D * x1 * x2 * y1 * y2 % P
    x3 = (x1 * y2 + x2 * y1) * pow(1 + t, P - 2, P) % P
    y3 = (y1 * y2 + x1 * x2) * pow(1 - t, P - 2, P) % P
    return x3, y3


def _encode(point: tuple[int, int]) -> bytes:
    x, y = point
    return (y | ((x & 1) << 255)).to_bytes(32, "little")


def blinding_point(seed: bytes = b"symmetric") -> bytes:
    """S: HKDF the seed to 48 bytes, read big-endian mod p as y; the first y (counting up)
    that is on the curve with its even x, times 8, if that is not the identity."""
    y = int.from_bytes(hkdf_sha256(seed, b"SPAKE2 arbitrary element", 48), "big") % P
    while True:
        x = _x_from_y(y)
        if x is not None:
            point = (x, y)
            for _ in range(3):
                point = _add(point, point)
            if point != (0, 1):
                return _encode(point)
        y = (y + 1) % P


def passphrase_bytes(passphrase: str) -> bytes:
    return unicodedata.normalize("NFC", passphrase).encode("utf-8")


def password_scalar(password: bytes) -> int:
    return int.from_bytes(hkdf_sha256(password, b"SPAKE2 pw", 48), "big") % L


def random_scalar(entropy64: bytes) -> int:
    return int.from_bytes(entropy64, "big") % L


def _le(scalar: int) -> bytes:
    return scalar.to_bytes(32, "little")


def message(password: bytes, x: int, s_point: bytes) -> bytes:
    """The 33-byte ``kx``: b"S" || encode(x*B + w*S)."""
    xb = sodium.crypto_scalarmult_ed25519_base_noclamp(_le(x))
    ws = sodium.crypto_scalarmult_ed25519_noclamp(_le(password_scalar(password)), s_point)
    return b"S" + sodium.crypto_core_ed25519_add(xb, ws)


def shared_element(password: bytes, x: int, peer_kx: bytes, s_point: bytes) -> bytes:
    """encode(x * (T_peer - w*S)), after the checks a receiver makes on ``peer_kx``."""
    if len(peer_kx) != 33 or peer_kx[:1] != b"S":
        raise ValueError("not a symmetric SPAKE2 message")
    if not sodium.crypto_core_ed25519_is_valid_point(peer_kx[1:]):
        raise ValueError("not a point of the prime-order subgroup")
    ws = sodium.crypto_scalarmult_ed25519_noclamp(_le(password_scalar(password)), s_point)
    unblinded = sodium.crypto_core_ed25519_sub(peer_kx[1:], ws)
    return sodium.crypto_scalarmult_ed25519_noclamp(_le(x), unblinded)


def shared_key(password: bytes, identity: bytes, my_kx: bytes, peer_kx: bytes,
               k_element: bytes) -> bytes:
    """K = SHA-256(SHA-256(pw) || SHA-256(id) || min(T_a, T_b) || max(T_a, T_b) || K_elem)."""
    first, second = sorted((my_kx[1:], peer_kx[1:]))
    return hashlib.sha256(hashlib.sha256(password).digest() + hashlib.sha256(identity).digest()
                          + first + second + k_element).digest()
