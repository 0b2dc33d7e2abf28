"""LAN play for a game module: hosting a table and joining one.

This is composition code outside `table/ui` (which never imports netplay): it builds a
:class:`~netplay.session.lan_session.LanSession` around a replica and starts the game module's LAN setup
(`table.lan.setup`, run by `table.lan.seating`), where every hidden card is created by its
owner's software and a seat's deck list never leaves its player's machine. A `host` or `join`
on an existing log resumes it (`table.lan.rejoin`). The CLI (`sandtable host/join`) and the app
both use these coroutines; `table.lan` gathers what they call.
"""


from __future__ import annotations

import asyncio
import errno
import logging
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from netplay.discovery.peerfile import peers_path
from netplay.link.quic import QuicSettings
from netplay.protocol.identity import Identity
from netplay.session.keyfile import save_identity
from netplay.session.lan_session import LanSession, SessionOptions
from table.core import actions as act
from table.core.logfile import LogWriter, make_header
from table.core.replica import Replica
from table.games.module import GameModule
from table.games.position import Position
from table.games.position_table import lan_begin
from table.games.registry import ModuleNotFound, find_module
from table.lan.modules import ModuleTransferError, keep_in_log, obtain_module
from table.lan.reaching import dial, resolve
from table.lan.rejoin import resume
from table.lan.seating import finish_position_when_ready, finish_when_ready
from table.lan.setup import host_layout, table_info
from table.lan.table import LanError, LanTable, until_changed

log = logging.getLogger(__name__)


def _new_identity(log_path: str | Path) -> Identity:
    identity = Identity.generate()
    save_identity(identity, log_path)
    return identity


def has_log(path: Path) -> bool:
    """A log with something in it: this peer played this table before (one small stat)."""
    return path.exists() and path.stat().st_size > 0


async def host(module: GameModule, *, table_name: str, seats: int, log_path: str | Path,
               options: SessionOptions | None = None,
               position: Position | None = None, watchers: bool = True,
               record_to_watchers: bool = True, local_draws: bool = False,
               tags: dict[str, Any] | None = None) -> LanTable:
    """Start a table: announce it, lay it out, and finish the setup once every seat is ready.
    A log that exists is resumed (a host restarting after a crash). With a `position`, the
    table starts in it: the host places the public part, each seat's peer its hidden cards.
    `watchers`: the table takes watchers; `record_to_watchers`: each player's peer sends its
    secrets to the watchers at the end of the game; `local_draws`: a player may roll and
    shuffle alone while others are linked, unaudited (all announced in the layout mark).
    `tags`: what the session is (`table.core.actions.tag`'s arguments: group, event, players,
    add), said in a `tag` op once the table is laid out."""
    settings = {"watchers": watchers, "record_to_watchers": record_to_watchers,
                **({"local_draws": True} if local_draws else {})}
    try:
        module.check_seats(seats)
    except ValueError as err:
        raise LanError(str(err)) from None
    opts = options or SessionOptions()
    opts.table_name, opts.game, opts.seats = table_name, module.id, seats
    opts.watchers = watchers  # announced from the start (and in the layout mark)
    opts.local_draws = local_draws
    path = Path(log_path)
    opts.peers_file = str(peers_path(path))
    if has_log(path):
        # A host restarting from its log: the same rejoin as Resume (it redials the peers
        # its log and address file name, and finds them by mDNS too).
        return await resume(path, opts, host_role=True)
    identity = _new_identity(path)
    replica = Replica(None, identity.peer_id, log_path=path, game=module.id,
                      game_hash=module.content_hash,
                      header_extra={"seats": seats, "module_version": module.version,
                                    "lan": True})
    session = LanSession(replica, identity, opts)
    try:
        await session.start()
    except OSError as err:
        await session.stop(graceful=False)
        replica.close()
        if err.errno in (errno.EADDRINUSE, getattr(errno, "WSAEADDRINUSE", -1)):
            raise LanError(f"port {opts.port} is already in use: pick another port "
                           "(or any free port)") from None
        raise LanError(f"cannot listen for players: {err.strerror or err}") from None
    t = LanTable(session, replica, module, seats, table_name, position=position)
    t.follow_modules()
    if position is not None:
        act.mark(replica, "setup", value="table", fields={
            "game": module.id, "game_hash": module.content_hash, "seats": seats,
            "name": table_name, "module_version": module.version,
            "position": {"name": position.name, "digest": position.digest}, **settings})
        lan_begin(replica, position)
        _tag(replica, tags)
        t.spawn(finish_position_when_ready(t))
        return t
    host_layout(replica, module, seats, table_name, settings)
    _tag(replica, tags)
    t.spawn(finish_when_ready(t))
    return t


def _tag(replica: Replica, tags: dict[str, Any] | None) -> None:
    if tags:
        act.tag(replica, **tags)


async def join(*, log_path: str | Path, table: str | None = None, connect: str | None = None,
               options: SessionOptions | None = None, timeout: float = 15.0,
               listed: tuple[str, list[tuple[str, int]], str] | None = None,
               position: Position | None = None, ticket: str | None = None,
               progress: Callable[[str], None] | None = None) -> LanTable:
    """Join a table by name, host:port or internet ticket (``options.mesh.quic`` then says
    how to open this peer's endpoint) and catch up. A log that exists is resumed.
    ``listed`` = (table id, addresses, name) of a table a browser already listed;
    ``progress`` hears how the transfer of the table's module goes, when it needs one."""
    opts = options or SessionOptions()
    path = Path(log_path)
    opts.peers_file = str(peers_path(path))
    if listed is not None:
        table_id, addresses, name = listed
    else:
        table_id, addresses, name = await resolve(table=table, connect=connect, ticket=ticket,
                                                  interfaces=opts.interfaces, timeout=timeout)
    if ticket and opts.mesh.quic is None:
        opts.mesh = replace(opts.mesh, quic=QuicSettings())
    if has_log(path):
        t = await resume(path, opts, addresses=addresses)
        if t.replica.table_id != table_id:
            await t.close()
            raise LanError("that log belongs to another table")
        return t
    opts.table_name = name or opts.table_name
    identity = Identity.generate()
    replica = Replica(table_id, identity.peer_id)  # the log opens once the game is known
    session = LanSession(replica, identity, opts)
    await session.start(hello=False)
    # Joined by address, the name is not known yet: the table's layout mark gives it, and it
    # is what this peer announces (never a placeholder).
    t = LanTable(session, replica, table_name=name)
    try:
        await dial(t, addresses, timeout)
        info = await _wait_table_info(t, timeout)
        if opts.watch and info.get("watchers") is False:
            raise LanError("this table does not take watchers")
        module = await _table_module(t, info, progress)
        t.module, t.seats = module, int(info.get("seats") or 0)
        t.position = _same_position(info, position)
        t.table_name = t.table_name or str(info.get("name") or "") or opts.table_name
        session.options.game, session.options.seats = module.id, t.seats
        session.options.table_name = t.table_name
        _open_log(replica, path, module, t.seats)
        keep_in_log(replica, module)
        t.follow_modules()
        save_identity(identity, path)
        await session.say_hello()
    except BaseException:
        await t.close(graceful=True)
        raise
    return t


async def _table_module(t: LanTable, info: dict[str, Any],
                        progress: Callable[[str], None] | None) -> GameModule:
    """The module the table plays: ours when we have that very draft, else from its peers."""
    digest = str(info.get("game_hash") or "")
    if not digest:  # a table from before modules travelled: the installed one
        return find_module(str(info.get("game")))
    try:
        return await obtain_module(t.session.blobs, digest, report=progress)
    except ModuleTransferError as err:
        raise LanError(str(err)) from None


def _same_position(info: dict[str, Any], position: Position | None) -> Position | None:
    """A table that starts from a position needs the same file here: each player's peer makes
    its own seat's hidden cards from it (nobody sends them)."""
    wanted = info.get("position")
    if not isinstance(wanted, dict):
        return None
    name = wanted.get("name") or "a position"
    if position is None:
        raise LanError(f"this table starts from {name}: join with the same position file "
                       "(--position FILE)")
    if wanted.get("digest") != position.digest:
        raise LanError(f"this table starts from {name}, and your position file differs from "
                       "the host's")
    return position


def _open_log(replica: Replica, path: Path, module: GameModule, seats: int) -> None:
    """Start the joiner's log with everything caught up so far (no await in between)."""
    replica.game, replica.game_hash = module.id, module.content_hash
    replica.header_extra = {"seats": seats, "module_version": module.version, "lan": True}
    replica.start_log(LogWriter(path, make_header(replica.table_id, replica.peer_id, module.id,
                                                  module.content_hash, **replica.header_extra)))


async def _wait_table_info(t: LanTable, timeout: float) -> dict[str, Any]:
    """The table's layout mark, once it arrived and the peers sent everything they hold."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    if await until_changed(t.replica, lambda: table_info(t.replica) is not None, kinds=("mark",),
                           timeout=timeout) \
            and await t.session.wait_caught_up(max(0.0, deadline - loop.time())):
        return table_info(t.replica) or {}
    waiting = t.session.replication.waiting_for()
    raise LanError(f"could not join: still waiting for {waiting}" if waiting
                   else "the table did not send its layout in time")


def module_for(game: str) -> GameModule:
    try:
        return find_module(game)
    except ModuleNotFound:
        raise LanError(f"no game module {game!r} (see `sandtable games`)") from None
