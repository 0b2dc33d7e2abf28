"""LAN soak: four `sandtable` peers in network namespaces play for a while as faults hit them.

Each peer plays ``--rate`` ops/s; every ``--every`` seconds a random peer is cut off for 5-60 s
(its bridge port down) or SIGKILLed and restarted with its own command (a new script for the
time left). After each fault the script measures how long until every peer holds every op
that existed anywhere when the fault ended (by op counts, from the peers' STATUS lines). At the
end: the same hash everywhere? every op of every log in every log?

Root and `ip netns` needed; nothing leaves the namespaces it creates. Not run in CI:

    sudo .venv/bin/python tests/benchmarks/lan_soak.py --minutes 20

Progress goes to stderr; the last line of stdout is JSON: ops, lost_ops, max_converge_s,
divergences (and the faults).
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from tempfile import TemporaryDirectory

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.e2e.netns_kit import NetLab, Peer, netns_unavailable, op_sets, paced_script  # noqa: E402

PORT = "7400"


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


class Soak:
    def __init__(self, lab: NetLab, tmp: Path, rate: float, end: float) -> None:
        self.lab, self.tmp, self.rate, self.end = lab, tmp, rate, end
        self.peers: list[Peer] = []
        self.starts = 0

    def args(self, i: int) -> list[str]:
        self.starts += 1
        seconds = max(1.0, self.end - time.monotonic())
        script = paced_script(self.tmp / f"s{i}-{self.starts}.jsonl", i + 1,
                              int(seconds * self.rate), 1.0 / self.rate)
        common = ["--headless", "--interfaces", self.lab.addr(i), "--port", PORT,
                  "--passphrase", "soak", "--status", "--log", str(self.tmp / f"p{i}.log"),
                  "--script", str(script)]
        if i == 0:
            return ["host", "--game", "dead-to-rites", "--table", "Soak", "--seats", "4",
                    "--seat", "1", *common]
        return ["join", "--connect", f"{self.lab.addr(0)}:{PORT}", "--seat", str(i + 1), *common]

    def start(self) -> None:
        self.peers = [self.lab.start(0, *self.args(0))]
        self.peers[0].wait_line("TABLE", 30)
        self.peers += [self.lab.start(i, *self.args(i)) for i in (1, 2, 3)]
        for seat, p in enumerate(self.peers, start=1):
            p.wait_line("SEATED", 90, lambda parts, s=seat: parts[1] == str(s))

    def counts(self) -> list[int]:
        return [(p.status() or (0, "", 0))[0] for p in self.peers]

    def wait_caught_up(self, target: int, timeout: float = 180.0) -> float:
        """Seconds until every peer holds >= target ops and links to the three others."""
        t0 = time.monotonic()
        while time.monotonic() - t0 < timeout:
            states = [p.status() for p in self.peers]
            if all(s is not None and s[0] >= target and s[2] == 3 for s in states):
                return time.monotonic() - t0
            time.sleep(0.1)
        raise RuntimeError(f"not caught up after {timeout:.0f} s: {states}")

    def cut(self, i: int, seconds: float) -> float:
        before = self.counts()[i]
        self.lab.cut(i)
        time.sleep(seconds)
        counts = self.counts()
        own = counts[i] - before  # the cut peer's ops while alone
        target = max(c for j, c in enumerate(counts) if j != i) + own
        self.lab.heal(i)
        return self.wait_caught_up(target)

    def kill_restart(self, i: int) -> float:
        self.peers[i].kill()
        time.sleep(2)
        self.peers[i] = self.lab.start(i, *self.args(i))
        target = max(self.counts())
        return self.wait_caught_up(target)


def run(minutes: float, rate: float, every: float, seed: int | None) -> dict:
    rng = random.Random(seed)
    with TemporaryDirectory(prefix="sandtable-soak-") as tmp, NetLab(4) as lab:
        soak = Soak(lab, Path(tmp), rate, time.monotonic() + minutes * 60)
        soak.start()
        began = time.monotonic()
        faults, converge = [], []
        next_fault = began + every
        while next_fault < soak.end - 30:
            time.sleep(max(0.0, next_fault - time.monotonic()))
            i = rng.randrange(4)
            if rng.random() < 0.5:
                seconds = rng.uniform(5, 60)
                say(f"[{time.monotonic() - began:6.0f} s] cut peer {i} for {seconds:.0f} s")
                took = soak.cut(i, seconds)
                faults.append({"kind": "cut", "peer": i, "seconds": round(seconds, 1),
                               "converge_s": round(took, 2)})
            else:
                say(f"[{time.monotonic() - began:6.0f} s] SIGKILL + restart peer {i}")
                took = soak.kill_restart(i)
                faults.append({"kind": "kill", "peer": i, "converge_s": round(took, 2)})
            say(f"           caught up in {took:.1f} s")
            converge.append(took)
            next_fault += every
        for p in soak.peers:  # every script runs to the end
            p.wait_line("SCRIPT DONE", max(60.0, soak.end - time.monotonic() + 120))
        t0 = time.monotonic()
        final = soak.wait_caught_up(max(soak.counts()))
        converge.append(final)
        say(f"end of play: converged in {time.monotonic() - t0:.1f} s")
        digests, divergences = set(), 0
        for p in soak.peers:
            p.terminate()
            digests.add(p.texts()[-1] if p.texts() else "")
            divergences += sum(1 for e in p.errors if "DIVERGENCE" in e)
        sets = op_sets([Path(tmp) / f"p{i}.log" for i in range(4)])
        union = set().union(*sets)
        lost = sum(len(union - s) for s in sets)
        return {"ops": len(union), "lost_ops": lost, "max_converge_s": round(max(converge), 2),
                "divergences": divergences + len(digests) - 1, "minutes": minutes,
                "rate": rate, "faults": faults}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=20.0)
    parser.add_argument("--rate", type=float, default=5.0, help="ops per second per peer")
    parser.add_argument("--every", type=float, default=120.0, help="seconds between faults")
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    why = netns_unavailable()
    if why:
        print(f"cannot soak here: {why}", file=sys.stderr)
        return 2
    result = run(args.minutes, args.rate, args.every, args.seed)
    print(json.dumps(result))
    return 0 if result["lost_ops"] == 0 and result["divergences"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
