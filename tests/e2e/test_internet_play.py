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

pytestmark = [pytest.mark.socket, pytest.mark.multiprocess]

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
