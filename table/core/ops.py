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


# Per kind, read once per op: the kind's own name (the registry's string: one copy in memory),
# each argument's allowed types (None: any value; a frozenset: one hash probe per argument), and
# the required arguments. Text values are interned (see `_check_args`).
_Spec = tuple[str, dict[str, "frozenset[type] | None"], tuple[str, ...]]
_SPECS: dict[str, _Spec] = {
    kind: (kind, {name: (None if types is _ANY else frozenset(types))
                  for name, (types, _req) in schema.items()},
           tuple(name for name, (_t, req) in schema.items() if req))
    for kind, schema in SCHEMAS.items()}
_NO_VV: dict[str, int] = {}  # the one empty version vector ops from the wire share (never mutated)
_new_op = tuple.__new__  # an Op from its nine checked fields, without NamedTuple's Python __new__


def check_args(kind: str, args: Any) -> None:
    """Raise BadOp unless `args` matches the schema of `kind` (exact types: no bool for int)."""
    _check_args(kind, args, False)


def _check_args(kind: Any, args: Any, share: bool) -> str:
    """check_args; returns the kind's name as the registry spells it. With `share`, text values
    become the interpreter's shared copy of equal text: a long log names the same few hundred
    objects in every op, and one string per name instead of one per mention is a third of what a
    replayed op keeps in memory."""
    spec = _SPECS.get(kind) if type(kind) is str else None
    if spec is None:
        raise BadOp(f"unknown op kind {kind!r}")
    name_of_kind, types_of, required = spec
    if type(args) is not dict:
        raise BadOp(f"{kind}: arguments must be a map")
    try:
        for name, value in args.items():
            types = types_of[name]  # KeyError: an argument the kind does not have
            vtype = type(value)
            if types is not None and vtype not in types:
                raise BadOp(f"{kind}: argument {name!r} has the wrong type ({vtype.__name__})")
            if vtype is str and share:
                args[name] = intern(value)  # a value replaced, no key added: iterating is sound
    except KeyError:
        raise BadOp(f"{kind}: unknown argument {name!r}") from None
    for name in required:
        if name not in args:
            raise BadOp(f"{kind}: missing argument {name!r}")
    if name_of_kind == opkinds.MARK and args["what"] not in MARK_WHATS:
        raise BadOp(f"mark: unknown marker {args['what']!r} (one of {sorted(MARK_WHATS)})")
    return name_of_kind


def from_wire(wire: Any) -> Op:
    """Build an Op from its wire form, validating every field. Raises BadOp."""
    if type(wire) is not list or len(wire) != 9:
        raise BadOp("an op must be an array of 9 fields")
    author, seq, lamport, kind, args, vv, time, seat, sig = wire
    if type(author) is not str or not 0 < len(author) <= 64:
        raise BadOp("op author must be a short string")
    if type(seq) is not int or type(lamport) is not int or seq < 1 or lamport < 1:
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
    kind = _check_args(kind, args, True)
    if type(time) is not float:
        if type(time) is not int:
            raise BadOp("op time must be a number")
        time = float(time)
    if seat is not None and type(seat) is not int:
        raise BadOp("op seat must be an integer")
    if sig is not None and type(sig) is not bytes:
        raise BadOp("op signature must be bytes")
    op: Op = _new_op(Op, (intern(author), seq, lamport, kind, args, vv, time, seat, sig))
    return op
