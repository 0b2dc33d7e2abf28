"""Peers in separate processes, on 127.0.0.1: mesh, replication, and a killed peer."""

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytestmark = [pytest.mark.socket, pytest.mark.processes]

HERE = Path(__file__).parent
N, OPS = 3, 15


class Peer:
    def __init__(self, connect: int = 0) -> None:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(HERE.parent.parent), str(HERE)]))
        self.proc = subprocess.Popen(
            [sys.executable, str(HERE / "peer_process.py"), "--peers", str(N), "--ops", str(OPS),
             "--connect", str(connect)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
        self.lines: list[str] = []
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.strip())

    def wait_line(self, prefix: str, timeout: float, pred=lambda parts: True) -> list[str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in reversed(self.lines):
                if line.startswith(prefix) and pred(line.split()):
                    return line.split()
            time.sleep(0.05)
        raise AssertionError(f"no {prefix!r} line; got {self.lines[-5:]}")

    def state(self) -> list[str] | None:
        states = [line for line in self.lines if line.startswith("STATE")]
        return states[-1].split() if states else None

    def stop(self) -> int:
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            try:
                return self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        return self.proc.wait(5)


def test_three_processes_replicate_and_survive_a_kill():
    first = Peer()
    peers = [first]
    try:
        port = int(first.wait_line("PORT", 15)[1])
        peers += [Peer(connect=port) for _ in range(N - 1)]
        total = N * (OPS + 1)  # each peer's hello, then its ops
        for p in peers:
            p.wait_line("STATE", 20, lambda parts: int(parts[1]) == total and parts[3] == str(N - 1))
        deadline = time.monotonic() + 5
        while len({p.state()[2] for p in peers}) != 1 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len({p.state()[2] for p in peers}) == 1  # same state hash everywhere

        peers[2].proc.kill()  # a hard crash
        peers[2].proc.wait(5)
        for p in peers[:2]:
            p.wait_line("STATE", 10, lambda parts: parts[3] == str(N - 2))
        for p in peers[:2]:
            assert p.stop() == 0
    finally:
        for p in peers:
            if p.proc.poll() is None:
                p.proc.kill()
