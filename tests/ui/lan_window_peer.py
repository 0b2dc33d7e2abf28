"""A LAN table's window in a process of its own, as the app opens it: the app's QApplication,
style, event loop, shell and LAN wiring (table/app/lan_wiring.py), the Host dialog's request
made without the dialog. 127.0.0.1 only (zeroconf too), relays off.

    python tests/ui/lan_window_peer.py GAME TABLE_NAME SEAT PLAYER

Prints "TABLE <port>" once its table is up and its window shown, "LOG <path>" with it; runs
until its window closes (or SIGTERM).
"""
from __future__ import annotations

import asyncio
import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def main(argv: list[str]) -> int:
    game, table_name, seat, player = argv[0], argv[1], int(argv[2]), argv[3]
    from PySide6.QtWidgets import QApplication

    from netplay.link.link import LinkConfig
    from netplay.mesh.mesh import MeshConfig
    from netplay.replication.replication import ReplicationConfig
    from table.app.event_loop import TableEventLoop
    from table.app.lan_wiring import LanApp
    from table.ui.lan.model import HostRequest
    from table.ui.settings import Settings
    from table.ui.shell import Shell
    from table.ui.style import apply_style

    app = QApplication(["sandtable"])
    app.setApplicationName("Sandtable")
    apply_style(app)
    loop = TableEventLoop(app)
    asyncio.set_event_loop(loop)
    settings = Settings.load()
    settings.name = player
    shell = Shell(settings)
    fast = {"mesh": MeshConfig(link=LinkConfig(heartbeat_interval=0.5, dead_after=3.0,
                                               handshake_timeout=5.0, connect_timeout=3.0),
                               gossip_interval=1.0, dial_grace=0.3),
            "replication": ReplicationConfig(hash_interval=0.5)}
    lan = LanApp(shell, interfaces=["127.0.0.1"], options=fast, relay="off")
    done = asyncio.Event()
    app.aboutToQuit.connect(done.set)
    signal.signal(signal.SIGTERM, lambda *_: app.quit())

    async def run() -> None:
        window = await lan.host_table(HostRequest(game, 2, table_name, None, seat, None, player))
        window.resize(1366, 740)
        window.activateWindow()
        window.view.setFocus()
        t = lan.tables[-1]
        print(f"TABLE {t.session.port}", flush=True)
        print(f"LOG {t.replica.log.path}", flush=True)  # type: ignore[union-attr]
        await done.wait()
        await lan.close_all()

    with loop:
        loop.run_until_complete(run())
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
