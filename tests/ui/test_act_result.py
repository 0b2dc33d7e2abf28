"""What an action did, as the controller hands it back (`Acted`): driven by real mouse and key
events, the results spied on where the window's gestures reach the controller."""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from table.ui.controller import Acted
from tests.ui.helpers import cards_in, drag


def _spy(w: Any, name: str) -> list[Acted]:
    """Record every Acted the controller's `name` (act or perform) returns."""
    seen: list[Acted] = []
    real = getattr(w.ctl, name)

    def spying(*args: Any, **kwargs: Any) -> Acted:
        seen.append(real(*args, **kwargs))
        return seen[-1]
    setattr(w.ctl, name, spying)
    return seen


def test_a_drop_is_a_json_move_whose_result_names_the_op_and_its_change(window) -> None:  # type: ignore[no-untyped-def]
    w = window
    performed = _spy(w, "perform")
    card_id = cards_in(w.replica, "p1.hand")[-1]  # the top of the fan: nothing covers it
    drag(w.view, w.scene.cards[card_id].scenePos(), w.scene.layout.rects["p1.play"].center())
    (acted,) = performed
    assert acted.done and acted.void is None and acted.refused is None and acted.asked is None
    assert acted.op is not None and acted.op.kind == "move" and acted.op.args["to"] == "p1.play"
    assert card_id in acted.touched and "p1.play" in acted.touched
    assert cards_in(w.replica, "p1.play") == [card_id]
    # the scene followed the change itself: the card is drawn where the state puts it
    obj = w.replica.state.objs[card_id]
    rect = w.scene.layout.rects["p1.play"]
    item = w.scene.cards[card_id]
    assert obj.pos is not None
    assert abs(item.pos().x() - rect.left() - obj.pos[0]) < 0.5
    assert abs(item.pos().y() - rect.top() - obj.pos[1]) < 0.5


def test_a_refused_drop_says_why_and_the_card_goes_back(window) -> None:  # type: ignore[no-untyped-def]
    w = window
    acted = _spy(w, "act")
    messages: list[str] = []
    w.ctl.status.connect(messages.append)
    card = w.scene.cards[cards_in(w.replica, "p1.hand")[-1]]
    before = card.scenePos()
    w.ctl.read_only = True  # a watcher's table, say: every move refused
    drag(w.view, before, w.scene.layout.rects["p1.play"].center())
    (result,) = acted
    assert result.op is None and not result.done and not result.changes
    assert result.refused == "This table is read-only" and messages == [result.refused]
    assert cards_in(w.replica, "p1.play") == []
    assert (card.scenePos() - before).manhattanLength() < 1


def test_undo_by_key_returns_the_undo_op(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    w = window
    held = len(cards_in(w.replica, "p1.hand"))
    card_id = cards_in(w.replica, "p1.hand")[-1]
    drag(w.view, w.scene.cards[card_id].scenePos(), w.scene.layout.rects["p1.play"].center())
    acted = _spy(w, "act")
    qtbot.keyClick(w.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert acted and acted[0].op is not None and acted[0].op.kind == "undo"
    assert acted[0].done and {"p1.play", "p1.hand"} <= acted[0].touched
    assert cards_in(w.replica, "p1.play") == [] and len(cards_in(w.replica, "p1.hand")) == held
