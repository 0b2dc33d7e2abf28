"""Batches of bot games (`sandtable simulate`): K seeded games of a module (a built-in game or a
draft folder), each a real session log under OUT/games, played in this process, in J worker
processes or on a Dask cluster; game k is the same game wherever it runs (its seed, decks and
seats come from the batch seed and k alone). Each game's log is then judged by the rules assist
(the flags on the bots' moves) and summarised (summary.py)."""
from __future__ import annotations

import hashlib
import json
import random
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .effects import module_effects
from .match import Match
from .registry import find
from .strategy import strategies_for

if TYPE_CHECKING:
    from table.games.module import GameModule


@dataclass(frozen=True, slots=True)
class Plan:
    game: str  # a built-in game's id, or "" when `module` names a draft folder
    module: str | None
    seats: int
    bots: tuple[str, ...]  # one per seat (seat 1 first)
    games: int
    seed: int
    out: str
    rotate: bool = True  # game k moves every bot k seats on: each plays every seat
    check: bool = True  # run the rules assist over every log
    max_turns: int = 400


def game_seed(seed: int, k: int) -> int:
    return seed * 100_003 + k


@cache
def load(game: str, folder: str | None) -> GameModule:
    from table.games import find_module, load_module

    return load_module(Path(folder)) if folder else find_module(game)


def seat_bots(plan: Plan, k: int) -> dict[int, str]:
    n = plan.seats
    shift = k % n if plan.rotate else 0
    return {seat: plan.bots[(seat - 1 - shift) % n] for seat in range(1, n + 1)}


def play_one(job: tuple[Plan, int]) -> dict[str, Any]:
    """Play game k of a plan; the result as plain data (it may cross a process or a cluster)."""
    plan, k = job
    module = load(plan.game, plan.module)
    seed = game_seed(plan.seed, k)
    rnd = random.Random(seed)
    names = sorted(module.starter_decks)
    picks = rnd.sample(names, plan.seats) if len(names) >= plan.seats else \
        [rnd.choice(names) for _ in range(plan.seats)]
    decks = {s: module.starter_decks[p] for s, p in enumerate(picks, start=1)}
    effects = module_effects(module.cards)
    strategy = strategies_for(module)
    bots = {}
    for seat, name in seat_bots(plan, k).items():
        cls = find(name, module.id)
        group = module.deck_group(decks[seat]) or ""
        bots[seat] = cls(seed=f"{seed}:{seat}", effects=effects, strategy=strategy.get(group))
    folder = Path(plan.out) / "games"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{module.id}-{k:05d}.sandlog"
    path.unlink(missing_ok=True)
    match = Match(module, bots, seed, decks=decks, log_path=path, max_turns=plan.max_turns)
    started = time.perf_counter()
    try:
        result = match.play()
    finally:
        match.close()
    seconds = time.perf_counter() - started
    out = asdict(result)
    out.update(k=k, seconds=seconds, groups={s: module.deck_group(d) or "" for s, d in
                                             decks.items()},
               digest=session_digest(path),
               flags=flag_counts(path, module) if plan.check else {})
    return out


def session_digest(path: Path) -> str:
    """A digest of the session a log holds: every op (author, number, time, seat, kind,
    arguments) in order, so two runs of a game compare equal however they ran (the log file's
    bytes also hold each run's own signing key and signatures)."""
    from table.core.replica import Replica

    replica = Replica.from_log(path)
    h = hashlib.sha256()
    for rec in replica.records():
        op = rec.op
        h.update(json.dumps([op.author, op.seq, op.time, op.seat, op.kind, op.args],
                            sort_keys=True, default=str).encode())
    replica.close()
    return h.hexdigest()


def flag_counts(path: Path, module: GameModule) -> dict[str, int]:
    """The rules assist's flags over a whole log, by rule (the all-seeing view, as `sandtable
    check` runs it)."""
    from assist.runner import AssistRunner, load_plugin
    from table.core.replica import Replica

    plugin = load_plugin(module.id)
    if plugin is None:
        return {}
    replica = Replica.from_log(path)
    runner = AssistRunner.for_replica(replica, module, plugin, seat=-1)
    counts: dict[str, int] = {}
    for entry in runner.entries(include_undone=True, include_resolved=True):
        counts[entry.flag.rule] = counts.get(entry.flag.rule, 0) + 1
    return counts


def run(plan: Plan, *, jobs: int = 1, cluster: str | None = None,
        progress: Callable[[int, int], None] | None = None) -> list[dict[str, Any]]:
    """Every game of the plan, in order of k."""
    todo = [(plan, k) for k in range(plan.games)]
    results: list[dict[str, Any]] = []
    stream: Iterator[dict[str, Any]]
    if cluster:
        from .cluster import run as on_cluster

        stream = on_cluster(cluster, play_one, todo)
    elif jobs > 1:
        pool = ProcessPoolExecutor(max_workers=jobs)
        stream = pool.map(play_one, todo, chunksize=1)
    else:
        pool = None
        stream = map(play_one, todo)
    try:
        for result in stream:
            results.append(result)
            if progress is not None:
                progress(len(results), plan.games)
    finally:
        if not cluster and jobs > 1:
            pool.shutdown()  # type: ignore[union-attr]
    return results


__all__ = ["Plan", "flag_counts", "game_seed", "load", "play_one", "run", "seat_bots"]
