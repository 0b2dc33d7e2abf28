"""Getting back into a LAN game from this peer's log: after a crash, a closed window, or a
`host`/`join` command started again on an existing log. Same peer id and key; the other peers
are found by the table's id (discovery) or at the addresses given, then dialled."""


from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

from netplay.discovery.listing import TableListing
from netplay.discovery.mdns import probe_table_id
from netplay.discovery.peerfile import load_peers, peers_path
from netplay.discovery.table_search import browse_tables
from netplay.replication.opsign import OpVerifier
from netplay.session.keyfile import load_identity
from netplay.session.lan_session import LanSession, SessionOptions
from table.core.errors import LogError
from table.core.logfile import LogReader
from table.core.replica import Replica
from table.games.registry import find_module
from table.games.store import module_for as recorded_module_of
from table.lan.reaching import dial
from table.lan.seat_setup import resume_seat, reveal_when_called
from table.lan.seating import finish_when_ready
from table.lan.setup import ready_seats, setup_complete, table_info
from table.lan.table import LanError, LanTable, NobodyFound

log = logging.getLogger(__name__)


def lan_log_header(path: str | Path) -> dict[str, Any] | None:
    """The header of a LAN log (one ``host``/``join`` wrote), or None for any other file."""
    try:
        header = LogReader(path).header
    except LogError:
        return None
    return header if header.get("lan") is True else None


def _own_table_mark(path: Path) -> tuple[str, bool]:
    """(table name, whether this log's peer issued the ``mark setup "table"`` op, i.e. hosts)."""
    reader = LogReader(path)
    me = reader.header.get("peer")
    for rec in reader.records():  # an op's wire form: [author, seq, lamport, kind, args, ...]
        if type(rec) is not list or len(rec) < 5 or rec[3] != "mark":
            continue
        args = rec[4] if isinstance(rec[4], dict) else {}
        if args.get("what") == "setup" and args.get("value") == "table":
            fields = args.get("fields")
            name = fields.get("name") if isinstance(fields, dict) else None
            return str(name or ""), rec[0] == me
    return "", False


async def rejoin(path: str | Path, options: SessionOptions | None = None, *,
                 timeout: float = 8.0, addresses: list[tuple[str, int]] | None = None,
                 alone: bool = False) -> LanTable:
    """Get back into a LAN game after a crash (or a closed window), from this peer's log.

    Same peer id and key (``<log>.key``); this peer hosts again if it issued the table's
    ``mark setup "table"``. Without ``addresses`` the other peers of the table are found by
    its table id through discovery (every peer of a table announces it); then they are
    dialled, this peer catches up (up to ``timeout``) and announces the table again.
    ``alone``: nobody else is there now; reopen the table anyway (announced, the others
    find it as they come back, and it redials the addresses saved beside the log).
    Raises :class:`LanError` with a message for the player."""
    path = Path(path)
    header = lan_log_header(path) if path.exists() else None
    if header is None:
        raise LanError(f"{path.name} is not the log of a LAN game")
    if load_identity(path) is None:
        raise LanError(f"{path.name}.key is missing: cannot rejoin as the same player")
    table_id, me = str(header.get("table") or ""), str(header.get("peer") or "")
    name, host_role = _own_table_mark(path)
    opts = options or SessionOptions()
    shown = name or opts.table_name or table_id
    if alone:
        t = await resume(path, opts, host_role=host_role)
        log.info("reopened table %s as %s, nobody else there yet", shown, me)
        return t
    if not addresses:
        addresses = await _find_others(table_id, me, opts.interfaces, timeout)
        if not addresses:
            raise NobodyFound(f"nobody else of table {shown!r} is on the LAN; "
                           "ask another player for their HOST:PORT")
    t = await resume(path, opts, host_role=host_role)
    try:
        await dial(t, addresses, timeout)
        if not await t.session.wait_caught_up(timeout):
            log.warning("rejoined %s: still catching up after %.0f s (waiting for %s)", shown,
                        timeout, t.session.replication.waiting_for() or "nothing named")
    except BaseException:
        await t.close(graceful=True)
        raise
    log.info("rejoined table %s as %s (%s)", shown, me, "host" if host_role else "player")
    return t


async def _find_others(table_id: str, me: str, interfaces: list[str] | None,
                       timeout: float) -> list[tuple[str, int]]:
    """Addresses of the other announcing peers of a table (not this peer's stale record)."""
    def others(tables: list[TableListing]) -> list[tuple[str, int]]:
        return [(p.host, p.port) for t in tables if t.table_id == table_id
                for p in t.peers if p.peer_id != me]

    tables = await browse_tables(interfaces, timeout, lambda ts: bool(others(ts)))
    return others(tables)


async def reachable(path: str | Path, table_id: str, me: str,
                    listings: list[TableListing], timeout: float = 1.0
                    ) -> list[tuple[str, int]]:
    """Where the other peers of this log's table answer now: announced on the LAN
    (`listings`, a browser's), else at the addresses saved beside the log, each asked for its
    table id (internet tickets are not asked: they are redialled once back). [] if nobody."""
    announced = [(p.host, p.port) for t in listings if t.table_id == table_id
                 for p in t.peers if p.peer_id != me]
    if announced:
        return announced
    saved = [a for pid, addresses in load_peers(peers_path(path)).items() if pid != me
             for a in addresses if a[1] != 0]

    async def answers(host_: str, port: int) -> bool:
        try:
            return await probe_table_id(host_, port, timeout) == table_id
        except Exception:  # gone, refused, another table there now: not reachable
            return False

    found = await asyncio.gather(*(answers(h, p) for h, p in saved))
    return [a for a, ok in zip(saved, found, strict=True) if ok]


async def resume(path: Path, opts: SessionOptions, *, host_role: bool = False,
                  addresses: list[tuple[str, int]] | None = None) -> LanTable:
    """Restart a peer from its log: same peer id and key, then catch up with the others."""
    identity = load_identity(path)
    if identity is None:
        raise LanError(f"{path}.key is missing: cannot resume that log as the same peer")
    # Every op taken back is verified again: a log written before every op was checked may
    # hold one that fails, which this peer must neither advertise nor relay.
    replica = Replica.from_log(path, reopen=True, verifier=OpVerifier(lambda _author: None))
    if replica.peer_id != identity.peer_id:
        raise LanError(f"{path}.key does not belong to that log")
    info = table_info(replica) or {}
    try:  # the module the log says the table plays (the log carries it)
        module = recorded_module_of(replica).module
    except (LookupError, ValueError):
        module = find_module(replica.game or str(info.get("game", "")))
    seats = int(info.get("seats") or replica.header_extra.get("seats") or 0)
    opts.game, opts.seats = module.id, seats
    opts.table_name = str(info.get("name") or opts.table_name)
    opts.peers_file = str(peers_path(path))
    session = LanSession(replica, identity, opts)
    await session.start()
    t = LanTable(session, replica, module, seats, opts.table_name)
    t.follow_modules()
    if addresses:
        for host_, port in addresses:
            if await session.connect(host_, port):
                break
    if not setup_complete(replica):
        if host_role and (table_info(replica) or {}).get("position"):
            log.warning("this table was starting from a position when its host stopped: "
                        "finish it by hand (mark setup complete) or start it again")
        elif host_role:
            t.spawn(finish_when_ready(t))
        for seat in sorted(s for s, held in replica.state.seats.items()
                           if held.peer == replica.peer_id):
            if seat in ready_seats(replica) or info.get("position"):
                t.spawn(reveal_when_called(t, seat))
            elif not resume_seat(t, seat):  # its setup goes on where it stopped
                log.warning("seat %d was taken but not set up when this peer stopped: "
                            "take it again", seat)
    log.info("resumed %s: %d ops from the log", path, sum(replica.version_vector().values()))
    return t
