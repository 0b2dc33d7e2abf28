"""Bots at a hot-seat table, by real input: a person right-clicks three seats of a Dead to
Rites table in the Seats panel and gives each to a bot, plays a turn with the mouse and keys,
ends it, answers what the bots' turns ask of them (the Defense Pool: Declare, Pass) and gets
the turn back; the view never leaves the person's seat (no curtain), undo takes back the
person's own move only, and the rules assist judges the bots' moves (no flag on them).
"""
from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from tests.ui.helpers import cards_in, choose, click, open_menu, show_active
from tests.ui.seat_menu_kit import click_tab, declare, right_click_seat


def open_table(qtbot: Any) -> tuple[Any, Any]:
    """The program's shell (bots wired in as at its start) and a 4-seat Dead to Rites table."""
    from table.app.table_bots import wire
    from table.ui.games import available_games
    from table.ui.settings import Settings
    from table.ui.shell import Shell

    settings = Settings.load()
    settings.extra["bot_pace_ms"] = 0  # the bots' moves as fast as the event loop turns
    shell = Shell(settings)
    wire(shell)  # what the program does at its start (table.app.desktop)
    qtbot.addWidget(shell.start)
    choice = {g.id: g for g in available_games()}["dead-to-rites"]
    w = shell.play(choice, 4, choice.default_decks[:4])
    assert w is not None
    show_active(qtbot, w, (1366, 768))
    return shell, w


@pytest.fixture
def table(qtbot: Any) -> Any:
    _shell, w = open_table(qtbot)
    yield w
    w.close()


def test_a_person_adds_three_bots_plays_a_turn_and_gets_it_back(table: Any, qtbot: Any) -> None:
    w = table
    r, state = w.replica, w.replica.state
    assert state.turn["seat"] == 1 and w.ctl.seat == 1
    r.issue("tag", {"players": {"3": "Ada"}})  # who sat there (`sandtable new --player 3=Ada`)
    click_tab(w, "Seats")
    for seat in (2, 3, 4):
        right_click_seat(w, seat)
        assert "Add a bot" in [a.text() for a in open_menu().actions()]  # type: ignore[attr-defined]
        choose("Add a bot", "Heuristic: plays to win")
    assert {n: s.name for n, s in state.seats.items()} == {
        1: "Player 1", 2: "Player 2 (bot)", 3: "Player 3 (bot)", 4: "Player 4 (bot)"}
    assert w.ctl.playable_seats == [1]
    # the new names where the seats show: their name plates on the table, their tabs
    assert [w.scene.areas[n].name for n in (1, 2, 3, 4)] == [
        "Player 1", "Player 2 (bot)", "Player 3 (bot)", "Player 4 (bot)"]
    assert [w.seat_bar.tabText(i) for i in range(w.seat_bar.count())] == [
        "Player 1", "Player 2 (bot)", "Player 3 (bot)", "Player 4 (bot)"]
    right_click_seat(w, 1)  # the last seat a person plays stays theirs
    menu = open_menu()
    assert "Player 1 is the last seat a person plays here" in \
        [a.text() for a in menu.actions()]  # type: ignore[attr-defined]
    menu.close()  # type: ignore[attr-defined]

    # the person's turn: Dawn (a Favor, a card), then through the phases, End turn
    w.view.setFocus()
    QTest.keyClick(w.view, Qt.Key.Key_N)
    assert state.phase == "Dawn"
    click(w.view, w.scene.trackers["p1.favor"].plus_rect().center())
    hand = len(cards_in(r, "p1.hand"))
    QTest.keyClick(w.view, Qt.Key.Key_D)
    assert len(cards_in(r, "p1.hand")) == hand + 1
    for phase in ("Main", "Combat", "Rite", "Dusk"):
        QTest.keyClick(w.view, Qt.Key.Key_N)
        assert state.phase == phase
    mine = len(r.records())
    passed: list[int] = []
    w.ctl.seatChanged.connect(passed.append)
    QTest.keyClick(w, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)  # End turn
    assert state.turn["seat"] == 2

    # the bots play their turns; a Rite of theirs waits for the person's answer to its
    # Defense Pool (the status bar says so): Declare, Pass
    for _ in range(12):
        qtbot.waitUntil(lambda: state.turn["seat"] == 1 or
                        "waits for you" in w.statusBar().currentMessage(), timeout=10000)
        if state.turn["seat"] == 1:
            break
        assert "Defense Pool" in w.statusBar().currentMessage()
        declare(w, "Pass (no commit to the Defense Pool)")
    assert state.turn == {"seat": 1, "number": 5}
    w.activateWindow()  # (offscreen, the closed menu keeps the activation)
    qtbot.waitUntil(lambda: QApplication.activeWindow() is w)
    assert passed == [] and not w.curtain.isVisible()  # the view never passed: no curtain
    played = [rec.op for rec in r.records()[mine:]]
    for seat in (2, 3, 4):  # each bot played its whole turn, Dawn to Dusk, as its seat
        phases = [op.args["value"] for op in played if op.seat == seat and op.kind == "mark"
                  and op.args.get("what") == "phase"]
        assert phases[-4:] == ["Main", "Combat", "Rite", "Dusk"] and "Dawn" in phases
        assert any(op.seat == seat and op.kind == "consume" for op in played)  # its draw
    # the rules assist judged every bot move: no flag on them
    runner = w.assist_runner
    assert runner is not None
    flagged = {rec.op.seat for i, rec in enumerate(r.records()) if runner.flags_at(i)}
    assert not flagged & {2, 3, 4}, flagged

    # undo takes back the person's own move, never a bot's
    w.view.setFocus()
    QTest.keyClick(w.view, Qt.Key.Key_N)  # the person's Dawn
    assert state.phase == "Dawn"
    hand = len(cards_in(r, "p1.hand"))
    QTest.keyClick(w.view, Qt.Key.Key_D)
    assert len(cards_in(r, "p1.hand")) == hand + 1
    size = len(r.records())
    QTest.keyClick(w, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert len(cards_in(r, "p1.hand")) == hand
    undo = r.records()[size].op
    assert undo.kind == "undo" and undo.seat == 1
    target = next(rec.op for rec in r.records() if rec.op.ref == tuple(undo.args["target"]))
    assert target.seat == 1 and target.kind == "consume"

    # a bot's seat handed back: the person may play it again
    right_click_seat(w, 3)
    choose("Remove the bot from Player 3 (bot)")
    assert state.seats[3].name == "Player 3" and w.ctl.playable_seats == [1, 3]
    assert w.scene.areas[3].name == "Player 3" and w.seat_bar.tabText(2) == "Player 3"
    assert state.tags["players"] == {"2": "dead-to-rites-heuristic (bot)",
                                     "3": "Ada", "4": "dead-to-rites-heuristic (bot)"}


def test_a_resumed_game_seats_its_bots_again(qtbot: Any) -> None:
    """Bots given two seats, the window closed, "Resume the last game" clicked: the same seats
    are the bots' again (named once, not "(bot) (bot)"), and they play their turns; what they
    wait for from a person is said on the curtain that passes the screen to them."""
    shell, w = open_table(qtbot)
    click_tab(w, "Seats")
    for seat, bot in ((2, "Heuristic: plays to win"), (3, "Random: any legal move, at random")):
        right_click_seat(w, seat)
        choose("Add a bot", bot)
    assert w.ctl.playable_seats == [1, 4]
    assert w.replica.state.tags["players"] == {"2": "dead-to-rites-heuristic (bot)",
                                               "3": "dead-to-rites-random (bot)"}
    w.close()
    assert shell.start.isVisible() and shell.start.resume.isEnabled()
    QTest.mouseClick(shell.start.resume, Qt.MouseButton.LeftButton)
    again = shell.tables[-1]
    assert again is not w
    qtbot.addWidget(again)
    state = again.replica.state
    assert again.ctl.playable_seats == [1, 4]
    assert {n: s.name for n, s in state.seats.items()} == {
        1: "Player 1", 2: "Player 2 (bot)", 3: "Player 3 (bot)", 4: "Player 4"}
    assert again.seats.bots.bot_at(2) == "dead-to-rites-heuristic"
    assert again.seats.bots.bot_at(3) == "dead-to-rites-random"

    # the person's turn, ended by keys: the two bots play theirs, and seat 4 gets the turn
    again.resize(1366, 768)
    qtbot.waitExposed(again)
    again.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is again)
    again.view.setFocus()
    for _ in range(5):
        QTest.keyClick(again.view, Qt.Key.Key_N)
    assert state.phase == "Dusk"
    QTest.keyClick(again, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    curtained = 0
    for _ in range(12):
        qtbot.waitUntil(lambda: state.turn["seat"] == 4 or
                        "waits for you" in again.statusBar().currentMessage(), timeout=10000)
        if state.turn["seat"] == 4:
            break
        told = again.statusBar().currentMessage()
        if again.curtain.isVisible():  # passed to the other person: the curtain says what for
            assert again.curtain.why == told and "Defense Pool" in told
            curtained += 1
            QTest.keyClick(again.curtain, Qt.Key.Key_Space)
        declare(again, "Pass (no commit to the Defense Pool)")
        qtbot.waitUntil(lambda told=told: again.statusBar().currentMessage() != told)
    assert state.turn["seat"] == 4
    # the heuristic bot's first Rite waits for both people's Defense Pool: the curtain passed
    # the screen to the one who was not looking, saying what for
    assert curtained >= 1
    seats_moved = {rec.op.seat for rec in again.replica.records() if rec.op.kind == "mark"
                   and rec.op.args.get("what") == "phase"}
    assert {2, 3} <= seats_moved

    # taken back: the tag says nobody, and a resume no longer seats a bot there
    click_tab(again, "Seats")
    right_click_seat(again, 2)
    choose("Remove the bot from Player 2 (bot)")
    assert state.tags["players"] == {"3": "dead-to-rites-random (bot)"}
    again.close()
