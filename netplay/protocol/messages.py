"""The message catalogue: every message type of protocol version 1 and its fields.

Each message is a map with a string field ``t`` (its type). :func:`check_message` checks that
the type is known and that every required field is present with the right msgpack type;
optional fields, when present, must have the right type too. Fields not in the schema are
ignored (room for compatible additions). Deeper structure (the entries of a ``peers`` list,
the contents of an op) is checked by the module that handles the message.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from netplay.protocol.identity import SIGNATURE_BYTES, is_valid_peer_id
from netplay.protocol.wire import ProtocolError


@dataclass(frozen=True, slots=True)
class Field:
    kind: str  # "str" | "int" | "bool" | "bin" | "map" | "list" | "any"
    required: bool = True


_CHECKS: dict[str, Any] = {
    "str": lambda v: isinstance(v, str),
    "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "bool": lambda v: isinstance(v, bool),
    "bin": lambda v: isinstance(v, bytes),
    "map": lambda v: isinstance(v, dict),
    "list": lambda v: isinstance(v, list),
    "any": lambda v: True,
}

# Handshake messages travel in plaintext frames; everything else inside the encrypted channel.
HANDSHAKE_TYPES = frozenset({"hello", "auth", "reject"})

SCHEMAS: dict[str, dict[str, Field]] = {
    # --- handshake (netplay.protocol.handshake) ---
    "hello": {
        "v": Field("int"),
        "table": Field("str"),
        "peer": Field("str"),
        "key": Field("bin"),
        "pake": Field("bool"),
        "kx": Field("bin"),
        "nonce": Field("bin"),
        "port": Field("int"),
    },
    "auth": {"sig": Field("bin")},
    "reject": {"reason": Field("str")},
    # --- link (netplay.link.link) ---
    "hb": {},
    "bye": {"reason": Field("str")},
    # --- mesh (netplay.mesh.mesh) ---
    "peers": {"peers": Field("list"), "keys": Field("list", required=False)},
    # --- replication (netplay.replication.replication) ---
    "vv": {"vv": Field("map")},
    "op": {"op": Field("list")},
    "ops": {"ops": Field("list")},
    "caught_up": {"vv": Field("map")},
    "hash": {"vv": Field("map"), "h": Field("str"), "heads": Field("map", required=False)},
    "priv": {"body": Field("map")},
}


def register_message(type_: str, fields: Mapping[str, Field]) -> None:
    """Add a message type (for extensions); a type can be registered once."""
    if type_ in SCHEMAS:
        raise ValueError(f"message type {type_!r} already registered")
    for name, spec in fields.items():
        if spec.kind not in _CHECKS:
            raise ValueError(f"field {name!r}: unknown kind {spec.kind!r}")
    SCHEMAS[type_] = dict(fields)


def check_message(msg: Any) -> dict[str, Any]:
    """Return ``msg`` if it is a known, well-typed message; raise ProtocolError otherwise."""
    if not isinstance(msg, dict):
        raise ProtocolError(f"message is a {type(msg).__name__}, not a map")
    t = msg.get("t")
    if not isinstance(t, str):
        raise ProtocolError("message has no string 't' field")
    schema = SCHEMAS.get(t)
    if schema is None:
        raise ProtocolError(f"unknown message type {t[:40]!r}")
    for name, spec in schema.items():
        if name not in msg:
            if spec.required:
                raise ProtocolError(f"{t}: missing field {name!r}")
            continue
        if not _CHECKS[spec.kind](msg[name]):
            raise ProtocolError(
                f"{t}: field {name!r} should be {spec.kind}, got {type(msg[name]).__name__}"
            )
    return msg


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
