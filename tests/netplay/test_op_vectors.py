"""docs/protocol-vectors.json, recomputed from the document with an independent encoder.

The "ops" vectors give each op's fields, its canonical signing bytes, the author's Ed25519 seed
and public key, and the signature; "non_canonical" lists encodings a peer must refuse; the
"state_hash" vector is a small log and the public state hash it folds to, with the exact texts
hashed. The test re-encodes every vector with tests/netplay/independent_msgpack.py (not the
msgpack package) and checks signatures with nacl; it also checks the project agrees.

Regenerate (only when the protocol changes on purpose):
    .venv/bin/python tests/netplay/test_op_vectors.py --write
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from independent_msgpack import Float32, Unsorted, WideInt, decode, encode
from nacl.signing import SigningKey, VerifyKey

VECTORS = Path(__file__).resolve().parents[2] / "docs" / "protocol-vectors.json"
DOMAIN = b"sandtable-op-v1"


def _vectors() -> dict[str, Any]:
    return json.loads(VECTORS.read_text(encoding="utf-8"))


def _fields(vector: dict[str, Any]) -> list[Any]:
    f = vector["fields"]
    return [f["author"], f["seq"], f["lamport"], f["kind"], f["args"], f["vv"],
            float(f["time"]), f["seat"]]


def test_every_op_vector_recomputes_with_an_independent_encoder():
    vectors = _vectors()["ops"]
    assert vectors["domain"] == DOMAIN.decode()
    kinds = set()
    for v in vectors["vectors"]:
        body = encode(_fields(v))
        assert body.hex() == v["signing_bytes"], v["name"]
        key = SigningKey(bytes.fromhex(v["seed"]))
        assert bytes(key.verify_key).hex() == v["public_key"], v["name"]
        sig = key.sign(DOMAIN + body).signature
        assert sig.hex() == v["signature"], v["name"]
        VerifyKey(bytes.fromhex(v["public_key"])).verify(DOMAIN + body, sig)
        wire = encode([*_fields(v), sig])
        assert wire.hex() == v["wire"], v["name"]
        assert decode(wire)[:8] == _fields(v)
        kinds.add(v["fields"]["kind"])
    assert len(kinds) >= 5


def test_the_project_signs_and_encodes_the_vectors_the_same_way():
    from netplay.protocol.identity import Identity
    from netplay.replication.canonical import check_canonical
    from netplay.replication.opsign import OpVerifier, op_signer
    from table.core.ops import from_wire

    for v in _vectors()["ops"]["vectors"]:
        op = from_wire(decode(bytes.fromhex(v["wire"])))
        assert op.signing_bytes().hex() == v["signing_bytes"], v["name"]
        assert op.canonical_wire().hex() == v["wire"], v["name"]
        check_canonical(bytes.fromhex(v["wire"]), decode(bytes.fromhex(v["wire"])))
        signer = op_signer(Identity.from_seed("0" * 16, bytes.fromhex(v["seed"])))
        assert signer(op.signing_bytes()).hex() == v["signature"]
        assert OpVerifier(lambda _a: None)(op, v["public_key"])


def test_signed_bytes_cut_from_the_wire_are_the_vectors_signing_bytes():
    """A received op's signed bytes are cut from the canonical bytes it arrived as
    (netplay.replication.opsign.signed_part): for every vector they are its signing bytes, and the
    verifier checks an op with them only for that very op object."""
    from netplay.replication.opsign import OpVerifier, signed_part
    from table.core.ops import from_wire

    for v in _vectors()["ops"]["vectors"]:
        wire = bytes.fromhex(v["wire"])
        assert signed_part(wire) == bytes.fromhex(v["signing_bytes"]), v["name"]
        op = from_wire(decode(wire))
        verifier = OpVerifier(lambda _a: None)
        verifier.received_as(op, wire)
        assert verifier(op, v["public_key"])
        # another op under the same number and signature, other content: its own bytes
        forged = op._replace(lamport=op.lamport + 1)
        assert not verifier(forged, v["public_key"]), v["name"]
        verifier.forget_received()
        assert verifier(op, v["public_key"]) and verifier.verified == 2
    assert signed_part(b"\x98" + bytes(80)) is None


def test_a_batch_checked_ahead_is_verified_once_per_op_and_only_under_its_key():
    from netplay.replication.opsign import OpVerifier
    from table.core.ops import from_wire

    vectors = _vectors()["ops"]["vectors"]
    ops = [from_wire(decode(bytes.fromhex(v["wire"]))) for v in vectors]
    keys = {op.author: v["public_key"] for op, v in zip(ops, vectors, strict=True)}
    forged = ops[0]._replace(lamport=ops[0].lamport + 1)  # same signature, other content
    verifier = OpVerifier(lambda _a: None)
    verifier.check_ahead([*ops, forged], lambda op: keys[op.author])
    assert verifier.verified == len(ops)  # the forgery did not pass
    for op in ops:
        assert verifier(op, keys[op.author])
    assert verifier.verified == len(ops)  # no second check on delivery
    assert not verifier(forged, keys[forged.author]) and verifier.failures == 1
    other_key = next(k for a, k in keys.items() if k != keys[ops[0].author])
    assert not verifier(ops[0], other_key)  # a good check holds only under its own key
    verifier.forget_received()
    assert verifier(ops[0], keys[ops[0].author]) and verifier.verified == len(ops) + 1
    stopped = OpVerifier(lambda _a: None)
    stopped.check_ahead([forged, *ops], lambda op: keys[op.author])
    assert stopped.verified == 0  # the first bad signature ends the checks ahead


def test_only_ops_next_in_line_are_checked_ahead():
    from netplay.replication.opsign import next_in_line
    from table.core.ops import Op

    class Store:
        def delivered(self, author):
            return {"a": 2}.get(author, 0)

    def op(author, seq):
        return Op(author, seq, seq, "note", {"text": ""})

    batch = [op("a", 3), op("b", 1), op("a", 4), op("b", 3), op("a", 6), op("c", 2)]
    assert next_in_line(Store(), batch) == [batch[0], batch[1], batch[2]]


def test_non_canonical_vectors_are_refused_naming_the_field():
    import pytest

    from netplay.replication.canonical import NotCanonical, check_canonical

    cases = _vectors()["ops"]["non_canonical"]
    assert len(cases) >= 4
    for case in cases:
        raw = bytes.fromhex(case["wire"])
        with pytest.raises(NotCanonical) as err:
            check_canonical(raw, decode(raw))
        assert err.value.field == case["field"], (case["name"], err.value.reason)


def test_state_hash_vector():
    from table.core.ops import from_wire
    from table.core.replica import Replica
    from table.core.statehash import public_state_hash

    vector = _vectors()["state_hash"]
    texts = vector["hashed_texts"]
    digest = hashlib.sha256("".join(texts).encode("ascii")).hexdigest()[:32]
    assert digest == vector["hash"]
    replica = Replica("vectors", "f" * 16)
    replica.receive_many([from_wire(decode(bytes.fromhex(w))) for w in vector["ops"]])
    assert public_state_hash(replica.state) == vector["hash"]
    assert replica.version_vector() == vector["version_vector"]


# ------------------------------------------------------------------ generating the file
SEEDS = [bytes(range(32)), bytes(range(100, 132)), hashlib.sha256(b"sandtable").digest()]


def _op_vectors() -> list[dict[str, Any]]:
    from netplay.protocol.identity import Identity
    from table.core.ops import Op, check_args

    ids = [Identity.from_seed(f"{i + 1:016x}", seed) for i, seed in enumerate(SEEDS)]
    a, b, c = ids
    specs: list[tuple[str, Any, int, int, str, dict[str, Any], dict[str, int], float, Any]] = [
        ("hello, first op of an author", a, 1, 1, "hello",
         {"key": a.public_key.hex(), "name": "Ana"}, {}, 1767225600.125, None),
        ("create with floats, ints of every width and unicode keys", b, 2, 5, "create",
         {"id": "p1.dragon", "kind": "token", "to": "p1.play", "pos": [12.5, -3.25],
          "rot": 90, "props": {"name": "Drache", "power": 300, "é": -129, "｡": 65536,
                               "😀": 4294967296, "Z": 0.1}, "counters": {"damage": -2}},
         {a.peer_id: 3}, 1767225601.0, 1),
        ("counter with a negative int8", c, 7, 12, "counter",
         {"id": "p2.favor", "key": "value", "add": -33}, {a.peer_id: 4, b.peer_id: 2},
         1767225602.5, 2),
        ("set with nested values at the integer limits", a, 5, 13, "set",
         {"id": "p1.dragon", "field": "props.extra",
          "value": {"big": 18446744073709551615, "neg": -9223372036854775808, "f": -0.0,
                    "list": [1, 2.0, "three", None, True, False], "int16": -32768}},
         {c.peer_id: 7}, 1767225603.75, None),
        ("roll", b, 3, 14, "roll", {"id": "die1", "sides": 6, "values": [6, 1]}, {},
         1767225604.0, 1),
        ("mark with a large seq (uint32) and lamport (uint16)", c, 70000, 300, "mark",
         {"what": "declare", "seat": 2, "value": "Angriff", "fields": {"ziel": "p1.dragon",
                                                                     "Ω": 1}}, {}, 0.0, 2),
        ("note with a long unicode text (str8)", a, 6, 301, "note",
         {"text": "Ça marche — 日本語のテキスト, long enough for str8"}, {c.peer_id: 70000},
         1767225605.001, None),
        ("undo re-hiding a card in its hand (fresh handles out)", b, 4, 302, "undo",
         {"target": [b.peer_id, 3],
          "out": [["h0a1b2c3d4e5f6a7b", "9f" * 32], ["h1122334455667788", "0e" * 32]]},
         {a.peer_id: 6}, 1767225606.5, 1),
        ("redo of that undo", b, 5, 303, "redo", {"target": [b.peer_id, 4]}, {},
         1767225607.0, 1),
    ]
    out = []
    for name, who, seq, lamport, kind, args, vv, time, seat in specs:
        check_args(kind, args)
        op = Op(who.peer_id, seq, lamport, kind, args, vv, time, seat)
        body = op.signing_bytes()
        sig = who.sign(DOMAIN + body)
        out.append({"name": name, "seed": who.seed.hex(), "public_key": who.public_key.hex(),
                    "fields": {"author": op.author, "seq": seq, "lamport": lamport,
                               "kind": kind, "args": args, "vv": vv, "time": time,
                               "seat": seat},
                    "signing_bytes": body.hex(), "signature": sig.hex(),
                    "wire": op._replace(sig=sig).canonical_wire().hex()})
    return out


def _non_canonical(vectors: list[dict[str, Any]]) -> list[dict[str, Any]]:
    v = vectors[2]  # the counter op
    f = _fields(v)
    sig = bytes.fromhex(v["signature"])
    cases = [
        ("time as float32", [*f[:6], Float32(f[6]), f[7], sig], "time"),
        ("time as an integer", [*f[:6], int(f[6]), f[7], sig], "time"),
        ("seq as uint32 where a fixint fits", [f[0], WideInt(f[1], 0xce), *f[2:], sig], "seq"),
        ("an argument as int16 where int8 fits",
         [*f[:4], {**f[4], "add": WideInt(-33, 0xd1)}, *f[5:], sig], "args.add"),
        ("args keys not sorted", [*f[:4], Unsorted({"key": "value", "id": "p2.favor",
                                                    "add": -33}), *f[5:], sig], "args"),
        ("a version vector count as uint64",
         [*f[:5], {k: WideInt(n, 0xcf) for k, n in f[5].items()}, *f[6:], sig], "vv"),
    ]
    out = []
    for name, wire, field in cases:
        out.append({"name": name, "wire": encode(wire).hex(), "field": field})
    # the vv case names the first entry: say so precisely
    out[-1]["field"] = f"vv.{sorted(f[5])[0]}"
    return out


def _state_hash_vector() -> dict[str, Any]:
    import msgpack

    from netplay.protocol.identity import Identity
    from netplay.replication.opsign import op_signer
    from table.core.replica import Replica

    who = Identity.from_seed("1" * 16, SEEDS[0])
    replica = Replica("vectors", who.peer_id, clock=lambda: 1767225600.5)
    replica.signer = op_signer(who)
    replica.issue("hello", {"key": who.public_key.hex(), "name": "Ana"})
    replica.issue("module", {"hash": "ab" * 32, "game": "gauntlet", "version": "1.0"})
    replica.issue("seat", {"seat": 1, "name": "Ana", "colour": "#c03030"})
    replica.issue("deck", {"seat": 1, "name": "Drachen", "hash": "cd" * 32,
                           "fields": {"faction": "Feuer"}}, seat=1)
    replica.issue("create", {"id": "p1.play", "kind": "zone", "owner": 1,
                             "props": {"name": "Play", "visibility": "public"}})
    replica.issue("create", {"id": "p1.deck", "kind": "pile", "owner": 1, "to": "p1.play",
                             "props": {"visibility": "hidden"}})
    replica.issue("create", {"id": "c1", "kind": "card", "owner": 1, "to": "p1.play",
                             "pos": [10.0, 20.5], "card": "Dragon", "face_up": True})
    replica.issue("create", {"id": "p1.favor", "kind": "counter", "owner": 1,
                             "counters": {"value": 3}})
    replica.issue("counter", {"id": "p1.favor", "add": -2}, seat=1)
    replica.issue("set", {"id": "c1", "field": "rotation", "value": 90}, seat=1)
    replica.issue("mark", {"what": "turn", "seat": 1}, seat=1)
    replica.issue("mark", {"what": "phase", "value": "Main"}, seat=1)
    ops = [op.canonical_wire().hex() for op in replica.store.all_ops()]
    texts = _hashed_texts(replica.state)
    assert hashlib.sha256("".join(texts).encode("ascii")).hexdigest()[:32] == \
        replica.public_state_hash()
    assert msgpack  # the project encoder made `ops`; the test decodes them independently
    return {"ops": ops, "version_vector": replica.version_vector(),
            "hashed_texts": texts, "hash": replica.public_state_hash()}


def _hashed_texts(state: Any) -> list[str]:
    """The texts table/core/statehash.py hashes, written out (docs/protocol.md)."""
    texts = []
    for obj_id in sorted(state.objs):
        o = state.objs[obj_id]
        if o.alive:
            texts.append(json.dumps(
                [o.id, o.kind, o.owner, o.container, o.children,
                 list(o.pos) if o.pos else None, o.face_up, o.rotation,
                 sorted(o.counters.items()), o.card, o.commitment,
                 sorted(o.props.items(), key=lambda kv: kv[0])],
                separators=(",", ":"), default=str))
    if state.module is not None:
        texts.append(json.dumps([state.module.get("hash"), sorted(
            (n, d.get("hash")) for n, d in state.decks.items())], separators=(",", ":")))
    texts.append(json.dumps(
        [sorted((n, s.peer, s.name) for n, s in state.seats.items()), state.turn, state.phase,
         sorted(state.acks.items())], separators=(",", ":"), default=str))
    return texts


def write() -> None:
    data = _vectors() if VECTORS.exists() else {}
    ops = _op_vectors()
    data["ops"] = {"domain": DOMAIN.decode(), "vectors": ops, "non_canonical": _non_canonical(ops)}
    data["state_hash"] = _state_hash_vector()
    VECTORS.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        write()
