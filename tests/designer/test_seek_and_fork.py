"""Seeking a generated session both ways lands on the state of a fresh fold of k ops; forks."""
from __future__ import annotations

import random

import pytest

from table.bench.simulated_sessions import play_session
from table.core.replica import Replica
from table.core.seek import Landmarks, Seeker, fork_table, note_indices, turn_indices
from table.core.snapshot import to_snapshot
from table.core.statehash import public_state_hash
from table.core.timeline import Timeline
from table.games import find_module


@pytest.fixture(scope="module")
def session(tmp_path_factory):  # type: ignore[no-untyped-def]
    path = tmp_path_factory.mktemp("seek") / "dtr.sandlog"
    play_session(find_module("dead-to-rites"), 4, 5, path, turns=8, note_rate=0.3)
    return Replica.from_log(path)


def fold(ops, k):  # type: ignore[no-untyped-def]
    t = Timeline()
    t.insert_many(sorted(ops, key=lambda o: o.key)[:k])
    return t.state


def test_seek_equals_a_fresh_fold_of_k_ops(session) -> None:  # type: ignore[no-untyped-def]
    ops = [r.op for r in session.records()]
    seeker = Seeker(ops)
    rnd = random.Random(3)
    targets = [len(ops), 0, len(ops) // 2, 1, len(ops) - 1] + \
        [rnd.randrange(len(ops) + 1) for _ in range(12)]
    for k in targets:
        seeker.seek(k)
        assert seeker.position == k
        assert to_snapshot(seeker.state) == to_snapshot(fold(ops, k)), f"at op {k}"


def test_back_and_forth_lands_on_the_same_states(session) -> None:  # type: ignore[no-untyped-def]
    seeker = Seeker.from_records(session.records())
    seeker.seek(len(seeker))
    end = public_state_hash(seeker.state)
    assert end == session.public_state_hash()
    hashes = {}
    for k in range(len(seeker), -1, -7):
        seeker.seek(k)
        hashes[k] = public_state_hash(seeker.state)
    for k in sorted(hashes):
        seeker.seek(k)
        assert public_state_hash(seeker.state) == hashes[k]
    for k in range(0, len(seeker), 13):  # single steps both ways
        seeker.seek(k)
        seeker.step(1)
        seeker.step(-1)
        assert public_state_hash(seeker.state) == hashes.get(k, public_state_hash(seeker.state))


def test_seeking_costs_only_the_ops_crossed(session) -> None:  # type: ignore[no-untyped-def]
    seeker = Seeker.from_records(session.records())
    seeker.seek(len(seeker))
    applied = seeker.applied_count
    seeker.seek(len(seeker) - 5)
    seeker.seek(len(seeker))
    assert seeker.applied_count - applied == 5  # back by journals, forward 5 ops only


def test_seek_change_lists_what_moved(session) -> None:  # type: ignore[no-untyped-def]
    seeker = Seeker.from_records(session.records())
    seeker.seek(len(seeker))
    back = seeker.seek(len(seeker) - 10)
    assert back.first == len(seeker) - 10 and len(back.reverted) == 10 and back.touched
    fwd = seeker.seek(len(seeker))
    assert len(fwd.records) == 10


def test_landmarks(session) -> None:  # type: ignore[no-untyped-def]
    records = session.records()
    turns = Landmarks(turn_indices(records))
    notes = Landmarks(note_indices(records))
    assert len(turns) == 8 and len(notes) > 0
    first = turns.indices[0]
    assert turns.next_after(0) == first + 1
    assert turns.next_after(first + 1) == turns.indices[1] + 1
    assert turns.previous_before(turns.indices[1] + 1) == first + 1
    assert turns.previous_before(first + 1) is None
    assert records[notes.next_after(0) - 1].op.kind == "note"


def test_fork_from_here_equals_the_state_at_k(session, tmp_path) -> None:  # type: ignore[no-untyped-def]
    k = len(session.records()) * 2 // 3
    forked = fork_table(session, k, tmp_path / "fork.sandlog")
    seeker = Seeker.from_records(session.records())
    seeker.seek(k)
    assert len(forked.records()) == k
    assert forked.public_state_hash() == public_state_hash(seeker.state)
    assert forked.my_seats == set(seeker.state.seats)  # the hot-seat peer plays on
    hand = next(o for o in forked.state.objs.values() if o.alive and o.id == "p1.hand")
    assert all(forked.knowledge.card_of(c) for c in hand.children)  # secrets came along
    from table.core import actions as act

    act.draw(forked, "p1.deck", "p1.hand", 1, seat=1)  # the game goes on
    again = Replica.from_log(tmp_path / "fork.sandlog")
    assert len(again.records()) == k + 1
    assert again.header_extra["forked_from"]["ops"] == k


def test_fork_of_a_merged_log_takes_every_seat(session, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from table.core.merge import merge_logs

    src = tmp_path / "src.sandlog"
    play_session(find_module("gauntlet"), 2, 9, src, turns=4)
    merged = tmp_path / "merged.sandlog"
    merge_logs([src], merged)
    replica = Replica.from_log(merged)
    assert replica.peer_id == "merged"
    k = len(replica.records()) - 3
    forked = fork_table(replica, k, tmp_path / "fork2.sandlog")
    seeker = Seeker.from_records(replica.records())
    seeker.seek(k)
    assert forked.my_seats == set(seeker.state.seats)
    state = to_snapshot(forked.state)
    want = to_snapshot(seeker.state)
    assert state["objects"] == want["objects"] and state["turn"] == want["turn"]
