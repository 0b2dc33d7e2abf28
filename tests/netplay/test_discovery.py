"""Zeroconf discovery, on the loopback interface only."""

import asyncio
import time
from dataclasses import replace

import pytest
from netplay_testkit import LOOPBACK, run

from netplay.discovery.listing import TableAnnouncement
from netplay.discovery.mdns import TableAnnouncer, TableBrowser
from netplay.protocol.handshake import PROTOCOL_VERSION
from netplay.protocol.identity import new_peer_id

pytestmark = pytest.mark.socket

ONLY_LOOPBACK = [LOOPBACK]
# The speed target (announce to listed <= 1.5 s) is measured by `sandtable bench net`
# (discovery_s); here a generous bound only catches a table that is never listed.
LISTED_WITHIN = 5.0


async def measure_announce_to_listed(browser: TableBrowser, announcer: TableAnnouncer,
                                     table_id: str, timeout: float = 5.0) -> float:
    """Seconds from starting the announcement to the browser listing the table."""
    t0 = time.monotonic()
    await announcer.start()
    ok = await browser.wait_until(lambda ts: any(t.table_id == table_id for t in ts), timeout)
    assert ok, "table never listed"
    return time.monotonic() - t0


def test_table_listed_quickly_updated_and_dropped():
    async def scenario():
        server = await asyncio.start_server(lambda r, w: w.close(), LOOPBACK, 0)
        port = server.sockets[0].getsockname()[1]
        browser = TableBrowser(interfaces=ONLY_LOOPBACK)
        await browser.start()
        pid = new_peer_id()
        ann = TableAnnouncer(
            TableAnnouncement("tid-" + pid, "Friday playtest", "gauntlet", pid, port,
                              players=1, free_seats=1, passphrase_needed=True),
            interfaces=ONLY_LOOPBACK)
        elapsed = await measure_announce_to_listed(browser, ann, "tid-" + pid, LISTED_WITHIN)
        print(f"announce-to-listed: {elapsed:.3f} s")
        (table,) = [t for t in browser.tables() if t.table_id == "tid-" + pid]
        assert (table.name, table.game, table.players, table.free_seats) == \
            ("Friday playtest", "gauntlet", 1, 1)
        assert table.passphrase_needed and table.version == PROTOCOL_VERSION
        assert [(p.peer_id, p.host, p.port) for p in table.peers] == [(pid, LOOPBACK, port)]

        # A second peer of the same table is grouped under the same table id.
        pid2 = new_peer_id()
        ann2 = TableAnnouncer(TableAnnouncement("tid-" + pid, "Friday playtest", "gauntlet", pid2, port,
                                                players=2, free_seats=0, passphrase_needed=True),
                              interfaces=ONLY_LOOPBACK)
        await ann2.start()
        assert await browser.wait_until(
            lambda ts: any(len(t.peers) == 2 for t in ts if t.table_id == "tid-" + pid), 5)

        await ann.update(players=2, free_seats=0)
        assert await browser.wait_until(
            lambda ts: any(t.players == 2 and t.free_seats == 0 for t in ts), 5)
        assert await browser.check_stale(0.5) == []  # the port answers

        t0 = time.monotonic()
        await ann.stop()
        await ann2.stop()
        assert await browser.wait_until(lambda ts: not any(t.table_id == "tid-" + pid for t in ts), 3)
        print(f"unregister-to-dropped: {time.monotonic() - t0:.3f} s")
        await browser.stop()
        server.close()
    run(scenario())


def test_stale_entries_can_be_dropped():
    async def scenario():
        server = await asyncio.start_server(lambda r, w: w.close(), LOOPBACK, 0)
        port = server.sockets[0].getsockname()[1]
        server.close()
        await server.wait_closed()  # nothing listens on port any more
        browser = TableBrowser(interfaces=ONLY_LOOPBACK)
        await browser.start()
        pid = new_peer_id()
        ann = TableAnnouncer(TableAnnouncement("stale-" + pid, "Ghost", "mantle", pid, port),
                             interfaces=ONLY_LOOPBACK)
        await measure_announce_to_listed(browser, ann, "stale-" + pid)
        dropped = await browser.check_stale(0.5)
        assert len(dropped) == 1
        assert not any(t.table_id == "stale-" + pid for t in browser.tables())
        await ann.stop()
        await browser.stop()
    run(scenario())


def test_seats_changed_while_the_name_is_probed_and_after_a_rename_are_listed_once():
    """The session announces in the background (probing takes about a second): a change of
    seats meanwhile is published once the name is taken, and a peer renamed because its old
    record still lingers (a restart) updates its record under the new name: one address."""
    async def scenario():
        from zeroconf import IPVersion
        from zeroconf.asyncio import AsyncZeroconf


        pid = new_peer_id()
        seen: list[int] = []  # the table's player count at every change the browser saw
        browser = TableBrowser(interfaces=ONLY_LOOPBACK, on_change=lambda: seen.extend(
            t.players for t in browser.tables() if t.table_id == "probe-" + pid))
        await browser.start()
        first = TableAnnouncement("probe-" + pid, "Probe", "gauntlet", pid, 9, players=1,
                                  free_seats=1)
        # The record a crashed run of this peer left behind, under the name it will want.
        stale_zc = AsyncZeroconf(interfaces=ONLY_LOOPBACK, ip_version=IPVersion.V4Only)
        stale = TableAnnouncer(replace(first, players=0, free_seats=2), interfaces=ONLY_LOOPBACK)
        info = stale.service_info()
        await stale_zc.async_register_service(info, cooperating_responders=True)
        ann = TableAnnouncer(first, interfaces=ONLY_LOOPBACK)
        starting = asyncio.ensure_future(ann.start())
        await asyncio.sleep(0.05)
        await ann.update(players=2, free_seats=0)  # still probing its name
        await starting
        assert ann.service_name is not None and ann.service_name != info.name  # renamed
        await stale_zc.async_unregister_service(info)

        def listed(players: int):
            return lambda ts: any(t.table_id == "probe-" + pid and t.players == players
                                  and len(t.peers) == 1 for t in ts)
        assert await browser.wait_until(listed(2), 5), browser.tables()
        assert 1 not in seen, seen  # the fields of before the change never went out
        await ann.update(players=1, free_seats=1)
        assert await browser.wait_until(listed(1), 5), browser.tables()
        await ann.stop()
        await stale_zc.async_close()
        await browser.stop()
    run(scenario())
