"""The Peers panel through a crash (offscreen, 127.0.0.1 only): a joiner whose peer crashes
shows as "reconnecting…", and as "back" once it restarted from its log and relinked."""
from __future__ import annotations

import pytest

from netplay.session.lan_session import SessionOptions
from table import lan
from table.ui.lan import PeersPanel

from .test_lan_ui import FAST, LOOPBACK, _lan_app, _run, until

pytestmark = pytest.mark.socket


def test_the_peers_panel_says_reconnecting_then_back(qapp, qtbot, tmp_path):  # type: ignore[no-untyped-def]
    lan_app = _lan_app(tmp_path)

    def joiner_options() -> SessionOptions:
        return SessionOptions(interfaces=[LOOPBACK], announce=False, player_name="Bob", **FAST)

    async def scenario() -> None:
        module = lan.module_for("mantle-of-the-keeper")
        host = await lan.host(module, table_name="panel", seats=2, log_path=tmp_path / "h.log",
                              options=lan_app.session_options(None, "Ada"))
        await lan.take_seat(host, 1, name="Ada")
        window = lan_app.open_window(host)
        qtbot.addWidget(window)
        bob = await lan.join(log_path=tmp_path / "b.log", connect=f"{LOOPBACK}:{host.session.port}",
                             options=joiner_options())
        await lan.take_seat(bob, 2, name="Bob")
        bob_id = bob.session.peer_id
        panel = window.findChild(PeersPanel)
        assert panel is not None

        def shown(status_text: str) -> bool:
            items = [panel.tree.topLevelItem(i) for i in range(panel.tree.topLevelItemCount())]
            return any(it.toolTip(0) == f"peer {bob_id}" and it.text(2) == status_text
                       for it in items)

        await until(lambda: shown("connected"), 15, "Bob connected")
        await bob.close(graceful=False)  # a crash: no bye
        await until(lambda: shown("reconnecting…"), 15, "Bob reconnecting")
        bob = await lan.join(log_path=tmp_path / "b.log", connect=f"{LOOPBACK}:{host.session.port}",
                             options=joiner_options())
        await until(lambda: shown("back"), 15, "Bob back")
        await bob.close()
        await until(lambda: shown("gone"), 15, "Bob gone")
        window.close()
        await until(lambda: not lan_app.tables, 10, "the table left")

    _run(qapp, scenario(), 90)
