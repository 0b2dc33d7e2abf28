"""A bot seat at a LAN table, by real input (offscreen, 127.0.0.1 only): a person hosts a
Gauntlet table from the start screen's Host button and dialog, right-clicks the empty seat in
the Seats panel and gives it to a bot; the bot joins as a headless peer of its own process
(`sandtable join --headless --bot`), sets its seat up with the host, plays its turns; the
person plays theirs (Capture, Draw, End turn) and, after the bot's turn, ends the game (a
concession, through the End the game dialog: the bot cannot win the Gauntlet in a test's
time against a person who does not fight). The bot's peer sees the end and leaves.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QToolBar

from table import lan
from tests.ui.seat_menu_kit import click_tab, right_click_seat, walk_menu
from tests.ui.test_lan_ui import _lan_app, _run, closing, until

pytestmark = [pytest.mark.socket, pytest.mark.processes]
LEFT = Qt.MouseButton.LeftButton


def click(widget: Any) -> None:
    QTest.mouseClick(widget, LEFT, Qt.KeyboardModifier.NoModifier, widget.rect().center())


def typed(field: Any, text: str) -> None:
    field.setFocus()
    QTest.keyClick(field, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClicks(field, text)


def test_a_person_gives_a_lan_seat_to_a_bot_and_the_game_plays_to_its_end(  # type: ignore[no-untyped-def]
        qapp, qtbot, tmp_path):
    lan_app = _lan_app(tmp_path)
    shell = lan_app.shell
    seen: dict[str, Any] = {}

    async def scenario() -> None:
        click(shell.start.host)  # the start screen's "Host a LAN table"
        dialog = lan_app.dialogs[-1]
        qtbot.addWidget(dialog)
        dialog.game.setFocus()
        QTest.keyClick(dialog.game, Qt.Key.Key_Home)
        while dialog.game.currentData() != "gauntlet":
            QTest.keyClick(dialog.game, Qt.Key.Key_Down)
        typed(dialog.seats, "2")
        typed(dialog.table_name, "Ada and a bot")
        typed(dialog.seat, "1")
        click(dialog.host_button)
        await until(lambda: shell.tables and not dialog.isVisible(), 15, "the table window")
        w, t = shell.tables[0], lan_app.tables[0]
        r = t.replica
        click_tab(w, "Seats")
        right_click_seat(w, 2)
        walk_menu("Add a bot", "Random: any legal move, at random")
        await until(lambda: r.state.seats.get(2) is not None and lan.setup_complete(r), 30,
                    "the bot's peer seated and the setup done")
        assert r.state.seats[2].peer != r.peer_id and r.state.seats[2].name == "Random bot"
        await until(lambda: (r.state.tags.get("players") or {}).get("2") ==
                    "gauntlet-random (bot)", 10, "the log's tag naming the bot")
        # the bot plays its turns; the person plays theirs: Capture, Draw (a card), End turn
        bot_turns = 0
        while bot_turns < 1 or r.state.turn.get("seat") != 1:
            await until(lambda: r.state.turn.get("seat") in (1, 2), 15, "a turn")
            if r.state.turn.get("seat") == 2:
                number = r.state.turn["number"]
                await until(lambda n=number: r.state.turn["number"] > n, 20, "the bot's turn")
                bot_turns += 1
                continue
            w.activateWindow()  # (offscreen, a closed menu keeps the activation)
            await until(lambda: QApplication.activeWindow() is w, 5, "the window active")
            w.view.setFocus()
            hand = len(r.state.cards_in("p1.hand"))
            QTest.keyClick(w.view, Qt.Key.Key_N)  # Capture
            QTest.keyClick(w.view, Qt.Key.Key_N)  # Draw
            QTest.keyClick(w.view, Qt.Key.Key_D)
            assert r.state.phase == "Draw" and len(r.state.cards_in("p1.hand")) == hand + 1
            click(w.turn.end_turn)  # the Turn panel's End turn, where it is
            await until(lambda: r.state.turn.get("seat") == 2, 10, "the turn passed")
        seen["bot ops"] = [rec.op for rec in r.records() if rec.op.seat == 2]
        # the person ends the game: Bob's bot wins by the person's concession
        bar = w.findChild(QToolBar, "toolbar-table")
        click(bar.widgetForAction(w.act_end_game))
        await until(lambda: getattr(w, "end_dialog", None) is not None and
                    w.end_dialog.isVisible(), 5, "the End the game dialog")
        end = w.end_dialog
        QTest.mouseClick(end.winners[2], LEFT, pos=QPoint(8, end.winners[2].height() // 2))
        end.how.setFocus()
        QTest.keyClick(end.how, Qt.Key.Key_Down)  # victory -> concession
        click(end.buttons.button(QDialogButtonBox.StandardButton.Ok))
        await until(lambda: r.state.result is not None, 5, "the end op")
        seen["result"] = dict(r.state.result)
        bots = lan_app.windows[id(t)].seats.bots
        proc = bots.procs[2][1]
        await until(lambda: proc.poll() is not None, 20, "the bot's peer to leave")
        seen["rc"] = proc.returncode

    try:
        _run(qapp, closing(scenario(), lambda: [lan_app]), 90)
    finally:
        for window in lan_app.windows.values():  # a failed run leaves no bot behind
            window.seats.bots.stop_all()  # type: ignore[union-attr]
    ops = seen["bot ops"]
    phases = [op.args.get("value") for op in ops if op.kind == "mark"
              and op.args.get("what") == "phase"]
    assert {"Capture", "Draw", "Movement", "Cleanup"} <= set(phases)  # whole turns, by the bot
    assert any(op.kind == "mark" and op.args.get("what") == "turn" for op in ops)
    assert seen["result"]["winners"] == [2] and seen["result"]["how"] == "concession"
    assert seen["rc"] == 0
    out = next(Path(tmp_path / "home").rglob("*-seat2.out")).read_text()
    assert "BOT DONE ended" in out

