"""`sandtable replay FILE` and `sandtable report LOG_OR_FOLDER... --out report.html`."""
from __future__ import annotations

import argparse
import sys

from .data_tools import check_data_tools


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("replay", help="open a log in the replay view (seek, step, fork)",
                       description="Open a .sandlog in the replay view: the table as it was at "
                                   "any op, a timeline that seeks both ways, jumps to turns, "
                                   "flags and notes, and 'fork from here'.")
    p.add_argument("file", help="the .sandlog file to replay")
    p.add_argument("--at", type=int, help="start at this op number (default: the end)")
    p.add_argument("--seat", type=int, help="whose view to show (default: everything the log "
                                            "knows)")
    p.add_argument("--screenshot", metavar="PNG", help="save a picture of the replay window "
                                                       "and exit (no display needed)")
    p.add_argument("--size", default="1600x1000", help="window size WxH for --screenshot")
    p.set_defaults(handler=cmd_replay)

    p = sub.add_parser("report", help="an HTML report over many logs (charts and tables)",
                       description="Summarise logs (files or folders, searched recursively) "
                                   "into one self-contained HTML page: per session and across "
                                   "sessions, grouped by game and module draft. The logs of "
                                   "one table (every peer's, a merged one) are one session.")
    p.add_argument("inputs", nargs="*", metavar="LOG_OR_FOLDER",
                   help="logs, or folders searched recursively for .sandlog files")
    p.add_argument("--out", default="report.html", help="the HTML file to write "
                                                        "(default report.html)")
    p.add_argument("--csv", metavar="DIR", help="also write DIR/sessions.csv (one row per "
                                                "session), DIR/seats.csv (one row per seat) "
                                                "and DIR/cards.csv (one row per card played)")
    p.add_argument("--jobs", type=int, help="processes reading logs (default: every core)")
    p.add_argument("--cache", metavar="DIR",
                   help="the dataset folder the report keeps up to date and reads its numbers "
                        "from (default: one per set of inputs in the user cache; a second "
                        "report over the same logs reads only new or changed ones)")
    p.add_argument("--sql", action="store_true",
                   help="print the DuckDB queries the report runs over the dataset; with "
                        "logs or folders, also each headline figure's answer (with --by, "
                        "per slice)")
    p.add_argument("--by", choices=("group", "event", "tag", "player"),
                   help="slice every figure of each game by the sessions' playtest group, event, "
                        "free tag or player (tag ops: host --group, sandtable log tag), dice "
                        "per slice included")
    p.add_argument("--compare", choices=("draft", "group", "event"), default="draft",
                   help="what the balance answer compares: the drafts (default), the playtest "
                        "groups or the events")
    p.add_argument("--dismiss", action="append", default=[], metavar="RULE[@SESSION#OP]",
                   help="a rule (or one flag) the assist raises falsely: out of every total "
                        "and ranking, counted apart (repeatable; a dismissals.toml beside the "
                        "logs or in the game module's folder says the same for good)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--no-flags", action="store_true",
                   help="skip the rules assist (much faster; no flags in the report)")
    p.add_argument("--bench", action="store_true",
                   help="generate 1,000 legal sessions of the built-in games (the corpus of "
                        "table.bench.legal_corpus) in a temporary folder, time the report over "
                        "them; the last line is JSON")
    p.set_defaults(handler=cmd_report)


def cmd_report(args: argparse.Namespace) -> int:
    if args.bench:
        from table.bench.report import run_bench

        return run_bench(out=args.out if args.out != "report.html" else None, jobs=args.jobs,
                         assist=not args.no_flags)
    if not args.inputs and not args.sql:
        print("sandtable: report needs at least one log or folder", file=sys.stderr)
        return 2
    if not check_data_tools("report"):
        return 2
    from table.dataset.dismissals import DismissalError
    from table.report.build import build_report

    if args.sql and not args.inputs:
        from table.report.queries import sql_text

        print(sql_text())
        return 0
    try:
        report = build_report(args.inputs, None, jobs=args.jobs, assist=not args.no_flags,
                              show_progress=False if args.no_progress else None,
                              cache=args.cache, by=args.by, compare_by=args.compare,
                              dismiss=args.dismiss)
    except DismissalError as err:
        print(f"sandtable: {err}", file=sys.stderr)
        return 1
    if args.sql and report.dataset is not None:
        from table.report.queries import figures_text

        print(figures_text(report.dataset, args.by))
        return 0
    if not report.sessions:  # nothing to report: one line per input, no page
        for path, why in report.skipped or [(", ".join(args.inputs), "no log found")]:
            print(f"sandtable: {path}: {why}", file=sys.stderr)
        return 1
    from table.report.page import write

    write(args.out, report.html)
    print(f"wrote {args.out}: {report.logs} log(s) -> {len(report.sessions)} session(s) in "
          f"{report.seconds:.1f} s (read {report.logs_read} new or changed log(s) into the "
          f"dataset {report.dataset})")
    if args.csv:
        from table.report.build import write_csv

        for written in write_csv(report.sessions, args.csv):
            print(f"wrote {written}")
    for s in report.sessions:
        if s.salvaged or s.damage:
            mode = f"; salvage mode: {s.salvaged} op(s) read past lost op(s)" if s.salvaged \
                else ""
            print(f"damaged {s.path}: {'; '.join(s.damage[:2])}{mode}", file=sys.stderr)
    for path, why in report.skipped:
        print(f"skipped {path}: {why}", file=sys.stderr)
    for rule, session, op, why, source in report.dismissals:
        which = f"{rule}@{session}#{op}" if session else rule
        print(f"dismissed {which} ({source}){': ' + why if why else ''}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from table.ui.replay.run import run_replay

    return run_replay(args.file, at=args.at, seat=args.seat, screenshot=args.screenshot,
                      size=args.size)
