"""A full round of Dead to Rites, 4 seats in hot-seat, played with the mouse and keyboard.

Each seat in turn: switch to it (Ctrl+N), Dawn: gain a Favor (+ on the tracker) and draw (D);
Main: drag a card from the hand into the play area; Combat: engage it (R); Rite: drag the top
Rite onto the Altar, then to the Completed pile, and step the track (+); Dusk: ready it (R);
then End turn. The assertions read the core state only.
"""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from tests.ui.helpers import cards_in, click, drag, show_active


@pytest.fixture
def dtr(qtbot):  # type: ignore[no-untyped-def]
    from table.core.rng import Rng
    from table.ui.games import available_games, start_game
    from table.ui.main_window import TableWindow

    choices = {g.id: g for g in available_games()}
    if "dead-to-rites" not in choices:
        pytest.skip("the Dead to Rites module is not available")
    replica, catalog = start_game(choices["dead-to-rites"], 4, rng=Rng(11))
    w = TableWindow(replica, catalog)
    show_active(qtbot, w, (1600, 1000))
    w.view.fit_table()
    w.view.setFocus()
    yield w
    w.shutdown()


def test_full_round_four_seats_hot_seat(dtr, qtbot):  # type: ignore[no-untyped-def]
    w = dtr
    r, state = w.replica, w.replica.state
    start_favor = {s: state.objs[f"p{s}.favor"].counters["value"] for s in range(1, 5)}
    assert state.turn["seat"] == 1
    for seat in range(1, 5):
        qtbot.keyClick(w, getattr(Qt.Key, f"Key_{seat}"), Qt.KeyboardModifier.ControlModifier)
        assert w.ctl.seat == seat
        w.view.setFocus()
        if state.phase is None:  # the first turn starts with no phase set
            w.turn.phase.setCurrentIndex(0)
            w.turn.phase.activated.emit(0)
        assert state.phase == "Dawn" and state.turn["seat"] == seat
        # Dawn: gain Favor, draw
        click(w.view, w.scene.trackers[f"p{seat}.favor"].plus_rect().center())
        hand_before = len(cards_in(r, f"p{seat}.hand"))
        qtbot.keyClick(w.view, Qt.Key.Key_D)
        assert len(cards_in(r, f"p{seat}.hand")) == hand_before + 1
        # Main: play a card from the hand
        qtbot.keyClick(w.view, Qt.Key.Key_N)
        assert state.phase == "Main"
        card = w.scene.cards[cards_in(r, f"p{seat}.hand")[-1]]
        drag(w.view, card.scenePos(), w.scene.layout.rects[f"p{seat}.play"].center())
        (played,) = cards_in(r, f"p{seat}.play")
        assert state.objs[played].face_up and state.objs[played].card is not None
        # Combat: engage it
        qtbot.keyClick(w.view, Qt.Key.Key_N)
        assert state.phase == "Combat"
        w.scene.clearSelection()
        click(w.view, w.scene.cards[played].scenePos())
        qtbot.keyClick(w.view, Qt.Key.Key_R)
        assert state.objs[played].rotation == 90
        # Rite: the top Rite to the Altar, then it resolves to Completed; the step goes up
        qtbot.keyClick(w.view, Qt.Key.Key_N)
        assert state.phase == "Rite"
        rites = cards_in(r, f"p{seat}.rites")
        rite = w.scene.cards[rites[-1]]
        drag(w.view, rite.scenePos(), w.scene.zones["altar"].card_anchor())
        assert cards_in(r, "altar") == [rites[-1]]
        drag(w.view, w.scene.cards[rites[-1]].scenePos(),
             w.scene.zones[f"p{seat}.completed"].card_anchor())
        assert cards_in(r, f"p{seat}.completed") == [rites[-1]]
        click(w.view, w.scene.trackers[f"p{seat}.step"].plus_rect().center())
        # Dusk: ready the Champion, end the turn
        qtbot.keyClick(w.view, Qt.Key.Key_N)
        assert state.phase == "Dusk"
        w.scene.clearSelection()
        click(w.view, w.scene.cards[played].scenePos())
        qtbot.keyClick(w.view, Qt.Key.Key_R)
        assert state.objs[played].rotation == 0
        w.turn.end_turn.click()
        assert state.turn["seat"] == (seat % 4) + 1
    # the round is over: back to seat 1, turn 5, everybody one step up the Ritual track
    assert state.turn == {"seat": 1, "number": 5}
    for seat in range(1, 5):
        assert state.objs[f"p{seat}.step"].counters["value"] == 1
        assert state.objs[f"p{seat}.favor"].counters["value"] == start_favor[seat] + 1
        assert len(cards_in(r, f"p{seat}.completed")) == 1
        assert len(cards_in(r, f"p{seat}.rites")) == 4
        assert len(cards_in(r, f"p{seat}.play")) == 1
        assert len(cards_in(r, f"p{seat}.hand")) == 6
    # everything was logged, as the seat that did it
    turns = [rec.op.args["seat"] for rec in r.records()
             if rec.op.kind == "mark" and rec.op.args["what"] == "turn"]
    assert turns[-4:] == [2, 3, 4, 1]
    assert not [rec for rec in r.records()[-80:] if rec.void]
    w.refresh_panels()
    log = "\n".join(w.log_panel.list.item(i).text() for i in range(w.log_panel.list.count()))
    assert "— Player 2's turn begins —" in log
