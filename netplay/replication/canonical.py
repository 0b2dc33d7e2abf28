"""The canonical-encoding check every received op passes before anything else looks at it.

An op is accepted on the network only in its canonical encoding (docs/protocol.md, "Canonical
encoding"): the bytes it arrived as must equal the canonical encoding of the values they decode
to. Otherwise two peers could hold "the same" op as different bytes, and a signature made over
one encoding would not verify over the other. :func:`op_slices` finds the exact bytes of each op
inside a received ``op``/``ops`` message; :func:`check_canonical` compares them with the
canonical encoding and, on a mismatch, names the field and what is wrong with it.
"""

from __future__ import annotations

from typing import Any

import msgpack

from netplay.protocol.messages import Message, encode_message
from netplay.protocol.wire import ProtocolError, pack
from table.core.errors import BadOp
from table.core.ops import canonical_bytes

FIELDS = ("author", "seq", "lamport", "kind", "args", "vv", "time", "seat", "sig")


class NotCanonical(ProtocolError):
    """An op arrived in an encoding other than the canonical one. ``field`` names where."""

    def __init__(self, field: str, detail: str) -> None:
        super().__init__(f"op not in canonical encoding: field {field}: {detail}")
        self.field = field


# {"t": "op", "op": ...} as peers pack a live op: a map of two entries whose last value, the
# op, runs to the end of the payload (which decoded whole, with nothing after it)
_LIVE_OP_HEAD = b"\x82\xa1t\xa2op\xa2op"


def op_slices(payload: bytes) -> list[bytes]:
    """The raw bytes of each op of a decoded ``op`` or ``ops`` message payload, in order."""
    if payload.startswith(_LIVE_OP_HEAD):
        return [payload[len(_LIVE_OP_HEAD):]]
    up = msgpack.Unpacker(raw=False, strict_map_key=False, max_buffer_size=len(payload) + 1)
    up.feed(payload)
    out: list[bytes] = []
    for _ in range(up.read_map_header()):
        key = up.unpack()
        if key == "op":
            start = up.tell()
            up.skip()
            out.append(payload[start:up.tell()])
        elif key == "ops":
            for _ in range(up.read_array_header()):
                start = up.tell()
                up.skip()
                out.append(payload[start:up.tell()])
        else:
            up.skip()
    return out


def raw_ops(msg: Message, payload: bytes, count: int) -> list[bytes]:
    """The exact bytes each of the ``count`` ops of ``msg`` arrived as, in the payload that
    carried it (a message not from a link, as tests feed them: as packed here)."""
    raws = op_slices(payload) if payload else []
    if len(raws) != count:
        raws = op_slices(pack(encode_message(msg)))
    return raws


def canonical_wire(wire: list[Any]) -> bytes:
    """The canonical encoding of a decoded 9-field op (``time`` always float64)."""
    time = wire[6]
    if type(time) is int:
        time = float(time)
    return canonical_bytes([*wire[:6], time, *wire[7:]])


def _keys_sorted(value: Any) -> bool:
    """True if every map in ``value`` has its keys in sorted order."""
    stack = [value]
    while stack:
        item = stack.pop()
        if type(item) is dict:
            if len(item) > 1:
                keys = list(item)
                if keys != sorted(keys):
                    return False
            item = item.values()
        for v in item:
            if type(v) is dict or type(v) is list:
                stack.append(v)
    return True


def check_canonical(raw: bytes, wire: list[Any]) -> None:
    """Raise :class:`NotCanonical` unless ``raw`` is the canonical encoding of ``wire``.

    Fast path: msgpack-python writes what it decoded in the smallest integer, str, bin and
    container forms and floats as float64, keeping map order; so ``raw`` is canonical when
    re-packing gives it back, every map is sorted and ``time`` is a float."""
    if (type(wire) is list and len(wire) == 9 and type(wire[6]) is float
            and _keys_sorted(wire) and msgpack.packb(wire, use_bin_type=True) == raw):
        return
    try:
        expected = canonical_wire(wire)
    except BadOp as exc:
        raise NotCanonical("?", str(exc)) from None
    except (TypeError, IndexError):
        raise NotCanonical("op", "not a 9-field array") from None
    if raw != expected:
        field, detail = describe_difference(raw, expected)
        raise NotCanonical(field, detail)


# ------------------------------------------------------------------ naming what differs
_FORMATS = [(0x00, 0x7f, "positive fixint"), (0x80, 0x8f, "fixmap"), (0x90, 0x9f, "fixarray"),
            (0xa0, 0xbf, "fixstr"), (0xc0, 0xc0, "nil"), (0xc2, 0xc3, "bool"),
            (0xc4, 0xc4, "bin8"), (0xc5, 0xc5, "bin16"), (0xc6, 0xc6, "bin32"),
            (0xc7, 0xc9, "ext"), (0xca, 0xca, "float32"), (0xcb, 0xcb, "float64"),
            (0xcc, 0xcc, "uint8"), (0xcd, 0xcd, "uint16"), (0xce, 0xce, "uint32"),
            (0xcf, 0xcf, "uint64"), (0xd0, 0xd0, "int8"), (0xd1, 0xd1, "int16"),
            (0xd2, 0xd2, "int32"), (0xd3, 0xd3, "int64"), (0xd4, 0xd8, "fixext"),
            (0xd9, 0xd9, "str8"), (0xda, 0xda, "str16"), (0xdb, 0xdb, "str32"),
            (0xdc, 0xdc, "array16"), (0xdd, 0xdd, "array32"), (0xde, 0xde, "map16"),
            (0xdf, 0xdf, "map32"), (0xe0, 0xff, "negative fixint")]


def format_name(first_byte: int) -> str:
    for low, high, name in _FORMATS:
        if low <= first_byte <= high:
            return name
    return f"reserved byte 0x{first_byte:02x}"


def _items(data: bytes) -> tuple[str, list[tuple[Any, bytes]]]:
    """Split one encoded container into ("map"|"array", [(key or index, value bytes)])."""
    up = msgpack.Unpacker(raw=False, strict_map_key=False, max_buffer_size=len(data) + 1)
    up.feed(data)
    out: list[tuple[Any, bytes]] = []
    first = data[0]
    if 0x80 <= first <= 0x8f or first in (0xde, 0xdf):
        for _ in range(up.read_map_header()):
            key = up.unpack()
            start = up.tell()
            up.skip()
            out.append((key, data[start:up.tell()]))
        return "map", out
    for index in range(up.read_array_header()):
        start = up.tell()
        up.skip()
        out.append((index, data[start:up.tell()]))
    return "array", out


def _is_container(data: bytes) -> bool:
    first = data[0]
    return 0x80 <= first <= 0x9f or first in (0xdc, 0xdd, 0xde, 0xdf)


def describe_difference(raw: bytes, expected: bytes, path: str = "") -> tuple[str, str]:
    """(field path, what differs) for the first place ``raw`` departs from ``expected``."""
    try:
        return _describe(raw, expected, path)
    except Exception:  # a value too broken to walk: name the whole
        return path or "op", "not the canonical encoding"


def _describe(raw: bytes, expected: bytes, path: str) -> tuple[str, str]:
    here = path or "op"
    if raw[:1] != expected[:1] and not (_is_container(raw) and _is_container(expected)):
        return here, (f"encoded as {format_name(raw[0])}, canonical is "
                      f"{format_name(expected[0])}")
    if not (_is_container(raw) and _is_container(expected)):
        return here, "not the canonical encoding"
    raw_kind, raw_items = _items(raw)
    exp_kind, exp_items = _items(expected)
    if raw[0] != expected[0] and raw_kind == exp_kind and len(raw_items) == len(exp_items):
        return here, (f"{raw_kind} header encoded as {format_name(raw[0])}, canonical is "
                      f"{format_name(expected[0])}")
    if raw_kind == "map" and [k for k, _ in raw_items] != [k for k, _ in exp_items]:
        return here, "map keys are not sorted by their UTF-8 bytes"
    for (key, raw_value), (_, exp_value) in zip(raw_items, exp_items, strict=False):
        if raw_value != exp_value:
            if path:
                sub = f"{path}.{key}" if raw_kind == "map" else f"{path}[{key}]"
            else:
                sub = FIELDS[key] if isinstance(key, int) and key < len(FIELDS) else str(key)
            return _describe(raw_value, exp_value, sub)
    return here, "not the canonical encoding"
