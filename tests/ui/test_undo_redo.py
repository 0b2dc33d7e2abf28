"""Undo and redo from the keyboard, with real events sent to the view at the items' positions;
every assertion is on the core state, the seats' views and the status bar."""
from __future__ import annotations

from PySide6.QtCore import Qt

from table.core.views import view_object
from tests.ui.helpers import cards_in, click, drag

CTRL, SHIFT = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier


def _names(w, zone: str, seat: int) -> list[str | None]:  # type: ignore[no-untyped-def]
    """What `seat`'s view shows of the cards in `zone` (None: a back)."""
    state, know = w.replica.state, w.replica.knowledge
    return [view_object(state, know, state.objs[c], seat).card for c in cards_in(w.replica, zone)]


def test_ctrl_z_puts_a_played_card_back_in_the_hand_hidden_again(window, qtbot):  # type: ignore[no-untyped-def]
    w = window
    hand_before = sorted(_names(w, "p1.hand", 1))  # type: ignore[type-var]
    top = max((w.scene.cards[c] for c in cards_in(w.replica, "p1.hand")),
              key=lambda item: item.zValue())
    drag(w.view, top.scenePos(), w.scene.layout.rects["p1.play"].center())
    (played,) = cards_in(w.replica, "p1.play")
    name = w.replica.state.objs[played].card
    assert name is not None and _names(w, "p1.play", 2) == [name]  # everyone saw it

    qtbot.keyClick(w.view, Qt.Key.Key_Z, CTRL)

    assert cards_in(w.replica, "p1.play") == []  # no face-down card left behind
    assert sorted(_names(w, "p1.hand", 1)) == hand_before  # back in the hand
    assert _names(w, "p1.hand", 2) == [None] * len(hand_before)  # and hidden from seat 2
    hand = cards_in(w.replica, "p1.hand")
    assert played not in hand and not w.replica.state.objs[played].alive  # a fresh handle
    assert all(w.replica.state.objs[c].card is None for c in hand)  # nobody's software names it
    assert played not in w.scene.cards or not w.scene.cards[played].isVisible()
    assert w.statusBar().currentMessage() == \
        f"Undone: playing {w.ctl.catalog.name_of(name)} from your Hand"
    move, undo = (r.op for r in w.replica.records()[-2:])
    assert undo.kind == "undo" and undo.args["target"] == list(move.ref)
    assert move.args["card"] == name  # the log keeps that it was seen

    qtbot.keyClick(w.view, Qt.Key.Key_Z, CTRL | SHIFT)  # and again: the same card, as it was

    assert cards_in(w.replica, "p1.play") == [played] and _names(w, "p1.play", 2) == [name]
    assert w.scene.cards[played].isVisible()
    assert len(cards_in(w.replica, "p1.hand")) == len(hand_before) - 1
    assert w.statusBar().currentMessage().startswith("Redone: playing ")


def test_plus_six_times_undo_six_times_then_redo_three_times(window, qtbot):  # type: ignore[no-untyped-def]
    w = window
    favor = w.replica.state.objs["p1.favor"]
    tracker = w.scene.trackers["p1.favor"]
    start = favor.counters["value"]
    for _ in range(6):
        click(w.view, tracker.plus_rect().center())
    assert favor.counters["value"] == start + 6
    for n in range(1, 7):
        qtbot.keyClick(w.view, Qt.Key.Key_Z, CTRL)
        assert favor.counters["value"] == start + 6 - n  # one step back each time
    assert tracker.value == start
    for _ in range(3):
        qtbot.keyClick(w.view, Qt.Key.Key_Z, CTRL | SHIFT)
    assert favor.counters["value"] == start + 3 and tracker.value == start + 3
    qtbot.keyClick(w.view, Qt.Key.Key_Y, CTRL)  # Ctrl+Y redoes too
    assert favor.counters["value"] == start + 4
    assert w.statusBar().currentMessage() == "Redone: the change to Favor (+1)"
    assert all(r.void is None for r in w.replica.records())  # no undo or redo was void


def test_a_draw_goes_back_and_a_roll_is_said_to_stay_before_anything_changes(window, qtbot):  # type: ignore[no-untyped-def]
    w = window
    deck = [w.replica.knowledge.card_of(c) for c in cards_in(w.replica, "p1.deck")]
    hand = sorted(_names(w, "p1.hand", 1))  # type: ignore[type-var]
    qtbot.keyClick(w.view, Qt.Key.Key_D)  # draw a card
    assert len(cards_in(w.replica, "p1.hand")) == len(hand) + 1
    click(w.view, w.scene.dice["d6"].scenePos())  # roll the die
    roll = w.replica.records()[-1].op
    assert roll.kind == "roll"
    count, digest = len(w.replica.records()), w.replica.public_state_hash()

    qtbot.keyClick(w.view, Qt.Key.Key_Z, CTRL)  # the roll cannot be taken back: said first

    assert len(w.replica.records()) == count and w.replica.public_state_hash() == digest
    message = w.statusBar().currentMessage()
    assert message == (f"The roll ({roll.args['values'][0]}) stays: dice once rolled are not "
                       f"rolled back. Ctrl+Z again undoes the draw of a card from your Deck.")
    assert "handle" not in message and "#" not in message

    qtbot.keyClick(w.view, Qt.Key.Key_Z, CTRL)  # past it: the draw goes back on top

    assert [w.replica.knowledge.card_of(c) for c in cards_in(w.replica, "p1.deck")] == deck
    assert sorted(_names(w, "p1.hand", 1)) == hand  # type: ignore[type-var]
    assert _names(w, "p1.deck", 2) == [None] * len(deck)
    assert w.statusBar().currentMessage() == "Undone: the draw of a card from your Deck"
    assert w.replica.state.objs["d6"].counters["value"] == roll.args["values"][0]  # it stays

    qtbot.keyClick(w.view, Qt.Key.Key_Y, CTRL)  # and the draw comes again

    assert len(cards_in(w.replica, "p1.hand")) == len(hand) + 1
    assert [w.replica.knowledge.card_of(c) for c in cards_in(w.replica, "p1.deck")] == deck[:-1]
    assert all(r.void is None for r in w.replica.records())


def test_gauntlet_a_card_played_by_double_click_goes_back_on_ctrl_z(qtbot) -> None:  # type: ignore[no-untyped-def]
    from tests.ui.test_games import _open

    w = _open(qtbot, "gauntlet", 2)
    try:
        hand_zone = w.scene.own_hand()
        hand = cards_in(w.replica, hand_zone)
        names = sorted(_names(w, hand_zone, 1))  # type: ignore[type-var]
        top = max((w.scene.cards[c] for c in hand), key=lambda item: item.zValue())
        click(w.view, top.scenePos(), double=True)
        assert len(cards_in(w.replica, hand_zone)) == len(hand) - 1
        played = top.obj_id
        where = w.replica.state.objs[played].container
        assert where is not None and where != hand_zone
        there = len(cards_in(w.replica, where))
        qtbot.keyClick(w.view, Qt.Key.Key_Z, CTRL)
        assert sorted(_names(w, hand_zone, 1)) == names  # type: ignore[type-var]
        assert _names(w, hand_zone, 2) == [None] * len(names)
        assert len(cards_in(w.replica, where)) == there - 1  # no face-down ghost stays there
    finally:
        w.shutdown()


def test_end_turn_is_in_the_right_names_and_undoes_and_redoes_as_one(window, qtbot):  # type: ignore[no-untyped-def]
    w = window
    before = (dict(w.replica.state.turn), w.replica.state.phase)
    assert before[0]["seat"] == 1
    qtbot.keyClick(w.view, Qt.Key.Key_Return, CTRL)  # End turn
    turn, phase = (r.op for r in w.replica.records()[-2:])
    assert (turn.args["what"], turn.args["seat"], turn.seat) == ("turn", 2, 1)  # the ender's
    assert (phase.args["what"], phase.seat) == ("phase", 2)  # the new seat's own first phase
    assert w.replica.state.phase == phase.args["value"] == turn.args["fields"]["first_phase"]
    qtbot.keyClick(w.view, Qt.Key.Key_Z, CTRL)
    assert (w.replica.state.turn, w.replica.state.phase) == before  # back as one
    assert w.ctl.seat == 1
    qtbot.keyClick(w.view, Qt.Key.Key_Z, CTRL | SHIFT)
    assert w.replica.state.turn["seat"] == 2 and w.replica.state.phase == phase.args["value"]
    assert w.ctl.seat == 2
    assert all(r.void is None for r in w.replica.records())


def test_ready_draw_favor_play_then_four_undos_and_four_redos(window, qtbot):  # type: ignore[no-untyped-def]
    """Ready a card, draw, Favor +1, play; Ctrl+Z four times takes all four back, the draw
    included, and Ctrl+Shift+Z four times brings all four again."""
    w = window
    r = w.replica

    def top_of_hand():  # type: ignore[no-untyped-def]
        return max((w.scene.cards[c] for c in cards_in(r, "p1.hand")), key=lambda i: i.zValue())

    def table() -> tuple[object, ...]:
        names = [r.knowledge.card_of(c) or r.state.objs[c].card for c in cards_in(r, "p1.hand")]
        return (sorted(names), [r.knowledge.card_of(c) for c in cards_in(r, "p1.deck")],
                [(r.state.objs[c].card, r.state.objs[c].rotation) for c in cards_in(r, "p1.play")],
                r.state.objs["p1.favor"].counters["value"])

    drag(w.view, top_of_hand().scenePos(), w.scene.layout.rects["p1.play"].center())
    (card,) = cards_in(r, "p1.play")
    click(w.view, w.scene.cards[card].scenePos())
    qtbot.keyClick(w.view, Qt.Key.Key_R)  # engaged
    assert r.state.objs[card].rotation == 90
    start = table()
    click(w.view, w.scene.cards[card].scenePos())
    qtbot.keyClick(w.view, Qt.Key.Key_R)  # ready
    qtbot.keyClick(w.view, Qt.Key.Key_D)  # draw
    click(w.view, w.scene.trackers["p1.favor"].plus_rect().center())  # Favor +1
    drag(w.view, top_of_hand().scenePos(), w.scene.layout.rects["p1.play"].center())  # play
    end = table()
    assert r.state.objs[card].rotation == 0 and len(end[2]) == 2  # type: ignore[arg-type]
    said = []
    for _ in range(4):
        qtbot.keyClick(w.view, Qt.Key.Key_Z, CTRL)
        said.append(w.statusBar().currentMessage())
    assert table() == start
    assert [s.split(":")[0] for s in said] == ["Undone"] * 4, said
    assert said[2] == "Undone: the draw of a card from your Deck"
    for _ in range(4):
        qtbot.keyClick(w.view, Qt.Key.Key_Z, CTRL | SHIFT)
    assert table() == end
    assert all(rec.void is None for rec in r.records())
