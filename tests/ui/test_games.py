"""Each built-in game module on the table window: laid out clearly, and playable by mouse/keys."""
from __future__ import annotations

import itertools

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from table.core.objects import ROOT
from tests.ui.helpers import cards_in, drag

GAMES = [("gauntlet", 2), ("dead-to-rites", 4), ("mantle-of-the-keeper", 3),
         ("mantle-of-the-keeper", 6)]


def _open(qtbot, game: str, seats: int):  # type: ignore[no-untyped-def]
    from table.core.rng import Rng
    from table.ui.games import available_games, start_game
    from table.ui.main_window import TableWindow

    choices = {g.id: g for g in available_games()}
    if game not in choices:
        pytest.skip(f"game module {game} is not available")
    replica, catalog = start_game(choices[game], seats, rng=Rng(5))
    w = TableWindow(replica, catalog)
    qtbot.addWidget(w)
    w.ctl.set_seat(1)  # hot-seat opens on the first player's seat; these tests act as seat 1
    w.resize(1600, 1000)
    w.show()
    qtbot.waitExposed(w)
    w.activateWindow()  # keyboard shortcuts need the active window
    qtbot.waitUntil(lambda: QApplication.activeWindow() is w)
    w.view.fit_table()
    w.view.setFocus()
    return w


def _zone(w, seat: int, role: str, words: tuple[str, ...] = ()) -> str:  # type: ignore[no-untyped-def]
    for zid, item in w.scene.zones.items():
        obj = w.replica.state.objs[zid]
        name = (str(obj.props.get("name", "")) + zid).lower()
        if obj.owner == seat and item.role == role and all(x in name for x in words):
            return zid
    raise AssertionError(f"seat {seat} has no {role} {words}")


@pytest.mark.parametrize(("game", "seats"), GAMES)
def test_layout_is_clear(qtbot, game: str, seats: int) -> None:  # type: ignore[no-untyped-def]
    w = _open(qtbot, game, seats)
    try:
        state = w.replica.state
        # every container on the table's top level has its own spot, and none overlap
        top = [c for c in state.objs[ROOT].children
               if state.objs[c].kind in ("zone", "pile", "board", "counter", "die")]
        rects = {c: w.scene.layout.rects[c] for c in top}
        for (a, ra), (b, rb) in itertools.combinations(rects.items(), 2):
            assert not ra.adjusted(1, 1, -1, -1).intersects(rb), f"{a} overlaps {b}"
        # every card, token, tracker and die is on screen inside the table's bounds
        bounds = w.scene.layout.bounds
        for oid, obj in state.objs.items():
            item = w.scene.item_for(oid)
            if obj.alive and obj.kind in ("token", "counter", "die") and item is not None:
                assert bounds.contains(item.sceneBoundingRect().center()), oid
        # the viewing seat sees its hand; others' hands are backs
        hand = w.scene.own_hand()
        assert all(w.scene.cards[c].face is not None for c in cards_in(w.replica, hand))
        other = _zone(w, 2, "hand")
        assert all(w.scene.cards[c].face is None for c in cards_in(w.replica, other))
    finally:
        w.shutdown()


@pytest.mark.parametrize(("game", "seats"), GAMES[:3])
def test_play_a_card_flip_rotate_undo_switch(qtbot, game: str, seats: int) -> None:  # type: ignore[no-untyped-def]
    w = _open(qtbot, game, seats)
    try:
        hand = w.scene.own_hand()
        before = len(cards_in(w.replica, hand))
        qtbot.keyClick(w.view, Qt.Key.Key_D)
        assert len(cards_in(w.replica, hand)) == before + 1
        play = next(z for z, i in w.scene.zones.items() if i.role == "zone"
                    and w.replica.state.objs[z].owner == 1
                    and w.replica.state.objs[z].visibility == "public")
        card = w.scene.cards[cards_in(w.replica, hand)[-1]]
        drag(w.view, card.scenePos(), w.scene.layout.rects[play].center())
        (cid,) = [c for c in cards_in(w.replica, play) if w.replica.state.objs[c].pos]
        obj = w.replica.state.objs[cid]
        assert obj.card is not None
        w.scene.cards[cid].setSelected(True)
        qtbot.keyClick(w.view, Qt.Key.Key_R)
        assert obj.rotation == 90
        qtbot.keyClick(w.view, Qt.Key.Key_F)
        assert obj.face_up is False
        qtbot.keyClick(w, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
        assert obj.face_up is True
        qtbot.keyClick(w, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
        assert w.ctl.seat == 2
        assert all(w.scene.cards[c].face is None for c in cards_in(w.replica, hand))
    finally:
        w.shutdown()
