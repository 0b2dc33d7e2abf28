"""Untrusted announcements (zeroconf on 127.0.0.1 only): bad fields are dropped, names are
printed without escape codes, a reused table id cannot add an address that does not answer as
that table, and a joiner that came in by address announces the table's real name."""

import argparse
import asyncio

import pytest
from netplay_testkit import LOOPBACK, run, wait_until
from zeroconf import IPVersion
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

from netplay.discovery.listing import safe_text
from netplay.discovery.mdns import SERVICE_TYPE, TableBrowser
from netplay.protocol.handshake import PROTOCOL_VERSION
from netplay.protocol.identity import new_peer_id
from netplay.session.lan_session import SessionOptions
from table import lan
from table.app.commands.net import cmd_tables

EVIL_NAME = "Evil\x1b[2J\x1b[H\x1b]0;pwned\x07 table\r\n"


def _txt(tid, pid, **over):
    props = {"v": str(PROTOCOL_VERSION), "tid": tid, "name": "Fine", "game": "gauntlet",
             "pl": "1", "free": "1", "pw": "0", "pid": pid}
    props.update(over)
    return props


async def _register(zc, label, port, props):
    info = AsyncServiceInfo(SERVICE_TYPE, f"{label}.{SERVICE_TYPE}", port=port, properties=props,
                            server=f"st-{label}.local.", parsed_addresses=[LOOPBACK])
    # A stranger's announcement, sent at once: a responder that probes first for name
    # conflicts (as the product's announcer does) waits about a second per name.
    await zc.async_register_service(info, cooperating_responders=True)
    return info


@pytest.mark.socket
def test_bad_announcements_are_dropped_and_names_made_safe():
    async def scenario():
        zc = AsyncZeroconf(interfaces=[LOOPBACK], ip_version=IPVersion.V4Only)
        browser = TableBrowser(interfaces=[LOOPBACK])
        await browser.start()
        tag = new_peer_id()[:6]
        bad = {
            "version": _txt(f"v-{tag}", new_peer_id(), v="999"),
            "negative": _txt(f"n-{tag}", new_peer_id(), pl="-3"),
            "huge": _txt(f"h-{tag}", new_peer_id(), free="100000"),
            "badtid": _txt(f"bad tid {tag}!", new_peer_id()),
            "badpid": _txt(f"p-{tag}", "not-a-peer"),
        }
        for label, props in bad.items():
            await _register(zc, f"{label}-{tag}", 9, props)
        await _register(zc, f"evil-{tag}", 9, _txt(f"e-{tag}", new_peer_id(), name=EVIL_NAME))
        assert await browser.wait_until(lambda ts: any(t.table_id == f"e-{tag}" for t in ts), 5)
        await asyncio.sleep(0.5)  # the bad ones, announced first, had longer to be listed
        ids = {t.table_id for t in browser.tables()}
        assert not {p["tid"] for p in bad.values()} & ids
        (evil,) = [t for t in browser.tables() if t.table_id == f"e-{tag}"]
        assert evil.name == "Evil table" and "\x1b" not in evil.name
        await browser.stop()
        await zc.async_close()
    run(scenario())


@pytest.mark.socket
def test_a_reused_table_id_lists_only_the_address_that_answers_as_that_table(tmp_path):
    async def scenario():
        module = lan.module_for("mantle-of-the-keeper")
        opts = SessionOptions(interfaces=[LOOPBACK], announce=True, passphrase="pw")
        real = await lan.host(module, table_name="Real one", seats=2,
                              log_path=tmp_path / "a.log", options=opts)
        tid = real.replica.table_id
        # A stranger announces the same table id at an address of its own.
        fake_server = await asyncio.start_server(lambda r, w: w.close(), LOOPBACK, 0)
        fake_port = fake_server.sockets[0].getsockname()[1]
        zc = AsyncZeroconf(interfaces=[LOOPBACK], ip_version=IPVersion.V4Only)
        await _register(zc, f"fake-{new_peer_id()[:6]}", fake_port,
                        _txt(tid, new_peer_id(), name="Real one"))
        browser = TableBrowser(interfaces=[LOOPBACK], verify=True)
        plain = TableBrowser(interfaces=[LOOPBACK])
        await browser.start()
        await plain.start()
        assert await plain.wait_until(
            lambda ts: any(t.table_id == tid and len(t.peers) == 2 for t in ts), 8)
        assert await browser.wait_until(lambda ts: any(t.table_id == tid for t in ts), 8)
        assert await wait_until(lambda: browser.resolving() == 0, 8)  # the fake one was probed
        (listed,) = [t for t in browser.tables() if t.table_id == tid]
        assert [(p.host, p.port) for p in listed.peers] == [(LOOPBACK, real.session.port)]
        await browser.stop()
        await plain.stop()
        await zc.async_close()
        fake_server.close()

        # A joiner by address announces the table's real name, not "table".
        bob = await lan.join(log_path=tmp_path / "b.log", connect=f"{LOOPBACK}:{real.session.port}",
                             options=SessionOptions(interfaces=[LOOPBACK], passphrase="pw"))
        assert await wait_until(lambda: bob.session.announcer is not None, 5)
        assert bob.table_name == "Real one"
        assert bob.session.announcer.announcement.table_name == "Real one"
        await bob.close()
        await real.close()
    run(scenario(), 60)


@pytest.mark.socket
def test_the_tables_command_prints_names_without_escape_codes(capsys, tmp_path):
    import threading
    ready, done = threading.Event(), threading.Event()

    def serve():  # a real table whose name is full of terminal escape codes
        async def main():
            module = lan.module_for("mantle-of-the-keeper")
            t = await lan.host(module, table_name=EVIL_NAME, seats=2, log_path=tmp_path / "e.log",
                               options=SessionOptions(interfaces=[LOOPBACK]))
            ready.set()
            await asyncio.to_thread(done.wait)  # the test's thread sets it, whatever happens
            await t.close()
        asyncio.run(main())

    thread = threading.Thread(target=serve)
    thread.start()
    try:
        assert ready.wait(20)
        cmd_tables(argparse.Namespace(interfaces=LOOPBACK, wait=1.5, json=False))
    finally:
        done.set()
        thread.join(20)
    out = capsys.readouterr().out
    assert "Evil table" in out
    assert "\x1b" not in out and "\r" not in out and "\x07" not in out
    assert safe_text(EVIL_NAME) == "Evil table"


def test_a_table_allowing_local_draws_says_so_in_its_listing():
    from netplay.discovery.listing import TableAnnouncement, read_listing, txt_record

    pid = new_peer_id()
    plain = TableAnnouncement("a" * 16, "Strict", "gauntlet", pid, 9)
    loose = TableAnnouncement("a" * 16, "Loose", "gauntlet", pid, 9, local_draws=True)
    assert "draws" not in txt_record(plain)  # older listings read the same
    listings = [read_listing(txt_record(a), "n", [LOOPBACK], 9) for a in (plain, loose)]
    assert [t.local_draws for t in listings if t is not None] == [False, True]
