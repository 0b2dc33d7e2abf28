"""Bots at a LAN table: "Add a bot" on an empty seat (table/ui/seat_bots.py) starts the bot as
a headless peer of its own, in its own process (`sandtable join --headless --seat N --bot NAME`,
table/app/commands/bot_peer.py), which joins this table on the network the table uses and so
holds only its seat's secrets, as any player's software does. Removing it stops that process:
its peer gives the seat up and leaves the table, and the seat is free again.

Each bot peer writes its own log, and what it prints, under the games folder's `bots/`.
"""
from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import table
from table.app.table_bots import labels
from table.ui import seat_bots
from table.ui.settings import games_dir

if TYPE_CHECKING:
    from table.lan.table import LanTable
    from table.ui.main_window import TableWindow

log = logging.getLogger(__name__)
LOOPBACK = "127.0.0.1"


class LanBots:
    """The bot peers this app started for one LAN table (seat_bots.BotSeats)."""

    def __init__(self, window: TableWindow, t: LanTable) -> None:
        self.window = window
        self.t = t
        self.procs: dict[int, tuple[str, subprocess.Popen[bytes]]] = {}
        window.closed.connect(self.stop_all)

    # -- seat_bots.BotSeats ------------------------------------------------------------------
    def choices(self) -> list[tuple[str, str]]:
        module = self.t.module
        return labels(module.id) if module is not None else []

    def bot_at(self, seat: int) -> str | None:
        found = self.procs.get(seat)
        if found is None:
            return None
        if found[1].poll() is not None:  # its peer left (the game ended, or it failed)
            del self.procs[seat]
            return None
        return found[0]

    def why_not(self, seat: int) -> str:
        state = self.t.replica.state
        held = state.seats.get(seat)
        if held is not None:
            return f"{held.name or f'Seat {seat}'} sits here"
        if state.result is not None:
            return "The game is over"
        if self.t.module is None:
            return "The table's game is not known yet"
        return ""

    def add(self, seat: int, name: str) -> None:
        why = self.why_not(seat)
        if why:
            self.window.ctl.status.emit(why)
            return
        try:
            with open(self._path(seat, ".out"), "ab") as out, \
                    open(self._path(seat, ".err"), "ab") as err_file:
                proc = subprocess.Popen(self.command(seat, name), stdout=out, stderr=err_file,
                                        stdin=subprocess.DEVNULL, env=_env(),
                                        cwd=str(Path(table.__file__).parents[1]))
        except OSError as err:
            self.window.ctl.status.emit(f"Cannot start the bot: {err}")
            return
        self.procs[seat] = (name, proc)
        self.window.ctl.status.emit(f"A bot ({name}) joins the table for seat {seat}")

    def remove(self, seat: int) -> None:
        found = self.procs.pop(seat, None)
        if found is not None and found[1].poll() is None:
            found[1].send_signal(signal.SIGTERM)  # its peer gives up the seat and says bye
            self.window.ctl.status.emit(f"The bot leaves seat {seat}")

    # -- the bot's peer ----------------------------------------------------------------------
    def address(self) -> tuple[str, list[str]]:
        """Where the bot's peer finds this table, and the networks it uses: the table's own
        (this computer reaches a table on every network, or on its loopback, at 127.0.0.1)."""
        chosen = self.t.session.options.interfaces or []
        host = chosen[0] if chosen else LOOPBACK
        return host, chosen or [LOOPBACK]

    def command(self, seat: int, name: str) -> list[str]:
        host, networks = self.address()
        label = dict(self.choices()).get(name, name).split(":")[0]
        opts = self.t.session.options
        cmd = [sys.executable, "-m", "table.app.cli", "join", "--headless",
               "--connect", f"{host}:{self.t.session.port}", "--seat", str(seat),
               "--bot", name, "--name", f"{label} bot", "--no-announce",
               "--interfaces", ",".join(networks), "--log", str(self._path(seat, ".sandlog"))]
        if opts.passphrase:
            cmd += ["--passphrase", opts.passphrase]
        return cmd

    def _path(self, seat: int, suffix: str) -> Path:
        """The bot peer's log (.sandlog) and what it prints (.out, .err), one set per table
        and seat."""
        folder = games_dir() / "bots"
        folder.mkdir(parents=True, exist_ok=True)
        return folder / f"{self.t.replica.table_id[:16]}-seat{seat}{suffix}"

    def stop_all(self) -> None:
        """The window closed: every bot this app started leaves too."""
        for seat in list(self.procs):
            self.remove(seat)


def _env() -> dict[str, str]:
    """The bot's process imports this very program, wherever it runs from."""
    root = str(Path(table.__file__).parents[1])
    path = os.environ.get("PYTHONPATH", "")
    return dict(os.environ, PYTHONPATH=root + (os.pathsep + path if path else ""))


def attach(window: TableWindow, t: LanTable) -> LanBots:
    """Give a LAN table window its "Add a bot" (a bot there is a peer of its own)."""
    bots = LanBots(window, t)
    seat_bots.install(window, bots)
    return bots


__all__ = ["LanBots", "attach"]
