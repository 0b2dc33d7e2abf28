"""Each seat's own die, and a resumed table that shows its flags at once."""
from __future__ import annotations

from PySide6.QtCore import Qt

from table.core.rng import Rng
from tests.ui.helpers import click, drag, show_active


def _show(qtbot, w):  # type: ignore[no-untyped-def]
    show_active(qtbot, w, (1600, 1000))
    w.view.fit_table()
    return w


def test_gauntlet_seats_roll_their_own_dice_which_lie_apart_and_can_be_dragged(qtbot):  # type: ignore[no-untyped-def]
    from table.ui.games import available_games, start_game
    from table.ui.main_window import TableWindow

    choice = {g.id: g for g in available_games()}["gauntlet"]
    replica, catalog = start_game(choice, 2, rng=Rng(5))
    w = _show(qtbot, TableWindow(replica, catalog))
    a, b = w.scene.dice["p1.die"], w.scene.dice["p2.die"]
    assert not a.sceneBoundingRect().intersects(b.sceneBoundingRect())
    w.ctl.set_seat(2)
    n = len(replica.records())
    click(w.view, w.scene.dice["p2.die"].scenePos())
    roll = replica.records()[n].op
    assert roll.kind == "roll" and roll.args["id"] == "p2.die" and roll.seat == 2
    target = w.scene.zones["p2.supplemental"].rect.center()
    drag(w.view, w.scene.dice["p2.die"].scenePos(), target)
    assert replica.state.objs["p2.die"].pos is not None
    # where the pointer let go, to the view's pixel (a pixel is 1/zoom units of the table)
    assert (w.scene.dice["p2.die"].scenePos() - target).manhattanLength() < 2 / w.view.zoom
    w.shutdown()


def test_every_built_in_game_has_a_die(qtbot):  # type: ignore[no-untyped-def]
    from table.ui.games import available_games, start_game

    for choice in available_games():
        if choice.id == "sample":
            continue
        replica, _ = start_game(choice, choice.min_seats, rng=Rng(1))
        assert any(o.kind == "die" and o.alive for o in replica.state.objs.values()), choice.id


def test_a_resumed_table_shows_its_flags_and_an_undone_flag_leaves_the_log(qtbot, tmp_path):  # type: ignore[no-untyped-def]
    from table.games import find_module
    from table.games.setup import new_table
    from table.ui.games import open_log
    from table.ui.main_window import TableWindow

    path = tmp_path / "t.sandlog"
    replica = new_table(find_module("dead-to-rites"), 4, rng=Rng(3), log_path=path)
    replica.issue("counter", {"id": "p1.favor", "value": 9}, seat=1)  # over the Favor cap
    replica.close()
    replica, catalog = open_log(path, reopen=True)
    w = _show(qtbot, TableWindow(replica, catalog))
    lines = w.log_panel.list
    qtbot.waitUntil(lambda: "⚑" in lines.item(lines.count() - 1).text())
    flagged = lines.count() - 1
    assert w.assist.tree.topLevelItemCount() == 1
    w.ctl.set_seat(1)
    qtbot.keyClick(w.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # take it back
    assert replica.state.objs["p1.favor"].counters["value"] != 9
    w.refresh_panels()
    assert "⚑" not in lines.item(flagged).text()
    assert lines.item(flagged).foreground().color().name() != "#ff6f60"
    assert w.assist.tree.topLevelItemCount() == 0
    w.shutdown()
