"""`sandtable games`, `sandtable validate` and `sandtable new`: game modules on the command line."""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from table.app.commands import Subcommands
from table.app.commands.tagging import add_tag_options, tag_args

if TYPE_CHECKING:
    from table.games.module import GameModule


def register(sub: Subcommands) -> None:
    p = sub.add_parser("games", help="list the game modules",
                       description="List the installed game modules.")
    p.set_defaults(handler=cmd_games)

    p = sub.add_parser("validate", help="check a game module or a deck list",
                       description="Validate a game module folder or a deck list. Exit 0 when "
                                   "clean, 1 with every problem listed as file:line: message. "
                                   "Warnings (file:line: warning: ...) name a rule value that "
                                   "has no effect because a card column sets it, or a number "
                                   "stated twice; they do not fail the check.")
    p.add_argument("path", help="a module folder (with game.toml) or a deck list file")
    p.add_argument("--game", help="the module a deck list belongs to (id or folder), when the "
                                  "deck is not inside its module's folder")
    p.set_defaults(handler=cmd_validate)

    p = sub.add_parser("new", help="set up a new table headless and write its log",
                       description="Set up a new table (hot-seat: one peer plays every seat) "
                                   "and write it as a log.")
    p.add_argument("--game", help="module id (see `sandtable games`)")
    p.add_argument("--seats", type=int, help="number of seats (default: the fewest the game "
                                             "allows)")
    p.add_argument("--position", metavar="FILE",
                   help="start from this position (docs/positions.md) instead of the game's "
                        "setup; it names the game and seats")
    p.add_argument("--deck", action="append", default=[], metavar="SEAT=PATH",
                   help="a deck list for a seat (default: a starter deck)")
    p.add_argument("--seed", type=int, help="seed shuffles and rolls (repeatable tables)")
    p.add_argument("--out", required=True, help="the .sandlog file to write")
    add_tag_options(p)
    p.set_defaults(handler=cmd_new)


def cmd_games(args: argparse.Namespace) -> int:
    from table.games import builtin_modules

    modules = builtin_modules()
    width = max((len(m.id) for m in modules), default=2)
    for m in modules:
        players = f"{m.players.min}-{m.players.max}" if m.players.min != m.players.max \
            else str(m.players.min)
        print(f"{m.id:<{width}}  {m.name:<22}  players {players:<4}  version {m.version}")
    return 0


def _module_arg(value: str) -> GameModule:
    from table.games import find_module, load_module

    return load_module(Path(value)) if Path(value).is_dir() else find_module(value)


def cmd_validate(args: argparse.Namespace) -> int:
    from table.games import ModuleError, validate_path
    from table.games.validate import validate_warnings

    try:
        module = _module_arg(args.game) if args.game else None
        problems = validate_path(Path(args.path), module)
    except ModuleError as err:
        problems = err.problems
    except (LookupError, OSError) as err:
        print(f"sandtable: {err}", file=sys.stderr)
        return 1
    if not problems and Path(args.path).is_dir():
        problems = bot_data_problems(Path(args.path))  # type: ignore[assignment]
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} problem(s)", file=sys.stderr)
        return 1
    warnings = validate_warnings(Path(args.path))
    for warning in warnings:
        print(warning)
    print(f"{args.path}: ok" + (f" ({len(warnings)} warning(s))" if warnings else ""))
    return 0


def bot_data_problems(folder: Path) -> list[str]:
    """The bots' data in a module folder: each card's `effect` cell in the vocabulary
    (file:line), and the strategy file's rules."""
    from table.bots.effects import COLUMN, EffectError, parse
    from table.bots.strategy import FILE, StrategyError, read
    from table.games import ModuleError, load_module

    try:
        module = load_module(folder)
    except ModuleError as err:
        return [str(p) for p in err.problems]
    problems = []
    for card in module.cards.values():
        cell = card.fields.get(COLUMN)
        if isinstance(cell, str) and cell.strip():
            try:
                parse(cell)
            except EffectError as err:
                problems.append(f"{folder / 'cards.csv'}:{card.line}: {card.id}: {err}")
    if (folder / FILE).is_file():
        try:
            read(folder / FILE)
        except StrategyError as err:
            problems.append(str(err))
    return problems


def cmd_new(args: argparse.Namespace) -> int:
    from table.core.rng import Rng
    from table.games import ModuleError, deck_problems, find_module, load_deck
    from table.games.setup import new_table

    if args.position:
        from .position import start_to_log

        if args.game or args.seats or args.deck:
            print("sandtable: a position names its game, seats and decks: give --position "
                  "alone (with --out and --seed)", file=sys.stderr)
            return 1
        return start_to_log(args.position, args.out, args.seed)
    if not args.game or not args.seats:
        print("sandtable: new needs --game and --seats (or --position FILE)", file=sys.stderr)
        return 1
    started = time.perf_counter()
    try:
        tags = tag_args(args)
    except ValueError as err:
        print(f"sandtable: {err}", file=sys.stderr)
        return 1
    try:
        module = find_module(args.game)
    except (LookupError, ModuleError) as err:
        print(f"sandtable: unknown game {args.game!r}: {err}", file=sys.stderr)
        return 1
    decks = {}
    for spec in args.deck:
        seat, sep, path = spec.partition("=")
        if not sep or not seat.isdigit():
            print(f"sandtable: --deck wants SEAT=PATH, not {spec!r}", file=sys.stderr)
            return 1
        try:
            deck = load_deck(module, Path(path))
        except ModuleError as err:
            print("\n".join(str(p) for p in err.problems), file=sys.stderr)
            return 1
        for problem in deck_problems(module, deck):
            print(f"warning: {problem}", file=sys.stderr)  # the table enforces nothing
        decks[int(seat)] = deck
    out = Path(args.out)
    if out.exists():
        out.unlink()
    try:
        replica = new_table(module, args.seats, decks, log_path=out,
                            rng=Rng(args.seed) if args.seed is not None else None)
    except ValueError as err:
        print(f"sandtable: {err}", file=sys.stderr)
        return 1
    if tags:
        from table.core import actions as act

        act.tag(replica, **tags)
    replica.close()
    elapsed = time.perf_counter() - started
    print(f"wrote {out}: {module.name}, {args.seats} seats, {len(replica.records())} ops "
          f"in {elapsed:.2f} s")
    return 0
