"""docs/protocol-vectors.json's per-kind vectors (tests/netplay/kind_vectors.py), recomputed
from the document with the independent encoder (tests/netplay/independent_msgpack.py, not the
msgpack package) and nacl: every op kind's signing bytes, signature and wire form; the public
state hash after each op, by folding them in order; every message type's exact bytes."""
from __future__ import annotations

import json
from typing import Any

import pytest
from independent_msgpack import Unsorted, decode, encode
from kind_vectors import DOMAIN, VECTORS, from_json
from nacl.signing import SigningKey


def _vectors() -> dict[str, Any]:
    return json.loads(VECTORS.read_text(encoding="utf-8"))


def _fields(v: dict[str, Any]) -> list[Any]:
    f = v["fields"]
    return [f["author"], f["seq"], f["lamport"], f["kind"], f["args"], f["vv"],
            float(f["time"]), f["seat"]]


def test_every_op_kind_has_a_vector_that_recomputes_independently():
    from table.core import opkinds

    vectors = _vectors()["op_kinds"]["vectors"]
    assert {v["fields"]["kind"] for v in vectors} == set(opkinds.KINDS)
    for v in vectors:
        body = encode(_fields(v))
        assert body.hex() == v["signing_bytes"], v["name"]
        sig = SigningKey(bytes.fromhex(v["seed"])).sign(DOMAIN + body).signature
        assert sig.hex() == v["signature"], v["name"]
        assert encode([*_fields(v), sig]).hex() == v["wire"], v["name"]


def test_the_state_hash_after_each_op_is_the_fold_of_the_ops_so_far():
    from table.core.ops import from_wire
    from table.core.replica import Replica

    replica = Replica("vectors", "f" * 16)
    for v in _vectors()["op_kinds"]["vectors"]:
        replica.receive_many([from_wire(decode(bytes.fromhex(v["wire"])))])
        [record] = [r for r in replica.records() if r.op.ref == (v["fields"]["author"],
                                                                 v["fields"]["seq"])]
        assert record.void == v["void"], v["name"]
        assert replica.public_state_hash() == v["hash_after"], v["name"]


def _ordered(msg: dict[str, Any]) -> Unsorted:
    """The message map as documented: t first, then its fields in order (nested maps are
    written with sorted keys, as the encoder does by default)."""
    return Unsorted(dict(msg))


@pytest.mark.processes  # the first import of zeroconf's ifaddr (the session's) runs `ldconfig -p`
def test_every_message_type_has_a_vector_written_as_documented():
    import netplay.session.lan_session  # noqa: F401 - registers every message type
    from netplay.protocol.messages import SCHEMAS, check_message, decode_message, encode_message
    from netplay.protocol.wire import DEFAULT_LIMITS, pack, unpack

    vectors = _vectors()["messages"]["vectors"]
    assert {v["t"] for v in vectors} == set(SCHEMAS)
    for v in vectors:
        msg = from_json(v["message"])
        assert next(iter(msg)) == "t" and list(msg)[1:] == [
            name for name in SCHEMAS[v["t"]] if name in msg], v["t"]
        assert encode(_ordered(msg)).hex() == v["msgpack"], v["t"]
        raw = bytes.fromhex(v["msgpack"])
        assert decode(raw) == msg
        assert check_message(unpack(raw, DEFAULT_LIMITS)) == msg
        kind = decode_message(unpack(raw, DEFAULT_LIMITS))  # its frozen dataclass, and back
        assert v["t"] == kind.T and pack(encode_message(kind)).hex() == v["msgpack"], v["t"]
        assert pack(msg).hex() == v["msgpack"], v["t"]  # the project writes the same bytes


def test_the_relay_vector_opens_with_libsodium_as_the_page_says():
    """docs/protocol.md, "Through a common peer": the box opens with the receiver's key (the
    Ed25519 keys turned into X25519 ones), its body holds the inner message and the sender's
    signature of the documented bytes."""
    import nacl.bindings as sodium
    from nacl.signing import VerifyKey

    v = _vectors()["messages"]["relay"]
    box = from_json(v["message"])["box"]
    nonce = bytes.fromhex(v["nonce"])
    assert box[:24] == nonce
    src_pk, _ = sodium.crypto_sign_seed_keypair(bytes.fromhex(v["src_seed"]))
    _, dst_sk = sodium.crypto_sign_seed_keypair(bytes.fromhex(v["dst_seed"]))
    plain = sodium.crypto_box_open_easy(box[24:], nonce,
                                        sodium.crypto_sign_ed25519_pk_to_curve25519(src_pk),
                                        sodium.crypto_sign_ed25519_sk_to_curve25519(dst_sk))
    body = decode(plain)
    assert body["m"].hex() == v["inner"] and decode(body["m"])["t"] == "fair_commit"
    signed = b"\0".join([b"sandtable-relay-v2", v["table"].encode(), v["src"].encode(),
                         v["dst"].encode(), nonce + body["m"]])
    assert signed.hex() == v["signed"]
    VerifyKey(src_pk).verify(signed, body["sig"])
