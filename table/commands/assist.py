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
    from table.core.errors import LogError
    from table.core.replica import Replica
    from table.games import find_module

    try:
        replica = Replica.from_log(args.log)
    except LogError as err:  # a missing, unreadable or foreign file: one line, no traceback
        print(f"sandtable: {err}", file=sys.stderr)
        return 1
    try:
        module = find_module(replica.game)
    except (KeyError, LookupError):
        print(f"{args.log}: unknown game {replica.game!r}; nothing to check", file=sys.stderr)
        return 0
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
                              "undone": e.ref in undone,
                              "salvaged": e.ref in replica.salvaged}))
        else:
            ack = f" (acknowledged: {acks[f.key]})" if f.key in acks else ""
            ack += " (the player undid this move)" if e.ref in undone else ""
            ack += " (salvaged: read past a lost op)" if e.ref in replica.salvaged else ""
            print(f"{e.number:>6}  {f.rule:<28} {f.severity:<7} {f.message} [{f.section}]{ack}")
    if not args.json:
        print(f"{len(entries)} flag(s) in {len(runner)} ops", file=sys.stderr)
    return 0
