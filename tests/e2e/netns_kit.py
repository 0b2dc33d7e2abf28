"""A small LAN made of network namespaces, for fault tests and the soak (Linux, root).

:class:`NetLab` creates one namespace per peer, each with a veth whose other end sits on a
bridge inside one more namespace of its own: nothing touches the machine's own network, and
every address (10.231.x.y) exists only inside these namespaces. :meth:`NetLab.cut` takes a
peer's bridge port down (its packets vanish silently, like a pulled cable or a dead Wi-Fi),
:meth:`NetLab.heal` brings it back. :class:`Peer` runs ``sandtable host/join --headless`` in a
namespace and records its output lines with the time each arrived.
"""
from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def netns_unavailable() -> str | None:
    """Why namespaces cannot be used here (None: they can)."""
    if sys.platform != "linux":
        return "network namespaces need Linux"
    if os.geteuid() != 0:
        return "creating network namespaces needs root"
    if shutil.which("ip") is None:
        return "the `ip` command (iproute2) is not installed"
    name = f"stcheck{os.getpid()}"
    made = subprocess.run(["ip", "netns", "add", name], capture_output=True, text=True)
    if made.returncode != 0:
        return f"`ip netns add` fails here: {made.stderr.strip()}"
    subprocess.run(["ip", "netns", "del", name], capture_output=True)
    return None


def _ip(*args: str) -> None:
    _run("ip", *args)


def _run(*args: str) -> None:
    done = subprocess.run(list(args), capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(args)}: {done.stderr.strip()}")


class NetLab:
    """``n`` peers on one bridge. Use as a context manager (everything is removed after)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.tag = f"st{os.getpid() % 10000}{random.randrange(100, 1000)}"
        self.subnet = random.randrange(1, 250)
        self.bridge_ns = f"{self.tag}b"
        self.peers: list[Peer] = []

    def ns(self, i: int) -> str:
        return f"{self.tag}p{i}"

    def addr(self, i: int) -> str:
        return f"10.231.{self.subnet}.{i + 1}"

    def _port(self, i: int) -> str:
        return f"{self.tag}v{i}"

    def __enter__(self) -> NetLab:
        try:
            _ip("netns", "add", self.bridge_ns)
            _ip("-n", self.bridge_ns, "link", "add", "br0", "type", "bridge")
            _ip("-n", self.bridge_ns, "link", "set", "br0", "up")
            for i in range(self.n):
                ns, port = self.ns(i), self._port(i)
                _ip("netns", "add", ns)
                _ip("link", "add", port, "type", "veth", "peer", "name", "eth0", "netns", ns)
                _ip("link", "set", port, "netns", self.bridge_ns)
                _ip("-n", self.bridge_ns, "link", "set", port, "master", "br0", "up")
                _ip("-n", ns, "addr", "add", f"{self.addr(i)}/24", "dev", "eth0")
                _ip("-n", ns, "link", "set", "eth0", "up")
                _ip("-n", ns, "link", "set", "lo", "up")
                _ip("-n", ns, "route", "add", "224.0.0.0/4", "dev", "eth0")  # mDNS
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        for p in self.peers:
            p.kill()
        for i in range(self.n):
            subprocess.run(["ip", "netns", "del", self.ns(i)], capture_output=True)
        subprocess.run(["ip", "netns", "del", self.bridge_ns], capture_output=True)

    def cut(self, i: int) -> None:
        _ip("-n", self.bridge_ns, "link", "set", self._port(i), "down")

    def heal(self, i: int) -> None:
        _ip("-n", self.bridge_ns, "link", "set", self._port(i), "up")

    def split(self, *groups: list[int]) -> None:
        """Each group reaches only its own peers (packets to and from the others vanish)."""
        for group in groups:
            for i in group:
                for j in range(self.n):
                    if j not in group:
                        for rule in (["INPUT", "-s", self.addr(j)], ["OUTPUT", "-d", self.addr(j)]):
                            _run("ip", "netns", "exec", self.ns(i), "iptables", "-A", rule[0],
                                 *rule[1:], "-j", "DROP")

    def unsplit(self) -> None:
        for i in range(self.n):
            _run("ip", "netns", "exec", self.ns(i), "iptables", "-F")

    def start(self, i: int, *args: str) -> Peer:
        peer = Peer(self.ns(i), args)
        self.peers.append(peer)
        return peer


class Peer:
    """``sandtable <args>`` in a namespace (``ns`` empty: in this one); ``lines`` are
    (monotonic time, text)."""

    def __init__(self, ns: str, args: tuple[str, ...]) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        self.args = args
        self.proc = subprocess.Popen(
            [*(["ip", "netns", "exec", ns] if ns else []), sys.executable, "-m", "table.app.cli",
             *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=str(ROOT))
        self.lines: list[tuple[float, str]] = []
        self.errors: list[str] = []
        threading.Thread(target=self._pump_out, daemon=True).start()
        threading.Thread(target=self._pump_err, daemon=True).start()

    def _pump_out(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append((time.monotonic(), line.rstrip("\n")))

    def _pump_err(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.errors.append(line.rstrip("\n"))

    def texts(self) -> list[str]:
        return [text for _, text in list(self.lines)]

    def wait_line(self, prefix: str, timeout: float,
                  pred: Callable[[list[str]], bool] = lambda parts: True) -> list[str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in reversed(self.texts()):
                if line.startswith(prefix) and pred(line.split()):
                    return line.split()
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        raise AssertionError(f"no {prefix!r} line; out {self.texts()[-5:]}, err {self.errors[-8:]}")

    def status(self) -> tuple[int, str, int] | None:
        """(ops, public state hash, linked peers) from the last STATUS line."""
        states = [line.split() for line in self.texts() if line.startswith("STATUS")]
        return (int(states[-1][1]), states[-1][2], int(states[-1][3])) if states else None

    def script_done_at(self) -> float | None:
        done = [t for t, line in list(self.lines) if line.startswith("SCRIPT DONE")]
        return done[-1] if done else None

    def terminate(self, timeout: float = 20) -> tuple[int, str]:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        code = self.proc.wait(timeout)
        time.sleep(0.1)
        texts = self.texts()
        return code, texts[-1] if texts else ""

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)


def paced_script(path: Path, seat: int, ops: int, interval: float) -> Path:
    """``ops`` public ops, one every ``interval`` seconds: every other one a die roll (four
    peers at one op a second make two joint rolls a second), then a counter or a chat."""
    lines = []
    for i in range(ops):
        kind = i % 4
        if kind in (0, 2):
            entry = {"op": "roll", "sides": 6}
        elif kind == 1:
            entry = {"op": "counter", "id": f"p{seat}.favor", "add": 1}
        else:
            entry = {"op": "chat", "text": f"seat {seat} says {i}"}
        lines.append({"after": interval, **entry})
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    return path


def wait_converged(peers: list[Peer], timeout: float) -> tuple[int, str]:
    """Wait until every peer reports the same ops count and hash, linked to all the others."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        states = [p.status() for p in peers]
        if None not in states and len({(s[0], s[1]) for s in states}) == 1 \
                and all(s[2] == len(peers) - 1 for s in states):
            return states[0][0], states[0][1]
        time.sleep(0.1)
    raise AssertionError(f"peers did not converge: {[p.status() for p in peers]}")


def op_sets(logs: list[Path]) -> list[set[tuple[str, int]]]:
    """(author, seq) of every op in each log."""
    from table.core.replica import Replica

    out = []
    for path in logs:
        replica = Replica.from_log(path)
        out.append({(op.author, op.seq) for op in replica.store.all_ops()})
        replica.close()
    return out
