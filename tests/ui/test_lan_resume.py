"""Getting back into a LAN game from the app after a crash (offscreen, 127.0.0.1 only).

* The host's app crashes (its session stops without a goodbye; log and key stay) while a
  headless `sandtable join` peer plays on; a fresh app's start screen offers "Rejoin “Ada's
  table” as Ada" (the joiner announces the table), the click asks for the passphrase and
  rejoins: same peer id, the joiner sees it connected again, the joiner's move made meanwhile
  is there, both end with the same state hash. Leaving the table on purpose keeps it offered
  while its game goes on.
* A joiner's app crashes; the host does not announce, so on relaunch the offer is found at the
  address saved beside the log (`<log>.peers`), and one click rejoins there.
"""
from __future__ import annotations

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


async def click_offer(shell: Any, path: str, label: str) -> None:
    """Wait for the start screen to offer the table of this log, then click the offer."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    buttons = shell.start.rejoin_buttons
    await until(lambda: path in buttons and buttons[path].text() == label, 15,
                f"the start screen to offer {label!r} (it shows "
                f"{[b.text() for b in buttons.values()]}; remembered: {_memory()})")
    QTest.mouseClick(buttons[path], Qt.MouseButton.LeftButton)


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

        # Relaunch: the start screen offers the LAN table; the click asks for the passphrase.
        app = _app("Ada")
        second.append(app)
        shell = app.shell
        assert not shell.start.resume.isEnabled()  # a LAN table is offered by name instead
        await click_offer(shell, path, "Rejoin “Ada's table” as Ada")
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
        # Leaving on purpose: the table is offered again while its game goes on.
        window.close()
        await until(lambda: not app.tables, 10, "the host to leave")
        await until(lambda: path in shell.start.rejoin_buttons, 10, "the table offered again")

    try:
        _run(qapp, closing(scenario(), lambda: [first, *second]), 60)
    finally:
        if peer is not None:
            peer.stop()
            assert not [e for e in peer.errors if "Traceback" in e], peer.errors


def test_joiner_app_crashes_and_rejoins_at_its_saved_address(qapp, qtbot, tmp_path):  # type: ignore[no-untyped-def]
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

        # Relaunch: nobody announces the table, but the host answers at its saved address.
        app = _app("Bob")
        second.append(app)
        shell = app.shell
        assert not shell.offer_resume()  # no question at launch: the start screen offers it
        path = str(tmp_path / "bob.sandlog")
        await click_offer(shell, path, "Rejoin “Alpha” as Bob")
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


def _memory() -> Any:
    from table.ui.lan import memory

    return memory.load()
