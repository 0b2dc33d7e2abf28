"""`sandtable log ...`: build, read, export, hash and merge table logs."""
from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from table.app.commands import Subcommands
from table.app.commands.tagging import add_tag_options, tag_args, tag_log
from table.core.errors import LogError


def register(sub: Subcommands) -> None:
    parser = sub.add_parser("log", help="build, read, export, hash and merge table logs",
                            description="Work with .sandlog files (one per peer per session).")
    logs = parser.add_subparsers(dest="log_command", metavar="ACTION", required=True)

    p = logs.add_parser("import", help="build a log from JSON Lines ops",
                        description="Build a log from JSON Lines ops in the documented hand-"
                                    "writable form (docs/ops.md). The first line may describe the "
                                    'table: {"table": {"game": "gauntlet", "seats": 2, "seed": 1}}.')
    p.add_argument("ops", help="the JSON Lines file")
    p.add_argument("--out", required=True, help="the .sandlog file to write")
    p.add_argument("--allow-void", action="store_true",
                   help="keep ops that would do nothing (void) instead of failing on them")
    p.set_defaults(handler=cmd_import)

    p = logs.add_parser("show", help="print a log, one line per op, from a seat's view",
                        description="Print a log one line per op, numbered, with card names "
                                    "as one seat may know them (or everything, with --all).")
    p.add_argument("file", help="the .sandlog file to read")
    who = p.add_mutually_exclusive_group()
    who.add_argument("--seat", type=int, help="show what this seat may know (default: the "
                                              "log's own peer's first seat)")
    who.add_argument("--all", action="store_true", help="show everything the log knows")
    p.set_defaults(handler=cmd_show)

    p = logs.add_parser("export", help="export the ops as JSON Lines or CSV",
                        description="Write every op of a log as JSON Lines or as CSV (one row "
                                    "per op) for spreadsheets and scripts.")
    p.add_argument("file", help="the .sandlog file to read")
    p.add_argument("--format", choices=("jsonl", "csv"), default="jsonl",
                   help="jsonl (one JSON object per op) or csv (default: %(default)s)")
    p.add_argument("--seat", type=int, help="render card names as this seat may know them")
    p.add_argument("--out", help="write here instead of standard output")
    p.set_defaults(handler=cmd_export)

    p = logs.add_parser("hash", help="replay a log and print its public state hash",
                        description="Replay a log from its first op and print the hash of the "
                                    "public table state; every peer of one table prints the "
                                    "same hash.")
    p.add_argument("file", help="the .sandlog file to replay")
    p.set_defaults(handler=cmd_hash)

    p = logs.add_parser("merge", help="merge several peers' logs of one table, with all secrets",
                        description="Merge the logs every peer of one table wrote into one log "
                                    "that holds all their secrets (for replay and reports).")
    p.add_argument("files", nargs="+", help="the peers' .sandlog files")
    p.add_argument("--out", required=True, help="the merged .sandlog file to write")
    p.set_defaults(handler=cmd_merge)

    p = logs.add_parser("tag", help="say what a session was: its group, event, players, tags",
                        description="Append a tag op to logs (files, or folders searched for "
                                    ".sandlog files): the session's playtest group, event, who "
                                    "played which seat, free tags. The log stays the record; "
                                    "`report --by group` (or event, tag, player) slices by it. "
                                    "One peer's log of a table is enough: its session is "
                                    "every peer's.")
    p.add_argument("logs", nargs="+", metavar="LOG_OR_FOLDER",
                   help="the logs to tag, or folders searched recursively for .sandlog files")
    add_tag_options(p, untag=True)
    p.set_defaults(handler=cmd_tag)


def _fail(message: str) -> int:
    print(f"sandtable: {message}", file=sys.stderr)
    return 1


def _open(path: str) -> Any:
    from table.core.replica import Replica

    replica = Replica.from_log(path)
    for problem in replica.reports:
        print(f"warning: {problem}", file=sys.stderr)
    return replica


def _namer(replica: Any, announce: bool = False) -> Any:
    """Card id -> name from the module the log was played under, when one can be had."""
    from table.games.registry import ModuleNotFound
    from table.games.store import module_for

    try:
        resolved = module_for(replica)
    except (ModuleNotFound, ValueError):  # an unknown module just means ids are shown
        return None
    if announce:
        print(f"module: {resolved.label}" + (f" (note: {resolved.note})" if resolved.note
                                            else ""), file=sys.stderr)
    module = resolved.module
    cards = module.cards
    return lambda card_id: cards[card_id].name if card_id in cards else card_id


def _seat_for(replica: Any, seat: int | None, all_seats: bool) -> int:
    from table.core.views import ALL

    if all_seats or replica.peer_id == "merged":
        return ALL
    if seat is not None:
        return seat
    mine = sorted(replica.my_seats)
    if len(mine) > 1:
        return ALL  # a hot-seat log: its one player knew every seat
    return mine[0] if mine else 0


def cmd_import(args: argparse.Namespace) -> int:
    from assist.runner import assist_declarations
    from table.games.scenario import ScenarioError, build_log

    try:
        count = build_log(Path(args.ops), Path(args.out), allow_void=args.allow_void,
                          declarations=assist_declarations)
    except ScenarioError as err:
        return _fail(str(err))
    print(f"wrote {args.out}: {count} ops")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from table.core.render import Renderer

    try:
        replica = _open(args.file)
    except LogError as err:
        return _fail(str(err))
    seat = _seat_for(replica, args.seat, args.all)
    renderer = Renderer(replica.state, replica.knowledge, seat, _namer(replica, announce=True))
    for number, record in enumerate(replica.records(), start=1):
        salvaged = "  [salvaged]" if record.op.ref in replica.salvaged else ""
        print(f"{number:5d}  {renderer.line(record)}{salvaged}")
    return 0


def export_rows(replica: Any, seat: int, namer: Any) -> list[dict[str, Any]]:
    from table.core.render import Renderer
    from table.report.derive import export_columns

    renderer = Renderer(replica.state, replica.knowledge, seat, namer)
    extras, flags_missing = export_columns(replica, seat)  # card names, assist flags
    if flags_missing:
        print(f"note: no flags column values: {flags_missing}", file=sys.stderr)
    rows, turn, active, phase = [], 0, None, None
    for number, record in enumerate(replica.records(), start=1):
        op = record.op
        if op.kind == "mark" and record.void is None:
            if op.args["what"] == "turn":
                turn, active, phase = turn + 1, op.args.get("seat"), None
            elif op.args["what"] in ("phase", "step"):
                phase = op.args.get("value")
        rows.append({"n": number, "time": op.time, "lamport": op.lamport, "author": op.author,
                     "seq": op.seq, "seat": op.seat, "turn": turn, "active_seat": active,
                     "phase": phase, "kind": op.kind, "text": renderer.line(record),
                     "void": record.void, "salvaged": op.ref in replica.salvaged,
                     **extras[number - 1], "args": op.args})
    return rows


def cmd_export(args: argparse.Namespace) -> int:
    try:
        replica = _open(args.file)
    except LogError as err:
        return _fail(str(err))
    rows = export_rows(replica, _seat_for(replica, args.seat, False),
                       _namer(replica, announce=True))
    if not args.out:
        _write_rows(rows, args.format, sys.stdout)
        return 0
    with open(args.out, "w", newline="", encoding="utf-8") as out:
        _write_rows(rows, args.format, out)
    return 0


def _write_rows(rows: list[dict[str, Any]], form: str, out: TextIO) -> None:
    if form == "jsonl":
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False, default=str) + "\n")
        return
    writer = csv.DictWriter(out, fieldnames=list(rows[0]) if rows else ["n"])
    writer.writeheader()
    for row in rows:
        writer.writerow({**row, "args": json.dumps(row["args"], default=str),
                         **{k: "; ".join(row[k]) for k in ("cards", "flags", "flag_messages")}})


def cmd_hash(args: argparse.Namespace) -> int:
    try:
        replica = _open(args.file)
    except LogError as err:
        return _fail(str(err))
    _namer(replica, announce=True)  # says which module the log was played under
    print(replica.public_state_hash())
    return 0


def cmd_merge(args: argparse.Namespace) -> int:
    from table.core.merge import MergeError, merge_logs

    try:
        summary = merge_logs([Path(f) for f in args.files], Path(args.out))
    except (MergeError, LogError) as err:
        return _fail(str(err))
    print(summary)
    return 0




def cmd_tag(args: argparse.Namespace) -> int:
    from table.dataset.sources import find_logs

    try:
        tags = tag_args(args)
    except ValueError as err:
        return _fail(str(err))
    if not tags:
        return _fail("log tag needs --group, --event, --tag, --untag or --player")
    logs, skipped = find_logs(args.logs)
    for path, why in skipped:
        print(f"skipped {path}: {why}", file=sys.stderr)
    for log in logs:
        try:
            print(f"{log.path}: {tag_log(log.path, tags)}")
        except LogError as err:
            print(f"skipped {log.path}: {err}", file=sys.stderr)
    return 0 if logs and not skipped else 1
