"""The op-kind registry is the one place that says what each kind is; the rest derives from it."""

from table.core import jsonform, opkinds
from table.core.ops import SCHEMAS
from table.core.replica import Replica


def test_every_kind_has_schema_and_handler_and_derived_sets_name_known_kinds():
    assert set(SCHEMAS) == set(opkinds.KINDS)
    for name, kind in opkinds.KINDS.items():
        assert kind.name == name and callable(kind.apply)
    for derived in (opkinds.UNDOABLE, opkinds.ACTIONS, opkinds.REQUESTABLE, opkinds.QUIET):
        assert derived <= set(opkinds.KINDS)


def test_undo_follows_the_registry():
    r = Replica("t", "a")
    r.issue("hello", {"name": "a"})
    r.issue("create", {"id": "c", "kind": "counter"})
    counter = r.issue("counter", {"id": "c", "add": 2})
    roll = r.issue("roll", {"sides": 6, "values": [3]})
    r.issue("undo", {"target": list(roll.ref)})
    assert "not undone" in (r.records()[-1].void or "")
    r.issue("undo", {"target": list(counter.ref)})
    assert r.records()[-1].void is None and r.state.objs["c"].counters.get("value") == 0


def test_requests_name_json_forms_a_peer_can_perform():
    assert opkinds.REQUESTABLE <= jsonform.REQUESTABLE
    assert {"draw", "shuffle"} <= jsonform.REQUESTABLE
