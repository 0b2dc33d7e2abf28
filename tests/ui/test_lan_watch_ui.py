"""Watching and joint rolls in the app (offscreen, 127.0.0.1 only).

* The Join dialog's **Watch** box: the table opens with no seat step, the peers panels show
  the watcher, every seat's view in its window shows hidden cards as backs, and a card the
  watcher drags does not move (its table refuses).
* A player's click on its die at a LAN table: the roll is drawn jointly with the other
  player, the status bar says so, and the roll op (with its shares) arrives a moment later.
"""
from __future__ import annotations

import asyncio
from typing import Any

import pytest
from PySide6.QtCore import Qt

from netplay.session.lan_session import SessionOptions
from table import lan
from table.core import actions as act
from tests.ui.helpers import click, drag
from tests.ui.test_lan_ui import FAST, LOOPBACK, _cards, _lan_app, _run, closing, until

pytestmark = pytest.mark.socket


async def _show(w: Any) -> Any:
    """Show a table window and wait for it on the loop (never qtbot.waitExposed in a task:
    see tests.ui.test_lan_ui._run)."""
    w.resize(1600, 1000)
    w.show()
    await until(lambda: w.windowHandle() is not None and w.windowHandle().isExposed(), 5,
                "the window shown")
    w.view.fit_table()
    return w


async def _join(lan_app: Any, qtbot: Any, port: int, *, watch: bool) -> Any:
    dialog = lan_app.open_join_dialog()
    qtbot.addWidget(dialog)
    dialog.address.setText(f"{LOOPBACK}:{port}")
    if watch:
        qtbot.mouseClick(dialog.watch, Qt.MouseButton.LeftButton)
        assert dialog.watch.isChecked()
    before = len(lan_app.shell.tables)
    dialog.go.click()
    if not watch:
        await until(lambda: dialog.joined is not None, 20, "the join")
        dialog.go.click()  # take the free seat
    await until(lambda: len(lan_app.shell.tables) > before, 20, "the table window")
    return dialog


def test_watch_from_the_join_dialog_and_roll_jointly(qapp, qtbot, tmp_path):  # type: ignore[no-untyped-def]
    lan_app = _lan_app(tmp_path)
    hosts: list[Any] = []

    async def scenario() -> None:
        opts = SessionOptions(interfaces=[LOOPBACK], announce=False, player_name="Host", **FAST)
        alpha = await lan.host(lan.module_for("gauntlet"), table_name="Watched", seats=2,
                               log_path=tmp_path / "alpha.log", options=opts)
        hosts.append(alpha)
        await lan.take_seat(alpha, 1, name="Host")
        port = alpha.session.port

        # A watcher: no seat step, the table opens at once.
        await _join(lan_app, qtbot, port, watch=True)
        watcher_window = await _show(lan_app.shell.tables[-1])
        watcher = lan_app.tables[-1]
        assert watcher.replica.my_seats == set()
        await until(lambda: any(p.watching and p.peer_id == watcher.replica.peer_id
                                for p in alpha.session.peer_list()), 10, "the host sees a watcher")
        # A player: the seat step as before.
        await _join(lan_app, qtbot, port, watch=False)
        player_window = await _show(lan_app.shell.tables[-1])
        player = lan_app.tables[-1]
        await until(lambda: all(lan.setup_complete(t.replica) for t in (alpha, watcher, player)),
                    20, "setup complete")
        # Every seat's view in the watcher's window shows only public information.
        hands = {s: _cards(watcher.replica, f"p{s}.hand") for s in (1, 2)}
        assert hands[1] and hands[2]
        bar = watcher_window.seat_bar
        await until(lambda: bar.count() == 2, 5, "a tab for each seat")
        for index in range(bar.count()):
            qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(index).center())
            await until(lambda i=index: watcher_window.ctl.seat == watcher_window.ctl.seats[i], 5,
                        "the view switched")
            await asyncio.sleep(0.1)  # the scene repaints on the loop
            for hand in hands.values():
                assert all(watcher_window.scene.cards[c].face is None for c in hand)
            # nothing in the watcher's window says these are its cards
            seat = watcher_window.ctl.seat
            assert watcher_window.scene.areas[seat].mark == "watching"
            assert watcher_window.scene.zones[f"p{seat}.hand"].note == "hidden from you"
        await until(lambda: all(player_window.scene.cards[c].face is not None
                                for c in _cards(player.replica, "p2.hand")), 5,
                    "the player sees its own hand")  # the same check, failing where it should
        assert player_window.scene.areas[player_window.ctl.seat].mark == "you"
        # the watcher's window greys out what moves pieces; a click on End turn does nothing
        turn_before = watcher.replica.state.turn.get("seat")
        qtbot.mouseClick(watcher_window.turn.end_turn, Qt.MouseButton.LeftButton)
        assert not watcher_window.turn.end_turn.isEnabled()
        assert not watcher_window.act_flip.isEnabled() and watcher_window.act_note.isEnabled()
        assert not watcher_window.declaring.button.isEnabled()
        assert watcher.replica.state.turn.get("seat") == turn_before
        assert player_window.turn.end_turn.isEnabled() and player_window.act_flip.isEnabled()
        card = _cards(alpha.replica, "p1.hand")[0]
        act.move(alpha.replica, card, "p1.assets", seat=1, face_up=True)
        await until(lambda: watcher_window.scene.where.get(card) == "p1.assets", 10, "the move")
        panel = watcher_window.peers_panel
        await until(lambda: panel.current and any(r.watching for r in panel.current), 5,
                    "the watcher in its own peers panel")

        # The watcher drags that card to the discard: its table refuses, nothing moves.
        ops = sum(watcher.replica.version_vector().values())
        item = watcher_window.scene.cards[card]
        target = watcher_window.scene.zones["p1.discard"].rect.center()
        drag(watcher_window.view, item.sceneBoundingRect().center(), target)
        await until(lambda: "watch" in watcher_window.statusBar().currentMessage(), 5,
                    "the refusal in the status bar")
        assert watcher.replica.state.objs[card].container == "p1.assets"
        assert sum(watcher.replica.version_vector().values()) == ops

        # The player clicks its die: a joint roll, whose op arrives a moment later.
        player_window.ctl.set_seat(2)
        rolls = len([r for r in alpha.replica.records() if r.op.kind == "roll"])
        click(player_window.view, player_window.scene.dice["p2.die"].scenePos())
        assert "Rolling with the other players" in player_window.statusBar().currentMessage()

        def joint_rolls() -> list[Any]:
            return [r.op for r in alpha.replica.records() if r.op.kind == "roll"][rolls:]

        await until(lambda: joint_rolls(), 10, "the joint roll")
        [roll] = joint_rolls()
        assert roll.author == player.replica.peer_id and roll.args["id"] == "p2.die"
        assert set(roll.args["fair"]["shares"]) == {alpha.replica.peer_id, player.replica.peer_id}
        await until(lambda: "Rolled" in player_window.statusBar().currentMessage(), 5,
                    "the rolled value shown")
        await alpha.close()
        hosts.clear()

    try:
        _run(qapp, closing(scenario(), lambda: [lan_app]), 90)
    finally:
        for h in hosts:
            _run(qapp, h.close(), 10)
