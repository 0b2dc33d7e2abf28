"""Composition root: the QApplication, the qasync event loop, and the first window.

netplay (asyncio) and the UI (Qt) share one loop through qasync; LAN play is wired here later.
"""
from __future__ import annotations

import asyncio
import logging
import sys

log = logging.getLogger(__name__)


def run_app(argv: list[str]) -> int:
    import qasync
    from PySide6.QtWidgets import QApplication

    from table.ui.shell import Shell
    from table.ui.style import apply_style

    app = QApplication.instance() or QApplication(["sandtable", *argv])
    assert isinstance(app, QApplication)
    app.setApplicationName("Sandtable")
    app.setOrganizationName("Sandtable")
    app.setQuitOnLastWindowClosed(True)
    apply_style(app)
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    shell = Shell()
    shell.show_start()
    shell.offer_resume()
    done = asyncio.Event()
    app.aboutToQuit.connect(done.set)
    with loop:
        loop.run_until_complete(done.wait())
    return 0


if __name__ == "__main__":
    sys.exit(run_app(sys.argv[1:]))
