"""LAN play in the app: the Host and Join dialogs wired to netplay on the qasync loop.

The widgets (``table.ui.lan``) take plain data and callables; this module, outside
``table.ui``, runs the network for them: :func:`table.lan.hosting.host`/``join``/``take_seat``
as tasks on the one event loop (nothing blocks the UI thread), a
:class:`~netplay.discovery.mdns.TableBrowser` feeding the join dialog's live list, and each LAN
table window's peers panel. Closing a LAN table window leaves the table cleanly (``bye`` to
every peer) and then closes its log. An open LAN table's log is the settings' resumable game
until its window is closed: after a crash, Resume rejoins the table from it
(:func:`table.lan.hosting.rejoin`, in a :class:`~table.ui.lan.RejoinDialog`).

``interfaces`` is None (every interface) in the product; tests and demos pass
``["127.0.0.1"]`` (or set ``SANDTABLE_LAN_INTERFACES=127.0.0.1`` for the app).
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from netplay.discovery.listing import TableListing
from netplay.discovery.mdns import TableBrowser
from netplay.discovery.peerfile import played_over_internet
from netplay.discovery.table_search import interface_choice
from netplay.session.events import PeersChanged
from netplay.session.lan_session import SessionOptions
from table import lan
from table.app.internet_wiring import invite, with_internet
from table.app.lan_leaving import CLOSE_BOUND, Departures
from table.app.owner_requests import install_owner_consent, install_owner_requests
from table.games.registry import ModuleNotFound
from table.lan.setup import ready_seats
from table.lan.table import until_changed
from table.ui.catalog import Catalog
from table.ui.drafts import use_module
from table.ui.games import available_games, catalog_for
from table.ui.lan import (
    WATCH_SEAT,
    HostDialog,
    HostRequest,
    JoinDialog,
    JoinedTable,
    JoinRequest,
    LanProblem,
    NoPeersFound,
    PeerRow,
    PeersPanel,
    RejoinDialog,
    RejoinRequest,
    TableEntry,
)
from table.ui.main_window import TableWindow
from table.ui.settings import new_log_path
from table.ui.shell import Shell

log = logging.getLogger(__name__)
WAITING_FOR_SHUFFLE = ("Your deck is shuffled together with the other players as soon as one "
                       "joins (nobody alone can choose its order); your opening hand follows.")


def _problem(err: BaseException) -> LanProblem:
    if isinstance(err, lan.LanError):
        text = str(err)
        return LanProblem(text[:1].upper() + text[1:] + ("" if text.endswith(".") else "."))
    if isinstance(err, OSError):
        return LanProblem(f"Network error: {err.strerror or err}.")
    if isinstance(err, ModuleNotFound):
        return LanProblem(f"This computer does not have the game {err.module_id!r}.")
    if isinstance(err, KeyError):
        return LanProblem(f"This computer does not have the game {err.args[0]!r}.")
    raise err


def _address(text: str) -> tuple[str, int]:
    host, _, port = text.strip().rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise LanProblem(f"Cannot read “{text}”: type the address as HOST:PORT.")
    return host.strip("[]"), int(port)


class LanApp:
    """Owns the LAN tables of one app instance."""

    def __init__(self, shell: Shell, *, interfaces: list[str] | None = None,
                 options: dict[str, Any] | None = None, relay: str = "default") -> None:
        self.shell = shell
        self.interfaces = interfaces
        self.relay = relay  # internet play: n0's relays, a relay URL, or "off" (tests)
        self.extra_options = dict(options or {})  # e.g. mesh/replication configs (tests)
        self.tables: list[lan.LanTable] = []
        self.windows: dict[int, TableWindow] = {}
        self.dialogs: list[Any] = []
        self.departures = Departures(self.tables, self.windows)
        self.rejoin_timeout = 8.0  # seconds to find the table's other peers, then to catch up
        self._game_names = {g.id: g.name for g in available_games()}
        shell.set_lan(self.open_host_dialog, self.open_join_dialog, self.open_rejoin_dialog)

    def session_options(self, passphrase: str | None, name: str, port: int = 0) -> SessionOptions:
        """The options every LAN table of this app opens with (requests asked of the player)."""
        extra = {"allow_requests": "ask", **self.extra_options}  # the player decides
        return SessionOptions(passphrase=passphrase, interfaces=self.interfaces, port=port,
                              player_name=name, **extra)

    def _remember_name(self, name: str) -> None:
        settings = self.shell.settings
        if name and name != settings.name:
            settings.name = name
            settings.save()

    # ------------------------------------------------------------------ hosting
    def open_host_dialog(self) -> HostDialog:
        settings = self.shell.settings
        dialog = HostDialog(available_games(), self.host_table, player_name=settings.name,
                            last_game=settings.last_game, parent=self.shell.start)
        self._keep(dialog)
        dialog.open()
        return dialog

    async def host_table(self, req: HostRequest) -> TableWindow:
        """Host the table the Host dialog asks for, take its seat and open its window."""
        self._remember_name(req.player_name)
        try:
            position = _position(req.position)
            module = position.module if position else lan.module_for(req.game_id)
            deck = module.deck(req.deck) if req.deck and position is None else None
            opts = self.session_options(req.passphrase, req.player_name, req.port)
            if req.internet:
                with_internet(opts, self.relay, self.interfaces)
            t = await lan.host(module, table_name=req.table_name,
                               seats=position.seats if position else req.seats,
                               log_path=new_log_path(module.id), options=opts,
                               position=position, watchers=req.watchers,
                               record_to_watchers=req.record_to_watchers,
                               local_draws=req.local_draws, tags=req.tags)
        except Exception as err:
            raise _problem(err) from None
        try:
            await lan.take_seat(t, req.seat, deck, name=req.player_name)
        except BaseException as err:
            await t.close()
            if isinstance(err, Exception):
                raise _problem(err) from None
            raise
        window = self.open_window(t)
        if req.internet:
            self.dialogs.append(await invite(t, window, self.relay, self.interfaces))
        return window

    # ------------------------------------------------------------------ joining
    def open_join_dialog(self) -> JoinDialog:
        state: dict[str, Any] = {"table": None}

        async def connect(req: JoinRequest) -> JoinedTable:
            self._remember_name(req.player_name)
            opts = self.session_options(req.passphrase, req.player_name)
            opts.watch = req.watch
            try:
                if req.ticket:
                    t = await lan.join(log_path=new_log_path("lan"), ticket=req.ticket,
                                       options=with_internet(opts, self.relay, self.interfaces),
                                       timeout=20.0, position=_position(req.position),
                                       progress=dialog.status.setText)
                elif req.table_id:
                    addresses = [_address(a) for a in req.addresses]
                    entry = next((e for e in dialog.entries if e.table_id == req.table_id), None)
                    t = await lan.join(log_path=new_log_path("lan"), options=opts,
                                       listed=(req.table_id, addresses,
                                               entry.name if entry else ""),
                                       position=_position(req.position),
                                       progress=dialog.status.setText)
                else:
                    host, port = _address(req.addresses[0])
                    t = await lan.join(log_path=new_log_path("lan"), options=opts,
                                       connect=f"{host}:{port}", timeout=10.0,
                                       position=_position(req.position),
                                       progress=dialog.status.setText)
            except LanProblem:
                raise
            except Exception as err:
                raise _problem(err) from None
            state["table"] = t
            return self._joined(t)

        async def take_seat(seat: int, deck_name: str | None) -> TableWindow:
            t = state["table"]
            if t is None:
                raise LanProblem("Not connected to a table.")
            try:
                deck = t.module.deck(deck_name) if deck_name and t.module is not None else None
                if seat != WATCH_SEAT:
                    await lan.take_seat(t, seat, deck, name=self.shell.settings.name)
            except Exception as err:
                raise _problem(err) from None
            state["table"] = None
            return self.open_window(t)

        def leave() -> None:
            t, state["table"] = state["table"], None
            if t is not None:
                self._spawn_leave(t)

        dialog = JoinDialog(connect, take_seat, leave, player_name=self.shell.settings.name,
                            parent=self.shell.start)
        self._keep(dialog)
        browsing = asyncio.ensure_future(self._browse(dialog))
        dialog.finished.connect(lambda _r: browsing.cancel())
        dialog.open()
        return dialog

    # ------------------------------------------------------------------ rejoining
    def open_rejoin_dialog(self, path: str) -> RejoinDialog:
        """Get back into the LAN game of this log (Resume, after a crash): same player, found
        again through discovery (or a HOST:PORT the player types)."""
        remembered = self.shell.settings.last_lan if self.shell.settings.last_log == path else {}
        dialog = RejoinDialog(path, str(remembered.get("table") or ""), self._rejoin,
                              needs_passphrase=bool(remembered.get("passphrase")),
                              parent=self.shell.start)
        self._keep(dialog)
        dialog.open()
        return dialog

    async def _rejoin(self, req: RejoinRequest) -> TableWindow:
        opts = self.session_options(req.passphrase, self.shell.settings.name)
        if played_over_internet(req.log_path):  # its peers are redialled at their tickets
            with_internet(opts, self.relay, self.interfaces)
        try:
            addresses = [_address(req.address)] if req.address else None
            t = await lan.rejoin(req.log_path, opts, addresses=addresses,
                                 timeout=self.rejoin_timeout)
        except LanProblem:
            raise
        except lan.NobodyFound as err:
            raise NoPeersFound(_problem(err).args[0]) from None
        except Exception as err:
            raise _problem(err) from None
        return self.open_window(t)

    def _joined(self, t: lan.LanTable) -> JoinedTable:
        module = t.module
        taken = set(t.replica.state.seats)
        free = [s for s in range(1, t.seats + 1) if s not in taken]
        decks = sorted(getattr(module, "starter_decks", {}) or {}) if module else []
        defaults = {s: decks[(s - 1) % len(decks)] for s in free} if decks else {}
        return JoinedTable(t.table_name or "table", module.id if module else "",
                           module.name if module else "", t.seats, free, decks, defaults,
                           record_note=lan.record_note(t.replica),
                           draws_note=lan.draws_note(t.replica),
                           watching=t.session.options.watch)

    async def _browse(self, dialog: JoinDialog) -> None:
        """Keep the dialog's list live; drop tables whose peers stopped answering."""
        browser = TableBrowser(interfaces=interface_choice(self.interfaces), verify=True)

        def changed() -> None:
            dialog.set_tables([_entry(t, self._game_names) for t in browser.tables()])

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

    # ------------------------------------------------------------------ the table window
    def open_window(self, t: lan.LanTable) -> TableWindow:
        """The table window of a LAN table this app is at, with its peers panel."""
        module = t.module
        # the table's own module (a draft received from the table), never one by its id alone
        catalog = Catalog.from_module(module) if module is not None else \
            catalog_for(t.replica.game)
        session = t.session

        def rows() -> list[PeerRow]:
            return [PeerRow(p.peer_id, p.name, p.seats, p.status, p.address, p.watching)
                    for p in session.peer_list()]

        def invite_soon() -> None:
            async def show() -> None:
                try:
                    self.dialogs.append(await invite(t, self.windows.get(id(t)), self.relay,
                                                     self.interfaces))
                except Exception as err:  # the endpoint could not open: say why
                    window.statusBar().showMessage(f"Cannot invite over the internet: {err}")
            t.spawn(show())

        panel = PeersPanel(rows, table_line=self._table_line(t), invite=invite_soon)
        unsubscribe = session.events.subscribe(
            lambda e: panel.schedule_refresh() if isinstance(e, PeersChanged) else None)
        game = module.name if module else t.replica.game

        log_path = str(getattr(t.replica.log, "path", "") or "")

        def leave() -> None:  # leaving on purpose: the game is not offered for resume again
            unsubscribe()
            if log_path:
                self.shell.lan_game_ended(log_path)
            self._spawn_leave(t)

        window = TableWindow(t.replica, catalog, settings=self.shell.settings,
                             title=f"{t.table_name} — {game} — LAN — Sandtable",
                             peers=panel, on_leave=leave)
        self.tables.append(t)
        if t.setting_up:  # the seat's deck waits for a joint shuffle (table.lan.seat_setup)
            window.statusBar().showMessage(WAITING_FOR_SHUFFLE)
            t.spawn(_clear_when_dealt(t, window))
        t.on_module = lambda m: use_module(window, m)  # the draft changed during play
        self.windows[id(t)] = window
        install_owner_requests(window, t)  # another seat's hidden pile: ask its peer
        install_owner_consent(window, t)  # another player asks ours: ask this player
        settings = self.shell.settings
        if log_path:  # a crash leaves it resumable: Resume rejoins the table
            settings.last_log, settings.last_log_finished = log_path, False
            settings.last_lan = {"table": t.table_name,
                                 "passphrase": bool(session.options.passphrase)}
            settings.save()
        return self.shell.open_table(window)

    def _table_line(self, t: lan.LanTable) -> str:
        lock = ", passphrase" if t.session.options.passphrase else ""
        return f"“{t.table_name}”, port {t.session.port}{lock}"

    def _spawn_leave(self, t: lan.LanTable) -> None:
        self.departures.leave(t)

    async def close_all(self, bound: float = CLOSE_BOUND) -> list[str]:
        """Leave every table (on quit), at most `bound` seconds: see
        :meth:`table.app.lan_leaving.Departures.close_all`."""
        return await self.departures.close_all(bound)

    def _keep(self, dialog: Any) -> None:
        self.dialogs.append(dialog)
        dialog.finished.connect(lambda _r, d=dialog: self.dialogs.remove(d)
                                if d in self.dialogs else None)


def _entry(t: TableListing, game_names: dict[str, str]) -> TableEntry:
    return TableEntry(t.table_id, t.name, game_names.get(t.game, t.game), t.players,
                      t.free_seats, t.passphrase_needed,
                      tuple(f"{p.host}:{p.port}" for p in t.peers))


def _position(path: str) -> Any:
    """The position a LAN dialog names (None: none), or a LanProblem listing its problems."""
    if not path:
        return None
    from table.games.position import PositionError, read_position

    try:
        return read_position(path)
    except PositionError as err:
        raise LanProblem(str(err)) from None


async def _clear_when_dealt(t: lan.LanTable, window: TableWindow) -> None:
    """Once this peer's seats are set up, the waiting hint gives way to what happened."""
    mine = set(t.setting_up)
    await until_changed(t.replica, lambda: mine <= set(ready_seats(t.replica)), kinds=("mark",))
    if window.statusBar().currentMessage() == WAITING_FOR_SHUFFLE:
        window.statusBar().showMessage("Your deck was shuffled together with the other players.",
                                       8000)
