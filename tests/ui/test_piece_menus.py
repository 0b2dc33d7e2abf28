"""A menu on every piece, opened the way a player opens it: right-click, the menu key or
Shift+F10 on the view, then walked by keyboard. Assertions are on the core state."""
from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QImage

from table.core.objects import ROOT
from tests.ui.helpers import (
    answer_next_dialog,
    cards_in,
    choose,
    click,
    drag,
    menu_texts,
    open_menu,
    right_click,
)


def _play_one(w):  # type: ignore[no-untyped-def]
    card = w.scene.cards[cards_in(w.replica, "p1.hand")[-1]]
    drag(w.view, card.scenePos(), w.scene.layout.rects["p1.play"].center())
    (cid,) = cards_in(w.replica, "p1.play")
    return cid


def _grab(w, cid, box=None) -> QImage:  # type: ignore[no-untyped-def]
    w.view.viewport().repaint()
    rect = w.view.mapFromScene(box or w.scene.cards[cid].sceneBoundingRect()).boundingRect()
    return w.view.viewport().grab(rect).toImage()


def test_right_click_on_a_card_opens_the_card_menu_and_a_counter_shows_a_badge(window, qtbot):  # type: ignore[no-untyped-def]
    w = window
    cid = _play_one(w)
    box = w.scene.cards[cid].sceneBoundingRect()
    # the card and the room below its foot, where counter badges hang (never over its stats)
    box = box.adjusted(0, 0, 0, box.height() / 2)
    before = _grab(w, cid, box)
    right_click(w.view, w.scene.cards[cid].scenePos())
    texts = menu_texts(open_menu())
    for wanted in ("Flip", "Counters", "Show privately to", "Send to"):
        assert wanted in texts
    assert "Select all cards here" not in texts  # the card's menu, not its zone's
    choose("Counters", "Add Damage")
    assert w.replica.state.objs[cid].counters == {"damage": 1}
    after = _grab(w, cid, box)
    assert before.size() == after.size() and before != after  # the badge is drawn
    right_click(w.view, w.scene.cards[cid].scenePos())
    answer_next_dialog(qtbot, 4)
    choose("Counters", "Set Damage…")
    assert w.replica.state.objs[cid].counters == {"damage": 4}
    right_click(w.view, w.scene.cards[cid].scenePos())
    choose("Counters", "Remove Damage")
    assert w.replica.state.objs[cid].counters == {"damage": 3}


def test_card_menu_sends_to_the_bottom_of_a_pile_and_shows_to_a_seat(window):  # type: ignore[no-untyped-def]
    w = window
    cid = _play_one(w)
    right_click(w.view, w.scene.cards[cid].scenePos())
    choose("Show privately to", "East")
    assert 2 in w.replica.knowledge.shown.get(cid, ())
    right_click(w.view, w.scene.cards[cid].scenePos())
    choose("Send to", "Deck — bottom")
    deck = w.replica.state.objs["p1.deck"].children
    assert len(cards_in(w.replica, "p1.play")) == 0 and deck  # it went to the deck's bottom
    assert w.replica.records()[-1].op.kind in ("move", "consume")


def test_menu_on_a_selected_card_acts_on_the_whole_selection(window):  # type: ignore[no-untyped-def]
    w = window
    for _ in range(2):
        _ = w.scene.cards[cards_in(w.replica, "p1.hand")[-1]]
        play = w.scene.layout.rects["p1.play"]  # two spots a quarter of its width apart
        drag(w.view, _.scenePos(), play.center() + QPointF(
            play.width() / 4 * (-1 + 2 * len(cards_in(w.replica, "p1.play"))), 0))
    played = cards_in(w.replica, "p1.play")
    assert len(played) == 2
    items = [w.scene.cards[c] for c in played]
    area = items[0].sceneBoundingRect().united(items[1].sceneBoundingRect())
    drag(w.view, area.topLeft() - QPointF(20, 20), area.bottomRight() + QPointF(20, 20))
    assert set(w.scene.selected_ids()) == set(played)
    right_click(w.view, items[1].scenePos())
    assert "2 cards" in [a.text() for a in open_menu().actions()]
    choose("Flip")
    assert all(not w.replica.state.objs[c].face_up for c in played)


def test_menu_key_and_shift_f10_open_the_selected_cards_menu(window, qtbot):  # type: ignore[no-untyped-def]
    w = window
    cid = _play_one(w)
    click(w.view, w.scene.cards[cid].scenePos())
    assert w.scene.selected_ids() == [cid]
    qtbot.keyClick(w.view, Qt.Key.Key_Menu)
    assert "Counters" in menu_texts(open_menu())
    qtbot.keyClick(open_menu(), Qt.Key.Key_Escape)
    qtbot.keyClick(w.view, Qt.Key.Key_F10, Qt.KeyboardModifier.ShiftModifier)
    choose("Engage (turn sideways)")
    assert w.replica.state.objs[cid].rotation == 90


def test_tracker_menu_sets_its_value(window, qtbot):  # type: ignore[no-untyped-def]
    w = window
    tracker = w.scene.trackers["p1.favor"]
    right_click(w.view, tracker.sceneBoundingRect().center())
    assert "Set value…" in menu_texts(open_menu())
    answer_next_dialog(qtbot, 5)
    choose("Set value…")
    assert w.replica.state.objs["p1.favor"].counters["value"] == 5
    assert tracker.value == 5


def test_die_menu_rolls_and_sets_and_a_drag_moves_it(window, qtbot):  # type: ignore[no-untyped-def]
    w = window
    die = w.scene.dice["d6"]
    right_click(w.view, die.scenePos())
    n = len(w.replica.records())
    choose("Roll")
    assert w.replica.records()[n].op.kind == "roll"
    answer_next_dialog(qtbot, 3)
    right_click(w.view, die.scenePos())
    choose("Set value…")
    assert w.replica.state.objs["d6"].counters["value"] == 3
    play = w.scene.layout.rects["p1.play"]
    drag(w.view, die.scenePos(), play.center())
    obj = w.replica.state.objs["d6"]
    assert obj.container == "p1.play" and obj.pos is not None
    assert (die.scenePos() - play.center()).manhattanLength() < 2
    assert w.replica.records()[-1].op.kind == "move"  # a drag is no roll


def test_table_menu_adds_a_die_a_token_and_a_counter_where_it_was_opened(window, qtbot):  # type: ignore[no-untyped-def]
    w = window
    root = w.scene.layout.rects[ROOT]
    spot = root.center()
    right_click(w.view, spot)
    choose("Add a die", "d20")
    dice = [d for d in w.replica.state.objs.values() if d.kind == "die" and d.alive
            and d.props.get("added")]
    assert len(dice) == 1 and dice[0].props["sides"] == 20
    item = w.scene.dice[dice[0].id]
    assert (item.scenePos() - spot).manhattanLength() < 2
    right_click(w.view, spot + QPointF(80, 0))
    choose("Add a token")
    tokens = [t for t in w.replica.state.objs.values() if t.kind == "token" and t.alive
              and t.props.get("added")]
    assert len(tokens) == 1 and tokens[0].id in w.scene.tokens
    answer_next_dialog(qtbot, "Wounds")
    right_click(w.view, w.scene.layout.rects["p1.play"].center())
    choose("Add a counter…")
    counters = [c for c in w.replica.state.objs.values() if c.kind == "counter" and c.alive
                and c.props.get("added")]
    assert len(counters) == 1 and counters[0].props["name"] == "Wounds"
    assert counters[0].container == "p1.play"
    tracker = w.scene.trackers[counters[0].id]
    click(w.view, tracker.plus_rect().center())
    assert w.replica.state.objs[counters[0].id].counters["value"] == 1
    right_click(w.view, w.scene.tokens[tokens[0].id].scenePos())
    choose("Counters", "Add Damage")
    assert w.replica.state.objs[tokens[0].id].counters == {"damage": 1}
    assert w.scene.tokens[tokens[0].id].counters == {"damage": 1}  # drawn as a badge
    right_click(w.view, w.scene.tokens[tokens[0].id].scenePos())
    choose("Remove from the table")
    assert not w.replica.state.objs[tokens[0].id].alive


def test_a_card_hidden_in_another_seats_hand_offers_nothing_to_do(window):  # type: ignore[no-untyped-def]
    w = window
    theirs = w.scene.cards[cards_in(w.replica, "p2.hand")[-1]]
    right_click(w.view, theirs.scenePos())
    menu = open_menu()
    enabled = [a.text() for a in menu.actions() if a.isEnabled() and not a.isSeparator()]
    assert enabled == [] and any("East's hand" in a.text() for a in menu.actions())
