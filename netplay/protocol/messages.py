"""The message catalogue: one frozen dataclass per message type of the protocol.

Each message on the wire is a map with a string field ``t`` (its type) and the fields of its
kind. :func:`message_kind` registers a dataclass as the kind of a ``t``; rooms above the
protocol register their own kinds the same way (joint draws: ``netplay.draws.commit_reveal``,
file transfer: ``netplay.blobs.transfer``). :func:`decode_message` turns a received map into
its kind, checking once, here, that the type is known, that every required field is present
with the right msgpack type and that optional fields, when present, have the right type too,
then the kind's own checks (``check``: an op's envelope, a version vector). Fields not in the
schema are ignored (room for compatible additions). :func:`encode_message` gives the map back.
Deeper structure (the entries of a ``peers`` list, the contents of an op) is checked by the
room that handles the message.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from netplay.protocol.identity import SIGNATURE_BYTES, is_valid_peer_id
from netplay.protocol.wire import ProtocolError


@dataclass(frozen=True, slots=True)
class Field:
    kind: str  # "str" | "int" | "bool" | "bin" | "map" | "list" | "any"
    required: bool = True


_CHECKS: dict[str, Callable[[Any], bool]] = {
    "str": lambda v: isinstance(v, str),
    "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "bool": lambda v: isinstance(v, bool),
    "bin": lambda v: isinstance(v, bytes),
    "map": lambda v: isinstance(v, dict),
    "list": lambda v: isinstance(v, list),
    "any": lambda v: True,
}
_KIND_OF: dict[Any, str] = {str: "str", int: "int", bool: "bool", bytes: "bin", dict: "map",
                            list: "list", Any: "any"}


class Message:
    """A decoded message of one kind; subclasses are frozen dataclasses named by
    :func:`message_kind`. ``check`` is the kind's own check beyond the field types."""

    __slots__ = ()
    T: ClassVar[str] = ""

    def check(self) -> None:
        """Raise ProtocolError when the fields are well typed but not allowed."""


M = TypeVar("M", bound=type[Message])
KINDS: dict[str, type[Message]] = {}
SCHEMAS: dict[str, dict[str, Field]] = {}
# t -> (kind, [(name, required, its type check)]): the schema as decode_message walks it
_DECODERS: dict[str, tuple[type[Message], list[tuple[str, bool, str, Callable[[Any], bool]]]]] = {}
_FIELD_NAMES: dict[type[Message], tuple[str, ...]] = {}


def _field_kind(hint: Any, field: dataclasses.Field[Any]) -> Field:
    """A field's wire kind from its annotation; a field with a default (None) is optional."""
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        hint = next(a for a in typing.get_args(hint) if a is not type(None))
    kind = _KIND_OF.get(typing.get_origin(hint) or hint)
    if kind is None:
        raise ValueError(f"no wire kind for {hint!r}")
    return Field(kind, required=field.default is dataclasses.MISSING)


def message_kind(t: str) -> Callable[[M], M]:
    """Register a frozen dataclass as the message kind ``t`` (a type can be registered once).
    Its fields, in order, are the message's fields; one with a default (``None``) is
    optional."""
    def register(cls: M) -> M:
        if t in KINDS:
            raise ValueError(f"message type {t!r} already registered")
        hints = typing.get_type_hints(cls)
        cls.T = t
        KINDS[t] = cls
        fields = dataclasses.fields(cls)  # type: ignore[arg-type]  # a kind is a dataclass
        SCHEMAS[t] = {f.name: _field_kind(hints[f.name], f) for f in fields}
        _DECODERS[t] = (cls, [(name, spec.required, spec.kind, _CHECKS[spec.kind])
                              for name, spec in SCHEMAS[t].items()])
        _FIELD_NAMES[cls] = tuple(f.name for f in fields)
        return cls
    return register


_ABSENT = object()


def decode_message(msg: Any) -> Message:
    """The message kind ``msg`` (a decoded map) is, checked; ProtocolError otherwise."""
    if not isinstance(msg, dict):
        raise ProtocolError(f"message is a {type(msg).__name__}, not a map")
    t = msg.get("t")
    if not isinstance(t, str):
        raise ProtocolError("message has no string 't' field")
    decoder = _DECODERS.get(t)
    if decoder is None:
        raise ProtocolError(f"unknown message type {t[:40]!r}")
    kind, fields = decoder
    values: list[Any] = []
    for name, required, wire_kind, is_kind in fields:
        value = msg.get(name, _ABSENT)
        if value is _ABSENT:
            if required:
                raise ProtocolError(f"{t}: missing field {name!r}")
            values.append(None)
        elif is_kind(value):
            values.append(value)
        else:
            raise ProtocolError(
                f"{t}: field {name!r} should be {wire_kind}, got {type(value).__name__}")
    decoded = kind(*values)
    decoded.check()
    return decoded


def encode_message(msg: Message) -> dict[str, Any]:
    """The wire map of a message: ``t`` first, then its fields in order (absent optional
    fields left out)."""
    wire: dict[str, Any] = {"t": msg.T}
    for name in _FIELD_NAMES[type(msg)]:
        value = getattr(msg, name)
        if value is not None:
            wire[name] = value
    return wire


def check_message(msg: Any) -> dict[str, Any]:
    """Return ``msg`` (a map) if it is a known, well-typed message; raise ProtocolError
    otherwise. For maps about to be sent, and the handshake's plaintext messages."""
    decode_message(msg)
    return typing.cast(dict[str, Any], msg)


def wire_form(msg: Message | Mapping[str, Any]) -> dict[str, Any]:
    """A message to send, as its checked wire map (a map is checked as it stands)."""
    if isinstance(msg, Message):
        return encode_message(msg)
    return check_message(dict(msg))


def check_version_vector(vv: Any, where: str) -> dict[str, int]:
    """A version vector: a map of peer id (str) to a non-negative int."""
    if not isinstance(vv, dict):
        raise ProtocolError(f"{where}: version vector is not a map")
    for key, value in vv.items():
        if not isinstance(key, str) or len(key) > 64:
            raise ProtocolError(f"{where}: bad version vector key")
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ProtocolError(f"{where}: bad version vector entry for {key!r}")
    return vv


def vv_equal(a: dict[str, int], b: dict[str, int]) -> bool:
    """Two version vectors say the same (an author missing from one counts as 0)."""
    return all(a.get(k, 0) == b.get(k, 0) for k in set(a) | set(b))


def vv_merge(into: dict[str, int], vv: dict[str, int]) -> None:
    """Raise each entry of ``into`` to ``vv``'s where that is higher."""
    for author, count in vv.items():
        if count > into.get(author, 0):
            into[author] = count


def check_op_envelope(op: Any) -> tuple[str, int]:
    """The envelope of a wire op: a 9-field array whose author is a peer id, whose seq is a
    positive int and whose signature is 64 bytes. The rest is the table core's to check."""
    if type(op) is not list or len(op) != 9:
        raise ProtocolError("op is not a 9-field array")
    author, seq, sig = op[0], op[1], op[8]
    if not is_valid_peer_id(author):
        raise ProtocolError("op has a bad author")
    if type(seq) is not int or seq < 1:
        raise ProtocolError("op has a bad seq")
    if type(sig) is not bytes or len(sig) != SIGNATURE_BYTES:
        raise ProtocolError("op has no valid signature")
    return author, seq


def is_own_op(op: Any, peer_id: str) -> bool:
    """Whether ``op`` passes :func:`check_op_envelope` with ``peer_id`` (a valid id) as its
    author: the cheap check of an op its author is about to send."""
    return (type(op) is list and len(op) == 9 and op[0] == peer_id and type(op[1]) is int
            and op[1] >= 1 and type(op[8]) is bytes and len(op[8]) == SIGNATURE_BYTES)


# --- handshake (netplay.protocol.handshake), in plaintext frames -------------------------
@message_kind("hello")
@dataclass(frozen=True, slots=True)
class Hello(Message):
    v: int
    table: str
    peer: str
    key: bytes
    pake: bool
    kx: bytes
    nonce: bytes
    port: int


@message_kind("auth")
@dataclass(frozen=True, slots=True)
class Auth(Message):
    sig: bytes


@message_kind("reject")
@dataclass(frozen=True, slots=True)
class Reject(Message):
    reason: str


HANDSHAKE_KINDS: tuple[type[Message], ...] = (Hello, Auth, Reject)
HANDSHAKE_TYPES = frozenset(kind.T for kind in HANDSHAKE_KINDS)


# --- link (netplay.link.link) -------------------------------------------------------------
@message_kind("hb")
@dataclass(frozen=True, slots=True)
class Heartbeat(Message):
    pass


@message_kind("bye")
@dataclass(frozen=True, slots=True)
class Bye(Message):
    reason: str


# --- mesh (netplay.mesh.mesh) -------------------------------------------------------------
@message_kind("peers")
@dataclass(frozen=True, slots=True)
class Peers(Message):
    peers: list[Any]
    keys: list[Any] | None = None
    quic: Any = None  # endpoint claims (netplay.link.endpoint_claims), checked there
    links: list[Any] | None = None  # every peer the sender is linked to (netplay.mesh.routing)


# --- replication (netplay.replication.replication) ----------------------------------------
@message_kind("vv")
@dataclass(frozen=True, slots=True)
class VersionVector(Message):
    vv: dict[str, int]

    def check(self) -> None:
        check_version_vector(self.vv, "vv")


@message_kind("op")
@dataclass(frozen=True, slots=True)
class LiveOp(Message):
    """One op its author just issued, sent to every linked peer."""

    op: list[Any]


@message_kind("ops")
@dataclass(frozen=True, slots=True)
class OpBatch(Message):
    """Ops a peer lacks (catch-up) or a proof of equivocation, in causal order."""

    ops: list[Any]


@message_kind("caught_up")
@dataclass(frozen=True, slots=True)
class CaughtUp(Message):
    vv: dict[str, int]

    def check(self) -> None:
        check_version_vector(self.vv, "caught_up")


@message_kind("hash")
@dataclass(frozen=True, slots=True)
class StateHash(Message):
    vv: dict[str, int]
    h: str
    heads: dict[str, Any] | None = None

    def check(self) -> None:
        check_version_vector(self.vv, "hash")


@message_kind("priv")
@dataclass(frozen=True, slots=True)
class Private(Message):
    body: dict[str, Any]
