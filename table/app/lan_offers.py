"""The start screen's LAN tables: every place this computer's players had at a table whose
game goes on (:mod:`table.ui.lan.memory`), each said reachable or not while the start screen
is shown: another peer of the table announced on the LAN (a live
:class:`~netplay.discovery.mdns.TableBrowser`), or answering at an address saved beside the
log (:func:`table.lan.rejoin.reachable`). A reachable table is offered as "Rejoin", one that
nobody answers for as "Reopen" (the table opens alone, announced, and the others find it)."""
from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from netplay.discovery.mdns import TableBrowser
from netplay.discovery.table_search import interface_choice
from table import lan
from table.lan.rejoin import reachable
from table.ui.lan import RejoinOffer, memory
from table.ui.shell import Shell

log = logging.getLogger(__name__)
REFRESH = 2.0  # seconds between two looks while the start screen is shown
PROBE_TIMEOUT = 1.0  # seconds a saved address has to answer


class RejoinOffers:
    """Keeps ``shell.start``'s LAN tables up to date while it is shown; `open_here` names the
    logs this program has open (never offered)."""

    def __init__(self, shell: Shell, interfaces: list[str] | None,
                 open_here: Callable[[], set[str]]) -> None:
        self.shell = shell
        self.interfaces = interfaces
        self.open_here = open_here
        self.found: dict[str, list[tuple[str, int]]] = {}  # log -> where its table answered
        self.offered: dict[str, RejoinOffer] = {}  # log -> what the start screen shows
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self._stopped = False  # the program is ending: no more looking

    def wake(self) -> None:
        """Look again now (a table was left, the start screen shown again); starts looking
        once the event loop runs."""
        if self._stopped:
            return
        if self._task is None or self._task.done():
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:  # not yet (the program's start): the app wakes it then
                return
            self._wake = asyncio.Event()
            self._task = loop.create_task(self._run())
        if self._wake is not None:
            self._wake.set()

    async def stop(self) -> None:
        self._stopped = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None

    async def _run(self) -> None:
        """Look while the start screen is shown and has tables to offer; then stop (the
        start screen shown again, or a table left, wakes it)."""
        browser: TableBrowser | None = None
        try:
            while self.shell.start_shown() and memory.offers(self.open_here()):
                if browser is None:
                    browser = await self._browse()
                await self.refresh(browser)
                assert self._wake is not None
                self._wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), REFRESH)
            self._show([])
        except asyncio.CancelledError:
            pass
        except Exception:  # never silent: the start screen would just stop offering tables
            log.exception("looking for the LAN tables played failed")
        finally:
            if browser is not None:
                await _stop(browser)

    async def _browse(self) -> TableBrowser | None:
        browser = TableBrowser(interfaces=interface_choice(self.interfaces), verify=True)
        try:
            await browser.start()
        except Exception:  # no multicast here: the saved addresses still answer
            log.exception("table discovery is not available: only saved addresses are tried")
            return None
        browser.on_change = self.wake
        return browser

    async def refresh(self, browser: TableBrowser | None) -> None:
        """Look for every remembered table once, and show what was found."""
        places = memory.offers(self.open_here())
        self._show([_offer(p, self.found.get(p.log)) for p in places])  # as last seen
        listings = []
        if browser is not None:
            await browser.check_stale(PROBE_TIMEOUT)  # a peer that was killed said no goodbye
            listings = browser.tables()
        found = await asyncio.gather(*(reachable(p.log, p.table_id, p.peer, listings,
                                                 PROBE_TIMEOUT) for p in places))
        self.found = {p.log: where for p, where in zip(places, found, strict=True)}
        self._show([_offer(p, where) for p, where in zip(places, found, strict=True)])

    def _show(self, offers: list[RejoinOffer]) -> None:
        self.offered = {o.log_path: o for o in offers}
        if self.shell.start_shown():
            self.shell.start.set_lan_tables(offers)


def _offer(place: memory.RememberedTable, where: list[tuple[str, int]] | None) -> RejoinOffer:
    """What the start screen shows of a place; `where` None: not looked for yet."""
    return RejoinOffer(place.log, place.table, place.name, place.game, place.place(),
                       None if where is None else bool(where))


async def _stop(browser: TableBrowser) -> None:
    browser.on_change = None
    with contextlib.suppress(Exception):
        await browser.stop()


def place_of(t: lan.LanTable, player_name: str) -> memory.RememberedTable | None:
    """This peer's place at a LAN table, to remember (None: the table has no log yet)."""
    path = str(getattr(t.replica.log, "path", "") or "")
    if not path:
        return None
    me = t.replica.peer_id
    state = t.replica.state
    info = state.peers.get(me, {})
    return memory.RememberedTable(
        log=path, table_id=t.replica.table_id, table=t.table_name, peer=me,
        name=str(info.get("name") or player_name),
        game=t.module.name if t.module is not None else t.replica.game,
        seats=sorted(state.seats_of(me)), watching=bool(info.get("watch")),
        passphrase=bool(t.session.options.passphrase))
