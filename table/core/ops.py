"""Ops: the only way a table's state changes, and the validation of an op from the wire.

An op is an envelope (author, sequence number, Lamport stamp, the author's version vector when it
issued the op, wall-clock time, optional signature) around a kind and its arguments. Ops state
results ("move to the top of p1.discard", "set rotation 90", "add -2"), never toggles. The op
itself (`Op`, its wire form and canonical encoding) lives in table.core.opdata and is read from
here too; this module checks an op's fields and arguments against the kinds' registry.
"""
from __future__ import annotations

from typing import Any

from . import opkinds
from .apply import END_HOWS
from .errors import BadOp
from .opdata import Op, canonical_bytes, canonical_value

__all__ = ["END_HOWS", "MARK_WHATS", "SCHEMAS", "Op", "canonical_bytes", "canonical_value",
           "check_args", "from_wire"]

# the argument schemas live with each kind's other properties (table.core.opkinds)
SCHEMAS = opkinds.SCHEMAS
MARK_WHATS = opkinds.MARK_WHATS
_ANY = opkinds.ANY


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
    if kind == opkinds.MARK and args["what"] not in MARK_WHATS:
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
