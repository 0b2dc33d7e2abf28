"""Internet play end to end on 127.0.0.1 (relays off, no discovery service, no mDNS): three
`sandtable` processes, a host that invites by ticket and two players who join with it, all
linked over QUIC through iroh; a scripted game, the host SIGKILLed and restarted from its log
(the players hold only its old ticket: it redials them from its peer file), then the same hash
everywhere and every op in every log. And the bad tickets: clear messages, nothing stored."""
from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.e2e.internet_kit import dice_and_chat, ticket_of
from tests.e2e.netns_kit import Peer, op_sets, wait_converged

pytestmark = [pytest.mark.socket, pytest.mark.processes]

LOOPBACK = "127.0.0.1"
NET = ["--headless", "--interfaces", LOOPBACK, "--no-announce", "--relay", "off", "--fast",
       "--status", "--passphrase", "over the hills"]


def _host(tmp: Path, *extra: str) -> list[str]:
    return ["host", "--internet", "--game", "mantle-of-the-keeper", "--table", "Far table",
            "--seats", "3", "--seat", "1", "--log", str(tmp / "p0.log"), *NET, *extra]


def _join(tmp: Path, i: int, ticket: str, *extra: str) -> list[str]:
    return ["join", "--ticket", ticket, "--seat", str(i + 1), "--log", str(tmp / f"p{i}.log"),
            *NET, *extra]


def _local(*args: str) -> Peer:
    return Peer("", args)


def test_three_peers_play_by_ticket_and_the_host_restarts_from_its_log(tmp_path: Path) -> None:
    scripts = [dice_and_chat(tmp_path / f"s{i}.jsonl", i + 1, 16, 0.3) for i in range(3)]
    peers = [_local(*_host(tmp_path, "--script", str(scripts[0])))]
    try:
        ticket = ticket_of(peers[0])
        host_id = peers[0].wait_line("TABLE", 10)[3]
        peers += [_local(*_join(tmp_path, i, ticket, "--script", str(scripts[i]))) for i in (1, 2)]
        for seat, p in enumerate(peers, start=1):
            p.wait_line("SEATED", 60, lambda parts, s=seat: parts[1] == str(s))
        for p in peers[1:]:
            assert p.wait_line("SCRIPT DONE", 90)[2] == "0", p.errors[-10:]
        peers[0].kill()
        time.sleep(1)
        restarted_at = time.monotonic()
        peers[0] = _local(*_host(tmp_path))  # the same command; the players hold the old ticket
        assert peers[0].wait_line("TABLE", 30)[3] == host_id
        count, _ = wait_converged(peers, 90)
        print(f"\ninternet table converged {time.monotonic() - restarted_at:.1f} s after the "
              f"host's restart ({count} ops)")
        digests = set()
        for p in peers:
            code, last = p.terminate()
            assert code == 0, p.errors[-10:]
            digests.add(last)
            assert not [e for e in p.errors if "DIVERGENCE" in e or "Traceback" in e], p.errors
        assert len(digests) == 1
        sets = op_sets([tmp_path / f"p{i}.log" for i in range(3)])
        assert all(s == sets[0] for s in sets) and len(sets[0]) >= 3 * 16
    finally:
        for p in peers:
            p.kill()


async def _garbage_over_quic(endpoint_ticket: str) -> None:
    """A stranger's endpoint that connects to the table's and sends bytes that are no hello."""
    import asyncio

    import iroh

    from netplay.link.quic import ALPN, read_endpoint_ticket

    endpoint = await iroh.Endpoint.bind(iroh.EndpointOptions(
        preset=iroh.preset_minimal(), bind_addr=f"{LOOPBACK}:0", alpns=[ALPN],
        relay_mode=iroh.RelayMode.disabled()))
    try:
        conn = await endpoint.connect(read_endpoint_ticket(endpoint_ticket), ALPN)
        bi = await conn.open_bi()
        await bi.send().write_all(b"\xff\x00\x00\x10" + b"garbage!" * 64)
        await asyncio.sleep(1.0)
        conn.close(0, b"done")
    finally:
        await endpoint.close()


def test_bad_tickets_a_wrong_passphrase_and_a_garbage_endpoint_leave_the_table_playing(
        tmp_path: Path) -> None:
    import asyncio

    host = _local(*_host(tmp_path))
    others: list[Peer] = []
    try:
        ticket = ticket_of(host)
        _table_id, _, endpoint = ticket.partition("-")
        cases = {
            "malformed": ("endpointnonsense", "not a Sandtable ticket"),
            "other-table": (f"{'0' * 16}-{endpoint}", "different table id"),
            "wrong-pass": (ticket, "wrong table passphrase"),
        }
        for name, (bad, expected) in cases.items():
            args = _join(tmp_path, 1, bad, "--timeout", "8")
            args[args.index("--log") + 1] = str(tmp_path / f"{name}.log")
            if name == "wrong-pass":
                args[args.index("--passphrase") + 1] = "under the sea"
            p = _local(*args)
            others.append(p)
            assert p.proc.wait(40) == 2, (name, p.errors[-5:])
            time.sleep(0.2)
            assert any(expected in e for e in p.errors), (name, p.errors[-5:])
            log = tmp_path / f"{name}.log"
            assert not log.exists() or log.stat().st_size == 0, name  # nothing stored
        asyncio.run(_garbage_over_quic(endpoint))
        time.sleep(0.5)
        assert any("refused quic:" in e and "handshake" in e for e in host.errors), \
            host.errors[-5:]
        # the table plays on: a player with the right ticket and passphrase is seated
        good = _local(*_join(tmp_path, 1, ticket))
        others.append(good)
        good.wait_line("SEATED", 60)
        assert host.proc.poll() is None
        code, _ = host.terminate()
        assert code == 0
        from table.core.replica import Replica
        replica = Replica.from_log(tmp_path / "p0.log")
        authors = {op.author for op in replica.store.all_ops()}
        replica.close()
        assert authors == {host.wait_line("TABLE", 1)[3], good.wait_line("TABLE", 1)[3]}
    finally:
        for p in [host, *others]:
            p.kill()


def test_a_mixed_table_two_on_the_lan_and_one_by_ticket_ends_with_equal_logs(tmp_path: Path) -> None:
    import secrets

    name = "Mixed " + secrets.token_hex(3)
    lan = [a for a in NET if a != "--no-announce"]  # mDNS on 127.0.0.1
    scripts = [dice_and_chat(tmp_path / f"s{i}.jsonl", i + 1, 12, 0.2) for i in range(3)]
    host = _local("host", "--internet", "--game", "mantle-of-the-keeper", "--table", name,
                  "--seats", "3", "--seat", "1", "--log", str(tmp_path / "p0.log"), *lan,
                  "--script", str(scripts[0]))
    peers = [host]
    try:
        ticket = ticket_of(host)
        peers.append(_local("join", "--table", name, "--seat", "2", "--log",
                            str(tmp_path / "p1.log"), *lan, "--script", str(scripts[1])))
        peers.append(_local(*_join(tmp_path, 2, ticket, "--script", str(scripts[2]))))
        for p in peers:
            assert p.wait_line("SCRIPT DONE", 90)[2] == "0", p.errors[-10:]
        wait_converged(peers, 60)
        for p in peers:
            code, _ = p.terminate()
            assert code == 0, p.errors[-10:]
        sets = op_sets([tmp_path / f"p{i}.log" for i in range(3)])
        assert all(s == sets[0] for s in sets) and len(sets[0]) >= 36
    finally:
        for p in peers:
            p.kill()
