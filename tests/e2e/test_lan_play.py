"""LAN play end to end: `sandtable host/join` peers in separate processes on 127.0.0.1.

Four peers find the table by zeroconf (127.0.0.1 only), play scripted ops concurrently
(including requests to the owner of another player's deck), one is killed with SIGKILL in
the middle and restarted from its log, a late joiner connects by host:port; everyone ends
with the same state hash, every card exists exactly once, and a wrong passphrase is refused.
"""
from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.processes

ROOT = Path(__file__).resolve().parents[2]
LOOPBACK = "127.0.0.1"


class Proc:
    def __init__(self, *args: str) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        self.proc = subprocess.Popen([sys.executable, "-m", "table.app.cli", *args],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     env=env, cwd=str(ROOT))
        self.lines: list[str] = []
        self.errors: list[str] = []
        threading.Thread(target=self._pump, args=(self.proc.stdout, self.lines), daemon=True).start()
        threading.Thread(target=self._pump, args=(self.proc.stderr, self.errors), daemon=True).start()

    @staticmethod
    def _pump(stream, into) -> None:
        for line in stream:
            into.append(line.rstrip("\n"))

    def wait_line(self, prefix: str, timeout: float, pred=lambda parts: True) -> list[str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in reversed(list(self.lines)):
                if line.startswith(prefix) and pred(line.split()):
                    return line.split()
            if self.proc.poll() is not None and time.monotonic() > deadline - timeout + 1:
                break
            time.sleep(0.05)
        raise AssertionError(f"no {prefix!r} line; out {self.lines[-5:]}, err {self.errors[-8:]}")

    def status(self) -> tuple[int, str] | None:
        states = [line.split() for line in list(self.lines) if line.startswith("STATUS")]
        return (int(states[-1][1]), states[-1][2]) if states else None

    def terminate(self) -> tuple[int, str]:
        self.proc.send_signal(signal.SIGTERM)
        code = self.proc.wait(15)
        time.sleep(0.1)
        return code, self.lines[-1] if self.lines else ""

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)


def _script(path: Path, seat: int, rounds: int) -> Path:
    other = seat % 4 + 1
    lines = [{"after": 0.2, "op": "counter", "id": f"p{seat}.favor", "add": 1}]
    for i in range(rounds):
        lines += [
            {"after": 0.03, "op": "draw", "from": f"p{seat}.deck", "to": f"p{seat}.hand"},
            {"op": "move", "card": f"p{seat}.hand:top", "to": f"p{seat}.play", "face_up": True},
            {"op": "roll", "sides": 6},
            {"op": "counter", "id": f"p{seat}.favor", "add": 1},
            {"after": 0.03, "op": "chat", "text": f"seat {seat} round {i}"},
        ]
        if i % 3 == 0:  # take the top card of the next player's deck: a request to its owner
            lines.append({"op": "draw", "from": f"p{other}.deck", "to": "altar"})
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    return path


def _same_status(peers: list[Proc], timeout: float) -> tuple[int, str]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        states = {p.status() for p in peers}
        if len(states) == 1 and None not in states:
            return states.pop()  # type: ignore[return-value]
        time.sleep(0.1)
    raise AssertionError(f"peers did not converge: {[p.status() for p in peers]}")


def test_four_peers_play_crash_restart_late_join(tmp_path: Path) -> None:
    from table.core.replica import Replica

    name = "E2E " + secrets.token_hex(3)
    common = ["--headless", "--interfaces", LOOPBACK, "--passphrase", "open sesame", "--status",
              "--fast"]
    host = Proc("host", "--game", "dead-to-rites", "--table", name, "--seats", "4", "--seat", "1",
                "--log", str(tmp_path / "p1.log"), "--script", str(_script(tmp_path / "s1", 1, 9)),
                *common)
    peers = [host]
    try:
        host_port = int(host.wait_line("TABLE", 20)[2])
        for seat in (2, 3, 4):
            peers.append(Proc("join", "--table", name, "--seat", str(seat), "--log",
                              str(tmp_path / f"p{seat}.log"), "--script",
                              str(_script(tmp_path / f"s{seat}", seat, 9)), *common))
        for seat, p in enumerate(peers, start=1):
            p.wait_line("SEATED", 30, lambda parts, s=seat: parts[1] == str(s))

        # A hard crash in the middle of the game, then a restart from the log.
        time.sleep(0.6)
        peers[2].kill()
        ops_before = peers[2].status()
        restarted = Proc("join", "--table", name, "--seat", "3", "--log", str(tmp_path / "p3.log"),
                         *common)
        peers[2] = restarted
        restarted.wait_line("SEATED", 30)
        for p in (peers[0], peers[1], peers[3]):
            p.wait_line("SCRIPT DONE", 40)

        # A late joiner (no seat) by host:port gets the whole log.
        late = Proc("join", "--connect", f"{LOOPBACK}:{host_port}", "--log",
                    str(tmp_path / "late.log"), *common)
        peers.append(late)
        late.wait_line("TABLE", 20)
        count, digest = _same_status(peers, 30)
        assert ops_before is not None and count > ops_before[0]
        for p in peers:
            code, last = p.terminate()
            assert code == 0, p.errors[-10:]
            assert last == digest
        for p in peers:
            assert not [e for e in p.errors if "DIVERGENCE" in e or "Traceback" in e], p.errors
            assert not [e for e in p.errors if e.startswith("tests") or "s1:" in e]

        # Every log replays to the same table, and every card exists exactly once.
        replicas = [Replica.from_log(tmp_path / f) for f in
                    ("p1.log", "p2.log", "p3.log", "p4.log", "late.log")]
        assert {r.public_state_hash() for r in replicas} == {digest}
        cards = [[o.id for o in r.state.objs.values() if o.alive and o.kind == "card"]
                 for r in replicas]
        assert all(len(c) == len(set(c)) == len(cards[0]) for c in cards)
        from table.games.registry import find_module
        from table.games.setup import new_table
        hot = new_table(find_module("dead-to-rites"), 4)
        expected = sum(1 for o in hot.state.objs.values() if o.alive and o.kind == "card")
        assert len(cards[0]) == expected
        # The restarted peer kept its identity: one author for seat 3, before and after.
        assert len({op.author for op in replicas[0].store.all_ops() if op.seat == 3}) == 1
    finally:
        for p in peers:
            p.kill()


def test_wrong_passphrase_is_refused(tmp_path: Path) -> None:
    host = Proc("host", "--headless", "--game", "gauntlet", "--table", "pw " + secrets.token_hex(3),
                "--interfaces", LOOPBACK, "--passphrase", "right", "--no-announce", "--fast",
                "--log", str(tmp_path / "h.log"))
    try:
        port = host.wait_line("TABLE", 20)[2]
        joiner = Proc("join", "--headless", "--connect", f"{LOOPBACK}:{port}", "--passphrase",
                      "wrong", "--interfaces", LOOPBACK, "--fast", "--timeout", "5",
                      "--log", str(tmp_path / "j.log"))
        assert joiner.proc.wait(20) == 2
        time.sleep(0.2)
        assert any("passphrase" in e for e in joiner.errors), joiner.errors
        assert not (tmp_path / "j.log").exists() or (tmp_path / "j.log").stat().st_size == 0
        code, _ = host.terminate()
        assert code == 0
    finally:
        host.kill()


def test_gauntlet_over_the_lan_reveals_territories_together_and_raises_no_flag(tmp_path: Path) -> None:
    """A simultaneous reveal waits for every seat; a legal LAN setup gives the assist nothing."""
    from assist.runner import load_plugin, run_over
    from table.core.replica import Replica
    from table.games import find_module

    common = ["--headless", "--interfaces", LOOPBACK, "--no-announce", "--fast", "--status"]
    host = Proc("host", *common, "--game", "gauntlet", "--table", "g " + secrets.token_hex(3),
                "--seat", "1", "--log", str(tmp_path / "h.log"))
    try:
        port = int(host.wait_line("TABLE", 20)[2])
        joiner = Proc("join", *common, "--connect", f"{LOOPBACK}:{port}", "--seat", "2",
                      "--log", str(tmp_path / "j.log"))
        try:
            joiner.wait_line("SEATED", 30)
            settled, deadline = None, time.monotonic() + 40
            while time.monotonic() < deadline:  # until both agree and nothing moves for 0.5 s
                state = _same_status([host, joiner], 30)
                if state == settled:
                    break
                settled = state
                time.sleep(0.5)
        finally:
            joiner.terminate()
    finally:
        host.terminate()
    replica = Replica.from_log(tmp_path / "h.log")
    records = replica.records()
    marks = [(i, r.op.args.get("value")) for i, r in enumerate(records)
             if r.op.kind == "mark" and r.op.args.get("what") == "setup"]
    assert [v for _, v in marks].count("ready") == 2 and ("complete" in [v for _, v in marks])
    last_ready = max(i for i, v in marks if v == "ready")
    reveals = [i for i, r in enumerate(records) if r.op.kind == "set"
               and r.op.args.get("field") == "face_up" and r.op.args.get("value") is True]
    assert len(reveals) == 6 and min(reveals) > last_ready  # nobody turned up early
    module = find_module("gauntlet")
    runner = run_over([r.op for r in records], module, load_plugin("gauntlet"),
                      knowledge=replica.knowledge)
    assert [f.rule for f in runner.flags()] == []
