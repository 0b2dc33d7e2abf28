"""A minimal msgpack encoder and decoder written from the msgpack spec and docs/protocol.md,
independent of the ``msgpack`` package and of the project's encoders. Tests use it to check
the protocol document (vectors) and to play a hostile peer.

``encode`` writes the canonical encoding (docs/protocol.md, "Canonical encoding"): integers in
their smallest form, floats as float64, str for text, bin for bytes, map keys sorted by their
UTF-8 bytes. The wrappers below force a non-canonical form where a hostile peer wants one.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Float32:
    """A float written as float32 (0xca), as single-precision encoders do."""
    value: float


@dataclass(frozen=True)
class WideInt:
    """An integer written with a given msgpack format byte (e.g. 0xce uint32)."""
    value: int
    fmt: int


@dataclass(frozen=True)
class Unsorted:
    """A map written in its insertion order."""
    value: dict[str, Any]


_WIDE = {0xcc: ">B", 0xcd: ">H", 0xce: ">I", 0xcf: ">Q",
         0xd0: ">b", 0xd1: ">h", 0xd2: ">i", 0xd3: ">q"}


def _int(n: int) -> bytes:
    if 0 <= n <= 0x7f:
        return bytes([n])
    if -32 <= n < 0:
        return struct.pack(">b", n)
    if n > 0:
        for fmt, limit in ((0xcc, 0xff), (0xcd, 0xffff), (0xce, 0xffffffff),
                           (0xcf, 0xffffffffffffffff)):
            if n <= limit:
                return bytes([fmt]) + struct.pack(_WIDE[fmt], n)
        raise ValueError("integer too large")
    for fmt, limit in ((0xd0, 0x80), (0xd1, 0x8000), (0xd2, 0x80000000),
                       (0xd3, 0x8000000000000000)):
        if -limit <= n:
            return bytes([fmt]) + struct.pack(_WIDE[fmt], n)
    raise ValueError("integer too small")


def _head(n: int, fix: int, fix_max: int, formats: tuple[int, ...]) -> bytes:
    if n <= fix_max:
        return bytes([fix | n])
    for fmt, size in zip(formats, (1, 2, 4), strict=True):
        if n < 1 << (8 * size):
            return bytes([fmt]) + n.to_bytes(size, "big")
    raise ValueError("too long")


def encode(value: Any) -> bytes:
    if value is None:
        return b"\xc0"
    if value is True:
        return b"\xc3"
    if value is False:
        return b"\xc2"
    if isinstance(value, Float32):
        return b"\xca" + struct.pack(">f", value.value)
    if isinstance(value, WideInt):
        return bytes([value.fmt]) + struct.pack(_WIDE[value.fmt], value.value)
    if isinstance(value, int):
        return _int(value)
    if isinstance(value, float):
        return b"\xcb" + struct.pack(">d", value)
    if isinstance(value, str):
        data = value.encode("utf-8")
        if len(data) <= 31:
            return bytes([0xa0 | len(data)]) + data
        return _head(len(data), 0, -1, (0xd9, 0xda, 0xdb)) + data
    if isinstance(value, (bytes, bytearray)):
        return _head(len(value), 0, -1, (0xc4, 0xc5, 0xc6)) + bytes(value)
    if isinstance(value, (list, tuple)):
        return _array_head(len(value)) + b"".join(encode(v) for v in value)
    if isinstance(value, (dict, Unsorted)):
        items = list(value.value.items()) if isinstance(value, Unsorted) else \
            sorted(value.items(), key=lambda kv: kv[0].encode("utf-8"))
        head = bytes([0x80 | len(items)]) if len(items) <= 15 else \
            (b"\xde" + len(items).to_bytes(2, "big") if len(items) < 1 << 16
             else b"\xdf" + len(items).to_bytes(4, "big"))
        return head + b"".join(encode(k) + encode(v) for k, v in items)
    raise TypeError(f"cannot encode {type(value).__name__}")


def _array_head(n: int) -> bytes:
    if n <= 15:
        return bytes([0x90 | n])
    return (b"\xdc" + n.to_bytes(2, "big")) if n < 1 << 16 else b"\xdd" + n.to_bytes(4, "big")


def encode_array_of(encoded_items: list[bytes]) -> bytes:
    """An array whose items are already encoded (e.g. ops in their own encodings)."""
    return _array_head(len(encoded_items)) + b"".join(encoded_items)


def decode(data: bytes) -> Any:
    value, end = _decode(data, 0)
    if end != len(data):
        raise ValueError("trailing bytes")
    return value


def _decode(data: bytes, i: int) -> tuple[Any, int]:
    b = data[i]
    i += 1
    if b <= 0x7f:
        return b, i
    if b >= 0xe0:
        return b - 0x100, i
    if 0x80 <= b <= 0x8f:
        return _map(data, i, b & 0x0f)
    if 0x90 <= b <= 0x9f:
        return _array(data, i, b & 0x0f)
    if 0xa0 <= b <= 0xbf:
        n = b & 0x1f
        return data[i:i + n].decode("utf-8"), i + n
    if b == 0xc0:
        return None, i
    if b in (0xc2, 0xc3):
        return b == 0xc3, i
    if b in (0xc4, 0xc5, 0xc6, 0xd9, 0xda, 0xdb):
        size = {0xc4: 1, 0xc5: 2, 0xc6: 4, 0xd9: 1, 0xda: 2, 0xdb: 4}[b]
        n = int.from_bytes(data[i:i + size], "big")
        i += size
        raw = data[i:i + n]
        return (bytes(raw) if b <= 0xc6 else raw.decode("utf-8")), i + n
    if b == 0xca:
        return struct.unpack(">f", data[i:i + 4])[0], i + 4
    if b == 0xcb:
        return struct.unpack(">d", data[i:i + 8])[0], i + 8
    if b in _WIDE:
        fmt = _WIDE[b]
        size = struct.calcsize(fmt)
        return struct.unpack(fmt, data[i:i + size])[0], i + size
    if b in (0xdc, 0xdd):
        size = 2 if b == 0xdc else 4
        return _array(data, i + size, int.from_bytes(data[i:i + size], "big"))
    if b in (0xde, 0xdf):
        size = 2 if b == 0xde else 4
        return _map(data, i + size, int.from_bytes(data[i:i + size], "big"))
    raise ValueError(f"unsupported msgpack byte 0x{b:02x}")


def _array(data: bytes, i: int, n: int) -> tuple[list[Any], int]:
    out = []
    for _ in range(n):
        value, i = _decode(data, i)
        out.append(value)
    return out, i


def _map(data: bytes, i: int, n: int) -> tuple[dict[Any, Any], int]:
    out = {}
    for _ in range(n):
        key, i = _decode(data, i)
        out[key], i = _decode(data, i)
    return out, i
