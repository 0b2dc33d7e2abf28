"""The network a LAN table is hosted and looked for on (the Host and Join dialogs' "Network"
row): chosen by real input, the table listens there alone, and the choice is remembered. Only
loopback addresses here (127.0.0.1 and 127.0.0.2): the program is held to them, as tests
hold every LAN program (SANDTABLE_LAN_INTERFACES)."""
from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import pytest
from PySide6.QtCore import Qt

from netplay.discovery.interfaces import LocalAddress
from tests.ui.test_lan_ui import FAST, _run, closing, until

pytestmark = pytest.mark.socket

OTHER, CHOSEN = "127.0.0.2", "127.0.0.1"  # both this machine's loopback


def _lan_app() -> Any:
    from table.app.lan_wiring import LanApp
    from table.ui.settings import Settings
    from table.ui.shell import Shell

    settings = Settings.load()
    settings.name = "Ada"
    shell = Shell(settings)
    shell.show_start()
    return LanApp(shell, interfaces=[OTHER, CHOSEN], options=FAST)


async def _reaches(host: str, port: int) -> bool:
    try:
        _reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), 5)
    except OSError:
        return False
    writer.close()
    with contextlib.suppress(OSError):
        await writer.wait_closed()
    return True


def test_a_table_hosted_on_one_network_listens_there_alone(qapp, qtbot):  # type: ignore[no-untyped-def]
    lan_app = _lan_app()

    async def scenario() -> None:
        start = lan_app.shell.start
        await until(start.host.isEnabled, 10, "Host enabled")
        qtbot.mouseClick(start.host, Qt.MouseButton.LeftButton)
        dialog = next(d for d in lan_app.dialogs if d.objectName() == "lan-host")
        qtbot.addWidget(dialog)
        network = dialog.network
        assert [network.itemText(i) for i in range(network.count())] == [OTHER, CHOSEN]
        assert network.currentText() == OTHER
        network.setFocus()
        qtbot.keyClick(network, Qt.Key.Key_Down)  # the next network: this computer's 127.0.0.1
        assert network.currentText() == CHOSEN
        dialog.game.setCurrentIndex(dialog.game.findData("gauntlet"))
        qtbot.mouseClick(dialog.host_button, Qt.MouseButton.LeftButton)
        await until(lambda: lan_app.tables, 15, "the table")
        t = lan_app.tables[0]
        assert t.session.options.interfaces == [CHOSEN]
        port = t.session.mesh.port
        assert await _reaches(CHOSEN, port)
        assert not await _reaches(OTHER, port)  # not listening on the other network
        lan_app.shell.tables[0].close()
        await until(lambda: not lan_app.tables, 10, "the host to leave")
        # remembered: the next Host dialog starts on the network chosen
        qtbot.mouseClick(start.host, Qt.MouseButton.LeftButton)
        again = [d for d in lan_app.dialogs if d.objectName() == "lan-host"][-1]
        qtbot.addWidget(again)
        assert again.network.currentText() == CHOSEN
        again.reject()

    _run(qapp, closing(scenario(), lambda: [lan_app]), 60)


def test_every_network_is_offered_first_then_each_address_of_this_machine(  # type: ignore[no-untyped-def]
        qapp, monkeypatch):
    """The product, held to no interface: "Every network" first (the default), then each
    address by its adapter, this computer alone last. (No socket is opened.)"""
    from table.app import lan_wiring

    monkeypatch.setattr(lan_wiring, "local_addresses", lambda: [
        LocalAddress("192.168.1.20", "eth0"), LocalAddress("10.8.0.2", "tun0"),
        LocalAddress("127.0.0.1", "lo")])
    app = lan_wiring.LanApp.__new__(lan_wiring.LanApp)  # only its network choice is asked
    app.interfaces = None
    options = app.network_options()
    assert [(o.address, o.label) for o in options] == [
        (None, "Every network"), ("192.168.1.20", "eth0 (192.168.1.20)"),
        ("10.8.0.2", "tun0 (10.8.0.2)"), ("127.0.0.1", "This computer only (127.0.0.1)")]
    assert app.networks_within(None) is None and app.networks_within(["10.8.0.2"]) == ["10.8.0.2"]
    app.interfaces = ["127.0.0.1"]  # held to loopback: never more, whatever is asked
    assert app.networks_within(None) == ["127.0.0.1"]
    assert app.networks_within(["10.8.0.2"]) == ["127.0.0.1"]
