"""Ops: the only way a table's state changes.

An op is an envelope (author, sequence number, Lamport stamp, the author's version vector when it
issued the op, wall-clock time, optional signature) around a kind and its arguments. Ops state
results ("move to the top of p1.discard", "set rotation 90", "add -2"), never toggles.

Canonical order is (lamport, author); an op's identity is (author, seq).
The wire form (network and log) uses short keys; docs/ops.md documents it field by field.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

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
    "hello": {"key": (_OPT_STR, False), "name": (_OPT_STR, False)},
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
                "face_up": (_BOOL, False), "why": (_OPT_STR, False)},
    "reveal": {"id": (_STR, True), "card": (_STR, True), "salt": (_STR, True),
               "face_up": (_OPT_BOOL, False)},
    "show": {"id": (_STR, True), "to": (_INT, True)},  # a private reveal to one seat
    "roll": {"id": (_OPT_STR, False), "sides": (_INT, True), "values": ((list,), True),
             "why": (_OPT_STR, False)},
    "mark": {"what": (_STR, True), "seat": (_OPT_INT, False), "value": (_ANY, False),
             "fields": ((dict,), False)},
    "note": {"text": (_STR, True)},
    "chat": {"text": (_STR, True), "to": (_OPT_INT, False)},
    "ack": {"flag": (_STR, True), "reason": (_STR, True)},
    "undo": {"target": ((list, tuple), True)},
}

MARK_WHATS = frozenset({"turn", "phase", "step", "declare", "setup", "winner"})


@dataclass(slots=True, frozen=True)
class Op:
    author: str
    seq: int
    lamport: int
    kind: str
    args: dict[str, Any]
    vv: dict[str, int] = field(default_factory=dict)
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

    def to_wire(self) -> dict[str, Any]:
        wire: dict[str, Any] = {"a": self.author, "s": self.seq, "l": self.lamport, "k": self.kind,
                                "x": self.args, "v": self.vv, "t": self.time}
        if self.seat is not None:
            wire["st"] = self.seat
        if self.sig is not None:
            wire["g"] = self.sig
        return wire

    def signing_bytes(self) -> bytes:
        """The canonical bytes an author signs: everything but the signature."""
        import msgpack  # local: only netplay and the log need bytes

        body = self.to_wire()
        body.pop("g", None)
        return msgpack.packb(_sorted(body), use_bin_type=True)


def _sorted(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _sorted(value[k]) for k in sorted(value)}
    if isinstance(value, (list, tuple)):
        return [_sorted(v) for v in value]
    return value


def check_args(kind: str, args: Any) -> None:
    """Raise BadOp unless `args` matches the schema of `kind`."""
    schema = SCHEMAS.get(kind)
    if schema is None:
        raise BadOp(f"unknown op kind {kind!r}")
    if not isinstance(args, dict):
        raise BadOp(f"{kind}: arguments must be a map")
    for name, value in args.items():
        spec = schema.get(name)
        if spec is None:
            raise BadOp(f"{kind}: unknown argument {name!r}")
        types = spec[0]
        if types is not _ANY and (not isinstance(value, types) or
                                  (isinstance(value, bool) and bool not in types)):
            raise BadOp(f"{kind}: argument {name!r} has the wrong type ({type(value).__name__})")
    for name, (_types, required) in schema.items():
        if required and name not in args:
            raise BadOp(f"{kind}: missing argument {name!r}")
    if kind == "mark" and args["what"] not in MARK_WHATS:
        raise BadOp(f"mark: unknown marker {args['what']!r} (one of {sorted(MARK_WHATS)})")


def from_wire(wire: Any) -> Op:
    """Build an Op from its wire form, validating every field. Raises BadOp."""
    if not isinstance(wire, dict):
        raise BadOp("an op must be a map")
    try:
        author, seq, lamport, kind = wire["a"], wire["s"], wire["l"], wire["k"]
    except KeyError as missing:
        raise BadOp(f"op is missing field {missing.args[0]!r}") from None
    args = wire.get("x", {})
    vv = wire.get("v", {})
    if not isinstance(author, str) or not 1 <= len(author) <= 64:
        raise BadOp("op author must be a short string")
    if type(seq) is not int or seq < 1 or type(lamport) is not int or lamport < 1:
        raise BadOp("op seq and lamport must be positive integers")
    if not isinstance(kind, str):
        raise BadOp("op kind must be a string")
    if not isinstance(vv, dict) or not all(
            isinstance(k, str) and type(v) is int and v >= 0 for k, v in vv.items()):
        raise BadOp("op version vector must map authors to counts")
    check_args(kind, args)
    time = wire.get("t", 0.0)
    seat = wire.get("st")
    sig = wire.get("g")
    if not isinstance(time, (int, float)) or isinstance(time, bool):
        raise BadOp("op time must be a number")
    if seat is not None and type(seat) is not int:
        raise BadOp("op seat must be an integer")
    if sig is not None and not isinstance(sig, bytes):
        raise BadOp("op signature must be bytes")
    unknown = set(wire) - {"a", "s", "l", "k", "x", "v", "t", "st", "g"}
    if unknown:
        raise BadOp(f"op has unknown fields {sorted(unknown)}")
    return Op(author, seq, lamport, kind, args, vv, float(time), seat, sig)
