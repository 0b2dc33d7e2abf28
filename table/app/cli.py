"""The `sandtable` command.

Each area registers its own subcommands from a module in `table/app/commands/`, so this file only
assembles them. With no subcommand, the table window opens on its start screen.
"""
from __future__ import annotations

import argparse
import importlib
import logging
import sys

from table import __version__

# Modules that add subcommands; each defines register(subparsers).
COMMAND_MODULES = [
    "table.app.commands.log",
    "table.app.commands.games",
    "table.app.commands.position",
    "table.app.commands.window",
    "table.app.commands.net",
    "table.app.commands.assist",
    "table.app.commands.report",
    "table.app.commands.printing",
    "table.app.commands.dataset",
    "table.app.commands.simulate",
    "table.app.commands.bench",
]


class VersionAction(argparse.Action):
    """`--version`: the version, and whether the core runs compiled (mypyc) or as Python."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        from table.core.native import compiled

        core = "compiled (mypyc)" if compiled() else "Python"
        print(f"sandtable {__version__} (core: {core})")  # on stdout, as argparse's own version
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sandtable",
        description="A virtual table for playtesting card games on a LAN. "
                    "Run with no command to open the table window.")
    parser.add_argument("--version", action=VersionAction, nargs=0,
                        help="show the version and which core runs, and exit")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug messages")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as err:
            if err.name == name:  # that area has no commands yet
                continue
            raise
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    from table.core.gc_tuning import tune_gc

    tune_gc()
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s")
    handler = getattr(args, "handler", None)
    if handler is None:
        from table.app.desktop import run_app  # the window is the default command

        return run_app([])
    try:
        return int(handler(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except OSError as err:  # an output that cannot be written, a port taken: one line, no trace
        if args.verbose:
            raise
        from table.app.commands import os_error_line

        print(f"sandtable {args.command}: {os_error_line(err)}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
