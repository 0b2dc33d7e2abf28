"""An op as data: the named tuple every layer passes around, its wire form and its canonical
encoding (the bytes an author signs). Nothing here knows the op kinds, so the kinds' handlers can
name `Op` without importing the registry that imports them (table.core.ops validates an op
against the registry; table.core.opkinds is the registry).

Canonical order is (lamport, author); an op's identity is (author, seq).
The wire form (network and log) is a positional array, the cheapest shape to decode:
    [author, seq, lamport, kind, args, vv, time, seat, sig]
`vv` is the author's version vector when it issued the op, sent as the entries that changed since
its previous op (the rest, and its own count seq - 1, are implied by that previous op, which
causal delivery applies first). docs/ops.md documents it field by field.
"""
from __future__ import annotations

from typing import Any, NamedTuple

from .errors import BadOp


class Op(NamedTuple):
    """One op. A named tuple: immutable, and cheap to build (peers build one per message)."""

    author: str
    seq: int
    lamport: int
    kind: str
    args: dict[str, Any]
    # never mutated: always given explicitly where ops are made (a field default, not state)
    vv: dict[str, int] = {}  # noqa: RUF012 - a NamedTuple field, see the line above
    time: float = 0.0
    seat: int | None = None  # the seat the author acted as (for logs and reports), if any
    sig: bytes | None = None

    @property
    def key(self) -> tuple[int, str]:
        """Position in canonical order."""
        return (self.lamport, self.author)

    @property
    def ref(self) -> tuple[str, int]:
        """Identity of the op: its author and sequence number."""
        return (self.author, self.seq)

    def to_wire(self) -> list[Any]:
        return [self.author, self.seq, self.lamport, self.kind, self.args, self.vv, self.time,
                self.seat, self.sig]

    def signing_bytes(self) -> bytes:
        """The bytes an author signs: the canonical encoding (docs/protocol.md, "Canonical
        encoding") of the first 8 fields, everything but the signature."""
        return canonical_bytes([self.author, self.seq, self.lamport, self.kind, self.args,
                                self.vv, float(self.time), self.seat])

    def canonical_wire(self) -> bytes:
        """The canonical encoding of the whole 9-field wire form: the only encoding of this op
        a peer accepts on the network."""
        return canonical_bytes([self.author, self.seq, self.lamport, self.kind, self.args,
                                self.vv, float(self.time), self.seat, self.sig])


# Canonical encoding: msgpack with every integer in its smallest form, every float as float64,
# text as str, bytes as bin, map keys sorted by their UTF-8 bytes, no ext types. msgpack-python
# already writes the smallest integer, float64 and str/bin forms; keys are sorted here (Python
# orders str by code point, which is the order of their UTF-8 bytes).
_INT_MIN, _INT_MAX = -(1 << 63), (1 << 64) - 1


_PLAIN = frozenset({str, float, bool, bytes, type(None)})  # written as they are


def canonical_value(value: Any) -> Any:
    """`value` with every map's keys sorted, recursively, tuples as lists. Raises BadOp for
    what the canonical encoding cannot hold (non-str map keys, integers beyond 64 bits, other
    types)."""
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is int:
        if not _INT_MIN <= value <= _INT_MAX:
            raise BadOp(f"integer {value} does not fit in 64 bits")
        return value
    if kind is dict:
        keys = sorted(value) if all(type(k) is str for k in value) else None
        if keys is None:
            raise BadOp("a map key is not a string")
        plain = _PLAIN
        return {k: v if type(v) in plain else canonical_value(v)
                for k in keys for v in (value[k],)}
    if kind is list or kind is tuple:
        plain = _PLAIN
        return [v if type(v) in plain else canonical_value(v) for v in value]
    raise BadOp(f"a {kind.__name__} has no canonical encoding")


def canonical_bytes(value: Any) -> bytes:
    """The canonical msgpack encoding of `value` (docs/protocol.md, "Canonical encoding")."""
    import msgpack  # local: only netplay and the log need bytes

    data: bytes = msgpack.packb(canonical_value(value), use_bin_type=True,
                                use_single_float=False, strict_types=True)
    return data
