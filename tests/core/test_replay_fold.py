"""A log opened to be replayed is folded once: the replay's cursor is the fold that reading the
log did, and the replica it came from keeps reading what it did (records, the state at the end)."""
from __future__ import annotations

import pytest

from table.core.errors import CoreError
from table.core.replica import Replica
from table.core.seek import ReplayReplica, Seeker
from table.core.snapshot import to_snapshot


def _table() -> Replica:
    r = Replica("t", "a")
    r.issue("hello", {"name": "a"})
    r.issue("create", {"id": "z", "kind": "zone"})
    r.issue("create", {"id": "c", "kind": "counter"})
    for _ in range(5):
        r.issue("counter", {"id": "c", "add": 2})
    r.issue("delete", {"id": "c"})
    r.issue("create", {"id": "k", "kind": "card", "to": "z"})
    return r


def test_taking_the_fold_applies_no_op_a_second_time():
    source = _table()
    fold_state = source.state
    replay = ReplayReplica(source, take_fold=True)
    assert replay.seeker.applied_count == 0
    assert replay.state is fold_state and replay.seeker.position == len(source.records())


def test_every_seek_through_a_taken_fold_equals_folding_that_many_ops_afresh():
    source = _table()
    ops = [r.op for r in source.records()]
    replay = ReplayReplica(source, take_fold=True)
    for k in (4, 0, len(ops), 7, 1, len(ops) - 1):
        replay.seek(k)
        fresh = Seeker(ops)
        fresh.seek(k)
        assert to_snapshot(replay.state) == to_snapshot(fresh.state), f"differs at op {k}"


def test_the_source_keeps_its_records_and_its_end_state_while_the_replay_seeks():
    source = _table()
    end_hash, count = source.public_state_hash(), len(source.records())
    replay = ReplayReplica(source, take_fold=True)
    replay.seek(2)
    assert source.public_state_hash() == end_hash and len(source.records()) == count
    assert source.state.objs["c"].alive is False and "k" in source.state.objs
    assert source.timeline.record_of(("a", 3)) is source.records()[2]
    again = ReplayReplica(source, at=5, take_fold=True)  # a second window folds afresh
    assert again.seeker.applied_count == 5 and replay.seeker.position == 2


def test_a_source_that_gave_its_fold_away_refuses_more_ops():
    source = _table()
    ReplayReplica(source, take_fold=True)
    with pytest.raises(CoreError):
        source.issue("note", {"text": "too late"})
