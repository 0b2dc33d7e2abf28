"""One's own hand: a steady fan, sorted as a player holds it, although the table stores a
hand in a random order (re-handled on every draw so nobody can follow a card)."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from table.core import actions
from table.core.rng import Rng
from table.core.views import known_card
from table.games import find_module
from table.games.setup import new_table
from table.ui.catalog import Catalog


def test_own_hand_fan_is_sorted_and_steady_across_draws(qtbot) -> None:  # type: ignore[no-untyped-def]
    from table.ui.main_window import TableWindow

    module = find_module("dead-to-rites")
    replica = new_table(module, 4, rng=Rng(5))
    w = TableWindow(replica, Catalog.from_module(module))
    qtbot.addWidget(w)
    w.ctl.set_seat(1)

    def faces_on_screen() -> list[object]:
        hand = replica.state.objs["p1.hand"].children
        left_to_right = sorted(hand, key=lambda h: w.scene.cards[h].pos().x())
        return [w.ctl.catalog.face(known_card(replica.state, replica.knowledge,
                                              replica.state.objs[h], 1)) for h in left_to_right]

    for _ in range(4):
        faces = faces_on_screen()
        assert faces == sorted(faces, key=lambda f: (f.type, f.corner.rjust(4), f.name))
        held = [f.name for f in faces]
        actions.draw(replica, "p1.deck", "p1.hand", 1, seat=1)
        qtbot.wait(5)
        after = [f.name for f in faces_on_screen()]
        assert len(after) == len(held) + 1
        for name in set(held):  # every card already held is still in the fan
            assert after.count(name) >= held.count(name)


def test_hot_seat_view_follows_the_turn(qtbot) -> None:  # type: ignore[no-untyped-def]
    from table.ui.main_window import TableWindow

    module = find_module("dead-to-rites")
    replica = new_table(module, 4, rng=Rng(5))
    w = TableWindow(replica, Catalog.from_module(module))
    qtbot.addWidget(w)
    assert w.ctl.seat == replica.state.turn["seat"]  # opens on whoever's turn it is
    actions.mark(replica, "turn", for_seat=3, seat=w.ctl.seat)
    assert w.ctl.seat == 3  # the screen passes with the turn
    w.ctl.set_seat(2)  # a player may still look from another seat
    actions.counter(replica, "p2.favor", add=1, seat=2)
    assert w.ctl.seat == 2
