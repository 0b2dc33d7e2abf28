"""A modified client at a 3-seat table (tests/e2e/rogue_roller.py, written against
docs/protocol.md, not the product's code) rolls three sixes of its own choosing: a "joint" roll
of its own share alone, one that names made-up commitments for the other players as missing,
and a plain local roll; it never sends vv nor caught_up. Each is flagged by both honest peers
(`sandtable host/join` processes) as it arrives, and `sandtable check --audit` of each honest
log fails each one, naming the op and the seat.
"""
from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.e2e.test_lan_play import LOOPBACK, ROOT, Proc

pytestmark = pytest.mark.processes

COMMON = ["--headless", "--interfaces", LOOPBACK, "--no-announce", "--fast", "--status",
          "--passphrase", "mallory knows"]
ROGUE = Path(__file__).with_name("rogue_roller.py")
UP_FOR = 8.0  # the honest peers up a round's span (7 s) first: they remember every round


class Rogue:
    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen([sys.executable, str(ROGUE), *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, cwd=str(ROOT),
                                     env=dict(os.environ, PYTHONPATH=str(ROOT)))
        self.lines: list[str] = []
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.strip())

    def wait(self, prefix: str, timeout: float = 30) -> list[str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in list(self.lines):
                if line.startswith(prefix):
                    return line.split()
            time.sleep(0.02)
        raise AssertionError(f"rogue: no {prefix!r}; {self.lines[-5:]}")

    def say(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def _flagged(p: Proc, ref: str, timeout: float = 15) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        hits = [e for e in list(p.errors) if e.startswith("report: ") and f"(op {ref})" in e]
        if hits:
            return hits[0]
        time.sleep(0.02)
    raise AssertionError(f"not flagged: {ref}; {p.errors[-6:]}")


def test_three_rolls_of_a_modified_client_are_flagged_as_they_arrive_and_fail_every_audit(
        tmp_path: Path) -> None:
    from table.core.replica import Replica

    host = Proc("host", *COMMON, "--game", "mantle-of-the-keeper", "--table", "rogue table",
                "--seats", "3", "--seat", "1", "--log", str(tmp_path / "h.log"))
    peers, rogue = [host], None
    try:
        _, table, port, _ = host.wait_line("TABLE", 30)
        joiner = Proc("join", *COMMON, "--connect", f"{LOOPBACK}:{port}", "--seat", "2",
                      "--log", str(tmp_path / "j.log"))
        peers.append(joiner)
        joiner_port = joiner.wait_line("TABLE", 30)[2]
        started = time.monotonic()  # the joiner's session is up by its TABLE line
        for p in peers:
            p.wait_line("SEATED", 60)
        time.sleep(max(0.0, started + UP_FOR - time.monotonic()))
        rogue = Rogue("--ports", f"{port},{joiner_port}", "--table", table, "--passphrase",
                      "mallory knows", "--seat", "3")
        rogue_id = rogue.wait("ID")[1]
        rogue.wait("READY")
        refs = []
        for n in (1, 2, 3):
            rogue.say(f"ROLL {n}")
            seq = int(rogue.wait(f"SENT {n}")[2])
            ref = f"{rogue_id}#{seq}"
            for p in peers:  # each flagged as it arrives, before the next is sent
                said = _flagged(p, ref)
                assert f"peer {rogue_id} (seat 3) rolled d6 as [6]" in said, said
            refs.append((rogue_id, seq))
        rogue.close()
    finally:
        if rogue is not None:
            rogue.close()
        for p in peers:
            p.terminate()
            p.kill()
    for name in ("h.log", "j.log"):
        log = tmp_path / name
        records = Replica.from_log(log).records()
        numbers = [next(i for i, rec in enumerate(records, start=1) if rec.op.ref == ref)
                   for ref in refs]
        result = subprocess.run([sys.executable, "-m", "table.app.cli", "check", "--audit",
                                 str(log)], capture_output=True, text=True, timeout=120,
                                cwd=str(ROOT))
        print(result.stdout)
        assert result.returncode == 1, result.stdout + result.stderr
        failed = [ln for ln in result.stdout.splitlines() if ln.startswith("FAILED")]
        assert [ln.split(":")[0] for ln in failed] == [
            f"FAILED op {n} (author {rogue_id}, seat 3)" for n in numbers], failed
