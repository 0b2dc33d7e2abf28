"""Canonical signing bytes, verification before storage, and reused sequence numbers."""

import pytest

from table.core.causal import CausalStore, Equivocation, RefusedOp
from table.core.errors import BadOp, CausalityError
from table.core.ops import Op, canonical_bytes
from table.core.replica import Replica

A, B = "a" * 16, "b" * 16


def _op(author: str, seq: int, lamport: int, text: str = "x", vv=None, time=1.5,
        sig: bytes | None = b"s" * 64) -> Op:
    return Op(author, seq, lamport, "note", {"text": text}, vv or {}, time, None, sig)


def test_time_is_always_float64_and_keys_sorted_by_utf8_bytes():
    as_int = Op(A, 1, 1, "note", {"text": "x"}, {}, 2, None)  # type: ignore[arg-type]
    as_float = as_int._replace(time=2.0)
    assert as_int.signing_bytes() == as_float.signing_bytes()
    assert as_int.signing_bytes().endswith(b"\xcb\x40\x00\x00\x00\x00\x00\x00\x00\xc0")
    # U+FF61 sorts before U+1F600 by UTF-8 bytes (UTF-16 code units would say otherwise)
    a = canonical_bytes({"😀": 1, "｡": 2, "Z": 3, "é": 4})
    keys = [k.encode() for k in ("Z", "é", "｡", "😀")]
    positions = [a.index(k) for k in keys]
    assert positions == sorted(positions)
    assert canonical_bytes({"b": 1, "a": 2}) == canonical_bytes({"a": 2, "b": 1})


def test_integers_take_their_smallest_form_and_oversized_values_are_refused():
    assert canonical_bytes(127) == b"\x7f"
    assert canonical_bytes(128) == b"\xcc\x80"
    assert canonical_bytes(-33) == b"\xd0\xdf"
    assert canonical_bytes(65536) == b"\xce\x00\x01\x00\x00"
    assert canonical_bytes(True) == b"\xc3"
    with pytest.raises(BadOp):
        canonical_bytes(1 << 64)
    with pytest.raises(BadOp):
        canonical_bytes({1: "non-str key"})
    with pytest.raises(BadOp):
        canonical_bytes({"a set": {1}})


def test_issued_ops_are_canonical_as_logged_and_sent():
    r = Replica("t", A, clock=lambda: 7)
    op = r.issue("create", {"kind": "token", "id": "tok", "props": {"z": 1, "a": (1, 2)}})
    assert list(op.args) == sorted(op.args)
    assert op.args["props"] == {"a": [1, 2], "z": 1}
    assert type(op.time) is float
    assert canonical_bytes(op.to_wire()) == op.canonical_wire()


def test_a_reused_seq_with_other_content_is_named_and_never_applied_twice():
    store = CausalStore()
    first = _op(A, 1, 1, "one")
    assert store.offer(first) == [first]
    assert store.offer(first._replace()) == []  # the same op again: a duplicate
    for other in (_op(A, 1, 1, "other"), first._replace(time=1.25), first._replace(sig=b"t" * 64)):
        with pytest.raises(Equivocation) as err:
            store.offer(other)
        assert err.value.author == A and err.value.seq == 1 and A in str(err.value)
    assert store.get(A, 1) is first and store.version_vector() == {A: 1}


def test_admit_refuses_before_storing_and_keeps_what_was_delivered_before():
    store = CausalStore()
    refused = {(B, 1)}

    def admit(op: Op) -> None:
        if op.ref in refused:
            raise CausalityError(f"op {op.author}#{op.seq} has a bad signature")

    store.admit = admit
    a2 = _op(A, 2, 2)
    b1 = _op(B, 1, 3, vv={A: 2})
    assert store.offer(b1) == []  # waits for A#2
    assert store.offer(a2) == []  # waits for A#1
    with pytest.raises(RefusedOp) as err:
        store.offer(_op(A, 1, 1))
    assert [o.ref for o in err.value.delivered] == [(A, 1), (A, 2)]
    assert (err.value.author, err.value.seq) == (B, 1)
    assert store.version_vector() == {A: 2}  # B#1 never stored
    refused.clear()
    genuine = _op(B, 1, 3, vv={A: 2})
    assert store.offer(genuine) == [genuine]


def test_replica_never_stores_logs_or_applies_a_badly_signed_op(tmp_path):
    good = Replica("t", A, clock=lambda: 1.0)
    good.signer = lambda body: b"G" * 64
    ops = [good.issue("hello", {"key": "00" * 32}), good.issue("note", {"text": "ok"}),
           good.issue("note", {"text": "forged"})]
    ops[2] = ops[2]._replace(sig=b"F" * 64)
    receiver = Replica("t", B, log_path=tmp_path / "b.log")
    receiver.verifier = lambda op, key: op.sig == b"G" * 64 and key == "00" * 32
    with pytest.raises(CausalityError):
        receiver.receive_many([o.to_wire() for o in ops], A)
    assert receiver.version_vector() == {A: 2}
    assert [r.op.seq for r in receiver.records()] == [1, 2]
    receiver.close()
    reread = Replica.from_log(tmp_path / "b.log")
    assert reread.version_vector() == {A: 2}
