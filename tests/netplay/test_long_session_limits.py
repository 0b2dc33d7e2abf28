"""Every message within the limits in a long session: two Gauntlet players in separate
processes (tests/netplay/shuffle_peer.py) shuffle their 27-card decks jointly 40 times each,
the game ends and each peer leaves. Each peer's published record (over the 1,024 entries a
map may hold in one message) travels in parts: `sandtable check --audit` verifies every shuffle in every
log, nothing is left unverifiable, and no link was dropped for a limit."""
from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

pytestmark = [pytest.mark.socket, pytest.mark.processes]
HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SEATS, SHUFFLES = 2, 40


class Peer:
    def __init__(self, *args: str) -> None:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(HERE), str(ROOT)]))
        self.proc = subprocess.Popen([sys.executable, str(HERE / "shuffle_peer.py"), *args],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, env=env)
        self.errors: list[str] = []
        threading.Thread(target=lambda: self.errors.extend(self.proc.stderr), daemon=True).start()

    def line(self, prefix: str, timeout: float = 240) -> str:
        result: list[str] = []

        def read() -> None:
            for text in self.proc.stdout:
                if text.startswith(prefix):
                    result.append(text.strip())
                    return
        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        reader.join(timeout)
        assert result, f"no {prefix!r}; stderr: {self.errors[-10:]}"
        return result[0]


def test_forty_joint_shuffles_per_seat_then_every_peer_leaves(tmp_path: Path) -> None:
    logs = [tmp_path / f"p{seat}.log" for seat in range(1, SEATS + 1)]
    common = ["--seats", str(SEATS), "--shuffles", str(SHUFFLES)]
    host = Peer("--seat", "1", "--log", str(logs[0]), *common)
    peers = [host]
    try:
        port = host.line("PORT").split()[1]
        peers += [Peer("--join", port, "--seat", str(s), "--log", str(logs[s - 1]), *common)
                  for s in range(2, SEATS + 1)]
        records = [int(peer.line("SHUFFLED", 400).split()[1]) for peer in peers]
        for peer in peers:
            peer.line("PUBLISHED", 400)
        for peer in peers:  # each leaves in turn
            assert peer.proc.stdin is not None
            peer.proc.stdin.close()
            assert peer.proc.wait(60) == 0, peer.errors[-10:]
    finally:
        for peer in peers:
            if peer.proc.poll() is None:
                peer.proc.kill()
    for peer in peers:
        dropped = [e for e in peer.errors if "exceeds" in e or ("dropped" in e and "limit" in e)]
        assert not dropped, dropped
    shuffles = SEATS * (SHUFFLES + 1)  # the play's and each seat's setup shuffle
    for log in logs:
        result = subprocess.run([sys.executable, "-m", "table.app.cli", "check", "--audit",
                                 str(log)], capture_output=True, text=True, timeout=300,
                                cwd=str(ROOT))
        print(log.name, result.stdout.strip().splitlines()[-1])
        assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
        assert f"{shuffles} shuffles verified; 0 local" in result.stdout
        assert "could not be verified" not in result.stdout
    print(f"each peer's record held {records} card secrets (one message holds at most 1,024)")
    assert min(records) > 1024  # each record did need splitting
