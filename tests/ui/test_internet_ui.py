"""Internet play in the app (offscreen; relays off, 127.0.0.1 only): the Host dialog's
"Invite over the internet…" shows the table's ticket with a Copy button and a headless player
joins with it; the Join dialog's Ticket field joins a headless host's table; a LAN table's
peers panel invites over the internet during play. Real clicks and typing on the widgets."""
from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tests.ui.test_lan_ui import FAST, LOOPBACK, Headless, _run, closing, until

pytestmark = [pytest.mark.socket, pytest.mark.processes]

NET = ["--headless", "--interfaces", LOOPBACK, "--no-announce", "--relay", "off", "--fast",
       "--status", "--passphrase", "open sesame"]


def _lan_app() -> Any:
    from table.app.lan_wiring import LanApp
    from table.ui.settings import Settings
    from table.ui.shell import Shell

    settings = Settings.load()
    settings.name = "Ada"
    shell = Shell(settings)
    shell.show_start()
    return LanApp(shell, interfaces=[LOOPBACK], options=FAST, relay="off")


def _invite_dialog(lan_app: Any) -> Any:
    from table.ui.lan import InviteDialog

    return next((d for d in lan_app.dialogs if isinstance(d, InviteDialog) and d.isVisible()),
                None)


def test_host_invites_over_the_internet_and_a_player_joins_by_ticket(qapp, qtbot, tmp_path):  # type: ignore[no-untyped-def]
    lan_app = _lan_app()
    peer: Headless | None = None

    async def scenario() -> None:
        nonlocal peer
        dialog = lan_app.open_host_dialog()
        qtbot.addWidget(dialog)
        dialog.game.setCurrentIndex(dialog.game.findData("gauntlet"))
        qtbot.keyClicks(dialog.table_name, "Far table")
        qtbot.keyClicks(dialog.passphrase, "open sesame")
        qtbot.mouseClick(dialog.internet, Qt.MouseButton.LeftButton)
        assert dialog.internet.isChecked()
        qtbot.mouseClick(dialog.host_button, Qt.MouseButton.LeftButton)
        await until(lambda: _invite_dialog(lan_app) is not None, 20, "the invite dialog")
        invite = _invite_dialog(lan_app)
        ticket = invite.ticket.text()
        t = lan_app.tables[0]
        assert ticket == t.ticket and ticket.startswith(t.replica.table_id + "-")
        qtbot.mouseClick(invite.copy, Qt.MouseButton.LeftButton)
        assert QApplication.clipboard().text() == ticket
        peer = Headless("join", "--ticket", ticket, "--seat", "2", "--log",
                        str(tmp_path / "guest.log"), "--name", "Bob", *NET)
        panel = lan_app.shell.tables[0].peers_panel
        await until(lambda: "Bob" in [r.name for r in panel.current]
                    and "connected" in panel.statuses().values(), 40, "Bob over the internet")
        assert [r.address[:5] for r in panel.current if r.name == "Bob"] == ["quic:"]
        digest = t.replica.public_state_hash
        await until(lambda: peer.last_hash() == digest(), 20, "the same table at Bob's")

    try:
        _run(qapp, closing(scenario(), lambda: [lan_app]), 90)
    finally:
        if peer is not None:
            peer.stop()
            assert not [e for e in peer.errors if "Traceback" in e], peer.errors


def test_join_dialog_joins_by_ticket_and_the_peers_panel_invites(qapp, qtbot, tmp_path):  # type: ignore[no-untyped-def]
    lan_app = _lan_app()
    host = Headless("host", "--internet", "--game", "gauntlet", "--table", "Their table",
                    "--seats", "2", "--seat", "1", "--log", str(tmp_path / "host.log"), *NET)

    async def scenario() -> None:
        await until(lambda: any(ln.startswith("TICKET ") for ln in host.lines), 20,
                    "the host's ticket")
        ticket = next(ln.split()[1] for ln in host.lines if ln.startswith("TICKET "))
        dialog = lan_app.open_join_dialog()
        qtbot.addWidget(dialog)
        # a bad ticket first: a clear message, and the dialog stays usable
        qtbot.keyClicks(dialog.ticket, "not-a-ticket")
        qtbot.mouseClick(dialog.go, Qt.MouseButton.LeftButton)
        await until(lambda: "ticket" in dialog.error_text().lower(), 10, "the ticket error")
        dialog.ticket.clear()
        qtbot.keyClicks(dialog.ticket, ticket)
        qtbot.keyClicks(dialog.passphrase, "open sesame")
        qtbot.mouseClick(dialog.go, Qt.MouseButton.LeftButton)
        await until(lambda: dialog.seat_box.isVisible(), 40, "joined by ticket")
        qtbot.mouseClick(dialog.go, Qt.MouseButton.LeftButton)  # take the free seat (2)
        await until(lambda: lan_app.shell.tables, 30, "the table window")
        t = lan_app.tables[0]
        link = t.session.mesh.link(t.session.mesh.peers()[0])
        assert link is not None and (link.via or "").startswith("quic:")
        panel = lan_app.shell.tables[0].peers_panel
        assert panel.invite.isVisible()
        qtbot.mouseClick(panel.invite, Qt.MouseButton.LeftButton)
        await until(lambda: _invite_dialog(lan_app) is not None, 20, "the invite dialog")
        assert _invite_dialog(lan_app).ticket.text() == t.ticket

    try:
        _run(qapp, closing(scenario(), lambda: [lan_app]), 90)
    finally:
        host.stop()
        assert not [e for e in host.errors if "Traceback" in e], host.errors
