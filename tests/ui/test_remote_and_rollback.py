"""The scene follows remote ops, and rollbacks when a late op sorts before ours."""
from __future__ import annotations

from table.core import actions
from table.core.replica import Replica
from table.ui.controller import TableController
from table.ui.sample import sample_catalog, sample_table
from table.ui.scene import TableScene


def _pair() -> tuple[Replica, Replica]:
    base = sample_table(2)
    wires = [op.to_wire() for op in base.store.missing_for({})]
    ours, theirs = Replica(peer_id="zz-ours"), Replica(peer_id="aa-theirs")  # theirs sorts first
    ours.receive_many(wires)
    theirs.receive_many(wires)
    return ours, theirs


def test_remote_move_updates_only_that_card(qtbot):  # type: ignore[no-untyped-def]
    ours, theirs = _pair()
    scene = TableScene(TableController(ours, sample_catalog(), seat=1))
    op = actions.move(theirs, "m-coin", "p2.play", pos=[100.0, 120.0])
    ours.receive(op.to_wire())
    item = scene.cards["m-coin"]
    rect = scene.layout.rects["p2.play"]
    assert (item.pos().x() - rect.left(), item.pos().y() - rect.top()) == (100.0, 120.0)
    assert scene.zones["market"].count == 0


def test_rollback_refreshes_an_op_that_turned_void(qtbot):  # type: ignore[no-untyped-def]
    ours, theirs = _pair()
    scene = TableScene(TableController(ours, sample_catalog(), seat=1))
    mine = actions.move(ours, "m-coin", "p1.play", pos=[80.0, 110.0])
    assert scene.where["m-coin"] == "p1.play"
    late = theirs.issue("delete", {"id": "p1.play"})  # concurrent, and earlier in canonical order
    assert late.key < mine.key
    ours.receive(late.to_wire())
    rec = ours.timeline.record_of(mine.ref)
    assert rec is not None and rec.void  # our move lost: its target zone was gone first
    assert ours.state.objs["m-coin"].container == "market"
    assert scene.where["m-coin"] == "market"  # the scene put the card back
    pile = scene.layout.rects["market"]
    assert pile.contains(scene.cards["m-coin"].pos())
    assert "p1.play" not in scene.zones  # and the deleted zone left the table


def test_rollback_counter_shows_canonical_value(qtbot):  # type: ignore[no-untyped-def]
    ours, theirs = _pair()
    scene = TableScene(TableController(ours, sample_catalog(), seat=1))
    actions.counter(ours, "p1.favor", add=1)
    assert scene.trackers["p1.favor"].value == 1
    ours.receive(actions.counter(theirs, "p1.favor", value=5).to_wire())
    assert ours.state.objs["p1.favor"].counters["value"] == 6  # set 5, then our +1
    assert scene.trackers["p1.favor"].value == 6
