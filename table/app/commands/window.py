"""`sandtable screenshot` (render a table to a PNG offscreen) and `sandtable play` (open a game)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from table.app.commands import Subcommands


def register(subparsers: Subcommands) -> None:
    p = subparsers.add_parser("screenshot", help="render a game's table after setup to a PNG",
                              description="Set up a hot-seat table for GAME and save a picture "
                                          "of the table window (no display needed).")
    p.add_argument("--game", required=True, help="game module id (or 'sample')")
    p.add_argument("--seats", type=int, help="number of seats (default: the most the game allows)")
    p.add_argument("--seat", type=int, help="whose view to show (default: seat 1)")
    p.add_argument("--size", default="1600x1000", help="window size WxH (default 1600x1000)")
    p.add_argument("--out", required=True, help="PNG file to write")
    p.set_defaults(handler=_screenshot)

    p = subparsers.add_parser("play", help="open the table window on a new hot-seat game",
                              description="Open the table window straight into a new hot-seat "
                                          "game (one person plays every seat).")
    p.add_argument("--game", default="dead-to-rites", help="game module id (default: %(default)s)")
    p.add_argument("--seats", type=int, help="number of seats (default: the fewest the game "
                                             "allows)")
    p.add_argument("--position", metavar="FILE",
                   help="start from this position instead (docs/positions.md)")
    p.add_argument("--module", metavar="PATH",
                   help="play the draft in this module folder instead; edits to its files reach "
                        "the table as they are saved (docs/game-module.md)")
    p.set_defaults(handler=_play)


def _screenshot(args: argparse.Namespace) -> int:
    from table.ui.render import render_table  # Qt only when the command runs

    try:
        w, h = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        raise SystemExit(f"--size must look like 1600x1000, not {args.size!r}") from None
    out = render_table(args.game, args.seats, args.seat, (w, h), args.out)
    print(f"wrote {out}")
    return 0


def _play(args: argparse.Namespace) -> int:
    from table.app.desktop import run_app

    if args.position:
        from table.games.position import PositionError, read_position

        try:
            read_position(args.position)  # report its problems here, with their lines
        except PositionError as err:
            print(str(err), file=sys.stderr)
            return 1
    if args.module:
        from table.games import ModuleError, load_module

        try:
            load_module(Path(args.module))  # report its problems here, with their lines
        except ModuleError as err:
            print(str(err), file=sys.stderr)
            return 1
    # a position or a draft names its own game: --game's default must not open instead
    game = None if args.position or args.module else args.game
    return run_app([], game=game, seats=args.seats, position=args.position, module=args.module)
