"""Owner consent in the app (offscreen, 127.0.0.1 only): another player's request on this
seat's hidden deck opens a dialog in the owner's table window; clicking Refuse refuses it,
Accept performs it, "Always for this game" performs it and every later one without asking."""
from __future__ import annotations

import asyncio
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from netplay.session.lan_session import SessionOptions
from table import lan

from .test_lan_ui import FAST, LOOPBACK, _lan_app, _run, until

pytestmark = pytest.mark.socket


def _click(button: Any) -> None:
    QTest.mouseClick(button, Qt.MouseButton.LeftButton, pos=button.rect().center())


def test_the_owner_is_asked_before_another_player_draws_from_their_deck(qapp, qtbot, tmp_path):  # type: ignore[no-untyped-def]
    lan_app = _lan_app(tmp_path)

    async def scenario() -> None:
        module = lan.module_for("mantle-of-the-keeper")
        owner = await lan.host(module, table_name="consent", seats=2,
                               log_path=tmp_path / "owner.log",
                               options=lan_app.session_options(None, "Ada"))
        await lan.take_seat(owner, 1, name="Ada")
        window = lan_app.open_window(owner)
        qtbot.addWidget(window)
        other = await lan.join(log_path=tmp_path / "bob.log",
                               connect=f"{LOOPBACK}:{owner.session.port}",
                               options=SessionOptions(interfaces=[LOOPBACK], announce=False,
                                                      player_name="Bob", **FAST))
        await lan.take_seat(other, 2, name="Bob")
        await until(lambda: lan.setup_complete(other.replica), 20, "setup")
        deck = owner.replica.state.objs["p1.deck"]
        draw = {"op": "draw", "from": "p1.deck", "to": "p2.hand"}

        async def answer(button_name: str) -> tuple[bool, str]:
            asking = asyncio.ensure_future(other.session.request(draw, 1))
            await until(lambda: getattr(window, "consent_dialogs", []), 10, "the dialog")
            dialog = window.consent_dialogs[-1]
            assert "Bob" in dialog.question.text() and "draw" in dialog.question.text()
            await until(dialog.isVisible, 5, "the dialog shown")
            _click(getattr(dialog, button_name))
            return await asyncio.wait_for(asking, 10)

        size = len(deck.children)
        ok, error = await answer("refuse_button")
        assert not ok and "refused" in error
        assert len(owner.replica.state.objs["p1.deck"].children) == size

        ok, error = await answer("accept_button")
        assert ok, error
        assert len(owner.replica.state.objs["p1.deck"].children) == size - 1

        ok, error = await answer("always_button")
        assert ok, error
        ok, error = await asyncio.wait_for(other.session.request(draw, 1), 10)  # no dialog
        assert ok, error
        assert not window.consent_dialogs
        assert len(owner.replica.state.objs["p1.deck"].children) == size - 3
        await other.close()
        window.close()
        await until(lambda: not lan_app.tables, 10, "the table left")

    _run(qapp, scenario(), 90)
    QApplication.processEvents()
