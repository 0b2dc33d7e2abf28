"""Quitting the app with LAN tables open (offscreen, 127.0.0.1 only): `LanApp.close_all`, which
the app awaits on quit, leaves every table, and a table whose leaving is stuck (a peer that
stopped answering mid-close) does not hold the app: it is abandoned after the bound, its log
closed, and named."""
from __future__ import annotations

import asyncio
from typing import Any

import pytest

from netplay.session.lan_session import SessionOptions
from table import lan

from .test_lan_ui import FAST, LOOPBACK, _lan_app, _run

pytestmark = pytest.mark.socket


def test_quitting_abandons_a_table_stuck_leaving_and_names_it(qapp, qtbot, tmp_path):  # type: ignore[no-untyped-def]
    lan_app = _lan_app(tmp_path)
    opened: list[Any] = []

    async def scenario() -> None:
        def options(name: str) -> SessionOptions:
            return SessionOptions(interfaces=[LOOPBACK], announce=False, player_name=name,
                                  **FAST)

        stuck = await lan.host(lan.module_for("gauntlet"), table_name="Stuck", seats=2,
                               log_path=tmp_path / "stuck.log", options=options("Ada"))
        fine = await lan.host(lan.module_for("gauntlet"), table_name="Fine", seats=2,
                              log_path=tmp_path / "fine.log", options=options("Bea"))
        opened.extend((stuck, fine))
        for t in (stuck, fine):
            await lan.take_seat(t, 1, name="Ada")
            qtbot.addWidget(lan_app.open_window(t))
        real_close = stuck.close
        never = asyncio.Event()

        async def close_that_hangs(graceful: bool = True) -> None:
            await never.wait()  # a peer's goodbye that never completes

        stuck.close = close_that_hangs  # type: ignore[method-assign]
        abandoned = await lan_app.close_all(bound=1.0)
        assert abandoned == ["Stuck"]
        assert not lan_app.tables and not lan_app.windows
        assert stuck.replica.log.closed and fine.replica.log.closed
        assert fine.session.started is False  # the other table left cleanly
        stuck.close = real_close  # type: ignore[method-assign]
        await stuck.close(graceful=False)  # what the process exit would do

    _run(qapp, scenario(), 60)
