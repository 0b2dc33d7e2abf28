"""`sandtable bench core|replay|ui|net|assist|fair|print|dataset|simulate`: benchmarks that print
figures, last line one JSON object."""
from __future__ import annotations

import argparse
import json

from table.app.commands import Subcommands


def register(sub: Subcommands) -> None:
    parser = sub.add_parser("bench", help="measure speed (prints figures; last line is JSON)",
                            description="Measure speed; each benchmark measures its own floor in "
                                        "the same run and prints figures, its last line one JSON "
                                        "object.")
    what = parser.add_subparsers(dest="bench", metavar="TARGET", required=True)

    def target(name: str, text: str) -> argparse.ArgumentParser:
        return what.add_parser(name, help=text, description=text[0].upper() + text[1:] + ".")

    p = target("core", "fold, rollback and replay speed of the table core")
    p.add_argument("--ops", type=int, default=100_000, help="ops to fold (default: %(default)s)")
    p.add_argument("--objects", type=int, default=600,
                   help="objects on the table (default: %(default)s)")
    p.set_defaults(handler=bench_core)
    p = target("replay", "a long log read back: the replay beside its floor, the replay window "
                         "opened at its end over the replay alone, resident memory per op, a "
                         "seek to the middle")
    p.add_argument("--ops", type=int, default=500_000,
                   help="ops in the log (default: %(default)s)")
    p.add_argument("--runs", type=int, default=1,
                   help="runs, taking turns; the fastest of each kept (default: %(default)s)")
    p.set_defaults(handler=bench_replay)
    p = target("ui", "scene update and repaint time with 1,000 cards")
    p.set_defaults(handler=bench_ui)
    p = target("net", "op latency between peers on 127.0.0.1")
    p.add_argument("--peers", type=int, default=6,
                   help="peers at the table (default: %(default)s)")
    p.add_argument("--processes", action="store_true", help="one process per peer")
    p.add_argument("--ops", type=int, default=2000, help="ops to send (default: %(default)s)")
    p.add_argument("--transport", choices=("tcp", "quic"), default="tcp",
                   help="quic: 2 and 6 peers over QUIC (iroh, relays off) beside TCP, in the "
                        "same run, and the ratio")
    p.add_argument("--hop", action="store_true",
                   help="only the CPU per hop between two peers against its floor (paced, "
                        "burst, on qasync)")
    p.set_defaults(handler=bench_net)
    p = target("assist", "time the rules assist adds per op")
    p.set_defaults(handler=bench_assist)
    p = target("fair", "a joint die roll among 6 peers (in memory and over 127.0.0.1) and a "
                       "60-card joint shuffle")
    p.add_argument("--rolls", type=int, default=500,
                   help="joint rolls to time (default: %(default)s)")
    p.set_defaults(handler=bench_fair)
    p = target("print", "a 200-card module to PDF and to deck sheets, against painting the "
                        "same faces into images alone")
    p.add_argument("--dpi", type=int, default=300, help="image resolution (default 300)")
    p.set_defaults(handler=bench_print)
    p = target("dataset", "`sandtable dataset` against the decode floor: 1,000 sessions fresh, 20 "
                          "more added, memory at 3,000")
    p.add_argument("--count", type=int, default=1000,
                   help="sessions in the fresh run (default: %(default)s)")
    p.add_argument("--more", type=int, default=20,
                   help="sessions added for the incremental run (default: %(default)s)")
    p.add_argument("--jobs", type=int, help="worker processes (default: every core)")
    p.add_argument("--keep", metavar="DIR", help="generate the logs here and keep them")
    p.set_defaults(handler=bench_dataset)
    _register_simulate(target("simulate", "bot games per second, and the bots' play against "
                                          "the fold of the logs they wrote replayed by the "
                                          "core alone"))


def _register_simulate(p: argparse.ArgumentParser) -> None:
    p.add_argument("--games", type=int, default=40, help="games (default: %(default)s)")
    p.add_argument("--game", default="gauntlet", help="game id (default: %(default)s)")
    p.set_defaults(handler=bench_simulate)


def bench_core(args: argparse.Namespace) -> int:
    from table.bench.core import run

    run(args.ops, args.objects)
    return 0


def bench_replay(args: argparse.Namespace) -> int:
    from table.bench.replay import run

    run(args.ops, args.runs)
    return 0


def bench_print(args: argparse.Namespace) -> int:
    from table.bench.print_cards import run_bench

    result = run_bench(args.dpi)
    print(f"painting {result['cards']} faces at {result['dpi']} dpi: "
          f"{result['paint_faces_s']} s (the floor)")
    print(f"PDF (fronts and mirrored backs): {result['pdf_s']} s = {result['pdf_ratio']}x")
    print(f"TTS deck sheets: {result['sheets_s']} s = {result['sheets_ratio']}x")
    print(json.dumps(result))
    return 0 if result["ok"] else 1


def bench_ui(args: argparse.Namespace) -> int:
    from table.bench.ui import run_bench

    print(json.dumps(run_bench()))
    return 0


def bench_net(args: argparse.Namespace) -> int:
    if args.transport == "quic":
        from table.bench import net_quic

        net_quic.run(ops=min(args.ops, 1000))
        return 0
    if args.hop:
        from table.bench.net import run_hop

        run_hop()
        return 0
    from table.bench.net import run

    run(peers=args.peers, processes=args.processes, ops=args.ops)
    return 0


def bench_assist(args: argparse.Namespace) -> int:
    from table.bench.assist import run

    run()
    return 0


def bench_dataset(args: argparse.Namespace) -> int:
    from table.bench.dataset import main

    argv = ["--count", str(args.count), "--more", str(args.more)]
    argv += ["--jobs", str(args.jobs)] if args.jobs else []
    argv += ["--keep", args.keep] if args.keep else []
    return main(argv)


def bench_simulate(args: argparse.Namespace) -> int:
    from table.bench.simulate import run

    run(args.games, args.game)
    return 0


def bench_fair(args: argparse.Namespace) -> int:
    from table.bench.fair import run

    run(args.rolls)
    return 0
