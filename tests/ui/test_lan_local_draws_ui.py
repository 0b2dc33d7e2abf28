"""A table opened allowing local draws, in the app (offscreen, 127.0.0.1 only): the Host
dialog's "Let players roll and shuffle alone" box, ticked with a click, opens the table so
(its layout mark says `local_draws`), and the Join dialog tells the joiner."""
from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt

from netplay.session.lan_session import SessionOptions
from table import lan
from table.lan.setup import table_info
from tests.ui.test_lan_ui import FAST, LOOPBACK, _lan_app, _run, closing, until

pytestmark = pytest.mark.socket


def test_the_host_dialog_opens_a_table_allowing_local_draws(qapp, qtbot, tmp_path):  # type: ignore[no-untyped-def]
    lan_app = _lan_app(tmp_path)

    async def scenario() -> None:
        dialog = lan_app.open_host_dialog()
        qtbot.addWidget(dialog)
        dialog.game.setCurrentIndex(dialog.game.findData("gauntlet"))
        assert not dialog.local_draws.isChecked()  # joint draws unless the host says so
        box = dialog.local_draws
        qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=box.rect().center())
        assert box.isChecked()
        dialog.host_button.click()
        await until(lambda: lan_app.tables, 15, "the host's table window")
        t = lan_app.tables[0]
        assert (table_info(t.replica) or {}).get("local_draws") is True
        assert "allows local draws" in lan.draws_note(t.replica)
        lan_app.shell.tables[0].close()
        await until(lambda: not lan_app.tables, 10, "the host to leave")

    _run(qapp, closing(scenario(), lambda: [lan_app]), 60)


def test_the_join_dialog_says_the_table_allows_local_draws(qapp, qtbot, tmp_path):  # type: ignore[no-untyped-def]
    lan_app = _lan_app(tmp_path)
    hosts: list[Any] = []

    async def scenario() -> None:
        host = await lan.host(lan.module_for("gauntlet"), table_name="Loose", seats=2,
                              log_path=tmp_path / "h.log", local_draws=True,
                              options=SessionOptions(interfaces=[LOOPBACK], passphrase="pw",
                                                     player_name="Host", **FAST))
        hosts.append(host)
        await lan.take_seat(host, 1, name="Host")
        assert host.session.announcer is not None  # the listing says so too (draws=local)
        assert host.session.announcer.announcement.local_draws
        dialog = lan_app.open_join_dialog()
        qtbot.addWidget(dialog)
        await until(lambda: "Loose" in dialog.table_names(), 15, "the table listed")
        assert dialog.select_table("Loose")
        dialog.passphrase.setText("pw")
        dialog.go.click()
        await until(lambda: dialog.joined is not None, 20, "the join")
        assert "this table allows local draws" in dialog.joined_label.text()
        dialog.reject()
        await host.close()
        hosts.clear()

    _run(qapp, closing(scenario(), lambda: [lan_app], hosts), 60)
