"""Finding tables on the LAN with mDNS/DNS-SD (python-zeroconf, asyncio API).

Every peer of a table registers one ``_sandtable._tcp.local.`` service: its TCP port and a
short TXT record, never a secret (the record and its checks: :mod:`netplay.discovery.listing`).

:class:`TableBrowser` lists the tables grouped by table id, each with the ``host:port`` of its
announcing peers, and drops entries whose service goes away.

Announcements are untrusted (:mod:`netplay.discovery.listing` drops bad ones). With ``verify=True``
(the product's listings), an address is listed under a table id only once a probe of it
answered as that table, so a stranger reusing a table id cannot add an address of its own to
a real table.

``interfaces`` defaults to all interfaces for the product; tests and demos must pass
``["127.0.0.1"]``.
"""



from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from zeroconf import InterfaceChoice, InterfacesType, IPVersion, ServiceStateChange, get_all_addresses  # type: ignore[attr-defined]
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from netplay.discovery.listing import TableAnnouncement, TableListing, TablePeer, read_listing, txt_record
from netplay.link.framing import read_frame, write_frame
from netplay.protocol.handshake import PROTOCOL_VERSION, version_reason
from netplay.protocol.wire import DEFAULT_LIMITS, ProtocolError, pack, unpack

log = logging.getLogger(__name__)

SERVICE_TYPE = "_sandtable._tcp.local."
RESOLVE_TIMEOUT_MS = 3000
PROBE_TIMEOUT = 2.0
def _instance_name(a: TableAnnouncement) -> str:
    label = re.sub(r"[^0-9A-Za-z _-]", "", a.table_name)[:30].strip() or "table"
    return f"{label} {a.peer_id}.{SERVICE_TYPE}"


def _default_addresses(interfaces: InterfacesType) -> list[str]:
    if isinstance(interfaces, list):
        return [str(i) for i in interfaces if isinstance(i, str)]
    return [a for a in get_all_addresses() if not a.startswith("127.")] or ["127.0.0.1"]


class TableAnnouncer:
    """Announces this peer's table; :meth:`update` republishes the TXT when players change."""

    def __init__(
        self,
        announcement: TableAnnouncement,
        *,
        interfaces: InterfacesType = InterfaceChoice.All,
        addresses: list[str] | None = None,
        aiozc: AsyncZeroconf | None = None,
    ) -> None:
        self.announcement = announcement
        self._interfaces = interfaces
        self._addresses = addresses
        self._aiozc = aiozc
        self._owns_zc = aiozc is None
        self._info: AsyncServiceInfo | None = None
        self._registered = False  # the name probed and the record published
        self._announced = announcement  # the fields last published
        self._revision = 0  # TXT field ``rev``: netplay.discovery.listing
        self._broadcast: asyncio.Future[Any] | None = None  # the latest update's repeats

    @property
    def service_name(self) -> str | None:
        """The mDNS name registered (renamed if its first choice was taken); None before."""
        return self._info.name if self._info is not None else None

    def service_info(self) -> AsyncServiceInfo:
        """The record this announcer publishes for its announcement, under its first name."""
        a = self.announcement
        return AsyncServiceInfo(
            SERVICE_TYPE,
            _instance_name(a),
            port=a.port,
            properties=txt_record(a, self._revision),
            server=f"sandtable-{a.peer_id}.local.",
            parsed_addresses=self._addresses or _default_addresses(self._interfaces),
        )

    @property
    def zeroconf(self) -> AsyncZeroconf | None:
        """The zeroconf instance announcing (to browse with it too)."""
        return self._aiozc

    async def start(self) -> None:
        if self._aiozc is None:
            self._aiozc = AsyncZeroconf(interfaces=self._interfaces, ip_version=IPVersion.V4Only)
        self._announced = self.announcement
        self._info = self.service_info()
        # A crashed peer restarting under its old name finds its own stale record: rename.
        broadcast = await self._aiozc.async_register_service(self._info,
                                                             allow_name_change=True)
        self._registered = True
        self._broadcast = asyncio.ensure_future(broadcast)
        if txt_record(self.announcement) != txt_record(self._announced):  # changed meanwhile:
            await self.update()  # the first announcement already carries the latest fields
        log.info("announcing table %s on port %d", self.announcement.table_id, self.announcement.port)

    async def update(self, **changes: Any) -> None:
        """Change announced fields (e.g. ``players=3, free_seats=1``) and republish."""
        self.announcement = replace(self.announcement, **changes)
        if self._aiozc is None or self._info is None or not self._registered:
            return  # still probing its name: start() publishes the latest fields
        name = self._info.name  # as registered (renamed if its old name was still listed)
        self._announced = self.announcement
        self._revision += 1
        self._info = self.service_info()
        self._info.name = name
        if self._broadcast is not None:  # its later repeats would send the older fields
            self._broadcast.cancel()
        self._broadcast = asyncio.ensure_future(await self._aiozc.async_update_service(self._info))

    async def stop(self) -> None:
        if self._aiozc is not None and self._info is not None:
            with contextlib.suppress(Exception):
                goodbyes = await self._aiozc.async_unregister_service(self._info)
                await goodbyes  # let the goodbye packets go out before closing
            self._info, self._registered = None, False
        if self._owns_zc and self._aiozc is not None:
            await self._aiozc.async_close()
            self._aiozc = None


@dataclass(slots=True)
class _Entry:
    listing: TableListing  # a one-peer listing
    updated: float


def _parse_info(info: AsyncServiceInfo) -> TableListing | None:
    props = {
        (k.decode("utf-8", "replace") if isinstance(k, bytes) else str(k)):
        (v.decode("utf-8", "replace") if isinstance(v, bytes) else "")
        for k, v in (info.properties or {}).items()
    }
    addresses = info.parsed_addresses(IPVersion.V4Only) or info.parsed_addresses()
    return read_listing(props, info.name, addresses, int(info.port or 0))


class TableBrowser:
    """Lists the tables announced on the LAN, grouped by table id."""

    def __init__(
        self,
        *,
        interfaces: InterfacesType = InterfaceChoice.All,
        aiozc: AsyncZeroconf | None = None,
        on_change: Callable[[], None] | None = None,
        verify: bool = False,
    ) -> None:
        self._interfaces = interfaces
        self.verify = verify
        self._verified: set[tuple[str, str, int]] = set()  # (table id, host, port) that answered
        self._aiozc = aiozc
        self._owns_zc = aiozc is None
        self.on_change = on_change
        self._browser: AsyncServiceBrowser | None = None
        self._entries: dict[str, _Entry] = {}
        self._resolving: dict[str, asyncio.Task[None]] = {}
        self._changed = asyncio.Event()

    async def start(self) -> None:
        if self._aiozc is None:
            self._aiozc = AsyncZeroconf(interfaces=self._interfaces, ip_version=IPVersion.V4Only)
        self._browser = AsyncServiceBrowser(
            self._aiozc.zeroconf, SERVICE_TYPE, handlers=[self._on_state_change]
        )

    async def stop(self) -> None:
        for task in self._resolving.values():
            task.cancel()
        self._resolving.clear()
        if self._browser is not None:
            await self._browser.async_cancel()
            self._browser = None
        if self._owns_zc and self._aiozc is not None:
            await self._aiozc.async_close()
            self._aiozc = None

    def _on_state_change(
        self, zeroconf: Any, service_type: str, name: str, state_change: ServiceStateChange
    ) -> None:
        if state_change is ServiceStateChange.Removed:
            task = self._resolving.pop(name, None)
            if task is not None:
                task.cancel()
            if self._entries.pop(name, None) is not None:
                self._notify()
            return
        old = self._resolving.pop(name, None)
        if old is not None:
            old.cancel()
        self._resolving[name] = asyncio.ensure_future(self._resolve(service_type, name))

    async def _resolve(self, service_type: str, name: str) -> None:
        assert self._aiozc is not None
        try:
            info = AsyncServiceInfo(service_type, name)
            if not await info.async_request(self._aiozc.zeroconf, RESOLVE_TIMEOUT_MS):
                log.debug("could not resolve %s", name)
                return
            listing = _parse_info(info)
            if listing is None:
                log.debug("ignoring malformed table announcement %s", name)
                return
            if self.verify and not await self._answers_as(listing):
                return
            self._entries[name] = _Entry(listing, asyncio.get_running_loop().time())
            self._notify()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("resolving %s failed", name)
        finally:
            if self._resolving.get(name) is asyncio.current_task():
                del self._resolving[name]

    async def _answers_as(self, listing: TableListing) -> bool:
        """Does the announced address answer as the announced table? (probed once)"""
        peer = listing.peers[0]
        key = (listing.table_id, peer.host, peer.port)
        if key in self._verified:
            return True
        try:
            answered = await probe_table_id(peer.host, peer.port, PROBE_TIMEOUT)
        except Exception as err:
            log.debug("announced %s:%d does not answer (%s); not listed", peer.host, peer.port, err)
            return False
        if answered != listing.table_id:
            log.debug("announced %s:%d answers as another table; not listed", peer.host, peer.port)
            return False
        self._verified.add(key)
        return True

    def resolving(self) -> int:
        """How many announcements are still being resolved (or their address probed)."""
        return len(self._resolving)

    def _notify(self) -> None:
        self._changed.set()
        if self.on_change is not None:
            try:
                self.on_change()
            except Exception:
                log.exception("table browser on_change handler failed")

    def tables(self) -> list[TableListing]:
        """Current tables, by table id; each lists every announcing peer's host:port."""
        grouped: dict[str, TableListing] = {}
        for entry in sorted(self._entries.values(), key=lambda e: e.updated):
            one = entry.listing
            table = grouped.get(one.table_id)
            if table is None:
                table = grouped[one.table_id] = replace(one, peers=[])
            else:  # the latest announcement wins for table-wide fields
                table.name, table.game = one.name, one.game
                table.players, table.free_seats = one.players, one.free_seats
                table.passphrase_needed, table.version = one.passphrase_needed, one.version
                table.watchers, table.local_draws = one.watchers, one.local_draws
            # one address per peer: its latest (a restarted peer's old record may linger)
            table.peers[:] = [p for p in table.peers
                              if p.peer_id not in {q.peer_id for q in one.peers}] + one.peers
        return sorted(grouped.values(), key=lambda t: (t.name, t.table_id))

    async def wait_until(self, predicate: Callable[[list[TableListing]], bool], timeout: float) -> bool:
        """Wait until ``predicate(self.tables())`` holds; False on timeout."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not predicate(self.tables()):
            remaining = deadline - loop.time()
            if remaining <= 0:
                return False
            self._changed.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._changed.wait(), remaining)
        return True

    async def check_stale(self, timeout: float = 1.0) -> list[str]:
        """Try a TCP connect to every listed peer; drop those that refuse. Returns the
        service names dropped."""

        async def alive(peer: TablePeer) -> bool:
            try:
                _, writer = await asyncio.wait_for(asyncio.open_connection(peer.host, peer.port), timeout)
            except (TimeoutError, OSError):
                return False
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()
            return True

        names = list(self._entries)
        results = await asyncio.gather(*(alive(self._entries[n].listing.peers[0]) for n in names))
        dropped = [n for n, ok in zip(names, results, strict=True) if not ok and n in self._entries]
        for name in dropped:
            del self._entries[name]
        if dropped:
            self._notify()
        return dropped


async def probe_table_id(host: str, port: int, timeout: float = 5.0) -> str:
    """Learn the table id of the peer at host:port (manual connect): say ``probe`` (a
    responder answers a dialler that spoke with its ``hello``), read the hello and hang up.
    Raises OSError/ProtocolError/TimeoutError."""
    reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
    try:
        await asyncio.wait_for(write_frame(writer, pack({"t": "probe"})), timeout)
        frame = await asyncio.wait_for(read_frame(reader, DEFAULT_LIMITS), timeout)
        hello = unpack(frame, DEFAULT_LIMITS)
        if isinstance(hello, dict) and hello.get("t") == "reject":  # e.g. "table busy"
            raise ProtocolError(f"the table refused: {str(hello.get('reason'))[:100]}")
        if not isinstance(hello, dict) or hello.get("t") != "hello" \
                or not isinstance(hello.get("table"), str):
            raise ProtocolError("the peer did not answer with a hello")
        if hello.get("v") != PROTOCOL_VERSION:
            raise ProtocolError(version_reason(PROTOCOL_VERSION, hello.get("v"), False))
        return str(hello["table"])
    finally:
        writer.close()
        with contextlib.suppress(Exception):
            await writer.wait_closed()
