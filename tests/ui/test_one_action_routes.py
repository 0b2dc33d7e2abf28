"""One action, one result, whatever the route: every action of every menu, taken by each way a
player can take it, makes the same ops.

Four table windows start from the same seeded table and stay in step: in each, every action is
taken by one route: the menu opened by a right-click and clicked (`mouse menu`), the menu opened
by the menu key on the piece the keys are on and walked by keys (`key menu`), and where the
action has one, its direct mouse gesture (a drag, a double-click, a click on a die or a
tracker's +) and its direct key (F, R, D, Enter, +, T then P...). After each action the ops each
window logged are compared, normalised only where a route says more by nature: a drag says where
in a free zone the piece lies (`pos`), a new piece is named after its peer.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QGraphicsView, QMenu

from table.core.objects import ROOT
from tests.ui.helpers import answer_next_dialog, click, drag, right_click
from tests.ui.turn_drivers import Keys, Mouse

ROUTES = ("mouse menu", "key menu", "mouse", "keys")
K = Qt.Key


@pytest.fixture
def windows(qtbot):  # type: ignore[no-untyped-def]
    from table.ui.main_window import TableWindow
    from table.ui.sample import sample_catalog, sample_table

    made = []
    for _ in ROUTES:
        w = TableWindow(sample_table(2), sample_catalog())
        qtbot.addWidget(w)
        w.resize(1100, 720)
        w.show()
        qtbot.waitExposed(w)
        w.view.fit_table()
        # what the ops are is the question here, not how the table looks: no repaints
        w.view.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.NoViewportUpdate)
        made.append(w)
    yield dict(zip(ROUTES, made, strict=True))
    for w in made:
        w.shutdown()


def _focus(w: Any) -> None:
    """The window active and the table holding the keyboard, as a player's click on it does."""
    w.activateWindow()
    for _ in range(1000):
        if QApplication.activeWindow() is w:
            break
        QApplication.processEvents()
    assert QApplication.activeWindow() is w, "the window never became active"
    w.view.setFocus()


def _spot(w: Any, obj_id: str) -> QPointF:
    """A point where a click lands on this piece or zone (not on a piece over it)."""
    scene = w.scene
    item = scene.item_for(obj_id)
    rect = item.sceneBoundingRect()
    for fy in (0.5, 0.2, 0.8, 0.1, 0.9):
        for fx in (0.5, 0.15, 0.85, 0.3, 0.7, 0.05, 0.95):
            at = QPointF(rect.left() + fx * rect.width(), rect.top() + fy * rect.height())
            hit = scene.piece_at(at)
            if getattr(hit, "obj_id", None) == obj_id:
                return at
    raise AssertionError(f"no spot to click {obj_id}")


def _leaves(menu: QMenu, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    out = []
    for act in menu.actions():
        if act.isSeparator() or not act.isEnabled() or not act.text():
            continue
        if act.menu() is not None:
            out += _leaves(act.menu(), (*path, act.text()))
        else:
            out.append((*path, act.text()))
    return out


def _new_ops(w: Any, since: int) -> list[tuple[str, dict[str, Any]]]:
    stem = w.replica.peer_id[:6]

    def norm(value: Any) -> Any:
        if isinstance(value, str):
            return value.replace(stem, "<peer>")
        if isinstance(value, dict):
            return {k: norm(v) for k, v in value.items() if k != "pos"}
        if isinstance(value, (list, tuple)):
            return [norm(v) for v in value]
        return value
    return [(r.op.kind, norm(dict(r.op.args)) | {"seat": r.op.seat})
            for r in w.replica.records()[since:]]


class Step:
    """One action taken in every window, each by its route."""

    def __init__(self, windows: dict[str, Any], qtbot: Any) -> None:
        self.windows, self.qtbot = windows, qtbot
        self.compared = 0

    def take(self, what: str, target: Callable[[Any], str], path: tuple[str, ...],
             direct: dict[str, Callable[[Any, str], None]] | None = None,
             answer: Any = None) -> None:
        before = {r: len(w.replica.records()) for r, w in self.windows.items()}
        shown: dict[str, list[Any]] = {}
        for route, w in self.windows.items():
            _focus(w)
            obj = target(w)
            how = (direct or {}).get(route)
            if answer is not None:
                answer_next_dialog(self.qtbot, answer)
            try:
                if how is not None:
                    how(w, obj)
                elif route == "mouse menu" or (route == "mouse" and direct is None):
                    right_click(w.view, _spot(w, obj))
                    Mouse(w).click_menu(*path)
                else:
                    keys = Keys(w)
                    keys.to_zone(obj) if obj in [z.id for z in w.keys.focus.zones] else \
                        keys.to_piece(obj)
                    keys.menu(*path)
            except AssertionError as err:
                raise AssertionError(f"{what} {' > '.join(path)} by {route}: {err}") from err
            QApplication.processEvents()
            shown[route] = _close_dialogs(w)
        ops = {r: _new_ops(w, before[r]) + shown[r] for r, w in self.windows.items()}
        first = ops["mouse menu"]
        assert first, f"{what} {path}: no op and no dialog at all"
        for route, made in ops.items():
            assert made == first, f"{what} {' > '.join(path)} by {route}:\n{made}\n!= by " \
                                  f"mouse menu:\n{first}"
        self.compared += 1


def _close_dialogs(w: Any) -> list[Any]:
    """The pile dialog a route opened (its title: a search or a peek), closed with Esc."""
    dialog = getattr(w.menus, "dialog", None)
    if dialog is None or not dialog.isVisible():
        return []
    title = dialog.windowTitle()
    QTest.keyClick(dialog, K.Key_Escape)
    QApplication.processEvents()
    return [("dialog", title)]


def _hand(w: Any) -> str:
    return str(w.replica.state.cards_in("p1.hand")[-1])


def _in_play(w: Any) -> str:
    return str(w.replica.state.cards_in("p1.play")[0])


def _deck_top(w: Any) -> str:
    return str(w.replica.state.cards_in("p1.deck")[-1])


def _added_die(w: Any) -> str:
    return max(o.id for o in w.replica.state.objs.values()
               if o.alive and o.kind == "die" and o.props.get("added"))


def _key(*keys: Any) -> Callable[[Any, str], None]:
    def press(w: Any, obj: str) -> None:
        driver = Keys(w)
        driver.to_piece(obj) if obj not in [z.id for z in w.keys.focus.zones] else \
            driver.to_zone(obj)
        for key in keys:
            mods = Qt.KeyboardModifier.NoModifier
            if isinstance(key, tuple):
                key, mods = key
            driver.press(key, mods, name=str(key))
    return press


def _carry_to(zone: str) -> Callable[[Any, str], None]:
    def carry(w: Any, obj: str) -> None:
        driver = Keys(w)
        driver.to_piece(obj)
        driver.press(K.Key_T)
        driver.to_zone(zone)
        driver.press(K.Key_P)
    return carry


def _drag_to(zone: str) -> Callable[[Any, str], None]:
    def carry(w: Any, obj: str) -> None:
        item = w.scene.zones[zone]
        end = item.card_anchor() if item.role in ("pile", "slot", "hand") else \
            w.scene.layout.rects[zone].center()
        drag(w.view, _spot(w, obj), end)
    return carry


def _double(w: Any, obj: str) -> None:
    click(w.view, _spot(w, obj), double=True)


def _plus(sign: int) -> Callable[[Any, str], None]:
    def press(w: Any, obj: str) -> None:
        tracker = w.scene.trackers[obj]
        rect = tracker.plus_rect() if sign > 0 else tracker.minus_rect()
        click(w.view, tracker.mapToScene(rect.center()))
    return press


def _menu_leaves(w: Any, obj: str) -> list[tuple[str, ...]]:
    right_click(w.view, _spot(w, obj))
    menu = QApplication.activePopupWidget()
    assert isinstance(menu, QMenu)
    found = _leaves(menu)
    menu.close()
    QApplication.processEvents()
    return found


# the direct routes of the menus' actions (mouse gesture, key), by the action's path
DIRECT: dict[tuple[str, ...], dict[str, Callable[[Any, str], None]]] = {
    ("Flip",): {"mouse": _double, "keys": _key(K.Key_F)},
    ("Engage (turn sideways)",): {"keys": _key(K.Key_R)},
    ("Ready",): {"keys": _key(K.Key_R)},
    ("Counters", "Add Damage"): {"keys": _key(K.Key_Plus)},
    ("Counters", "Remove Damage"): {"keys": _key(K.Key_Minus)},
    ("Send to", "Play area"): {"mouse": _drag_to("p1.play"), "keys": _carry_to("p1.play")},
    ("Send to", "Discard — top"): {"mouse": _drag_to("p1.discard"),
                                   "keys": _carry_to("p1.discard")},
    ("Send to", "Market (shared) — top"): {"mouse": _drag_to("market"),
                                           "keys": _carry_to("market")},
    ("Send to", "Hand"): {"mouse": _drag_to("p1.hand"), "keys": _carry_to("p1.hand")},
    ("Send to", "Open table"): {"mouse": _drag_to(ROOT), "keys": _carry_to(ROOT)},
    ("Draw a card",): {"mouse": _double, "keys": _key(K.Key_Return)},
    ("Roll",): {"mouse": lambda w, o: click(w.view, _spot(w, o)), "keys": _key(K.Key_Return)},
    ("Move to", "Play area"): {"mouse": _drag_to("p1.play"), "keys": _carry_to("p1.play")},
    ("Move to", "Open table"): {"mouse": _drag_to(ROOT), "keys": _carry_to(ROOT)},
    ("+1",): {"mouse": _plus(1), "keys": _key(K.Key_Plus)},
    ("−1",): {"mouse": _plus(-1), "keys": _key(K.Key_Minus)},
}
# where a gesture means something else on that piece (a double-click in the hand plays, on a
# pile draws): its own direct routes
BY_TARGET: dict[tuple[str, tuple[str, ...]], dict[str, Callable[[Any, str], None]]] = {
    ("a card in your hand", ("Flip",)): {"keys": _key(K.Key_F)},
    ("a card in your hand", ("Send to", "Play area")): {"mouse": _double,
                                                         "keys": _key(K.Key_Return)},
    ("the top of your deck", ("Flip",)): {"keys": _key(K.Key_F)},
}
DIALOGS = {"Draw N cards…": 2, "Peek at the top N…": 2, "Set value…": 3, "Set Damage…": 2,
           "Set Counter…": 5, "Add a counter…": "Wounds"}
LAST = ("Move all cards to", "Shuffle all cards into", "Send to")  # they empty or move the piece


def test_every_menu_action_by_every_route_makes_the_same_ops(windows, qtbot):  # type: ignore[no-untyped-def]
    step = Step(windows, qtbot)
    a = windows["mouse menu"]
    # two cards in play to act on (a double-click plays a hand card, Enter does the same)
    step.take("play a hand card", _hand, ("Send to", "Play area"),
              {"mouse": _double, "keys": _key(K.Key_Return)})
    step.take("play a hand card", _hand, ("Send to", "Play area"),
              {"mouse": _drag_to("p1.play"), "keys": _carry_to("p1.play")})
    targets: list[tuple[str, Callable[[Any], str]]] = [
        ("a card in play", _in_play), ("a card in your hand", _hand),
        ("the die", lambda w: "d6"), ("your Favor", lambda w: "p1.favor"),
        ("your pawn", lambda w: "p1.pawn"), ("your play area", lambda w: "p1.play"),
        ("the open table", lambda w: ROOT), ("a die you added", _added_die),
        ("the top of your deck", _deck_top), ("the market", lambda w: "market"),
        ("your deck", lambda w: "p1.deck")]
    seen: set[tuple[str, ...]] = set()
    for what, target in targets:
        leaves = _menu_leaves(a, target(a))
        leaves.sort(key=lambda p: p[0] in LAST)
        for path in leaves:
            if path[0] == "Select all cards here":
                continue  # a selection, no op: tests/ui/test_keys.py (Ctrl+A)
            answer = DIALOGS.get(path[-1])
            while len(a.replica.state.cards_in("p1.hand")) < 2:  # cards to act on
                step.take("draw", lambda w: "p1.deck", ("Draw a card",),
                          {r: _key(K.Key_D) for r in ("mouse", "keys")})
            if target is _in_play and not a.replica.state.cards_in("p1.play"):
                step.take("play a hand card", _hand, ("Send to", "Play area"))
            try:
                here = target(a)
            except IndexError:
                break  # the pile is empty now
            if path in seen and (what, path) not in BY_TARGET:
                continue  # the same action on another piece: taken already
            if path not in _menu_leaves(a, here):
                continue  # gone with an earlier action (Reveal, once revealed)
            pile = here if here in ("market", "p1.deck") else None
            if pile is not None and not a.replica.state.cards_in(pile):
                break  # an empty pile: nothing to draw, move or shuffle
            direct = BY_TARGET.get((what, path), DIRECT.get(path))
            step.take(what, target, path, direct, answer)
            seen.add(path)
    step.take("next phase", lambda w: "p1.hand", ("—",), {
        r: (lambda w, o: Mouse(w).next_phase()) if "mouse" in r else _key(K.Key_N)
        for r in ROUTES})
    step.take("end turn", lambda w: "p1.hand", ("—",), {
        r: (lambda w, o: Mouse(w).end_turn()) if "mouse" in r else
        _key((K.Key_Return, Qt.KeyboardModifier.ControlModifier)) for r in ROUTES})
    for must in [("Flip",), ("Counters", "Add Damage"), ("Draw N cards…",), ("Shuffle",),
                 ("Peek at the top N…",), ("Roll",), ("+1",), ("Show privately to", "East"),
                 ("Add a die", "d6"), ("Remove from the table",), ("Send to", "Play area")]:
        assert must in seen, f"{must} was never taken"
    assert step.compared >= 50
