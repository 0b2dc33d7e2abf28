"""Composition root: the QApplication, the qasync event loop, and the first window.

netplay (asyncio) and the UI (Qt) share one loop through qasync; LAN play is wired in
through table.app.lan_wiring (the UI itself never imports netplay). A game opened from the
command line paints its first frame before any of that loads.
"""
from __future__ import annotations

import logging
import os
import sys
from typing import Any

log = logging.getLogger(__name__)
LAN_AFTER_MS = 300


WINDOWLESS_PLATFORMS = ("offscreen", "minimal", "vnc")


def no_display() -> str:
    """Why the window cannot open here, or "" (Qt itself aborts with rc 134 and no word why)."""
    platform = os.environ.get("QT_QPA_PLATFORM", "")
    if not sys.platform.startswith("linux") or platform.startswith(WINDOWLESS_PLATFORMS):
        return ""
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return ""
    return ("no display to open the window on (DISPLAY and WAYLAND_DISPLAY are unset); run it "
            "from a desktop session, or set QT_QPA_PLATFORM=offscreen for no window.")


def run_app(argv: list[str], game: str | None = None, seats: int | None = None,
            position: str | None = None, module: str | None = None) -> int:
    """Open the window: the start screen, or straight into a hot-seat game of `game` (or of
    the draft in the folder `module`, or from a position file)."""
    from PySide6.QtWidgets import QApplication

    from table.ui.profiles import claim
    from table.ui.shell import Shell
    from table.ui.style import apply_style
    from table.ui.text_size import apply_text_scale

    if QApplication.instance() is None and (problem := no_display()):
        print(f"sandtable: {problem}", file=sys.stderr)
        return 1
    app = QApplication.instance() or QApplication(["sandtable", *argv])
    assert isinstance(app, QApplication)
    app.setApplicationName("Sandtable")
    app.setOrganizationName("Sandtable")
    app.setQuitOnLastWindowClosed(True)
    apply_style(app)
    claim()  # a second window on this computer is a second player: its own name and tables
    apply_text_scale(app)  # the text size the player chose (Ctrl+= / Ctrl+-), every window
    lan: list[object | None] = []  # the LAN wiring, once made
    if game is not None:
        shell = Shell()
        _wire_bots(shell)
        shown = _open_game(shell, lan, game, seats)
        if shown is None:
            return 1
        # the table paints before asyncio and the event loop load: a good part of a second
        # the first frame does not need
        from table.ui.first_frame import paint_first_frame

        paint_first_frame(shown)
        if not any(w.isVisible() for w in app.topLevelWidgets()):
            return 0  # closed before the loop ran
        loop = _event_loop(app)
    else:
        loop = _event_loop(app)  # LAN play is wired at once here: its stack needs the loop
        shell = Shell()
        _wire_bots(shell)
        lan.append(_wire_lan(shell))
        shell.show_start()
        if position is not None or module is not None:
            opened = shell.play_position(position) if position is not None else \
                shell.play_module(str(module), seats)
            if opened is None:
                return 1
        else:
            shell.offer_resume()
    return _run(app, loop, lan)


def _open_game(shell: Any, lan: list[object | None], game: str,
               seats: int | None) -> Any | None:
    """A hot-seat table of `game` (the start screen if it cannot start): what is on screen,
    or None when there is no such game or not for that many seats (said on stderr)."""
    from table.ui.first_frame import after_first_frame
    from table.ui.games import game_choice

    choice = game_choice(game)
    if choice is None:
        print(f"sandtable: unknown game {game!r} (see `sandtable games`)", file=sys.stderr)
        return None
    count = seats or choice.min_seats
    if not choice.min_seats <= count <= choice.max_seats:
        print(f"sandtable: {choice.name} is for {choice.min_seats}-{choice.max_seats} "
              f"players", file=sys.stderr)
        return None
    window = shell.play(choice, count, choice.default_decks[:count], assist_later=True)
    if window is None:
        shell.show_start()
    shown = window.view.viewport() if window is not None else shell.start
    # LAN play (Host/Join on the start screen) is wired once the table is on screen: its
    # network stack takes a good part of a second to load, and a hot-seat game waits for none
    # of it (after the first frame, not after a fixed time: on a loaded machine that came first)
    after_first_frame(shown, lambda: lan.append(_wire_lan(shell)), LAN_AFTER_MS)
    return shown


def _event_loop(app: Any) -> Any:
    """netplay (asyncio) and the UI (Qt) share one loop through qasync."""
    import asyncio

    from table.app.event_loop import TableEventLoop

    loop = TableEventLoop(app)
    asyncio.set_event_loop(loop)
    return loop


def _run(app: Any, loop: Any, lan: list[object | None]) -> int:
    """Run until the last window closes; then leave LAN tables cleanly (bye), logs complete."""
    import asyncio

    done = asyncio.Event()
    app.aboutToQuit.connect(done.set)
    with loop:
        loop.run_until_complete(done.wait())
        lan_app: Any = lan[0] if lan else None
        if lan_app is not None:
            loop.run_until_complete(lan_app.close_all())  # bounded: it abandons stuck ones
    return 0


def _wire_bots(shell: Any) -> None:
    """"Add a bot" on a hot-seat table's seats (a LAN table's window wires its own)."""
    from table.app.table_bots import wire

    wire(shell)


def _wire_lan(shell: object) -> object | None:
    """Host/Join on the start screen. SANDTABLE_LAN_INTERFACES=IP,... restricts LAN play to
    those addresses (default: every interface); SANDTABLE_RELAY=off|URL sets internet play's
    relays (default: n0's public ones; demos and tests: off)."""
    import os

    try:
        from table.app.lan_wiring import LanApp
    except Exception:  # a build without the network stack still plays hot-seat
        log.exception("LAN play is not available")
        return None
    text = os.environ.get("SANDTABLE_LAN_INTERFACES", "").strip()
    interfaces = [p.strip() for p in text.split(",") if p.strip()] or None
    relay = os.environ.get("SANDTABLE_RELAY", "").strip() or "default"
    return LanApp(shell, interfaces=interfaces, relay=relay)  # type: ignore[arg-type]


if __name__ == "__main__":
    sys.exit(run_app(sys.argv[1:]))
