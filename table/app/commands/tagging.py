"""What a session is, for the designer's slices: the `--group`, `--event`, `--tag` and
`--player` options of the commands that start a table (`new`, `host`), and `sandtable log tag`,
which says it afterwards. Each becomes a `tag` op in the log (docs/ops.md), so the log stays the
record and the dataset and report slice by it (`report --by group`)."""
from __future__ import annotations

import argparse
import secrets
from pathlib import Path
from typing import Any


def add_tag_options(p: argparse.ArgumentParser, *, untag: bool = False) -> None:
    p.add_argument("--group", help="the playtest group (a club, a team, a bot pairing): "
                                   "`report --by group` slices every figure by it")
    p.add_argument("--event", help="the event the session was played at")
    p.add_argument("--tag", action="append", default=[], metavar="TAG",
                   help="a free tag for the session (repeatable): `report --by tag`")
    p.add_argument("--player", action="append", default=[], metavar="SEAT=NAME",
                   help="who played a seat (repeatable), beside the seat's name at the table")
    if untag:
        p.add_argument("--untag", action="append", default=[], metavar="TAG",
                       help="take a free tag off the session (repeatable)")


def tag_args(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments of `table.core.actions.tag` the options name ({}: none); raises
    ValueError on a `--player` that is not SEAT=NAME."""
    players: dict[int, str] = {}
    for spec in args.player or []:
        seat, sep, name = spec.partition("=")
        if not sep or not seat.strip().isdigit():
            raise ValueError(f"--player wants SEAT=NAME, not {spec!r}")
        players[int(seat)] = name.strip()
    out: dict[str, Any] = {"group": args.group, "event": args.event,
                           "add": [t.strip() for t in args.tag or [] if t.strip()],
                           "remove": [t.strip() for t in getattr(args, "untag", []) or []
                                      if t.strip()],
                           "players": players}
    return {k: v for k, v in out.items() if v is not None and v != [] and v != {}}


def tag_log(path: Path, tags: dict[str, Any]) -> str:
    """Append a `tag` op to the log at `path`, by an author of its own (the log's players never
    wrote it); returns the op's line as `log show` prints it."""
    from table.core import actions as act
    from table.core.render import Renderer
    from table.core.replica import Replica
    from table.core.views import ALL

    replica = Replica.from_log(path, reopen=True)
    try:
        replica.peer_id = f"tag-{secrets.token_hex(6)}"
        replica.issue("hello", {"name": "sandtable log tag"})
        act.tag(replica, **tags)
        renderer = Renderer(replica.state, replica.knowledge, ALL)
        return renderer.line(replica.records()[-1]) if replica.records() else ""
    finally:
        replica.close()
