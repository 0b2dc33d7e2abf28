"""`sandtable simulate`: batches of games played by bots, each a real session log, seeded (the
same seed gives the same games), on this machine (--jobs) or a Dask cluster (--cluster); a
summary of who won against their seat share, how games ended, the rules assist's flags, and
optionally a draft's batch against another's (--against) and the dataset (--dataset)."""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from table.app.commands import Subcommands

if TYPE_CHECKING:
    from table.bots.batch import Plan


def register(sub: Subcommands) -> None:
    p = sub.add_parser(
        "simulate", help="play K games with bots (seeded), write their logs and a summary",
        description="Play K games of a game module with bots in its seats, each game a real "
                    "session log under OUT/games (seeded: the same seed gives the same games, "
                    "log for log, on one process, several or a cluster); print and write "
                    "OUT/summary.json: each bot's wins against its seat share with 95 percent "
                    "intervals, per seat, how the games ended, the rules assist's flags on the "
                    "bots' moves and the cards whose text the bots did not resolve.")
    p.add_argument("--game", help="a built-in game's id (default: the --module's game)")
    p.add_argument("--module", metavar="DRAFT", help="a draft module's folder")
    p.add_argument("--seats", type=int, help="players (default: the game's usual count)")
    p.add_argument("--bots", metavar="B1,B2,...",
                   help="one bot per seat, seat 1 first (names from `sandtable simulate "
                        "--list`; 'heuristic' / 'random' for the game's own); default: the "
                        "game's strongest shipped bot in every seat")
    p.add_argument("--games", type=int, default=100, help="games to play (default: %(default)s)")
    p.add_argument("--seed", type=int, default=1, help="the batch's seed (default: %(default)s)")
    p.add_argument("--out", metavar="DIR", help="where the logs and the summary go")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default: 1)")
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="play the games on a Dask cluster (tcp://HOST:PORT); OUT must be a "
                        "folder every worker shares")
    p.add_argument("--fixed-seats", action="store_true",
                   help="keep each bot in its seat (default: game k moves every bot k seats "
                        "on, so each plays every seat)")
    p.add_argument("--max-turns", type=int, default=400,
                   help="stop a game that has not ended after this many turns")
    p.add_argument("--no-check", action="store_true", help="skip the rules assist")
    p.add_argument("--dataset", action="store_true",
                   help="also write the games' dataset to OUT/dataset (on the cluster too)")
    p.add_argument("--against", metavar="DIR",
                   help="compare with another batch's summary (a draft against the base): "
                        "each bot's win rate and the game length, with 95 percent intervals")
    p.add_argument("--list", action="store_true", help="list the installed bots and stop")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(handler=cmd_simulate)


def _progress(done: int, total: int) -> None:
    width = 30
    filled = width * done // max(total, 1)
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def cmd_simulate(args: argparse.Namespace) -> int:
    from table.bots import registry

    if args.list:
        for name, cls in registry.installed().items():
            print(f"{name:<34} {cls.game or 'any game':<22} {cls.strength}")
        return 0
    plan = _plan(args)
    if isinstance(plan, str):
        print(f"sandtable: {plan}", file=sys.stderr)
        return 2
    from table.bots import batch, summary
    from table.bots.cluster import ClusterError

    out = Path(plan.out)
    out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    try:
        results = batch.run(plan, jobs=args.jobs, cluster=args.cluster,
                            progress=None if args.quiet else _progress)
    except ClusterError as err:
        print(f"sandtable: {err}", file=sys.stderr)
        return 2
    module = batch.load(plan.game, plan.module)
    label = f"{module.name} {module.version} ({module.content_hash[:12]})"
    s = summary.summarise(results, game=module.id, module_label=label,
                          seconds=time.perf_counter() - started)
    (out / "summary.json").write_text(json.dumps({"summary": s, "games": results}, indent=1),
                                      encoding="utf-8")
    text = summary.lines(s)
    if args.against:
        try:
            base = json.loads((Path(args.against) / "summary.json").read_text("utf-8"))
        except (OSError, ValueError) as err:
            print(f"sandtable: --against {args.against}: {err}", file=sys.stderr)
            return 2
        c = summary.compare(base["summary"], s)
        text += summary.compare_lines(c)
        (out / "compare.json").write_text(json.dumps(c, indent=1), encoding="utf-8")
    (out / "summary.txt").write_text("\n".join(text) + "\n", encoding="utf-8")
    print("\n".join(text))
    if args.dataset:
        return _dataset(out, args.cluster)
    return 0


def _plan(args: argparse.Namespace) -> Plan | str:
    from table.bots import batch, registry

    if not args.game and not args.module:
        return "simulate needs --game or --module"
    try:
        module = batch.load(args.game or "", args.module)
    except Exception as err:
        return str(err)
    if args.game and args.module and module.id != args.game:
        return f"--module {args.module} is {module.id}, not {args.game}"
    seats = args.seats or usual_seats(module)
    try:
        module.check_seats(seats)
    except ValueError as err:
        return str(err)
    try:
        names = [registry.find(b.strip(), module.id) for b in args.bots.split(",")] \
            if args.bots else [registry.find(registry.strongest(module.id), module.id)]
    except registry.UnknownBot as err:
        return str(err)
    bots = tuple(c.name for c in names)
    if len(bots) == 1:
        bots = bots * seats
    if len(bots) != seats:
        return f"--bots names {len(bots)} bots for {seats} seats"
    out = args.out or f"simulate-{module.id}-{args.seed}"
    return batch.Plan(args.game or module.id, str(Path(args.module).resolve())
                      if args.module else None, seats, bots, args.games, args.seed, out,
                      rotate=not args.fixed_seats, check=not args.no_check,
                      max_turns=args.max_turns)


def usual_seats(module: object) -> int:
    """The seat count the game is usually played at: its minimum, up to four."""
    players = module.players  # type: ignore[attr-defined]
    return max(int(players.min), min(4, int(players.max)))


def _dataset(out: Path, cluster: str | None) -> int:
    from table.app.commands.dataset import build_on

    outcome = build_on([out / "games"], out / "dataset", cluster)
    for line in outcome:
        print(line)
    return 0
