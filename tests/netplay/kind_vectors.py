"""The per-kind vectors of docs/protocol-vectors.json: one session in which every op kind
appears (each op with its canonical bytes, signature and the public state hash after it is
folded), and one sample of every message type (its exact bytes as the project writes them).

Regenerate (only when the protocol changes on purpose):
    .venv/bin/python tests/netplay/kind_vectors.py --write
Checked by tests/netplay/test_kind_vectors.py with the independent encoder.
"""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
VECTORS = HERE.parents[1] / "docs" / "protocol-vectors.json"
DOMAIN = b"sandtable-op-v1"
SEEDS = [hashlib.sha256(b"sandtable kinds a").digest(), hashlib.sha256(b"sandtable kinds b").digest()]


def to_json(value: Any) -> Any:
    """bytes as {"bin": hex}, so a vector can be written as JSON."""
    if isinstance(value, bytes):
        return {"bin": value.hex()}
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    if isinstance(value, dict):
        return {k: to_json(v) for k, v in value.items()}
    return value


def from_json(value: Any) -> Any:
    if isinstance(value, dict):
        if set(value) == {"bin"}:
            return bytes.fromhex(value["bin"])
        return {k: from_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [from_json(v) for v in value]
    return value


def _session() -> tuple[list[Any], list[dict[str, Any]]]:
    """Two peers play a short game in which every op kind appears; returns their
    identities and the steps (author's replica issues, the other receives)."""
    from netplay.protocol.identity import Identity
    from netplay.replication.opsign import op_signer
    from table.core import actions as act
    from table.core.replica import Replica
    from table.core.rng import Rng

    ids = [Identity.from_seed(f"{i + 10:016x}", seed) for i, seed in enumerate(SEEDS)]
    clock = iter(1767225600.0 + i * 0.25 for i in range(1000))
    reps = [Replica("vectors", who.peer_id, rng=Rng(7 + i), clock=lambda: next(clock))
            for i, who in enumerate(ids)]
    for rep, who in zip(reps, ids, strict=True):
        rep.signer = op_signer(who)
    steps: list[dict[str, Any]] = []

    def step(name: str, author: int, do: Any) -> Any:
        rep, other = reps[author], reps[1 - author]
        before = rep.store.delivered(rep.peer_id)
        result = do(rep)
        for seq in range(before + 1, rep.store.delivered(rep.peer_id) + 1):
            op = rep.store.get(rep.peer_id, seq)
            other.receive_many([op])
            record = next(r for r in other.records() if r.op.ref == op.ref)
            steps.append({"name": name, "author": author, "op": op,
                          "hash_after": other.public_state_hash(), "void": record.void})
        return result

    a, b = 0, 1
    step("hello", a, lambda r: r.issue("hello", {"key": ids[a].public_key.hex(), "name": "Ana"}))
    step("hello of a second peer", b, lambda r: r.issue("hello", {
        "key": ids[b].public_key.hex(), "name": "Bo"}))
    step("module", a, lambda r: r.issue("module", {"hash": "ab" * 32, "game": "gauntlet",
                                                   "version": "1.0", "name": "Gauntlet"}))
    step("seat", a, lambda r: r.issue("seat", {"seat": 1, "name": "Ana", "colour": "#c03030"}))
    step("seat", b, lambda r: r.issue("seat", {"seat": 2, "name": "Bo"}))
    step("deck", a, lambda r: r.issue("deck", {"seat": 1, "name": "Drachen", "hash": "cd" * 32,
                                               "fields": {"faction": "Feuer"}}, seat=1))
    step("create (zone)", a, lambda r: act.create(r, "p1.play", "zone", owner=1,
                                                  props={"name": "Play"}, seat=1))
    step("create (hidden pile)", a, lambda r: act.create(
        r, "p1.deck", "pile", owner=1, to="p1.play", props={"visibility": "hidden"}, seat=1))
    step("consume (new hidden cards)", a, lambda r: act.new_cards(
        r, "p1.deck", ["Dragon", "Knight", "Wizard"], seat=1))
    step("consume (a local shuffle)", a, lambda r: act.shuffle(r, "p1.deck", seat=1, now=True))
    top = reps[a].state.cards_in(reps[a].state.objs["p1.deck"])
    step("show", a, lambda r: act.show(r, top[0], 1, seat=1))
    step("reveal", a, lambda r: act.reveal(r, top[-1], face_up=True, seat=1))
    step("create (a public card at a position)", b, lambda r: act.create(
        r, "c1", "card", to="p1.play", card="Golem", pos=[10.0, 20.5], face_up=True, seat=2))
    step("move", b, lambda r: act.move(r, "c1", "p1.play", pos=[40.0, -7.25], seat=2))
    step("set", a, lambda r: act.set_field(r, "c1", "rotation", 90, seat=1))
    step("create (a counter)", a, lambda r: act.create(r, "p1.favor", "counter", owner=1,
                                                       counters={"value": 3}, seat=1))
    step("counter", a, lambda r: act.counter(r, "p1.favor", add=-2, seat=1))
    step("roll (local)", b, lambda r: act.roll(r, sides=6, count=2, why="attack", seat=2))
    step("mark", a, lambda r: act.mark(r, "turn", for_seat=2, seat=1))
    step("note", b, lambda r: r.issue("note", {"text": "Ça marche — 日本語"}))
    step("chat", b, lambda r: r.issue("chat", {"text": "gg", "to": 1}, seat=2))
    step("ack", a, lambda r: r.issue("ack", {"flag": "gauntlet.hand-size#3", "reason": "ok"},
                                     seat=1))
    moved = next(s["op"].ref for s in steps if s["op"].kind == "move")
    step("undo (of the move)", b, lambda r: r.issue("undo", {"target": list(moved)}, seat=2))
    undone = next(s["op"].ref for s in steps if s["op"].kind == "undo")
    step("redo (of the undo)", b, lambda r: r.issue("redo", {"target": list(undone)}, seat=2))
    step("delete", a, lambda r: r.issue("delete", {"id": "p1.favor"}, seat=1))
    step("end", a, lambda r: act.end_game(r, [1], "victory", scores={1: 10, 2: 7}, seat=1))
    step("tag", b, lambda r: act.tag(r, group="Tuesday club", add=["solo", "short"],
                                     players={2: "Bo"}))
    return ids, steps


def op_kind_vectors() -> dict[str, Any]:
    from table.core import opkinds

    ids, steps = _session()
    out = []
    for s in steps:
        op, who = s["op"], ids[s["author"]]
        out.append({"name": s["name"], "seed": who.seed.hex(), "public_key": who.public_key.hex(),
                    "fields": {"author": op.author, "seq": op.seq, "lamport": op.lamport,
                               "kind": op.kind, "args": op.args, "vv": op.vv, "time": op.time,
                               "seat": op.seat},
                    "signing_bytes": op.signing_bytes().hex(), "signature": op.sig.hex(),
                    "wire": op.canonical_wire().hex(), "void": s["void"],
                    "hash_after": s["hash_after"]})
    kinds = {v["fields"]["kind"] for v in out}
    assert kinds == set(opkinds.KINDS), set(opkinds.KINDS) - kinds
    return {"about": "one session of two peers in which every op kind appears; fold the ops "
                     "in order (causal delivery) and the public state hash after each is "
                     "hash_after", "vectors": out}


def _samples(op_wires: list[bytes]) -> list[dict[str, Any]]:
    """A sample of every message type, fields in the documented order (t first), nested maps
    with their keys sorted."""
    from netplay.protocol.handshake import PROTOCOL_VERSION
    from netplay.protocol.wire import unpack

    op = unpack(op_wires[0])
    a, b = "000000000000000a", "000000000000000b"
    key = bytes(range(32))
    return [
        {"t": "hello", "v": PROTOCOL_VERSION, "table": "3f0c5a9e12ab34cd", "peer": a, "key": key,
         "pake": True, "kx": bytes(range(33)), "nonce": bytes(range(16)), "port": 47000},
        {"t": "auth", "sig": bytes(range(64))},
        {"t": "reject", "reason": "different table id"},
        {"t": "hb"},
        {"t": "bye", "reason": "left the table"},
        {"t": "peers", "peers": [{"host": "192.168.1.20", "id": b, "key": key, "port": 47001}],
         "keys": [{"id": b, "key": bytes(range(32, 64))}], "links": [b]},
        relay_vector()["message"],
        {"t": "vv", "vv": {a: 3, b: 70000}},
        {"t": "op", "op": op},
        {"t": "ops", "ops": [unpack(w) for w in op_wires[:3]]},
        {"t": "caught_up", "vv": {a: 3, b: 2}},
        {"t": "hash", "vv": {a: 3, b: 2}, "h": "9f" * 16, "heads": {a: bytes(8), b: bytes(range(8))}},
        {"t": "priv", "body": {"cards": {"h0a1b": ["Dragon", "00" * 16]}, "shown": {}}},
        {"t": "want", "h": "ab" * 32, "off": 65536},
        {"t": "blob", "h": "ab" * 32, "size": 5, "chunks": ["cd" * 32], "off": 0,
         "data": b"hello"},
        {"t": "nohave", "h": "ab" * 32, "why": "not here"},
        {"t": "fair_start", "r": f"{a}.0123456789abcdef", "use": "roll", "peers": [a, b],
         "c": "ee" * 32},
        {"t": "fair_commit", "r": f"{a}.0123456789abcdef", "c": "dd" * 32},
        {"t": "fair_open", "r": f"{a}.0123456789abcdef", "commits": {a: "ee" * 32, b: "dd" * 32}},
        {"t": "fair_reveal", "r": f"{a}.0123456789abcdef", "s": "cc" * 32},
        {"t": "fair_pub", "body": {"by": a, "cards": {"h0a1b": ["Dragon", "00" * 16]},
                                   "fair": {"piles": {"p1.deck": ["Knight"]},
                                            "rounds": {f"{a}.0123456789abcdef": {
                                                "order": ["Knight"], "pile": "p1.deck",
                                                "shares": {a: "cc" * 32}}}}}},
    ]


def relay_vector() -> dict[str, Any]:
    """A ``relay`` message sealed from the first vector identity to the second, for table
    "vectors", holding a ``fair_commit`` (fixed nonce), and what goes into it."""
    from netplay.protocol.identity import Identity
    from netplay.protocol.sealed import Sealer, signed_bytes
    from netplay.protocol.wire import pack

    ids = [Identity.from_seed(f"{i + 10:016x}", seed) for i, seed in enumerate(SEEDS)]
    inner = pack({"t": "fair_commit", "r": f"{ids[0].peer_id}.0123456789abcdef", "c": "dd" * 32})
    nonce = hashlib.sha256(b"sandtable relay nonce").digest()[:24]
    sealed = Sealer(ids[0], "vectors").seal(ids[1].peer_id, ids[1].public_key, inner, nonce)
    return {"table": "vectors", "src_seed": SEEDS[0].hex(), "dst_seed": SEEDS[1].hex(),
            "src": ids[0].peer_id, "dst": ids[1].peer_id, "nonce": nonce.hex(),
            "inner": inner.hex(),
            "signed": signed_bytes("vectors", ids[0].peer_id, ids[1].peer_id, nonce, inner).hex(),
            "message": {"t": "relay", "src": sealed.src, "dst": sealed.dst, "box": sealed.box}}


def message_vectors(op_wires: list[bytes]) -> dict[str, Any]:
    import netplay.session.lan_session  # noqa: F401 - registers every message type
    from netplay.protocol.messages import SCHEMAS, check_message
    from netplay.protocol.wire import pack

    out = []
    for msg in _samples(op_wires):
        check_message(msg)
        out.append({"t": msg["t"], "message": to_json(msg), "msgpack": pack(msg).hex()})
    assert {v["t"] for v in out} == set(SCHEMAS), set(SCHEMAS) - {v["t"] for v in out}
    relay = relay_vector()
    relay["message"] = to_json(relay["message"])
    return {"about": "one sample of every message type, as the project writes it: the map "
                     "with t first, then the fields in the documented order; nested maps with "
                     "sorted keys; bytes as {\"bin\": hex}", "vectors": out,
            "relay": relay}


def write() -> None:
    data = json.loads(VECTORS.read_text(encoding="utf-8"))
    kinds = op_kind_vectors()
    data["op_kinds"] = kinds
    data["messages"] = message_vectors([bytes.fromhex(v["wire"]) for v in kinds["vectors"]])
    VECTORS.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    sys.path.insert(0, str(HERE.parents[1]))
    if sys.argv[1:] == ["--write"]:
        write()
