"""`sandtable check LOG [--json]`: run the game's rules assist over a log and list its flags."""
from __future__ import annotations

import argparse
import json
import sys


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("check", help="run the rules assist over a log and print its flags")
    parser.add_argument("log", help="a .sandlog file")
    parser.add_argument("--json", action="store_true", help="one JSON object per flag")
    parser.add_argument("--all", action="store_true", help="include acknowledged flags")
    parser.set_defaults(handler=check)


def check(args: argparse.Namespace) -> int:
    from assist.runner import AssistRunner, load_plugin
    from table.core.replica import Replica
    from table.games.store import ModuleUnavailable, module_for

    replica = Replica.from_log(args.log)
    try:
        resolved = module_for(replica)
    except ModuleUnavailable as err:
        print(f"{args.log}: {err}; nothing to check", file=sys.stderr)
        return 0
    module = resolved.module
    print(f"module: {resolved.label}", file=sys.stderr)
    if resolved.note:
        print(f"note: {resolved.note}", file=sys.stderr)
    notices: list[str] = []
    plugin = load_plugin(module.id, notices)
    for notice in notices + replica.reports:
        print(f"note: {notice}", file=sys.stderr)
    if plugin is None:
        print(f"{args.log}: no rules assist for {module.name}", file=sys.stderr)
        return 0
    runner = AssistRunner.for_replica(replica, module, plugin, seat=-1)
    for notice in runner.notices:
        print(f"note: {notice}", file=sys.stderr)
    acks = runner.acknowledged()
    entries = runner.entries(include_acked=args.all, include_undone=True)
    undone = runner.undone()
    for e in entries:
        f = e.flag
        if args.json:
            print(json.dumps({"op": e.number, "ref": list(e.ref), "rule": f.rule,
                              "severity": f.severity, "message": f.message,
                              "section": f.section, "objects": list(f.objects),
                              "key": f.key, "acknowledged": acks.get(f.key),
                              "undone": e.ref in undone}))
        else:
            ack = f" (acknowledged: {acks[f.key]})" if f.key in acks else ""
            ack += " (the player undid this move)" if e.ref in undone else ""
            print(f"{e.number:>6}  {f.rule:<28} {f.severity:<7} {f.message} [{f.section}]{ack}")
    if not args.json:
        print(f"{len(entries)} flag(s) in {len(runner)} ops", file=sys.stderr)
    return 0
