"""The fold's fast paths give the answers of its general paths.

Ops arriving in order append without the general insertion (`Timeline.append`, and
`Replica.receive` folding one op inline); a batch already in order skips dedupe, sort and
merge (`insert_many`); causal delivery takes the next op in line inline (`CausalStore.offer`);
a move to the top or bottom writes its three journal entries in one primitive
(`State.move_child`). Each test folds the same ops both ways and compares every record (its
op, void, fault and journal) and the state.
"""
from __future__ import annotations

import copy
import random
from sys import intern
from typing import Any

import pytest

from table.core.causal import CausalStore
from table.core.errors import CausalityError
from table.core.ops import Op, from_wire
from table.core.replica import Replica
from table.core.state import State
from table.core.timeline import Timeline

AUTHORS = ("ann", "bob", "cy")


def _args(rnd: random.Random) -> tuple[str, dict[str, Any]]:
    card, zone = f"c{rnd.randrange(12)}", f"z{rnd.randrange(4)}"
    pick = rnd.random()
    if pick < 0.45:
        args: dict[str, Any] = {"id": card, "to": rnd.choice([zone, zone, "c1", "nowhere"])}
        at = rnd.choice([None, "top", "bottom", 0, -1, 2, {"after": "c3"}, {"before": "c9"}])
        if at is not None:
            args["at"] = at
        if rnd.random() < 0.2:
            args["pos"] = [rnd.randrange(5), rnd.randrange(5)]
        if rnd.random() < 0.1:
            args["rot"] = rnd.choice([90, 450])
        return "move", args
    if pick < 0.6:
        return "counter", {"id": "k", "add": rnd.randint(-2, 3)}
    if pick < 0.7:
        return "counter", {"id": "k", "value": rnd.randint(0, 9), "key": rnd.choice(["a", "b"])}
    if pick < 0.85:
        field, value = rnd.choice([("rotation", 90), ("face_up", False), ("pos", [1, 2]),
                                   ("props.name", "x"), ("owner", 2), ("bogus", 1),
                                   ("rotation", True)])
        return "set", {"id": rnd.choice([card, "gone"]), "field": field, "value": value}
    if pick < 0.9:
        return "delete", {"id": rnd.choice([card, zone])}
    return "create", {"id": f"n{rnd.randrange(30)}", "kind": "card", "to": zone}


def _table_ops(count: int, seed: int) -> list[Op]:
    """Setup plus `count` ops from three authors who sync now and then (concurrent ops), some
    void at their place (gone objects, bad fields, a card into a card)."""
    rnd = random.Random(seed)
    setup = Replica("t", "setup")
    for z in range(4):
        setup.issue("create", {"id": f"z{z}", "kind": "zone"})
    for c in range(12):
        setup.issue("create", {"id": f"c{c}", "kind": "card", "to": f"z{c % 4}"})
    setup.issue("create", {"id": "k", "kind": "counter"})
    peers = [Replica("t", a) for a in AUTHORS]
    for peer in peers:
        peer.receive_many(setup.ops_missing_for({}))
    for _ in range(count):
        peer = rnd.choice(peers)
        kind, args = _args(rnd)
        peer.issue(kind, args)
        if rnd.random() < 0.2:
            other = rnd.choice(peers)
            other.receive_many(peer.ops_missing_for(other.version_vector()))
    for a in peers:
        for b in peers:
            b.receive_many(a.ops_missing_for(b.version_vector()))
    return peers[0].store.all_ops()


def _ids(value: Any) -> Any:
    return getattr(value, "id", value)


def _fingerprint(timeline: Timeline) -> list[Any]:
    return [(r.op.ref, r.void, r.fault, [tuple(_ids(x) for x in e) for e in r.journal])
            for r in timeline.records]


def _state(state: State) -> list[Any]:
    return sorted((o.id, o.container, list(o.children), o.pos, o.face_up, o.rotation,
                   sorted(o.counters.items()), sorted(o.props.items()), o.alive)
                  for o in state.objs.values())


def test_ops_folded_one_by_one_in_order_equal_the_general_insertion():
    ops = _table_ops(400, seed=1)
    fast = Replica("t", "fast")
    for op in ops:
        fast.receive(op.to_wire())  # in canonical order: each op appends inline
    general = Timeline()
    rnd = random.Random(2)
    shuffled = list(ops)
    rnd.shuffle(shuffled)
    general.insert_many(shuffled)  # out of order: dedupe, sort, merge
    assert _fingerprint(fast.timeline) == _fingerprint(general)
    assert _state(fast.state) == _state(general.state)
    assert any(r.void for r in general.records) and any(not r.void for r in general.records)


def test_a_batch_in_order_equals_the_same_batch_inserted_the_general_way():
    ops = _table_ops(300, seed=3)
    head, tail = ops[:200], ops[200:]
    fast, general = Timeline(), Timeline()
    fast.insert_many(head)
    general.insert_many(head)
    fast.insert_many(tail)  # in order, after the end: applied one after the other
    general.insert_many([tail[1], tail[0], *tail[2:]])  # one swap: the general insertion
    assert _fingerprint(fast) == _fingerprint(general)
    assert _state(fast.state) == _state(general.state)


def test_a_batch_holding_an_op_already_folded_takes_the_general_path():
    ops = _table_ops(60, seed=4)
    timeline = Timeline()
    timeline.insert_many(ops[:40])
    again = timeline.insert_many([ops[39], *ops[40:]])  # the first is held already
    assert [r.op for r in again.records] == ops[40:]
    assert [r.op for r in timeline.records] == ops


def test_late_ops_and_in_order_ops_fold_to_equal_records():
    ops = _table_ops(400, seed=5)
    late = list(ops)
    rnd = random.Random(6)
    for i in range(len(late) - 1, 0, -1):
        if rnd.random() < 0.1:
            late.insert(min(len(late) - 1, i + rnd.randint(1, 8)), late.pop(i))
    ordered, rolled = Replica("t", "x"), Replica("t", "y")
    for op in ops:
        ordered.receive(op.to_wire())
    for op in late:
        rolled.receive(op.to_wire())
    assert _fingerprint(ordered.timeline) == _fingerprint(rolled.timeline)
    assert ordered.public_state_hash() == rolled.public_state_hash()


def test_receive_one_by_one_equals_receive_many():
    ops = _table_ops(300, seed=7)
    one, many = Replica("t", "x"), Replica("t", "y")
    for op in ops:
        one.receive(op.to_wire())
    many.receive_many([op.to_wire() for op in ops])
    assert _fingerprint(one.timeline) == _fingerprint(many.timeline)


def test_causal_delivery_in_line_equals_delivery_from_waiting():
    ops = _table_ops(300, seed=8)
    in_line, waited = CausalStore(), CausalStore()
    delivered = [d for op in ops for d in in_line.offer(op)]
    backwards = []
    for op in reversed(ops):  # every op waits for the ones before it, then all drain at once
        backwards.extend(waited.offer(op))
    assert delivered == ops
    assert sorted(backwards, key=lambda o: o.key) == ops
    assert in_line.version_vector() == waited.version_vector()
    assert in_line.max_lamport == waited.max_lamport


def test_a_wrong_stamp_is_refused_in_line_as_from_waiting():
    ops = _table_ops(20, seed=9)
    bad = ops[-1]._replace(lamport=ops[-1].lamport + 5)
    in_line = CausalStore()
    for op in ops[:-1]:
        in_line.offer(op)
    with pytest.raises(CausalityError, match="stamp"):
        in_line.offer(bad)  # next in line: checked inline
    waited = CausalStore()
    waited.offer(bad)  # waits for the ops before it, then is checked as it drains
    refusals = []
    for op in ops[:-1]:
        try:
            waited.offer(op)
        except CausalityError as err:  # delivered up to the bad op, which is refused
            refusals.append(str(err))
    assert len(refusals) == 1 and "stamp" in refusals[0]
    assert in_line.version_vector() == waited.version_vector()


def test_move_child_writes_what_its_three_primitives_write():
    rnd = random.Random(10)
    ops = _table_ops(50, seed=11)
    base = Timeline()
    base.insert_many(ops)
    for _ in range(200):
        one, three = copy.deepcopy(base.state), copy.deepcopy(base.state)
        cards = [o for o in one.objs.values() if o.kind == "card" and o.alive]
        zones = [o for o in one.objs.values() if o.kind == "zone" and o.alive]
        card, zone = rnd.choice(cards), rnd.choice(zones)
        index = rnd.choice([None, 0])
        one.begin()
        one.move_child(card, zone, index)
        obj, parent = three.objs[card.id], three.objs[zone.id]
        journal = three.begin()
        three.remove_child(obj)
        three.set_field(obj, "container", parent.id)
        three.insert_child(parent, obj, len(parent.children) if index is None else index)
        assert [tuple(_ids(x) for x in e) for e in one.journal] == \
            [tuple(_ids(x) for x in e) for e in journal]
        assert _state(one) == _state(three)
        one.revert(one.journal)
        assert _state(one) == _state(base.state)


def test_from_wire_keeps_every_field_and_shares_text():
    ops = _table_ops(30, seed=12)
    for op in ops:
        wire = copy.deepcopy(op.to_wire())
        back = from_wire(wire)
        assert back == op and type(back) is Op
        for value in back.args.values():
            if type(value) is str:
                assert value is intern(value)
