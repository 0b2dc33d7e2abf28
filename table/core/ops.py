"""Ops: the only way a table's state changes, and the validation of an op from the wire.

An op is an envelope (author, sequence number, Lamport stamp, the author's version vector when it
issued the op, wall-clock time, optional signature) around a kind and its arguments. Ops state
results ("move to the top of p1.discard", "set rotation 90", "add -2"), never toggles. The op
itself (`Op`, its wire form and canonical encoding) lives in table.core.opdata and is read from
here too; this module checks an op's fields and arguments against the kinds' registry.
"""
from __future__ import annotations

from sys import intern
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
# per kind: each argument's allowed types (None: any value), read once per argument
_TYPES: dict[str, dict[str, tuple[type, ...] | None]] = {
    kind: {name: (None if types is _ANY else types) for name, (types, _req) in schema.items()}
    for kind, schema in SCHEMAS.items()}
_UNKNOWN: tuple[type, ...] = ()  # no type is in it: an argument the kind does not have
_NO_VV: dict[str, int] = {}  # the one empty version vector ops from the wire share (never mutated)


def check_args(kind: str, args: Any) -> None:
    """Raise BadOp unless `args` matches the schema of `kind` (exact types: no bool for int)."""
    _check_args(kind, args, False)


def _check_args(kind: str, args: Any, share: bool) -> None:
    """check_args; with `share`, text values become the interpreter's shared copy of
    equal text: a long log names the same few hundred objects in every op, and one string per
    name instead of one per mention is a third of what a replayed op keeps in memory."""
    types_of = _TYPES.get(kind)
    if types_of is None:
        raise BadOp(f"unknown op kind {kind!r}")
    if type(args) is not dict:
        raise BadOp(f"{kind}: arguments must be a map")
    for name, value in args.items():
        types = types_of.get(name, _UNKNOWN)
        vtype = type(value)
        if types is not None and vtype not in types:
            if types is _UNKNOWN:
                raise BadOp(f"{kind}: unknown argument {name!r}")
            raise BadOp(f"{kind}: argument {name!r} has the wrong type ({vtype.__name__})")
        if share and vtype is str:
            args[name] = intern(value)  # a value replaced, no key added: iterating stays sound
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
    if vv:
        for key, count in vv.items():
            if type(key) is not str or type(count) is not int or count < 0:
                raise BadOp("op version vector must map authors to counts")
    else:
        vv = _NO_VV
    _check_args(kind, args, True)
    if type(time) is not float:
        if type(time) is not int:
            raise BadOp("op time must be a number")
        time = float(time)
    if seat is not None and type(seat) is not int:
        raise BadOp("op seat must be an integer")
    if sig is not None and type(sig) is not bytes:
        raise BadOp("op signature must be bytes")
    return Op(intern(author), seq, lamport, intern(kind), args, vv, time, seat, sig)
