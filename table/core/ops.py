"""Ops: the only way a table's state changes.

An op is an envelope (author, sequence number, Lamport stamp, the author's version vector when it
issued the op, wall-clock time, optional signature) around a kind and its arguments. Ops state
results ("move to the top of p1.discard", "set rotation 90", "add -2"), never toggles.

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

# kind -> {arg name: (allowed python types, required)}. Validation is strict: unknown args fail.
_STR = (str,)
_INT = (int,)
_BOOL = (bool,)
_NUM = (int, float)
_OPT_STR = (str, type(None))
_OPT_INT = (int, type(None))
_OPT_BOOL = (bool, type(None))
_POS = (list, tuple, type(None))
_AT = (str, int, dict, type(None))
_ANY = (object,)

SCHEMAS: dict[str, dict[str, tuple[tuple[type, ...], bool]]] = {
    # announce a peer: its signing key and display name (first op of every author)
    "hello": {"key": (_OPT_STR, False), "name": (_OPT_STR, False), "watch": (_BOOL, False)},
    # claim (or release) a seat; the author's peer then speaks for that seat
    "seat": {"seat": (_INT, True), "name": (_OPT_STR, False), "colour": (_OPT_STR, False),
             "release": (_BOOL, False), "force": (_BOOL, False)},
    "create": {"id": (_STR, True), "kind": (_STR, True), "owner": (_OPT_INT, False),
               "to": (_OPT_STR, False), "at": (_AT, False), "pos": (_POS, False),
               "face_up": (_BOOL, False), "rot": (_INT, False), "props": ((dict,), False),
               "counters": ((dict,), False), "card": (_OPT_STR, False),
               "commitment": (_OPT_STR, False)},
    "delete": {"id": (_STR, True)},
    "move": {"id": (_STR, True), "to": (_STR, True), "at": (_AT, False), "pos": (_POS, False),
             "face_up": (_OPT_BOOL, False), "rot": (_OPT_INT, False),
             "card": (_OPT_STR, False), "salt": (_OPT_STR, False)},
    "set": {"id": (_STR, True), "field": (_STR, True), "value": (_ANY, True),
            "card": (_OPT_STR, False), "salt": (_OPT_STR, False)},
    "counter": {"id": (_STR, True), "key": (_STR, False), "add": (_OPT_INT, False),
                "value": (_OPT_INT, False)},
    # re-handle: inputs consumed, fresh committed handles out; all or nothing
    "consume": {"in": ((list,), True), "expect": ((list,), False), "to": (_STR, True),
                "at": (_AT, False), "out": ((list,), True), "owner": (_OPT_INT, False),
                "face_up": (_BOOL, False), "why": (_OPT_STR, False),
                # a shuffle from a jointly drawn seed: round id, commitments, missing peers
                "fair": ((dict,), False)},
    "reveal": {"id": (_STR, True), "card": (_STR, True), "salt": (_STR, True),
               "face_up": (_OPT_BOOL, False)},
    "show": {"id": (_STR, True), "to": (_INT, True)},  # a private reveal to one seat
    "roll": {"id": (_OPT_STR, False), "sides": (_INT, True), "values": ((list,), True),
             "why": (_OPT_STR, False),
             # a joint roll's commitments and shares (table.core.fair), or `local`: one peer's
             # own randomness (hot-seat, a lone peer)
             "fair": ((dict,), False), "local": (_BOOL, False)},
    "mark": {"what": (_STR, True), "seat": (_OPT_INT, False), "value": (_ANY, False),
             "fields": ((dict,), False)},
    "note": {"text": (_STR, True)},
    "chat": {"text": (_STR, True), "to": (_OPT_INT, False)},
    "ack": {"flag": (_STR, True), "reason": (_STR, True)},
    "undo": {"target": ((list, tuple), True)},
    # the game module (draft) in effect from here on, by content hash; its archive travels as
    # a log blob and on the LAN (docs/game-module.md)
    "module": {"hash": (_STR, True), "game": (_STR, True), "version": (_STR, False),
               "name": (_STR, False), "changes": ((dict,), False)},
    # a seat's deck list as played: name, header fields (faction, leader...) and the hash of
    # its text; the text itself rides in the author's private record (it names hidden cards)
    "deck": {"seat": (_INT, True), "name": (_STR, True), "fields": ((dict,), False),
             "hash": (_STR, True)},
    # the game's result: who won, how it ended (see END_HOWS), the module's victory condition,
    # final scores (seat number as text -> points) or standings (seats, first place first)
    "end": {"winners": ((list,), True), "how": (_STR, True), "condition": (_OPT_STR, False),
            "scores": ((dict,), False), "standings": ((list,), False), "text": (_OPT_STR, False)},
}

END_HOWS = ("victory", "concession", "time", "draw", "abandoned")

MARK_WHATS = frozenset({"turn", "phase", "step", "declare", "setup", "winner"})


class Op(NamedTuple):
    """One op. A named tuple: immutable, and cheap to build (peers build one per message)."""

    author: str
    seq: int
    lamport: int
    kind: str
    args: dict[str, Any]
    vv: dict[str, int] = {}  # never mutated: always given explicitly where ops are made
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


_REQUIRED = {kind: frozenset(n for n, (_t, req) in schema.items() if req)
             for kind, schema in SCHEMAS.items()}


def check_args(kind: str, args: Any) -> None:
    """Raise BadOp unless `args` matches the schema of `kind` (exact types: no bool for int)."""
    schema = SCHEMAS.get(kind)
    if schema is None:
        raise BadOp(f"unknown op kind {kind!r}")
    if type(args) is not dict:
        raise BadOp(f"{kind}: arguments must be a map")
    for name, value in args.items():
        spec = schema.get(name)
        if spec is None:
            raise BadOp(f"{kind}: unknown argument {name!r}")
        types = spec[0]
        if types is not _ANY and type(value) not in types:
            raise BadOp(f"{kind}: argument {name!r} has the wrong type ({type(value).__name__})")
    if not _REQUIRED[kind] <= args.keys():
        missing = sorted(_REQUIRED[kind] - args.keys())
        raise BadOp(f"{kind}: missing argument {missing[0]!r}")
    if kind == "mark" and args["what"] not in MARK_WHATS:
        raise BadOp(f"mark: unknown marker {args['what']!r} (one of {sorted(MARK_WHATS)})")


def from_wire(wire: Any) -> Op:
    """Build an Op from its wire form, validating every field. Raises BadOp."""
    if type(wire) is not list or len(wire) != 9:
        raise BadOp("an op must be an array of 9 fields")
    author, seq, lamport, kind, args, vv, time, seat, sig = wire
    if type(author) is not str or not 1 <= len(author) <= 64:
        raise BadOp("op author must be a short string")
    if type(seq) is not int or seq < 1 or type(lamport) is not int or lamport < 1:
        raise BadOp("op seq and lamport must be positive integers")
    if type(kind) is not str:
        raise BadOp("op kind must be a string")
    if type(vv) is not dict:
        raise BadOp("op version vector must map authors to counts")
    for key, count in vv.items():
        if type(key) is not str or type(count) is not int or count < 0:
            raise BadOp("op version vector must map authors to counts")
    check_args(kind, args)
    if type(time) is not float:
        if type(time) is not int:
            raise BadOp("op time must be a number")
        time = float(time)
    if seat is not None and type(seat) is not int:
        raise BadOp("op seat must be an integer")
    if sig is not None and type(sig) is not bytes:
        raise BadOp("op signature must be bytes")
    return Op(author, seq, lamport, kind, args, vv, time, seat, sig)
