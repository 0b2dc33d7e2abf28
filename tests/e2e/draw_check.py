"""What the fault tests say of every draw in every log: joint with every peer its author could
reach when it drew, or degraded with the right peer named; none silently single.

A fault separates groups of peers for a while (a cut peer from the rest, a killed peer from the
others, one half of a 2-2 split from the other). ``Fault(start, end, groups)`` holds the wall
clock times (``time.time()``, the clock ops carry) from the fault to when everyone was back
linked; during it a peer may or may not still reach the peers of another group (a dropped
link is noticed within seconds), and after it every peer reaches every other. So each roll in
each log must be:

* joint, with every peer of the table in its commitments or named as left out, except peers
  a fault separated from its author at that time;
* with only such peers named as left out (the right seat);
* local (one peer's own randomness) only when every other peer was separated from its author;

and no log's audit fails (no honest draw flagged as private dice, nothing forged).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Fault:
    start: float
    end: float
    groups: tuple[frozenset[str], ...]  # the peers on each side (peer ids)

    def apart(self, author: str) -> set[str]:
        """The peers this fault separated from ``author``."""
        mine = next((g for g in self.groups if author in g), frozenset({author}))
        return set().union(*self.groups) - mine


def separated(faults: list[Fault], author: str, at: float, margin: float = 1.0) -> set[str]:
    out: set[str] = set()
    for fault in faults:
        if fault.start - margin <= at <= fault.end + margin:
            out |= fault.apart(author)
    return out


def check_draws(logs: list[Path], faults: list[Fault]) -> Counter[str]:
    """Assert the rules above for every roll of every log; return what was seen."""
    from table.core import fair
    from table.core.audit import audit_replica
    from table.core.replica import Replica

    seen: Counter[str] = Counter()
    for path in logs:
        replica = Replica.from_log(path)
        everyone = set(replica.store.by_author) - {p for p, info in replica.state.peers.items()
                                                    if info.get("watch")}
        for record in replica.records():
            op = record.op
            if op.kind != "roll":
                continue
            apart = separated(faults, op.author, op.time)
            where = f"{path.name}: roll {op.author}#{op.seq} at {op.time:.1f}"
            record_ = op.args.get("fair")
            if record_ is None:
                assert everyone - {op.author} <= apart, f"{where}: silently single (local " \
                                                        f"while {everyone - apart} reachable)"
                seen["local, alone"] += 1
                continue
            out = fair.left_out(record_)
            covered = set(record_["commits"]) | set(out)
            assert everyone - covered <= apart, f"{where}: leaves {everyone - covered - apart} " \
                                                "out unnamed"
            assert set(out) <= apart, f"{where}: names {set(out) - apart} as left out"
            if out:
                seen["degraded"] += 1
                seen.update(f"named {why}" for why in out.values())
            elif set(record_["commits"]) == everyone:
                seen["joint, all"] += 1
            else:
                seen["joint, its side"] += 1
        result = audit_replica(replica)
        assert not result.failures, [f.line() for f in result.failures]
        if result.degraded and not any(key.startswith("audit says") for key in seen):
            seen[f"audit says: {result.degraded[0].line()}"] += 1  # how one reads
        replica.close()
    return seen
