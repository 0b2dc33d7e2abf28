"""`sandtable bench core|ui|net|assist|fair`: benchmarks that print figures, last line one JSON object."""
from __future__ import annotations

import argparse
import json


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("bench", help="measure speed (prints figures; last line is JSON)")
    what = parser.add_subparsers(dest="bench", metavar="TARGET", required=True)
    p = what.add_parser("core", help="fold, rollback and replay speed of the table core")
    p.add_argument("--ops", type=int, default=100_000)
    p.add_argument("--objects", type=int, default=600)
    p.set_defaults(handler=bench_core)
    p = what.add_parser("ui", help="scene update and repaint time with 1,000 cards")
    p.set_defaults(handler=bench_ui)
    p = what.add_parser("net", help="op latency between peers on 127.0.0.1")
    p.add_argument("--peers", type=int, default=6)
    p.add_argument("--processes", action="store_true", help="one process per peer")
    p.add_argument("--ops", type=int, default=2000)
    p.add_argument("--transport", choices=("tcp", "quic"), default="tcp",
                   help="quic: 2 and 6 peers over QUIC (iroh, relays off) beside TCP, in the "
                        "same run, and the ratio")
    p.set_defaults(handler=bench_net)
    p = what.add_parser("assist", help="time the rules assist adds per op")
    p.set_defaults(handler=bench_assist)
    p = what.add_parser("fair", help="a joint die roll among 6 peers (in memory and over "
                                     "127.0.0.1) and a 60-card joint shuffle")
    p.add_argument("--rolls", type=int, default=500)
    p.set_defaults(handler=bench_fair)


def bench_core(args: argparse.Namespace) -> int:
    from table.bench.core import run

    run(args.ops, args.objects)
    return 0


def bench_ui(args: argparse.Namespace) -> int:
    from table.bench.ui import run_bench

    print(json.dumps(run_bench()))
    return 0


def bench_net(args: argparse.Namespace) -> int:
    if args.transport == "quic":
        from table.bench import net_quic

        net_quic.run(ops=min(args.ops, 1000))
        return 0
    from table.bench.net import run

    run(peers=args.peers, processes=args.processes, ops=args.ops)
    return 0


def bench_assist(args: argparse.Namespace) -> int:
    from table.bench.assist import run

    run()
    return 0


def bench_fair(args: argparse.Namespace) -> int:
    from table.bench.fair import run

    run(args.rolls)
    return 0
