"""Getting back into a LAN game from the app after a crash (offscreen, 127.0.0.1 only).

* The host's app crashes (its session stops without a goodbye; log and key stay) while a
  headless `sandtable join` peer plays on; a fresh app's start screen offers the game, Resume
  asks for the passphrase and rejoins: same peer id, the joiner sees it connected again, the
  joiner's move made meanwhile is there, both end with the same state hash.
* A joiner's app crashes; on relaunch the offer to rejoin finds nobody by discovery (the host
  does not announce), the dialog shows the HOST:PORT field, and with the address it rejoins.
* Leaving the table on purpose marks the game finished: it is not offered again.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from netplay.session.lan_session import SessionOptions
from table import lan
from table.core import actions as act

from .test_lan_ui import FAST, LOOPBACK, Headless, _cards, _run, closing, until

pytestmark = [pytest.mark.socket, pytest.mark.processes]


def _app(name: str) -> Any:
    """A freshly launched app: settings read from disk, as after a crash."""
    from table.app.lan_wiring import LanApp
    from table.ui.settings import Settings
    from table.ui.shell import Shell

    settings = Settings.load()
    settings.name = name
    shell = Shell(settings)
    shell.show_start()
    lan_app = LanApp(shell, interfaces=[LOOPBACK], options=FAST)
    lan_app.rejoin_timeout = 4.0
    return lan_app


async def _crash(lan_app: Any) -> str:
    """The app dies: no bye, no leave; the log and its key stay on disk. Returns the log."""
    t = lan_app.tables[0]
    window = lan_app.windows[id(t)]
    window.on_leave = None  # a crash runs no leave code
    path = str(t.replica.log.path)
    await t.close(graceful=False)
    lan_app.tables.clear()
    lan_app.windows.clear()
    window.hide()
    window.shutdown()
    lan_app.shell.start.hide()
    return path


def test_host_app_crashes_and_rejoins_from_resume(qapp, qtbot, tmp_path):  # type: ignore[no-untyped-def]
    from table.ui.lan import HostRequest

    first = _app("Ada")
    script = tmp_path / "moves.jsonl"
    script.write_text(
        '{"op": "move", "card": "p2.hand:top", "to": "p2.assets", "face_up": true, "after": 0.3}\n'
        '{"op": "move", "card": "p2.hand:top", "to": "p2.assets", "face_up": true, "after": 1.5}\n')
    peer: Headless | None = None
    second: list[Any] = []

    async def scenario() -> None:
        nonlocal peer
        await first.host_table(HostRequest("gauntlet", 2, "Ada's table", "pw", 1, None, "Ada"))
        t = first.tables[0]
        me = t.replica.peer_id
        peer = Headless("join", "--headless", "--connect", f"{LOOPBACK}:{t.session.port}",
                        "--seat", "2", "--passphrase", "pw", "--interfaces", LOOPBACK,
                        "--log", str(tmp_path / "guest.log"), "--name", "Bob", "--fast",
                        "--status", "--script", str(script))
        await until(lambda: _cards(t.replica, "p2.assets"), 25, "the joiner's first move")
        seen = sum(t.replica.version_vector().values())
        path = await _crash(first)

        # The joiner plays on alone: its link to us is gone and its second move is made.
        def alone_and_moved() -> bool:
            status = [ln.split() for ln in peer.lines if ln.startswith("STATUS ")]
            return bool(status) and status[-1][3] == "0" and int(status[-1][1]) > seen
        await until(alone_and_moved, 10, "the joiner's move while the host is gone")

        # Relaunch: the start screen offers the LAN game; Resume asks for the passphrase.
        app = _app("Ada")
        second.append(app)
        shell = app.shell
        assert shell.settings.resumable() == Path(path)
        assert shell.start.resume.isEnabled() and "Ada's table" in shell.start.resume_note.text()
        shell.start.resume.click()
        dialog = app.dialogs[-1]
        qtbot.addWidget(dialog)
        assert dialog.passphrase.isVisible() and not dialog.busy
        dialog.passphrase.setText("pw")
        dialog.go.click()
        assert dialog.status.text() == "Rejoining table Ada's table…"  # the UI did not wait
        await until(lambda: shell.tables, 15, "the rejoined table window")
        window = shell.tables[0]
        t2 = app.tables[0]
        assert t2.replica.peer_id == me and "peers" in window.docks
        assert t2.session.announcer is not None  # the table is announced again
        # the move made while we were gone (catch-up may still be finishing on a busy machine)
        await until(lambda: len(_cards(t2.replica, "p2.assets")) == 2, 10, "the missed move")
        await until(lambda: all(window.scene.where.get(c) == "p2.assets"
                                for c in _cards(t2.replica, "p2.assets")), 5, "it on screen")
        panel = window.peers_panel
        await until(lambda: "connected" in panel.statuses().values(), 10, "Bob connected")
        await until(lambda: peer.lines and any(ln.startswith("STATUS ") and ln.split()[3] == "1"
                                               for ln in peer.lines[-3:]), 10,
                    "the joiner to see the host again")
        # Play on: a move in the rejoined window reaches the joiner; same state hash.
        card = _cards(t2.replica, "p1.hand")[0]
        window.ctl.act(act.move, card, "p1.assets")
        await until(lambda: peer.last_hash() == t2.replica.public_state_hash(), 15,
                    "the same state hash")
        # Leaving on purpose: the game is no longer offered.
        window.close()
        await until(lambda: not app.tables, 10, "the host to leave")
        assert shell.settings.resumable() is None and not shell.start.resume.isEnabled()

    try:
        _run(qapp, closing(scenario(), lambda: [first, *second]), 60)
    finally:
        if peer is not None:
            peer.stop()
            assert not [e for e in peer.errors if "Traceback" in e], peer.errors


def test_joiner_app_crashes_and_rejoins_by_address(qapp, qtbot, tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QMessageBox

    first = _app("Bob")
    hosts: list[Any] = []
    second: list[Any] = []

    async def scenario() -> None:
        module = lan.module_for("gauntlet")
        # The host does not announce: a rejoining joiner finds nobody by discovery.
        alpha = await lan.host(module, table_name="Alpha", seats=2,
                               log_path=tmp_path / "alpha.log",
                               options=SessionOptions(interfaces=[LOOPBACK], announce=False,
                                                      player_name="Host", **FAST))
        hosts.append(alpha)
        await lan.take_seat(alpha, 1, name="Host")
        t = await lan.join(log_path=tmp_path / "bob.sandlog",
                           connect=f"{LOOPBACK}:{alpha.session.port}",
                           options=first.session_options(None, "Bob"), timeout=10)
        await lan.take_seat(t, 2, name="Bob")
        first.open_window(t)
        me = t.replica.peer_id
        await until(lambda: lan.setup_complete(t.replica), 15, "setup complete")
        await _crash(first)
        await until(lambda: me not in alpha.session.mesh.peers(), 10, "the host to see us go")
        card = _cards(alpha.replica, "p1.hand")[0]
        act.move(alpha.replica, card, "p1.assets", seat=1, face_up=True)  # while we are gone

        # Relaunch: the on-launch offer (answered Yes) opens the rejoin at once.
        monkeypatch.setattr(QMessageBox, "question",
                            lambda *a, **k: QMessageBox.StandardButton.Yes)
        app = _app("Bob")
        app.rejoin_timeout = 2.0  # nobody announces: discovery gives up after this
        second.append(app)
        shell = app.shell
        assert shell.offer_resume()
        dialog = app.dialogs[-1]
        qtbot.addWidget(dialog)
        assert dialog.busy and not dialog.address_shown()
        await until(lambda: not dialog.busy, 15, "discovery to give up")
        assert "Nobody else of table 'Alpha' is on the LAN" in dialog.error_text(), dialog.error_text()
        assert dialog.address_shown() and not shell.tables
        dialog.address.setText(f"{LOOPBACK}:{alpha.session.port}")
        dialog.go.click()
        await until(lambda: shell.tables, 15, "the rejoined table window")
        window = shell.tables[0]
        t2 = app.tables[0]
        assert t2.replica.peer_id == me
        await until(lambda: window.scene.where.get(card) == "p1.assets", 10,
                    "the move made while we were gone, on screen")
        await until(lambda: me in alpha.session.mesh.peers(), 10, "the host to see us again")
        mine = _cards(t2.replica, "p2.hand")[0]
        window.ctl.act(act.move, mine, "p2.assets")
        await until(lambda: alpha.replica.public_state_hash() == t2.replica.public_state_hash(),
                    10, "the same state hash")
        window.close()
        await until(lambda: not app.tables, 10, "the joiner to leave")
        assert shell.settings.resumable() is None
        await alpha.close()
        hosts.clear()

    _run(qapp, closing(scenario(), lambda: [first, *second], hosts), 60)
