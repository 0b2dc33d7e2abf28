"""`sandtable position ...`: check a position file, start a table from it, save one from a log."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from table.app.commands import Subcommands


def register(sub: Subcommands) -> None:
    parser = sub.add_parser("position", help="check, start and save game positions",
                            description="Positions are game situations written by name in a "
                                        "TOML file (docs/positions.md).")
    acts = parser.add_subparsers(dest="position_command", metavar="ACTION", required=True)

    p = acts.add_parser("check", help="check a position file against its game module",
                        description="Check a position file against its game module (the cards, "
                                    "zones and seats it names) and print what is wrong.")
    p.add_argument("file", help="the position's .toml file")
    p.set_defaults(handler=cmd_check)

    p = acts.add_parser("start", help="start a hot-seat table from a position and write its log",
                        description="Set up a hot-seat table as a position describes it and "
                                    "write its log (open it with `sandtable replay`).")
    p.add_argument("file", help="the position's .toml file")
    p.add_argument("--out", required=True, help="the .sandlog file to write")
    p.set_defaults(handler=cmd_start)

    p = acts.add_parser("save", help="save the position of a logged table",
                        description="Write the position of the table a log holds (after its "
                                    "last op, or after op N), as this log's peer knows it: a "
                                    "LAN peer's log marks other players' hidden cards \"?\"; a "
                                    "merged or hot-seat log gives the whole position.")
    p.add_argument("log", help="the .sandlog file of the table")
    p.add_argument("--at", type=int, metavar="N", help="the table after op N (as `log show` "
                                                       "numbers them)")
    p.add_argument("--seat", type=int, help="write only what this seat may know")
    p.add_argument("--name", help="the position's name")
    p.add_argument("--out", required=True, help="the .toml file to write")
    p.set_defaults(handler=cmd_save)


def _fail(message: str) -> int:
    print(message if ":" in message.split(" ", 1)[0] else f"sandtable: {message}",
          file=sys.stderr)
    return 1


def cmd_check(args: argparse.Namespace) -> int:
    from table.games.position import PositionError, read_position

    try:
        position = read_position(args.file)
    except PositionError as err:
        return _fail(str(err))
    print(f"{args.file}: ok ({position.module.name}, {position.seats} seats, "
          f"{position.card_count()} named cards)")
    return 0


def start_to_log(path: str, out: str, seed: int | None = None) -> int:
    """Shared by `position start` and `new --position`."""
    import time

    from table.core.rng import Rng
    from table.games.position import PositionError, read_position
    from table.games.position_table import start_position

    started = time.perf_counter()
    try:
        position = read_position(path)
    except PositionError as err:
        return _fail(str(err))
    target = Path(out)
    if target.exists():
        target.unlink()
    replica = start_position(position, log_path=target,
                             rng=Rng(seed) if seed is not None else None)
    replica.close()
    print(f"wrote {out}: {position.module.name} from position {path}, {position.seats} seats, "
          f"{len(replica.records())} ops in {time.perf_counter() - started:.2f} s")
    return 0


def cmd_start(args: argparse.Namespace) -> int:
    return start_to_log(args.file, args.out)


def saved_position(log: str, *, at: int | None = None, seat: int | None = None,
                   name: str | None = None) -> str:
    """The position text of a log's table (raises LogError, LookupError, ValueError)."""
    from table.core.replica import Replica
    from table.core.seek import Seeker
    from table.core.views import ALL
    from table.games import find_module
    from table.games.position_writer import log_position

    replica = Replica.from_log(log)
    module = find_module(replica.game)
    records = replica.records()
    state = replica.state
    if at is not None:
        if not 0 <= at <= len(records):
            raise ValueError(f"--at must be 0-{len(records)}: the log holds {len(records)} ops")
        seeker = Seeker.from_records(records)
        seeker.seek(at)
        records, state = seeker.records(), seeker.state
    if seat is None:
        mine = sorted(replica.my_seats)
        seat = ALL if replica.peer_id == "merged" or len(mine) != 1 else mine[0]
    return log_position(records, state, replica.knowledge, module, replica.header_extra,
                        seat=seat, name=name)


def cmd_save(args: argparse.Namespace) -> int:
    from table.core.errors import LogError

    try:
        text = saved_position(args.log, at=args.at, seat=args.seat, name=args.name)
    except (LogError, LookupError, ValueError, OSError) as err:
        return _fail(f"{args.log}: {err}")
    Path(args.out).write_text(text, encoding="utf-8")
    unknown = text.count('"?"')
    note = f" ({unknown} card(s) this log's peer could not see are written \"?\")" \
        if unknown else ""
    print(f"wrote {args.out}{note}")
    return 0
