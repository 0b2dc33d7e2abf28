"""The table window driven with mouse and keyboard; every assertion is on the core state."""
from __future__ import annotations

from PySide6.QtCore import QPointF, Qt

from table.core.views import view_object
from tests.ui.helpers import (
    answer_next_dialog,
    cards_in,
    choose,
    click,
    drag,
    menu_texts,
    open_menu,
    right_click,
    wheel,
)


def _hand(w, seat=1):  # type: ignore[no-untyped-def]
    return cards_in(w.replica, f"p{seat}.hand")


def _play_top(w, to: QPointF) -> None:  # type: ignore[no-untyped-def]
    """Drag the hand's topmost card (nothing covers it) to a scene position."""
    top = max((w.scene.cards[c] for c in _hand(w)), key=lambda item: item.zValue())
    drag(w.view, top.scenePos(), to)


def test_drag_card_from_hand_to_play_area_plays_it_face_up(window, qtbot):  # type: ignore[no-untyped-def]
    w = window
    hand = _hand(w)
    card = w.scene.cards[hand[-1]]  # the top of the fan: nothing covers it
    play = w.scene.layout.rects["p1.play"]
    drag(w.view, card.scenePos(), play.center())
    assert len(_hand(w)) == len(hand) - 1
    played = cards_in(w.replica, "p1.play")
    assert len(played) == 1
    obj = w.replica.state.objs[played[0]]
    assert obj.face_up and obj.card is not None  # revealed to everyone
    assert obj.pos is not None and abs(obj.pos[0] - play.width() / 2) < 12
    # and the scene shows it where the state says
    item = w.scene.cards[played[0]]
    assert item.isVisible() and (item.pos() - play.center()).manhattanLength() < 20


def test_drag_with_shift_plays_face_down_and_only_owner_sees_it(window):  # type: ignore[no-untyped-def]
    w = window
    card = w.scene.cards[_hand(w)[-1]]
    drag(w.view, card.scenePos(), w.scene.layout.rects["p1.play"].center(),
         mods=Qt.KeyboardModifier.ShiftModifier)
    (cid,) = cards_in(w.replica, "p1.play")
    obj = w.replica.state.objs[cid]
    assert not obj.face_up and obj.card is None
    state, know = w.replica.state, w.replica.knowledge
    assert view_object(state, know, obj, 1).card is not None
    assert view_object(state, know, obj, 2).card is None
    assert w.scene.cards[cid].face is None  # the table shows its back, even to its owner


def test_refused_drop_snaps_back(window):  # type: ignore[no-untyped-def]
    w = window
    w.ctl.read_only = True
    card = w.scene.cards[_hand(w)[-1]]
    before = card.scenePos()
    drag(w.view, before, w.scene.layout.rects["p1.play"].center())
    assert cards_in(w.replica, "p1.play") == []
    assert (card.scenePos() - before).manhattanLength() < 1


def test_flip_by_double_click_and_f_key_rotate_by_r(window, qtbot):  # type: ignore[no-untyped-def]
    w = window
    drag(w.view, w.scene.cards[_hand(w)[-1]].scenePos(), w.scene.layout.rects["p1.play"].center())
    (cid,) = cards_in(w.replica, "p1.play")
    obj = w.replica.state.objs[cid]
    click(w.view, w.scene.cards[cid].scenePos(), double=True)
    assert obj.face_up is False
    w.scene.clearSelection()
    w.scene.cards[cid].setSelected(True)
    qtbot.keyClick(w.view, Qt.Key.Key_F)
    assert obj.face_up is True
    qtbot.keyClick(w.view, Qt.Key.Key_R)
    assert obj.rotation == 90
    assert w.scene.cards[cid].rotation() == 90
    qtbot.keyClick(w.view, Qt.Key.Key_R)
    assert obj.rotation == 0


def test_draw_by_double_click_on_deck_and_d_key(window, qtbot):  # type: ignore[no-untyped-def]
    w = window
    deck = cards_in(w.replica, "p1.deck")
    click(w.view, w.scene.zones["p1.deck"].card_anchor(), double=True)
    assert len(cards_in(w.replica, "p1.deck")) == len(deck) - 1
    assert len(_hand(w)) == 6
    qtbot.keyClick(w.view, Qt.Key.Key_D)
    assert len(_hand(w)) == 7
    # the new cards are drawn in the fan, faces visible to their owner only
    assert all(w.scene.cards[c].face is not None for c in _hand(w))


def test_pile_menu_shuffle_draw_n_search_and_peek(window, qtbot):  # type: ignore[no-untyped-def]
    w = window
    deck_at = w.scene.zones["p1.deck"].card_anchor()
    right_click(w.view, deck_at)
    texts = menu_texts(open_menu())
    for wanted in ("Draw a card", "Draw N cards…", "Shuffle", "Search…", "Peek at the top N…",
                   "Reveal the top card"):
        assert wanted in texts
    before = cards_in(w.replica, "p1.deck")
    choose("Shuffle")
    after = cards_in(w.replica, "p1.deck")
    assert len(after) == len(before) and set(after).isdisjoint(before)  # re-handled
    assert w.replica.records()[-1].op.args["why"] == "shuffle"
    answer_next_dialog(qtbot, 3)
    right_click(w.view, deck_at)
    choose("Peek at the top N…")
    dialog = w.menus.dialog
    assert dialog is not None and dialog.list.count() == 3
    assert "(unknown)" not in dialog.list.item(0).text()  # peeking seat knows them now
    dialog.take.click()
    assert len(_hand(w)) == 6
    dialog.close()
    right_click(w.view, deck_at)
    choose("Search…")
    search = w.menus.dialog
    assert search is not None and search.list.count() == len(cards_in(w.replica, "p1.deck"))
    search.close()


def test_tracker_plus_minus_wheel_and_undo(window, qtbot):  # type: ignore[no-untyped-def]
    w = window
    favor = w.replica.state.objs["p1.favor"]
    tracker = w.scene.trackers["p1.favor"]
    click(w.view, tracker.plus_rect().center())
    click(w.view, tracker.plus_rect().center())
    assert favor.counters["value"] == 2
    click(w.view, tracker.minus_rect().center())
    assert favor.counters["value"] == 1
    wheel(w.view, tracker.rect.center(), 1)
    assert favor.counters["value"] == 2
    qtbot.keyClick(w, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert favor.counters["value"] == 1
    assert tracker.value == 1  # the tracker followed the undo


def test_seat_switch_hides_and_shows_hands(window, qtbot):  # type: ignore[no-untyped-def]
    w = window
    mine, theirs = _hand(w, 1), _hand(w, 2)
    assert all(w.scene.cards[c].face is not None for c in mine)
    assert all(w.scene.cards[c].face is None for c in theirs)
    qtbot.keyClick(w, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    assert w.ctl.seat == 2 and w.seat_bar.currentIndex() == 1
    assert all(w.scene.cards[c].face is None for c in mine)
    assert all(w.scene.cards[c].face is not None for c in theirs)
    assert w.curtain.isVisible()  # hot-seat: East's hand shows once East opens the curtain
    qtbot.keyClick(w.curtain, Qt.Key.Key_Space)
    # acting now acts as seat 2
    qtbot.keyClick(w.view, Qt.Key.Key_D)
    assert len(_hand(w, 2)) == 6 and w.replica.records()[-1].op.seat == 2
    w.seat_bar.setCurrentIndex(0)
    assert w.ctl.seat == 1


def test_drag_token_snaps_to_grid_cell(window):  # type: ignore[no-untyped-def]
    from table.ui.layout import CELL, LABEL, PAD

    w = window
    tok = w.scene.tokens["p1.pawn"]
    board = w.scene.zones["arena"]
    # the board's own units (the middle may be drawn smaller on a small screen)
    target = board.mapToScene(board.rect.topLeft() + QPointF(PAD + 6.3 * CELL,
                                                             LABEL + PAD + 2.6 * CELL))
    drag(w.view, tok.scenePos(), target)  # into cell 6,2
    assert w.replica.state.objs["p1.pawn"].pos == (6.0, 2.0)
    cell_centre = board.mapToScene(board.rect.topLeft() + QPointF(PAD + 6.5 * CELL,
                                                                  LABEL + PAD + 2.5 * CELL))
    assert (tok.scenePos() - cell_centre).manhattanLength() < 1


def test_rubber_band_selects_several_and_they_move_together(window):  # type: ignore[no-untyped-def]
    w = window
    play = w.scene.layout.rects["p1.play"]
    for dx in (-play.width() / 4, play.width() / 4):  # two spots in it, apart
        _play_top(w, play.center() + QPointF(dx, 0))
    played = cards_in(w.replica, "p1.play")
    assert len(played) == 2
    items = [w.scene.cards[c] for c in played]
    area = items[0].sceneBoundingRect().united(items[1].sceneBoundingRect())
    drag(w.view, area.topLeft() - QPointF(20, 20), area.bottomRight() + QPointF(20, 20))
    assert set(w.scene.selected_ids()) == set(played)
    drag(w.view, items[0].scenePos(), w.scene.layout.rects["p2.play"].center())
    assert set(cards_in(w.replica, "p2.play")) == set(played)


def test_card_counters_from_menu_and_log_names_cards(window):  # type: ignore[no-untyped-def]
    w = window
    _play_top(w, w.scene.layout.rects["p1.play"].center())
    (cid,) = cards_in(w.replica, "p1.play")
    right_click(w.view, w.scene.cards[cid].scenePos())
    choose("Counters", "Add Damage")
    assert w.replica.state.objs[cid].counters == {"damage": 1}
    assert w.scene.cards[cid].counters == {"damage": 1}
    name = w.ctl.catalog.name_of(w.replica.state.objs[cid].card)
    w.refresh_panels()  # panels follow once per burst of ops
    lines = [w.log_panel.list.item(i).text() for i in range(w.log_panel.list.count())]
    assert any(name in line and "moved" in line for line in lines)
    w.log_panel.filter.setText("damage")
    visible = [i for i in range(w.log_panel.list.count())
               if not w.log_panel.list.item(i).isHidden()]
    assert len(visible) == 1


def test_log_hides_drawn_card_names_from_other_seats(window, qtbot):  # type: ignore[no-untyped-def]
    w = window
    qtbot.keyClick(w.view, Qt.Key.Key_D)
    _play_top(w, w.scene.zones["p1.discard"].card_anchor())
    w.refresh_panels()
    line_1 = w.log_panel.list.item(w.log_panel.list.count() - 2).text()
    assert "North drew " in line_1 and "drew a card" not in line_1  # the owner reads the name
    qtbot.keyClick(w, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    text = "\n".join(w.log_panel.list.item(i).text() for i in range(w.log_panel.list.count()))
    assert "drew a card from North's Deck into North's Hand" in text  # the others do not


def test_turn_panel_advances_phase_and_turn(window, qtbot):  # type: ignore[no-untyped-def]
    w = window
    state = w.replica.state
    assert state.phase == "Dawn"
    qtbot.keyClick(w.view, Qt.Key.Key_N)
    assert state.phase == "Main"
    w.turn.end_turn.click()
    assert state.turn["seat"] == 2 and state.phase == "Dawn"
    w.refresh_panels()
    assert "East" in w.turn.label.text()


def test_chat_is_an_op(window, qtbot):  # type: ignore[no-untyped-def]
    w = window
    w.chat.entry.setText("good game")
    qtbot.keyClick(w.chat.entry, Qt.Key.Key_Return)
    assert w.replica.records()[-1].op.kind == "chat"
    qtbot.waitUntil(lambda: "good game" in w.chat.view.toPlainText())
    assert "North: good game" in w.chat.view.toPlainText()
    # a letter typed in chat must not flip or draw
    n = len(w.replica.records())
    qtbot.keyClicks(w.chat.entry, "fdr")
    assert len(w.replica.records()) == n


def test_help_overlay_toggles(window, qtbot):  # type: ignore[no-untyped-def]
    w = window
    qtbot.keyClick(w, Qt.Key.Key_F1)
    assert w.help.isVisible()
    qtbot.keyClick(w.help, Qt.Key.Key_Escape)
    assert not w.help.isVisible()


def test_pile_menu_shuffles_the_discard_pile_into_the_draw_pile(window):  # type: ignore[no-untyped-def]
    w = window
    while _hand(w):  # discard the whole hand
        _play_top(w, w.scene.zones["p1.discard"].card_anchor())
    discarded = cards_in(w.replica, "p1.discard")
    deck_before = cards_in(w.replica, "p1.deck")
    assert discarded
    right_click(w.view, w.scene.zones["p1.discard"].card_anchor())
    choose("Shuffle all cards into", w.replica.state.objs["p1.deck"].props["name"])
    assert cards_in(w.replica, "p1.discard") == []
    deck = cards_in(w.replica, "p1.deck")
    assert len(deck) == len(deck_before) + len(discarded)  # one consume, nothing lost
    assert set(deck).isdisjoint(deck_before + discarded)  # all re-handled: nobody can follow
    assert w.replica.records()[-1].op.kind == "consume"
