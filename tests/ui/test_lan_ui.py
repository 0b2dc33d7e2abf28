"""LAN play in the app (offscreen, 127.0.0.1 only, zeroconf on 127.0.0.1 only).

* Host a table from the Host dialog; a headless `sandtable join` subprocess takes the other
  seat and moves a card: it appears in the host's scene; a move made in the host's window
  reaches the subprocess (same state hash).
* The Join dialog lists a table announced on 127.0.0.1 and drops it when it goes; a wrong
  passphrase shows a plain error; the right one joins, the seat is taken, the table window
  opens with a peers panel, and closing it leaves the table cleanly (bye).
"""
from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from netplay.link.link import LinkConfig
from netplay.mesh.mesh import MeshConfig
from netplay.replication.replication import ReplicationConfig
from netplay.session.lan_session import SessionOptions
from table import lan
from table.core import actions as act

pytestmark = [pytest.mark.socket, pytest.mark.processes]

ROOT = Path(__file__).resolve().parents[2]
LOOPBACK = "127.0.0.1"
FAST = {"mesh": MeshConfig(link=LinkConfig(heartbeat_interval=0.5, dead_after=3.0,
                                           handshake_timeout=5.0, connect_timeout=3.0),
                           gossip_interval=1.0, dial_grace=0.3),
        "replication": ReplicationConfig(hash_interval=0.5)}


NESTED = "Cannot enter into task"  # asyncio's words for a wakeup run inside another task
CLEANUP_GRACE = 10.0  # seconds a timed-out scenario gets for its `finally` cleanup


def _run(qapp: Any, coro: Any, timeout: float) -> Any:
    """Run `coro` on a fresh qasync loop, at most `timeout` seconds (then cancelled, with
    CLEANUP_GRACE seconds for its cleanup: a stuck cleanup fails the test instead of hanging
    it). A Qt event loop spun inside a task (``processEvents``, ``qtbot.wait*``) runs other
    tasks' wakeups while that task is current; asyncio drops them ("Cannot enter into task"),
    and those tasks never run again. That fails the test at once, naming it."""
    from table.app.event_loop import TableEventLoop

    loop = TableEventLoop(qapp)  # the program's loop
    asyncio.set_event_loop(loop)
    main = loop.create_task(coro)
    nested: list[str] = []

    def on_error(_loop: Any, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        if isinstance(exc, RuntimeError) and str(exc).startswith(NESTED):
            nested.append(str(exc)[:200])
            main.cancel()
        loop.default_exception_handler(context)

    async def bounded() -> Any:
        await asyncio.wait([main], timeout=timeout)
        if not main.done():
            main.cancel()
            await asyncio.wait([main], timeout=CLEANUP_GRACE)
            if not main.done():
                raise AssertionError(f"the scenario's cleanup was still running "
                                     f"{CLEANUP_GRACE:.0f} s after it was cancelled")
        if nested:
            raise AssertionError("a Qt event loop ran inside a task (processEvents or a "
                                 "qtbot wait in a coroutine: await instead): " + nested[0])
        if main.cancelled():
            raise TimeoutError(f"the scenario took more than {timeout:.0f} s")
        return main.result()

    loop.set_exception_handler(on_error)
    try:
        return loop.run_until_complete(bounded())
    finally:
        loop.close()
        asyncio.set_event_loop(None)


async def until(pred: Any, timeout: float, what: str = "") -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not pred():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what or pred}")
        await asyncio.sleep(0.03)


async def closing(scenario: Any, apps: Any, hosts: Any = ()) -> None:
    """Run a LAN app scenario, then close every app `apps()` names (each bounded, so a stuck
    table cannot hang the test) and any headless host left in `hosts`."""
    try:
        await scenario
    finally:
        for app in apps():
            await app.close_all()
        for h in hosts:
            await h.close()


def _lan_app(tmp_path: Path) -> Any:
    from table.app.lan_wiring import LanApp
    from table.ui.settings import Settings
    from table.ui.shell import Shell

    settings = Settings.load()
    settings.name = "Ada"
    shell = Shell(settings)
    shell.show_start()
    return LanApp(shell, interfaces=[LOOPBACK], options=FAST)


def _cards(replica: Any, zone: str) -> list[str]:
    return replica.state.cards_in(zone)


class Headless:
    """A `sandtable join --headless` peer in its own process (127.0.0.1 only)."""

    def __init__(self, *args: str) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        self.proc = subprocess.Popen([sys.executable, "-m", "table.app.cli", *args],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     env=env, cwd=str(ROOT))
        self.lines: list[str] = []
        self.errors: list[str] = []
        for stream, into in ((self.proc.stdout, self.lines), (self.proc.stderr, self.errors)):
            threading.Thread(target=self._pump, args=(stream, into), daemon=True).start()

    @staticmethod
    def _pump(stream: Any, into: list[str]) -> None:
        for line in stream:
            into.append(line.rstrip("\n"))

    def last_hash(self) -> str | None:
        status = [ln.split() for ln in self.lines if ln.startswith("STATUS ")]
        return status[-1][2] if status else None

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


def test_host_in_the_app_with_a_headless_joiner(qapp, qtbot, tmp_path):  # type: ignore[no-untyped-def]
    lan_app = _lan_app(tmp_path)
    shell = lan_app.shell
    script = tmp_path / "moves.jsonl"
    script.write_text('{"op": "move", "card": "p2.hand:top", "to": "p2.assets", '
                      '"face_up": true, "after": 0.3}\n')
    peer: Headless | None = None

    async def scenario() -> None:
        nonlocal peer
        dialog = lan_app.open_host_dialog()
        qtbot.addWidget(dialog)
        dialog.game.setCurrentIndex(dialog.game.findData("gauntlet"))
        dialog.seats.setValue(2)
        dialog.table_name.setText("Ada's table")
        dialog.passphrase.setText("open sesame")
        dialog.seat.setValue(1)
        dialog.host_button.click()
        assert dialog.status.text() == "Starting the table…"  # the UI did not wait
        # (the dialog closes when its task's result comes: a loop turn after the window opens)
        await until(lambda: shell.tables and not dialog.isVisible(), 15,
                    "the host's table window, and the dialog closed")
        window = shell.tables[0]
        assert "peers" in window.docks
        assert window.ctl.ask_owner is not None  # requests to owners (table.app.owner_requests)
        t = lan_app.tables[0]
        assert t.replica.state.seats[1].peer == t.replica.peer_id
        # alone at the table, the host's deck waits for a joint shuffle, and the window says so
        assert 1 in t.setting_up and not _cards(t.replica, "p1.hand")
        assert "shuffled together with the other players" in window.statusBar().currentMessage()
        peer = Headless("join", "--headless", "--connect", f"{LOOPBACK}:{t.session.port}",
                        "--seat", "2", "--passphrase", "open sesame", "--interfaces", LOOPBACK,
                        "--log", str(tmp_path / "guest.log"), "--name", "Bob", "--fast",
                        "--status", "--no-announce", "--script", str(script))
        await until(lambda: "as soon as one joins" not in window.statusBar().currentMessage(),
                    15, "the waiting hint gone once the deck is shuffled")
        assert 1 not in t.setting_up
        # The joiner's scripted move shows up in the host's scene.
        await until(lambda: _cards(t.replica, "p2.assets"), 25, "the joiner's move")
        moved = _cards(t.replica, "p2.assets")[0]
        assert window.scene.where[moved] == "p2.assets"
        assert moved in window.scene.cards
        panel = window.peers_panel
        await until(lambda: "connected" in panel.statuses().values(), 10, "peer connected")
        assert "Bob" in [r.name for r in panel.current]
        # A move made in the host's window reaches the joiner.
        card = _cards(t.replica, "p1.hand")[0]
        window.ctl.act(act.move, card, "p1.assets")
        assert window.scene.where[card] == "p1.assets"
        digest = t.replica.public_state_hash
        await until(lambda: peer.last_hash() == digest(), 15, "the joiner to see the move")
        # Closing the window leaves the table: the joiner sees its link go.
        window.close()
        await until(lambda: not lan_app.tables, 10, "the host to leave")
        await until(lambda: any(ln.split()[3] == "0" for ln in peer.lines[-3:]
                                if ln.startswith("STATUS ")), 10, "the joiner to see us go")
        assert shell.start.isVisible()

    try:
        _run(qapp, closing(scenario(), lambda: [lan_app]), 60)
    finally:
        if peer is not None:
            peer.stop()
            assert not [e for e in peer.errors if "Traceback" in e], peer.errors
    log = (tmp_path / "home" / "games")
    assert any(p.suffix == ".sandlog" for p in log.iterdir())


def test_join_dialog_lists_tables_refuses_a_wrong_passphrase_and_joins(qapp, qtbot, tmp_path):  # type: ignore[no-untyped-def]
    lan_app = _lan_app(tmp_path)
    shell = lan_app.shell
    hosts: list[Any] = []

    def opts(passphrase: str | None) -> SessionOptions:
        return SessionOptions(interfaces=[LOOPBACK], passphrase=passphrase,
                              player_name="Host", **FAST)

    async def scenario() -> None:
        module = lan.module_for("gauntlet")
        alpha = await lan.host(module, table_name="Alpha", seats=2,
                               log_path=tmp_path / "alpha.log", options=opts("pw"))
        hosts.append(alpha)
        await lan.take_seat(alpha, 1, name="Host")
        dialog = lan_app.open_join_dialog()
        qtbot.addWidget(dialog)
        await until(lambda: "Alpha" in dialog.table_names(), 15, "Alpha listed")
        entry = dialog.entries[dialog.table_names().index("Alpha")]
        assert entry.passphrase_needed and entry.free_seats == 1

        # A second table appears, then goes away (its announcement is withdrawn).
        beta = await lan.host(module, table_name="Beta", seats=2,
                              log_path=tmp_path / "beta.log", options=opts(None))
        await until(lambda: "Beta" in dialog.table_names(), 15, "Beta listed")
        await beta.close()
        await until(lambda: "Beta" not in dialog.table_names(), 15, "Beta gone")
        assert "Alpha" in dialog.table_names()

        # Wrong passphrase: a plain error in the dialog, no table opened.
        assert dialog.select_table("Alpha")
        dialog.passphrase.setText("wrong")
        dialog.go.click()
        await until(lambda: not dialog.busy, 20, "the failed join")
        assert "passphrase" in dialog.error_text().lower(), dialog.error_text()
        assert "Traceback" not in dialog.error_text() and not shell.tables
        assert dialog.go.isEnabled() and dialog.joined is None

        # The right one: connect, catch up, pick the free seat and a deck, open the table.
        dialog.passphrase.setText("pw")
        dialog.go.click()
        await until(lambda: dialog.joined is not None, 20, "the join")
        assert [dialog.seat.itemData(i) for i in range(dialog.seat.count())] == [2]
        dialog.deck.setCurrentText("mystics")
        dialog.go.click()
        await until(lambda: shell.tables, 20, "the joiner's table window")
        window = shell.tables[0]
        t = lan_app.tables[0]
        await until(lambda: lan.setup_complete(alpha.replica)
                    and lan.setup_complete(t.replica), 15, "setup complete")
        assert alpha.replica.state.seats[2].peer == t.replica.peer_id
        panel = window.peers_panel
        await until(lambda: panel.statuses().get(alpha.replica.peer_id) == "connected", 10,
                    "the host shown connected")
        # A move in the host's peer appears in the joiner's scene.
        card = _cards(alpha.replica, "p1.hand")[0]
        act.move(alpha.replica, card, "p1.assets", seat=1, face_up=True)
        await until(lambda: window.scene.where.get(card) == "p1.assets", 10, "the remote move")
        # Leaving: bye, log complete; the host shows the joiner gone.
        window.close()
        await until(lambda: not lan_app.tables, 10, "the joiner to leave")
        await until(lambda: t.replica.peer_id not in alpha.session.mesh.peers(), 5, "bye")
        gone = [p for p in alpha.session.peer_list() if p.peer_id == t.replica.peer_id]
        assert gone and gone[0].status == "gone"
        await alpha.close()
        hosts.clear()

    _run(qapp, closing(scenario(), lambda: [lan_app], hosts), 90)


def test_host_dialog_shows_port_in_use(qapp, qtbot, tmp_path):  # type: ignore[no-untyped-def]
    import socket

    lan_app = _lan_app(tmp_path)
    busy = socket.socket()
    busy.bind((LOOPBACK, 0))
    busy.listen()
    try:
        async def scenario() -> None:
            dialog = lan_app.open_host_dialog()
            qtbot.addWidget(dialog)
            dialog.game.setCurrentIndex(dialog.game.findData("gauntlet"))
            dialog.port.setValue(busy.getsockname()[1])
            dialog.host_button.click()
            await until(lambda: not dialog.busy, 10)
            assert "already in use" in dialog.status.text(), dialog.status.text()
            assert dialog.isVisible() and dialog.host_button.isEnabled()
            assert not lan_app.shell.tables
            dialog.reject()
        _run(qapp, scenario(), 20)
    finally:
        busy.close()
