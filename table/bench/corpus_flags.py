"""The rules assist over the legal corpus: no flag where every seat plays by its rulebook, and
exactly the planted slips where the corpus plants them.

Two corpora of the same sessions (table.bench.legal_corpus): one with `Plan().legal()` (no
slip), one with `Plan()` (its slips, each counted in `Truth.planted`). Each log is read back
from disk and judged by its game's plugin, the log's end closing every window
(runner.finish), as `sandtable check` judges it. The figures: flags per rule in each corpus,
slips planted per rule, the sessions whose flags differ from what was planted, and how much of
the play the verdicts had to judge (Defense Pool commits, Rites, battles, Last Stands).

    python scripts/corpus_flags.py [--count 1000] [--jobs N] [--seed 1]
"""
from __future__ import annotations

import tempfile
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from table.bench.legal_corpus import Plan, generate

_CHUNK = 50


@dataclass(slots=True)
class Tally:
    """What a corpus raised against what it planted."""

    sessions: int = 0
    flags: Counter[str] = field(default_factory=Counter)
    planted: Counter[str] = field(default_factory=Counter)
    mismatched: list[str] = field(default_factory=list)  # logs whose flags are not the plants
    disabled: list[str] = field(default_factory=list)  # logs on which a plugin raised
    play: Counter[str] = field(default_factory=Counter)  # how much play there was to judge

    def add(self, other: Tally) -> None:
        self.sessions += other.sessions
        self.flags.update(other.flags)
        self.planted.update(other.planted)
        self.mismatched += other.mismatched
        self.disabled += other.disabled
        self.play.update(other.play)


def judge_log(path: Path) -> tuple[Counter[str], str | None, Counter[str]]:
    """(flags per rule, the plugin's failure if any, play counts) of one log."""
    from assist.runner import load_plugin, run_over
    from table.core.replica import Replica
    from table.games import find_module

    replica = Replica.from_log(path)
    module = find_module(replica.game)
    plugin = load_plugin(module.id)
    assert plugin is not None, module.id
    runner = run_over([r.op for r in replica.records()], module, plugin,
                      seats=len(replica.state.seats) or None, knowledge=replica.knowledge)
    flags = Counter(e.flag.rule for e in runner.entries(include_acked=True, include_undone=True,
                                                         include_resolved=True))
    return flags, runner.disabled, _play(replica)


def _play(replica: Any) -> Counter[str]:
    out: Counter[str] = Counter()
    for rec in replica.records():
        op, args = rec.op, rec.op.args
        if op.kind == "move" and args.get("to") == "defense-pool":
            out["defense_pool_commits"] += 1
        elif op.kind == "move" and args.get("to") == "altar":
            out["rites_placed"] += 1
        elif op.kind == "mark" and args.get("value") == "battle-open":
            out["battles"] += 1
            out["last_stands"] += bool((args.get("fields") or {}).get("last_stand"))
    return out


def _chunk(folder: str, count: int, seed: int, plan: Plan) -> Tally:
    tally = Tally()
    for truth in generate(folder, count, seed=seed, plan=plan):
        flags, disabled, play = judge_log(truth.path)
        tally.sessions += 1
        tally.flags.update(flags)
        tally.planted.update(truth.planted)
        tally.play.update(play)
        if disabled:
            tally.disabled.append(f"{truth.path.name}: {disabled}")
        if dict(flags) != truth.planted:
            tally.mismatched.append(f"{truth.path.name}: flagged {dict(flags)}, planted "
                                    f"{truth.planted}")
        truth.path.unlink()
    return tally


def check(count: int, *, legal: bool, seed: int = 1, jobs: int = 1,
          folder: Path | None = None, plan: Plan | None = None) -> Tally:
    """Generate `count` sessions (in chunks of distinct seeds), judge each, tally. `legal`:
    with no slip planted (`plan`, default `Plan()`, without its slips)."""
    plan = plan or Plan()
    if legal:
        plan = plan.legal()
    with tempfile.TemporaryDirectory(prefix="sandtable-corpus-flags-") as tmp:
        root = Path(folder or tmp)
        sizes = [min(_CHUNK, count - i) for i in range(0, count, _CHUNK)]
        seeds = list(range(seed, seed + len(sizes)))
        folders = [str(root / f"chunk{s}") for s in seeds]
        total = Tally()
        if jobs <= 1:
            parts = [_chunk(f, n, s, plan) for f, n, s in zip(folders, sizes, seeds, strict=True)]
        else:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                parts = list(pool.map(_chunk, folders, sizes, seeds, [plan] * len(sizes)))
        for part in parts:
            total.add(part)
        return total


def report(legal: Tally, planted: Tally) -> dict[str, Any]:
    """The figures, printed per rule; returns them as one JSON-able object."""
    rules = sorted(set(legal.flags) | set(planted.flags) | set(planted.planted))
    print(f"{'rule':<28} {'legal':>6} {'planted':>8} {'flagged':>8}")
    for rule in rules:
        print(f"{rule:<28} {legal.flags[rule]:>6} {planted.planted[rule]:>8} "
              f"{planted.flags[rule]:>8}")
    print(f"legal corpus: {legal.sessions} sessions, {sum(legal.flags.values())} flag(s); "
          f"planted corpus: {planted.sessions} sessions, {sum(planted.planted.values())} slips "
          f"planted, {sum(planted.flags.values())} flagged, {len(planted.mismatched)} "
          f"session(s) flagged otherwise than planted")
    print("play judged (legal corpus): " + ", ".join(f"{k} {v}" for k, v in
                                                     sorted(legal.play.items())))
    for line in (legal.mismatched + planted.mismatched + legal.disabled + planted.disabled)[:20]:
        print("  " + line)
    return {"sessions": legal.sessions, "legal_flags": dict(legal.flags),
            "planted": dict(planted.planted), "planted_flags": dict(planted.flags),
            "mismatched": len(legal.mismatched) + len(planted.mismatched),
            "disabled": len(legal.disabled) + len(planted.disabled),
            "play": dict(legal.play),
            "ok": not legal.flags and planted.flags == planted.planted
            and not planted.mismatched and not legal.disabled and not planted.disabled}
