"""The table by keys, with real key events on the view (QTest): Tab through the zones in their
order, a ring one sees at every zoom, Space, the menu key on the focused piece (not the one under
the pointer), take and put down, Esc, Ctrl+A, F1, F6 into the outline and back, a declaration
answered with Enter; and what a screen reader would hear, at each verbosity."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QCursor
from PySide6.QtWidgets import QApplication

from table.core import actions
from table.ui.seat_outline import COUNTERS
from tests.ui.helpers import click, menu_texts, open_menu, show_active

K = Qt.Key


def _keys(qtbot, w, *keys):  # type: ignore[no-untyped-def]
    for key in keys:
        mods = Qt.KeyboardModifier.NoModifier
        if isinstance(key, tuple):
            key, mods = key
        target = QApplication.activePopupWidget() or QApplication.focusWidget() or w.view
        qtbot.keyClick(target, key, mods)


def test_tab_goes_through_the_zones_own_hand_first_then_own_shared_and_the_others(window, qtbot):  # type: ignore[no-untyped-def]
    w = window
    seen = []
    for _ in range(len(w.keys.focus.zones)):
        _keys(qtbot, w, K.Key_Tab)
        seen.append(w.keys.focus.zone())
    assert seen[0].id == "p1.hand"
    seats = [z.seat for z in seen]
    assert seats == sorted(seats, key=lambda s: {1: 0, None: 1, 2: 2}[s])  # own, shared, theirs
    assert {z.id for z in seen} >= {"p1.deck", "p1.play", "market", "arena", "table",
                                    "p2.hand", f"{COUNTERS}1"}
    _keys(qtbot, w, K.Key_Tab)  # round again
    assert w.keys.focus.zone_id == "p1.hand"
    _keys(qtbot, w, (K.Key_Tab, Qt.KeyboardModifier.ShiftModifier))
    assert w.keys.focus.zone_id == seen[-1].id
    assert w.statusBar().currentMessage().startswith(seen[-1].name)


def test_the_card_the_keys_are_on_is_read_in_the_card_panel(window, qtbot):  # type: ignore[no-untyped-def]
    """No pointer, no key held: the focused card's name and rules text are in the Card panel."""
    w = window
    _keys(qtbot, w, K.Key_Tab)  # the own hand
    assert w.keys.focus.zone_id == "p1.hand"
    _keys(qtbot, w, K.Key_Right)
    first = w.keys.focus.piece_id
    assert first is not None and w.preview.current == first
    _keys(qtbot, w, K.Key_Right)
    second = w.keys.focus.piece_id
    assert second != first and w.preview.current == second


def _ring_pixels(w) -> int:  # type: ignore[no-untyped-def]
    """Pixels the ring makes bright or dark on screen: the table's viewport grabbed with the
    ring, then without it."""
    ring = w.keys.ring
    area = w.view.mapFromScene(ring.sceneBoundingRect()).boundingRect().adjusted(-4, -4, 4, 4)
    w.view.viewport().repaint()
    shown = w.view.viewport().grab(area).toImage()
    ring.hide()
    w.view.viewport().repaint()
    hidden = w.view.viewport().grab(area).toImage()
    ring.show()
    count = 0
    for y in range(0, shown.height(), 2):  # every other pixel: a 3 px line is still met
        for x in range(0, shown.width(), 2):
            c, before = shown.pixel(x, y), hidden.pixel(x, y)
            if c == before:
                continue
            lo, hi = min(c & 255, c >> 8 & 255, c >> 16 & 255), max(c & 255, c >> 8 & 255,
                                                                     c >> 16 & 255)
            if lo > 225 or hi < 40:
                count += 4
    return count


def test_the_focus_ring_shows_at_every_zoom_and_a_click_hides_it(window, qtbot):  # type: ignore[no-untyped-def]
    w = window
    _keys(qtbot, w, K.Key_Tab, K.Key_Right)
    card = w.keys.focus.piece_id
    assert card in w.replica.state.cards_in("p1.hand")
    for zoom in (0.1, 0.5, 2.0):
        w.view.set_zoom(zoom)
        w.view.centerOn(w.scene.cards[card])
        side = w.view.mapFromScene(w.keys.ring.sceneBoundingRect()).boundingRect()
        # a bright line (over a dark one) all round, 3 px wide on screen whatever the zoom
        assert _ring_pixels(w) > 1.5 * 2 * (side.width() + side.height()), zoom
    w.view.set_zoom(0.35)
    click(w.view, w.scene.layout.rects["table"].center())
    assert not w.keys.ring.isVisible()


def test_space_selects_and_the_menu_key_opens_the_focused_pieces_menu(window, qtbot):  # type: ignore[no-untyped-def]
    w = window
    _keys(qtbot, w, K.Key_Tab, K.Key_Right)
    card = w.keys.focus.piece_id
    _keys(qtbot, w, K.Key_Space)
    assert w.scene.selected_ids() == [card]
    _keys(qtbot, w, K.Key_Space)
    assert w.scene.selected_ids() == []
    # the pointer rests over the market: the menu is still the focused card's
    market = w.scene.zones["market"].card_anchor()
    QCursor.setPos(w.view.viewport().mapToGlobal(w.view.mapFromScene(market)))
    _keys(qtbot, w, K.Key_Menu)
    assert {"Flip", "Send to"} <= set(menu_texts(open_menu()))
    assert "Draw a card" not in menu_texts(open_menu())
    _keys(qtbot, w, K.Key_Escape, (K.Key_F10, Qt.KeyboardModifier.ShiftModifier))
    assert "Send to" in menu_texts(open_menu())
    _keys(qtbot, w, K.Key_Escape)


def test_enter_plays_a_hand_card_face_up_and_draws_from_a_pile(window, qtbot):  # type: ignore[no-untyped-def]
    w = window
    state = w.replica.state
    _keys(qtbot, w, K.Key_Tab, K.Key_Right)
    card = w.keys.focus.piece_id
    _keys(qtbot, w, K.Key_Return)
    assert state.objs[card].container == "p1.play" and state.objs[card].face_up
    assert w.keys.focus.zone_id == "p1.hand"  # the keys stay in the hand, on its next card
    hand = len(state.cards_in("p1.hand"))
    while w.keys.focus.zone_id != "p1.deck":
        _keys(qtbot, w, K.Key_Tab)
    _keys(qtbot, w, K.Key_Return)
    assert len(state.cards_in("p1.hand")) == hand + 1


def test_take_then_put_down_makes_a_drops_move_and_esc_puts_back(window, qtbot):  # type: ignore[no-untyped-def]
    w = window
    state = w.replica.state
    _keys(qtbot, w, K.Key_Tab, K.Key_Right, K.Key_T)
    card = w.keys.focus.piece_id
    assert w.keys.carried == [card]
    ops = len(w.replica.records())
    while w.keys.focus.zone_id != "p1.discard":
        _keys(qtbot, w, K.Key_Tab)
    assert w.scene.zones["p1.discard"].highlight  # lit as a drop target is
    _keys(qtbot, w, K.Key_Escape)
    assert w.keys.carried == [] and len(w.replica.records()) == ops
    assert not w.scene.zones["p1.discard"].highlight
    _keys(qtbot, w, K.Key_Tab)
    while w.keys.focus.zone_id != "p1.hand":
        _keys(qtbot, w, K.Key_Tab)
    _keys(qtbot, w, K.Key_Right, K.Key_T)
    card = w.keys.focus.piece_id
    while w.keys.focus.zone_id != "p1.discard":
        _keys(qtbot, w, K.Key_Tab)
    _keys(qtbot, w, K.Key_P)
    assert state.cards_in("p1.discard") == [card] and state.objs[card].face_up
    assert w.keys.focus.piece_id == card  # the keys went with it
    # a token onto a grid cell: the arrows choose the cell
    while w.keys.focus.zone_id != "arena":
        _keys(qtbot, w, K.Key_Tab)
    while w.keys.focus.piece_id != "p1.pawn":
        _keys(qtbot, w, K.Key_Right)
    _keys(qtbot, w, K.Key_T, K.Key_Right, K.Key_Right, K.Key_Down, K.Key_Return)
    assert state.objs["p1.pawn"].pos == (3, 3)


def test_plus_minus_enter_on_counters_and_ctrl_a_selects_a_zone(window, qtbot):  # type: ignore[no-untyped-def]
    w = window
    state = w.replica.state
    while w.keys.focus.zone_id != f"{COUNTERS}1":
        _keys(qtbot, w, K.Key_Tab)
    _keys(qtbot, w, K.Key_Right)
    assert w.keys.focus.piece_id == "p1.favor"
    _keys(qtbot, w, K.Key_Plus, K.Key_Plus, K.Key_Minus, K.Key_Return)
    assert state.objs["p1.favor"].counters["value"] == 2
    _keys(qtbot, w, (K.Key_Tab, Qt.KeyboardModifier.ShiftModifier))
    while w.keys.focus.zone_id != "p1.hand":
        _keys(qtbot, w, (K.Key_Tab, Qt.KeyboardModifier.ShiftModifier))
    _keys(qtbot, w, (K.Key_A, Qt.KeyboardModifier.ControlModifier))
    assert sorted(w.scene.selected_ids()) == sorted(state.cards_in("p1.hand"))
    _keys(qtbot, w, K.Key_F)  # a table key on the selection
    assert all(state.objs[c].face_up for c in state.cards_in("p1.hand"))


def test_f1_lists_every_key_of_the_table(window, qtbot):  # type: ignore[no-untyped-def]
    w = window
    _keys(qtbot, w, K.Key_F1)
    assert w.help.isVisible()
    listed = w.help.accessibleDescription()
    for key in ("Tab", "Shift+Tab", "Arrows", "Home", "End", "Enter", "Space", "Ctrl+A",
                "Menu key", "Shift+F10", "T, then P", "Esc", "+", "F6", "Alt+V", "Alt+G"):
        assert key in listed, key
    for act in w.actions() + w.view.actions():
        for seq in act.shortcuts():
            text = seq.toString().replace("Return", "Enter")
            mod, _, rest = text.rpartition("+")  # a seat's key: listed as "Ctrl+1 … Ctrl+6"
            in_range = rest.isdigit() and f"{mod}+1 … {mod}+" in listed
            assert text in listed or in_range, text
    _keys(qtbot, w, K.Key_Escape)
    assert not w.help.isVisible() and w.view.hasFocus()


def test_f6_goes_to_the_outline_where_the_same_keys_work_then_the_chat_and_back(window, qtbot):  # type: ignore[no-untyped-def]
    w = window
    _keys(qtbot, w, K.Key_Tab, K.Key_Right, K.Key_F6)
    outline = w.outline
    assert outline.hasFocus() and w.docks["outline"].isVisible()
    assert outline.currentIndex().data() == w.keys.focus.piece().text
    _keys(qtbot, w, K.Key_Right)
    assert outline.currentIndex().data() == w.keys.focus.piece().text
    assert w.keys.focus.zone_id == "p1.hand"
    _keys(qtbot, w, K.Key_Space)
    assert w.scene.selected_ids() == [w.keys.focus.piece_id]
    _keys(qtbot, w, K.Key_Menu)
    assert "Send to" in menu_texts(open_menu())
    _keys(qtbot, w, K.Key_Escape)
    _keys(qtbot, w, K.Key_Tab)
    assert outline.currentIndex().data() == w.keys.focus.zone().text
    _keys(qtbot, w, K.Key_F6)  # the next pane: the chat's field, then the table again
    assert w.chat.entry.hasFocus()
    _keys(qtbot, w, K.Key_F6)
    assert w.view.hasFocus()
    _keys(qtbot, w, (K.Key_F6, Qt.KeyboardModifier.ShiftModifier))  # back: the chat
    assert w.chat.entry.hasFocus()
    _keys(qtbot, w, K.Key_Escape)  # as from any field: back to the table
    assert w.view.hasFocus()
    _keys(qtbot, w, K.Key_F6, K.Key_Escape)
    assert w.view.hasFocus()


def test_announcements_say_the_others_moves_never_a_hidden_card(window, qtbot):  # type: ignore[no-untyped-def]
    w = window
    r = w.replica
    heard = w.announcer.heard
    before = len(heard)
    w.ctl.act(actions.counter, "p1.favor", add=1)  # one's own move: not said by default
    assert len(heard) == before
    drawn = actions.draw(r, "p2.deck", "p2.hand", 1, seat=2)  # East draws: a card, unnamed
    assert drawn is not None and heard[-1] == "East drew a card from East's Deck into East's Hand"
    card = r.state.cards_in("p2.hand")[0]
    name = w.ctl.catalog.name_of(r.knowledge.card_of(card))
    actions.move(r, card, "p2.play", face_up=True, seat=2)  # played face up: now it is named
    assert heard[-1] == f"East moved {name} from East's Hand to East's Play area face up"
    w.announcer.level = "all"
    w.ctl.act(actions.counter, "p1.favor", add=1)
    assert heard[-1].startswith("North changed Favor by +1")
    w.announcer.level = "off"
    actions.draw(r, "p2.deck", "p2.hand", 1, seat=2)
    assert heard[-1].startswith("North changed Favor")


def test_a_declaration_by_enter_on_the_pieces_and_a_flag_acknowledged_by_keys(qtbot) -> None:  # type: ignore[no-untyped-def]
    from table.core.rng import Rng
    from table.games import find_module
    from table.games.setup import new_table
    from table.ui.catalog import Catalog
    from table.ui.main_window import TableWindow
    from tests.ui.helpers import choose_when_open
    from tests.ui.turn_drivers import Keys

    module = find_module("dead-to-rites")
    replica = new_table(module, 4, rng=Rng(3))
    w = TableWindow(replica, Catalog.from_module(module))
    show_active(qtbot, w, (1400, 900))
    w.ctl.set_seat(1)
    w.curtain.hide()
    w.view.setFocus()
    mine = replica.state.objs["p1.crown"].children[0]
    theirs = replica.state.objs["p2.crown"].children[0]
    choose_when_open("Attack (attacker -> target)")  # the menu runs its own loop while open
    _keys(qtbot, w, (K.Key_D, Qt.KeyboardModifier.AltModifier))
    qtbot.waitUntil(lambda: w.pointer.active)
    keys = Keys(w)
    keys.to_piece(mine)
    keys.press(K.Key_Return)
    assert "target" in w.statusBar().currentMessage()
    keys.to_piece(theirs)
    keys.press(K.Key_Return)
    op = replica.records()[-1].op
    assert op.kind == "mark" and op.args["fields"] == {"attacker": mine, "target": theirs}
    # a flag on a card is acknowledged from the card's menu, by keys
    wrong_rite = replica.state.objs["p1.rites"].children[0]  # the bottom Rite, not the next
    actions.move(replica, wrong_rite, "altar", seat=1)
    w.refresh_panels()
    assert w.scene.cards[wrong_rite].flag_severity == "error"
    keys.to_piece(wrong_rite)
    keys.menu("Acknowledge DTR-RITE-NEXT", "OK: card effect")
    op = replica.records()[-1].op
    assert op.kind == "ack" and op.args["reason"] == "card effect"
    w.refresh_panels()
    assert w.scene.cards[wrong_rite].flag_severity is None
    w.shutdown()
