"""`sandtable check LOG [--json]`: run the game's rules assist over a log and list its flags;
`sandtable check --audit LOG`: verify its jointly drawn randomness."""
from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from table.app.commands import Subcommands

if TYPE_CHECKING:
    from assist.runner import AssistRunner
    from table.core.replica import Replica


def register(sub: Subcommands) -> None:
    parser = sub.add_parser(
        "check", help="run the rules assist over a log and print its flags",
        description="Run the game's rules assist over a log and print every flag (op, "
                    "severity, rule, message, rulebook section); or run rule scenarios "
                    "(--scenarios), or audit the log's joint randomness (--audit).")
    parser.add_argument("log", nargs="?", help="a .sandlog file")
    parser.add_argument("--scenarios", metavar="DIR",
                        help="run the rule scenarios under DIR (docs/positions.md) instead: "
                             "pass/fail per scenario, exit 1 on any failure")
    parser.add_argument("--module", metavar="PATH",
                        help="with --scenarios: judge them under this (draft) module folder")
    parser.add_argument("--json", action="store_true", help="one JSON object per flag")
    parser.add_argument("--all", action="store_true", help="include acknowledged flags")
    parser.add_argument("--audit", action="store_true",
                        help="verify every joint roll, shuffle and draw against the published "
                             "shares and salts, instead of running the rules assist")
    parser.set_defaults(handler=check)


def check(args: argparse.Namespace) -> int:
    if args.scenarios:
        return check_scenarios(args)
    if args.log is None:
        print("sandtable: check needs a LOG (or --scenarios DIR)", file=sys.stderr)
        return 2
    if args.audit:
        return audit(args)
    from assist.runner import AssistRunner, load_plugin
    from table.core.errors import LogError
    from table.core.replica import Replica
    from table.games.registry import ModuleNotFound
    from table.games.store import module_for

    try:
        replica = Replica.from_log(args.log)
    except LogError as err:  # a missing, unreadable or foreign file: one line, no traceback
        print(f"sandtable: {err}", file=sys.stderr)
        return 1
    try:
        resolved = module_for(replica)
    except ModuleNotFound as err:
        print(f"{args.log}: {err}; nothing to check", file=sys.stderr)
        return 0
    module = resolved.module
    for line in _module_lines(replica, resolved.label):
        print(line, file=sys.stderr)
    if resolved.source == "installed (fallback)":
        # the module the log names is not here: say which one the flags come from
        print(f"module: judged by {resolved.label}, not the log's own module (not in the log "
              f"or the module cache)", file=sys.stderr)
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
    runner.finish()  # the log read to its end: every window still open closes there
    for notice in runner.notices:
        print(f"note: {notice}", file=sys.stderr)
    _print_flags(runner, replica, include_acked=args.all, as_json=args.json)
    return 0


def _print_flags(runner: AssistRunner, replica: Replica, *, include_acked: bool,
                 as_json: bool) -> None:
    """Every flag, undone and resolved ones too (said so), then a count on stderr."""
    acks = runner.acknowledged()
    entries = runner.entries(include_acked=include_acked, include_undone=True, include_resolved=True)
    undone = runner.undone()
    for e in entries:
        f = e.flag
        if as_json:
            print(json.dumps({"op": e.number, "ref": list(e.ref), "rule": f.rule,
                              "severity": f.severity, "message": f.message,
                              "section": f.section, "objects": list(f.objects),
                              "key": f.key, "acknowledged": acks.get(f.key),
                              "undone": e.ref in undone,
                              "cleared_at": None if (at := runner.cleared_at(f)) is None
                              else at + 1,
                              "salvaged": e.ref in replica.salvaged}))
        else:
            ack = f" (acknowledged: {acks[f.key]})" if f.key in acks else ""
            ack += " (the player undid this move)" if e.ref in undone else ""
            cleared = runner.cleared_at(f)
            ack += (f" (the table no longer shows this since op {cleared + 1})"
                    if cleared is not None else "")
            ack += " (salvaged: read past a lost op)" if e.ref in replica.salvaged else ""
            print(f"{e.number:>6}  {f.rule:<28} {f.severity:<7} {f.message} [{f.section}]{ack}")
    if not as_json:
        salvaged = sum(1 for e in entries if e.ref in replica.salvaged)
        print(f"{len(entries) - salvaged} flag(s) in {len(runner)} ops"
              + (f"; {salvaged} more on ops read past a lost record (salvaged: they may be the "
                 f"lost op's doing)" if salvaged else ""), file=sys.stderr)


def check_scenarios(args: argparse.Namespace) -> int:
    """Run every scenario under a folder; print PASS/FAIL per scenario."""
    from pathlib import Path

    from assist.scenarios import ScenarioRunner, scenario_files, scenario_game
    from table.games import ModuleError, load_module

    module = None
    if args.module:
        try:
            module = load_module(Path(args.module))
        except ModuleError as err:
            print(str(err), file=sys.stderr)
            return 1
    root = Path(args.scenarios)
    if not root.exists():
        print(f"sandtable: no such folder {root}", file=sys.stderr)
        return 1
    files = scenario_files(root)
    if module is not None:  # a draft of one game: only that game's scenarios
        files = [f for f in files if scenario_game(f) in (module.id, None)]
    results = ScenarioRunner(module).run_all(files)
    for r in results:
        if args.json:
            print(json.dumps({"file": str(r.path), "name": r.name, "passed": r.passed,
                              "problems": r.problems, "flags": r.flags}))
            continue
        print(f"{'PASS' if r.passed else 'FAIL'}  {r.path}  {r.name}")
        for problem in r.problems:
            print(f"      {problem}")
    failed = sum(not r.passed for r in results)
    print(f"{len(results) - failed} passed, {failed} failed", file=sys.stderr)
    return 1 if failed or not results else 0


def audit(args: argparse.Namespace) -> int:
    """`sandtable check --audit LOG`: verify every joint roll, shuffle and draw against the
    published shares and salts (docs/designer-tools.md, "Auditing randomness"). Exit 1 when
    something did not follow its seed, 2 when nothing failed but some could not be checked."""
    from table.core.audit import audit_replica
    from table.core.errors import LogError
    from table.core.replica import Replica

    try:
        replica = Replica.from_log(args.log)
    except LogError as err:
        print(f"sandtable: {err}", file=sys.stderr)
        return 1
    for notice in replica.reports:
        print(f"note: {notice}", file=sys.stderr)
    result = audit_replica(replica)
    for finding in result.failures:
        print(f"FAILED {finding.line()}")
    for finding in result.unverifiable:
        print(f"cannot verify {finding.line()}")
    for finding in result.degraded:
        print(f"degraded {finding.line()}")
    print(result.summary())
    if result.failures:
        return 1
    return 2 if result.unverifiable else 0


def _module_lines(replica: Any, label: str) -> list[str]:
    """Which module the log was judged under: the one it was set up with, then each change."""
    ops = [(n, r.op.args) for n, r in enumerate(replica.records(), start=1)
           if r.op.kind == "module" and r.void is None]
    if not ops:
        return [f"module: {label}"]

    def name(args: dict[str, Any]) -> str:
        return f"{args.get('name') or args['game']} {args.get('version', '')} ({args['hash'][:12]})"

    return [f"module: {name(ops[0][1])}"] + [f"module: changed at op {n} to {name(a)}"
                                             for n, a in ops[1:]]
