"""Joining from the app: the Join dialog's live list (a :class:`TableBrowser`), connecting to a
table, and its seat step. A table where this computer's player already has a place (the
memory of tables played, :mod:`table.ui.lan.memory`) is joined back as that same player,
from its log: the list says so ("your seat 2 as Bob") and the seat step offers that seat to
take back, never as taken."""
from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, Protocol

from netplay.discovery.listing import TableListing
from netplay.discovery.mdns import TableBrowser
from netplay.discovery.table_search import interface_choice
from netplay.session.lan_session import SessionOptions
from table import lan
from table.app.internet_wiring import with_internet
from table.app.lan_leaving import Departures
from table.lan.reaching import resolve
from table.ui.lan import (
    WATCH_SEAT,
    JoinDialog,
    JoinedTable,
    JoinRequest,
    LanProblem,
    NetworkOption,
    TableEntry,
    memory,
)
from table.ui.main_window import TableWindow
from table.ui.settings import new_log_path
from table.ui.shell import Shell

log = logging.getLogger(__name__)


class JoinHost(Protocol):
    """What joining needs of the app's LAN wiring (table.app.lan_wiring.LanApp)."""
    shell: Shell
    interfaces: list[str] | None
    relay: str
    rejoin_timeout: float
    game_names: dict[str, str]
    departures: Departures

    def session_options(self, passphrase: str | None, name: str, port: int = 0,
                        interfaces: list[str] | None = None) -> SessionOptions: ...
    def networks_within(self, chosen: list[str] | None) -> list[str] | None: ...
    def network_options(self) -> list[NetworkOption]: ...
    def chosen_network(self) -> str | None: ...
    def remember_network(self, interfaces: list[str] | None) -> None: ...
    def remember_name(self, name: str) -> None: ...
    def open_logs(self) -> set[str]: ...
    def open_window(self, t: lan.LanTable) -> TableWindow: ...
    def leave_table(self, t: lan.LanTable) -> None: ...
    def keep(self, dialog: Any) -> None: ...


def open_join_dialog(app: JoinHost, problem: Any, address: Any, position: Any) -> JoinDialog:
    """The Join dialog, wired: `problem` turns an error into a LanProblem, `address` reads
    HOST:PORT, `position` reads a position file (lan_wiring's)."""
    state: dict[str, Any] = {"table": None}

    async def connect(req: JoinRequest) -> JoinedTable:
        app.remember_name(req.player_name)
        app.remember_network(req.interfaces)
        opts = app.session_options(req.passphrase, req.player_name, interfaces=req.interfaces)
        opts.watch = req.watch
        if req.ticket:
            with_internet(opts, app.relay, opts.interfaces)
        try:
            t = await _reach(app, dialog, req, opts, address, position)
        except LanProblem:
            raise
        except Exception as err:
            raise problem(err) from None
        state["table"] = t
        return joined(t)

    async def take_seat(seat: int, deck_name: str | None) -> TableWindow:
        t = state["table"]
        if t is None:
            raise LanProblem("Not connected to a table.")
        try:
            deck = t.module.deck(deck_name) if deck_name and t.module is not None else None
            if seat != WATCH_SEAT and seat not in _own_seats(t):  # one's own: held already
                await lan.take_seat(t, seat, deck, name=app.shell.settings.name)
        except Exception as err:
            raise problem(err) from None
        state["table"] = None
        return app.open_window(t)

    def leave() -> None:
        t, state["table"] = state["table"], None
        if t is not None:
            app.leave_table(t)

    dialog = JoinDialog(connect, take_seat, leave, player_name=app.shell.settings.name,
                        networks=app.network_options(), network=app.chosen_network(),
                        parent=app.shell.start)
    app.keep(dialog)
    browsing = {"task": asyncio.ensure_future(_browse(app, dialog))}

    def look_again(_index: int) -> None:  # another network chosen: its tables, from scratch
        browsing["task"].cancel()
        dialog.set_tables([])
        browsing["task"] = asyncio.ensure_future(_browse(app, dialog))

    dialog.network.currentIndexChanged.connect(look_again)
    dialog.finished.connect(lambda _r: browsing["task"].cancel())
    dialog.open()
    return dialog


async def _reach(app: JoinHost, dialog: JoinDialog, req: JoinRequest, opts: SessionOptions,
                 address: Any, position: Any) -> lan.LanTable:
    """Connect and catch up: back in as this computer's player when the table is one they sat
    at, else as a new peer (by the listing, an address or a ticket)."""
    if req.table_id:
        entry = next((e for e in dialog.entries if e.table_id == req.table_id), None)
        listed = (req.table_id, [address(a) for a in req.addresses], entry.name if entry else "")
    else:  # an address or a ticket: which table answers there
        text = "" if req.ticket else "{}:{}".format(*address(req.addresses[0]))
        listed = await resolve(connect=text or None, ticket=req.ticket or None,
                               interfaces=opts.interfaces, timeout=20.0 if req.ticket else 10.0)
    place = memory.place_at(listed[0], app.open_logs())
    if place is not None and not req.watch:
        dialog.status.setText(f"Taking your place back as {place.name}…")
        await app.departures.left(place.log)
        return await lan.rejoin(place.log, opts, addresses=listed[1],
                                timeout=app.rejoin_timeout)
    return await lan.join(log_path=new_log_path("lan"), options=opts, listed=listed,
                          timeout=20.0 if req.ticket else 15.0,
                          position=position(req.position), progress=dialog.status.setText)


def _own_seats(t: lan.LanTable) -> list[int]:
    me = t.replica.peer_id
    return sorted(s for s, held in t.replica.state.seats.items() if held.peer == me)


def joined(t: lan.LanTable) -> JoinedTable:
    """What the seat step shows: the free seats, and this player's own (to take back)."""
    module = t.module
    taken = set(t.replica.state.seats)
    free = [s for s in range(1, t.seats + 1) if s not in taken]
    decks = sorted(getattr(module, "starter_decks", {}) or {}) if module else []
    defaults = {s: decks[(s - 1) % len(decks)] for s in free} if decks else {}
    me = t.replica.state.peers.get(t.replica.peer_id, {})
    return JoinedTable(t.table_name or "table", module.id if module else "",
                       module.name if module else "", t.seats, free, decks, defaults,
                       record_note=lan.record_note(t.replica),
                       draws_note=lan.draws_note(t.replica),
                       watching=t.session.options.watch or bool(me.get("watch")),
                       own_seats=_own_seats(t), own_name=str(me.get("name") or ""))


def entry_of(t: TableListing, game_names: dict[str, str], open_here: set[str]) -> TableEntry:
    place = memory.place_at(t.table_id, open_here)
    yours = f"{place.place()} as {place.name}" if place is not None else ""
    return TableEntry(t.table_id, t.name, game_names.get(t.game, t.game), t.players,
                      t.free_seats, t.passphrase_needed,
                      tuple(f"{p.host}:{p.port}" for p in t.peers), yours)


async def _browse(app: JoinHost, dialog: JoinDialog) -> None:
    """Keep the dialog's list live; drop tables whose peers stopped answering."""
    chosen = app.networks_within(dialog.network.interfaces())
    browser = TableBrowser(interfaces=interface_choice(chosen), verify=True)

    def changed() -> None:
        here = app.open_logs()
        dialog.set_tables([entry_of(t, app.game_names, here) for t in browser.tables()])

    browser.on_change = changed
    try:
        await browser.start()
        while True:
            await asyncio.sleep(3.0)
            await browser.check_stale(1.0)  # a host that crashed sent no goodbye
    except asyncio.CancelledError:
        pass
    except Exception:
        log.exception("table discovery failed")
        dialog.searching.setText("Table discovery is not available here: type HOST:PORT.")
    finally:
        browser.on_change = None
        with contextlib.suppress(Exception):
            await browser.stop()
