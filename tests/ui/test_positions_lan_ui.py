"""LAN tables started from a position in the app (offscreen, 127.0.0.1 only): the Host dialog
with a position and a headless joiner given the same file; the Join dialog with a position,
typed address, to a table hosted in-process. Each peer makes only its own hidden cards."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from netplay.session.lan_session import SessionOptions
from table import lan
from table.games.position import read_position

from .test_lan_ui import FAST, LOOPBACK, Headless, _cards, _lan_app, _run, closing, until

pytestmark = [pytest.mark.socket, pytest.mark.processes]

POSITION = Path(__file__).resolve().parents[1] / "games" / "data" / "gauntlet.toml"


def _ended(replica: Any) -> bool:
    return any(r.op.kind == "mark" and r.op.args.get("value") == "position-end"
               for r in replica.records())


def test_host_dialog_starts_from_a_position(qapp, qtbot, tmp_path):  # type: ignore[no-untyped-def]
    lan_app = _lan_app(tmp_path)
    shell = lan_app.shell
    peer: Headless | None = None

    async def scenario() -> None:
        nonlocal peer
        dialog = lan_app.open_host_dialog()
        qtbot.addWidget(dialog)
        dialog.position.edit.setText(str(POSITION))
        dialog.table_name.setText("Situation")
        dialog.seat.setValue(1)
        dialog.host_button.click()
        await until(lambda: shell.tables, 15, "the host's table window")
        window = shell.tables[0]
        t = lan_app.tables[0]
        assert t.position is not None and t.replica.game == "gauntlet"
        peer = Headless("join", "--headless", "--connect", f"{LOOPBACK}:{t.session.port}",
                        "--seat", "2", "--interfaces", LOOPBACK, "--position", str(POSITION),
                        "--log", str(tmp_path / "guest.log"), "--name", "Bram", "--fast",
                        "--status", "--no-announce")
        await until(lambda: _ended(t.replica), 25, "the position's start to finish")
        assert t.replica.state.phase == "Capture"
        assert len(_cards(t.replica, "p2.hand")) == 3
        # this peer knows its own hand, not seat 2's
        assert all(t.replica.knowledge.card_of(c) for c in _cards(t.replica, "p1.hand"))
        assert not any(t.replica.knowledge.card_of(c) for c in _cards(t.replica, "p2.hand"))
        digest = t.replica.public_state_hash
        await until(lambda: peer.last_hash() == digest(), 15, "the joiner in step")
        assert len(window.scene.cards) > 0
        window.close()
        await until(lambda: not lan_app.tables, 10, "the host to leave")

    try:
        _run(qapp, closing(scenario(), lambda: [lan_app]), 60)
    finally:
        if peer is not None:
            peer.stop()
            assert not [e for e in peer.errors if "Traceback" in e], peer.errors


def test_join_dialog_with_a_position(qapp, qtbot, tmp_path):  # type: ignore[no-untyped-def]
    lan_app = _lan_app(tmp_path)
    shell = lan_app.shell
    position = read_position(POSITION)
    hosts: list[Any] = []

    async def scenario() -> None:
        host = await lan.host(position.module, table_name="Pos", seats=2,
                              log_path=tmp_path / "host.log", position=position,
                              options=SessionOptions(interfaces=[LOOPBACK], announce=False,
                                                     player_name="Host", **FAST))
        hosts.append(host)
        await lan.take_seat(host, 1, name="Host")
        dialog = lan_app.open_join_dialog()
        qtbot.addWidget(dialog)
        dialog.address.setText(f"{LOOPBACK}:{host.session.port}")
        dialog.go.click()  # without the position file: refused, with what to do
        await until(lambda: not dialog.busy, 20, "the refused join")
        assert "same position file" in dialog.error_text(), dialog.error_text()
        dialog.position.edit.setText(str(POSITION))
        dialog.go.click()
        await until(lambda: dialog.joined is not None, 20, "the join")
        dialog.go.click()  # the free seat, 2
        await until(lambda: shell.tables, 20, "the joiner's window")
        t = lan_app.tables[0]
        await until(lambda: _ended(host.replica) and _ended(t.replica), 15, "the start")
        assert all(t.replica.knowledge.card_of(c) for c in _cards(t.replica, "p2.hand"))
        assert not any(t.replica.knowledge.card_of(c) for c in _cards(t.replica, "p1.hand"))
        await until(lambda: t.replica.public_state_hash() == host.replica.public_state_hash(),
                    10, "the same table")
        shell.tables[0].close()
        await until(lambda: not lan_app.tables, 10, "the joiner to leave")

    _run(qapp, closing(scenario(), lambda: [lan_app], hosts), 60)


def test_end_turn_in_the_window_passes_the_turn_and_the_joiner_sets_its_own_first_phase(
        qapp, qtbot, tmp_path):  # type: ignore[no-untyped-def]
    """Ctrl+Enter in the host's window: the turn marker is the host's, the joiner's first
    phase is the joiner's own op (its peer, a separate process), and no flag is raised."""
    from PySide6.QtCore import Qt

    lan_app = _lan_app(tmp_path)
    shell = lan_app.shell
    peer: Headless | None = None

    async def scenario() -> None:
        nonlocal peer
        dialog = lan_app.open_host_dialog()
        qtbot.addWidget(dialog)
        dialog.position.edit.setText(str(POSITION))
        dialog.table_name.setText("Turns")
        dialog.seat.setValue(1)
        dialog.host_button.click()
        await until(lambda: shell.tables, 15, "the host's table window")
        window = shell.tables[0]
        t = lan_app.tables[0]
        peer = Headless("join", "--headless", "--connect", f"{LOOPBACK}:{t.session.port}",
                        "--seat", "2", "--interfaces", LOOPBACK, "--position", str(POSITION),
                        "--log", str(tmp_path / "guest.log"), "--name", "Joiny", "--fast",
                        "--status", "--no-announce")
        await until(lambda: _ended(t.replica), 25, "the position's start to finish")
        await until(lambda: peer.last_hash() == t.replica.public_state_hash(), 15, "in step")
        assert t.replica.state.turn["seat"] == 1
        window.activateWindow()
        window.view.setFocus()
        qtbot.keyClick(window.view, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
        turn = t.replica.records()[-1].op
        assert (turn.kind, turn.args["what"], turn.args["seat"]) == ("mark", "turn", 2)
        assert (turn.author, turn.seat) == (t.replica.peer_id, 1)  # the ender's, nothing more
        await until(lambda: t.replica.state.phase == "Capture", 15, "the joiner's first phase")
        first = t.replica.records()[-1].op
        assert (first.args["what"], first.args["value"]) == ("phase", "Capture")
        assert first.author != t.replica.peer_id and first.seat == 2  # the joiner's own op
        window.refresh_panels()
        assert window.assist_runner is not None and window.assist_runner.entries() == []
        digest = t.replica.public_state_hash
        await until(lambda: peer.last_hash() == digest(), 15, "the joiner in step")
        window.close()
        await until(lambda: not lan_app.tables, 10, "the host to leave")

    try:
        _run(qapp, closing(scenario(), lambda: [lan_app]), 60)
    finally:
        if peer is not None:
            peer.stop()
            assert not [e for e in peer.errors if "Traceback" in e], peer.errors
    from assist.runner import load_plugin, run_over
    from table.core.replica import Replica
    from table.games import find_module

    guest = Replica.from_log(tmp_path / "guest.log")
    runner = run_over([r.op for r in guest.records()], find_module("gauntlet"),
                      load_plugin("gauntlet"), knowledge=guest.knowledge)
    assert [f.rule for f in runner.flags()] == []  # nor on the joiner's side
