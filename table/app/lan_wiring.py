"""LAN play in the app: the Host, Join and Rejoin dialogs wired to netplay on the qasync loop.

The widgets (``table.ui.lan``) take plain data and callables; this module, outside
``table.ui``, runs the network for them: :func:`table.lan.hosting.host`/``join``/``take_seat``
as tasks on the one event loop (nothing blocks the UI thread), the Join dialog
(:mod:`table.app.lan_joining`), and each LAN table window's peers panel. Closing a LAN table
window leaves the table cleanly (``bye`` to every peer) and then closes its log
(:mod:`table.app.lan_leaving`). Every table this computer's players sat at is remembered
(:mod:`table.ui.lan.memory`): the start screen offers it back while its game goes on
(:mod:`table.app.lan_offers`), rejoined from its log as the same player
(:func:`table.lan.rejoin.rejoin`, in a :class:`~table.ui.lan.RejoinDialog`).

``interfaces`` is None (every interface) in the product; tests and demos pass
``["127.0.0.1"]`` (or set ``SANDTABLE_LAN_INTERFACES=127.0.0.1`` for the app).
"""
from __future__ import annotations

import logging
from typing import Any

from PySide6.QtCore import QTimer

from netplay.discovery.interfaces import local_addresses
from netplay.discovery.peerfile import played_over_internet
from netplay.session.events import PeerInfo, PeersChanged
from netplay.session.lan_session import SessionOptions
from table import lan
from table.app.internet_wiring import invite, with_internet
from table.app.lan_bots import attach as attach_bots
from table.app.lan_joining import open_join_dialog
from table.app.lan_leaving import CLOSE_BOUND, Departures
from table.app.lan_offers import RejoinOffers, place_of
from table.app.owner_requests import install_owner_consent, install_owner_requests
from table.games.registry import ModuleNotFound
from table.lan.setup import ready_seats
from table.lan.table import until_changed
from table.ui.catalog import Catalog
from table.ui.drafts import use_module
from table.ui.games import available_games, catalog_for
from table.ui.lan import (
    HostDialog,
    HostRequest,
    JoinDialog,
    LanProblem,
    NetworkOption,
    NoPeersFound,
    PeerRow,
    PeersPanel,
    RejoinDialog,
    RejoinRequest,
    memory,
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
        self.game_names = {g.id: g.name for g in available_games()}
        self.offers = RejoinOffers(shell, interfaces, self.open_logs)
        shell.set_lan(self.open_host_dialog, self.open_join_dialog, self.open_rejoin_dialog)
        shell.on_start_shown = self.offers.wake
        self.departures.on_left = self.offers.wake  # its place is free to offer again
        QTimer.singleShot(0, self.offers.wake)  # once the event loop runs

    def session_options(self, passphrase: str | None, name: str, port: int = 0,
                        interfaces: list[str] | None = None) -> SessionOptions:
        """The options every LAN table of this app opens with (requests asked of the player),
        on the network the player chose (`interfaces`; None: every network)."""
        extra = {"allow_requests": "ask", **self.extra_options}  # the player decides
        return SessionOptions(passphrase=passphrase, interfaces=self.networks_within(interfaces),
                              port=port, player_name=name, **extra)

    def networks_within(self, chosen: list[str] | None) -> list[str] | None:
        """The interfaces to use for a choice: where this program is held to some
        (SANDTABLE_LAN_INTERFACES: tests, demos), never more than those."""
        if self.interfaces is None or (chosen and set(chosen) <= set(self.interfaces)):
            return chosen
        return self.interfaces

    def network_options(self) -> list[NetworkOption]:
        """The networks the Host and Join dialogs offer: every network, then each address of
        this machine (only those this program is held to, where it is)."""
        if self.interfaces is not None:
            return [NetworkOption(a, a) for a in self.interfaces]
        return [NetworkOption(None, "Every network"),
                *(NetworkOption(a.address, f"This computer only ({a.address})" if a.loopback
                                else f"{a.adapter} ({a.address})") for a in local_addresses())]

    def chosen_network(self) -> str | None:
        """The network the player chose last (remembered in their settings)."""
        chosen = self.shell.settings.extra.get("lan_network")
        return chosen if isinstance(chosen, str) else None

    def remember_network(self, interfaces: list[str] | None) -> None:
        settings = self.shell.settings
        chosen = interfaces[0] if interfaces else None
        if settings.extra.get("lan_network") != chosen:
            settings.extra["lan_network"] = chosen
            settings.save()

    def remember_name(self, name: str) -> None:
        settings = self.shell.settings
        if name and name != settings.name:
            settings.name = name
            settings.save()

    # ------------------------------------------------------------------ hosting
    def open_host_dialog(self) -> HostDialog:
        settings = self.shell.settings
        dialog = HostDialog(available_games(), self.host_table, player_name=settings.name,
                            last_game=settings.last_game, networks=self.network_options(),
                            network=self.chosen_network(), parent=self.shell.start)
        self.keep(dialog)
        dialog.open()
        return dialog

    async def host_table(self, req: HostRequest) -> TableWindow:
        """Host the table the Host dialog asks for, take its seat and open its window."""
        self.remember_name(req.player_name)
        self.remember_network(req.interfaces)
        try:
            position = _position(req.position)
            module = position.module if position else lan.module_for(req.game_id)
            deck = module.deck(req.deck) if req.deck and position is None else None
            opts = self.session_options(req.passphrase, req.player_name, req.port,
                                        req.interfaces)
            if req.internet:
                with_internet(opts, self.relay, opts.interfaces)
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
            self.dialogs.append(await invite(t, window, self.relay, opts.interfaces))
        return window

    # ------------------------------------------------------------------ joining
    def open_join_dialog(self) -> JoinDialog:
        """The Join dialog (table.app.lan_joining): a table this computer's player sat at is
        joined back as that player."""
        return open_join_dialog(self, _problem, _address, _position)

    # ------------------------------------------------------------------ rejoining
    def open_rejoin_dialog(self, path: str) -> RejoinDialog:
        """Get back into the LAN game of this log: same player, at the addresses where the
        start screen found the table (else found again through discovery, or at a HOST:PORT
        the player types); a table nobody answers for is reopened alone."""
        place = next((e for e in memory.load() if e.log == path), None)
        offer = self.offers.offered.get(path)
        alone = offer is not None and offer.reachable is False
        dialog = RejoinDialog(path, place.table if place else "",
                              lambda req: self._rejoin(req, alone),
                              needs_passphrase=bool(place and place.passphrase),
                              reopen=alone, parent=self.shell.start)
        self.keep(dialog)
        dialog.open()
        return dialog

    async def _rejoin(self, req: RejoinRequest, alone: bool = False) -> TableWindow:
        opts = self.session_options(req.passphrase, self.shell.settings.name)
        if played_over_internet(req.log_path):  # its peers are redialled at their tickets
            with_internet(opts, self.relay, self.interfaces)
        await self.departures.left(req.log_path)  # just left (a look from the Join dialog)
        try:
            addresses = [_address(req.address)] if req.address else \
                self.offers.found.get(req.log_path) or None
            t = await lan.rejoin(req.log_path, opts, addresses=addresses,
                                 timeout=self.rejoin_timeout, alone=alone and not addresses)
        except LanProblem:
            raise
        except lan.NobodyFound as err:
            raise NoPeersFound(_problem(err).args[0]) from None
        except Exception as err:
            raise _problem(err) from None
        return self.open_window(t)

    def open_logs(self) -> set[str]:
        """The logs of the tables this program has open (not to be offered again)."""
        return {str(getattr(t.replica.log, "path", "") or "") for t in self.tables} - {""}

    # ------------------------------------------------------------------ the table window
    def open_window(self, t: lan.LanTable) -> TableWindow:
        """The table window of a LAN table this app is at, with its peers panel."""
        module = t.module
        # the table's own module (a draft received from the table), never one by its id alone
        catalog = Catalog.from_module(module) if module is not None else \
            catalog_for(t.replica.game)
        session = t.session

        def rows() -> list[PeerRow]:
            return peer_rows(session.peer_list())

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

        def leave() -> None:  # the table stays remembered: the start screen offers it back
            unsubscribe()
            if log_path:
                memory.closed(log_path)
            self.leave_table(t)

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
        attach_bots(window, t)  # "Add a bot" on an empty seat: a peer of its own
        place = place_of(t, self.shell.settings.name)
        if place is not None:  # closed or crashed, the start screen offers it back
            memory.remember(place)
        return self.shell.open_table(window)

    def _table_line(self, t: lan.LanTable) -> str:
        lock = ", passphrase" if t.session.options.passphrase else ""
        return f"“{t.table_name}”, port {t.session.port}{lock}"

    def leave_table(self, t: lan.LanTable) -> None:
        self.departures.leave(t)

    async def close_all(self, bound: float = CLOSE_BOUND) -> list[str]:
        """Leave every table (on quit), at most `bound` seconds: see
        :meth:`table.app.lan_leaving.Departures.close_all`."""
        await self.offers.stop()
        return await self.departures.close_all(bound)

    def keep(self, dialog: Any) -> None:
        self.dialogs.append(dialog)
        dialog.finished.connect(lambda _r, d=dialog: self.dialogs.remove(d)
                                if d in self.dialogs else None)


def peer_rows(peers: list[PeerInfo]) -> list[PeerRow]:
    """The Peers panel's rows: every player met at the table; a peer that connected and left
    without sitting down (a look from the Join dialog) is no player: not listed once gone."""
    return [PeerRow(p.peer_id, p.name, p.seats, p.status, p.address, p.watching)
            for p in peers if p.status != "gone" or p.seats or p.watching]


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
