"""The canonical-encoding check at receipt, and catch-up bookkeeping (which op a join waits for)."""

import msgpack
import pytest
from independent_msgpack import Float32, Unsorted, WideInt, encode

from netplay.replication.canonical import NotCanonical, check_canonical, op_slices
from netplay.replication.catchup import CatchUp
from table.core.ops import Op

A = "a" * 16
SIG = b"s" * 64
FIELDS = [A, 2, 2, "set", {"field": "pos", "id": "c1", "value": [1.5, 300]}, {"b" * 16: 3},
          1.25, 1]


def _check(wire: list) -> None:
    raw = encode(wire)
    check_canonical(raw, msgpack.unpackb(raw, raw=False))


def test_canonical_op_passes_and_slices_are_exact():
    _check([*FIELDS, SIG])
    op_bytes = encode([*FIELDS, SIG])
    payload = encode({"t": "ops", "ops": [[*FIELDS, SIG], [*FIELDS, SIG]]})
    assert op_slices(payload) == [op_bytes, op_bytes]
    assert op_slices(encode({"op": [*FIELDS, SIG], "t": "op"})) == [op_bytes]
    live = Unsorted({"t": "op", "op": [*FIELDS, SIG]})  # the order peers pack a live op in
    assert encode(live).startswith(b"\x82\xa1t\xa2op\xa2op")
    assert op_slices(encode(live)) == [op_bytes]
    assert op_slices(msgpack.packb({"t": "op", "op": [*FIELDS, SIG]})) == [op_bytes]


@pytest.mark.parametrize(("wire", "field", "detail"), [
    ([*FIELDS[:6], Float32(1.25), FIELDS[7], SIG], "time", "float32, canonical is float64"),
    ([*FIELDS[:6], 1, FIELDS[7], SIG], "time", "positive fixint, canonical is float64"),
    ([A, WideInt(2, 0xcd), *FIELDS[2:], SIG], "seq", "uint16, canonical is positive fixint"),
    ([*FIELDS[:4], {"field": "pos", "id": "c1", "value": [1.5, WideInt(300, 0xd2)]},
      *FIELDS[5:], SIG], "args.value[1]", "int32, canonical is uint16"),
    ([*FIELDS[:4], {"field": "pos", "id": "c1", "value": [Float32(1.5), 300]},
      *FIELDS[5:], SIG], "args.value[0]", "float32"),
    ([*FIELDS[:4], Unsorted({"id": "c1", "field": "pos", "value": [1.5, 300]}), *FIELDS[5:],
      SIG], "args", "not sorted"),
    ([*FIELDS[:7], WideInt(1, 0xd0), SIG], "seat", "int8, canonical is positive fixint"),
])
def test_non_canonical_encodings_are_refused_naming_the_field(wire, field, detail):
    with pytest.raises(NotCanonical) as err:
        _check(wire)
    assert err.value.field == field
    assert detail in err.value.reason


def test_a_str_sent_as_bin_is_not_canonical_for_the_same_value():
    raw = encode([*FIELDS[:3], b"set", *FIELDS[4:], SIG])
    decoded = msgpack.unpackb(raw, raw=False)
    check_canonical(raw, decoded)  # bytes stay bytes: a different value, refused by the schema
    assert decoded[3] == b"set"


class _Replica:
    def __init__(self, vv, pending=None):
        self.vv = vv
        self.store = type("S", (), {"pending": pending or {}})()

    def version_vector(self):
        return dict(self.vv)


def test_catch_up_names_the_op_a_join_waits_for_and_ghost_claims():
    B = "b" * 16
    waiting = Op(A, 4, 9, "note", {"text": "x"}, {B: 2}, 0.0, None, SIG)
    replica = _Replica({A: 3, B: 1}, {A: {4: waiting}})
    catch_up = CatchUp(replica)
    catch_up.link_opened("p1")
    text = catch_up.describe(["p1"], {"p1": {A: 5, B: 1}})
    assert f"op {A}#4 (peer p1 has up to #5)" in text
    assert f"waiting for {B}#2" in text
    assert catch_up.served("p1", {A: 5, B: 1, "g" * 16: 2}) == [(A, 4), ("g" * 16, 1)]
    assert catch_up.caught_up_with("p1")
    assert "ended its catch-up without sending it" in catch_up.describe(["p1"], {"p1": {A: 5}})
    replica.vv = {A: 5, B: 1}
    assert catch_up.describe(["p1"], {"p1": {A: 5, B: 1}}) == ""
    catch_up.link_closed("p1")
    assert not catch_up.caught_up_with("p1")
