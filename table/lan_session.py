"""LAN play for a game module: hosting, joining, seats and the split setup.

This is composition-root code (outside `table/ui`, which never imports netplay): it builds a
:class:`~netplay.session.LanSession` around a replica and runs a game module's setup the LAN
way, where every hidden card is created by its owner's software and a seat's deck list never
leaves its player's machine:

1. the host lays out the shared, deck-independent objects and marks the table
   (``mark setup "table"`` with the game, its content hash and the seat count);
2. a player claims a seat (a ``seat`` op), lays out that seat's own objects, runs that seat's
   setup steps with its own deck (creating and shuffling its cards, arranging them) up to the
   game's simultaneous reveal, if it has one, and marks it ready, publishing only the deck's
   headers (faction, leader: public at a real table too);
3. a simultaneous reveal (a shared "turn face up" step, such as Gauntlet's six Territories)
   waits for every seat: when all are ready the host marks ``reveal``; each seat's peer then
   turns up its own cards and runs the rest of its steps (Leader, token, opening hand), and
   marks itself ``revealed``;
4. then the host lays out the shared objects that depend on the decks in play and runs the
   shared setup steps (first player, shared supplies), and marks setup complete.

The CLI (`sandtable host/join`) and the app both use these coroutines.
"""
from __future__ import annotations

import asyncio
import errno
import logging
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Callable
from typing import Any

from netplay.identity import Identity
from netplay.discovery import TableListing
from netplay.opsign import OpVerifier
from netplay.mesh import BUSY_REASON
from netplay.peerfile import peers_path
from netplay.session import (LanSession, SessionOptions, browse_tables, find_table,
                             load_identity, probe_table_id, save_identity)
from table.core import actions as act
from table.core.errors import CoreError
from table.core.logfile import LogError, LogReader, LogWriter, make_header
from table.core.replica import Replica
from table.core.watchers import is_watcher
from table.games.model import Deck
from table.games.position import Position
from table.games.position_table import finish as position_finish
from table.games.position_table import lan_begin, lan_seat
from table.games.module import GameModule
from table.games.record import record_decks, record_module
from table.games.store import module_for as recorded_module_of
from table.lan_modules import (ModuleFollower, ModuleTransferError, blob_lookup, keep_in_log,
                               obtain_module)
from table.games.registry import ModuleNotFound, find_module
from table.games.setup import default_decks, lay_out, run_steps
from table.games.steps import SetFace, SetupStep

log = logging.getLogger(__name__)


class LanError(Exception):
    """Hosting or joining failed; the message is for the player."""


class NobodyFound(LanError):
    """Rejoining: discovery found no other peer of the table (a HOST:PORT may still work)."""


@dataclass
class LanTable:
    session: LanSession
    replica: Replica
    module: GameModule | None = None
    seats: int = 0
    table_name: str = ""
    tasks: set[asyncio.Task[Any]] = field(default_factory=set)
    position: Position | None = None  # the table starts from this position (docs/positions.md)
    modules: ModuleFollower | None = None
    # told when the table moved to another module (a draft changed during play)
    on_module: Callable[[GameModule], None] | None = None

    def module_changed(self, module: GameModule) -> None:
        self.module = module
        if self.on_module is not None:
            self.on_module(module)

    async def close(self, graceful: bool = True) -> None:
        if self.modules is not None:
            self.modules.close()
        for task in list(self.tasks):
            task.cancel()
        await self.session.stop(graceful)
        self.replica.close()


# ------------------------------------------------------------------ reading the table's marks
def _setup_marks(r: Replica, value: str) -> list[Any]:
    return [rec.op for rec in r.records()
            if rec.op.kind == "mark" and rec.void is None and rec.op.args.get("what") == "setup"
            and rec.op.args.get("value") == value]


def table_info(r: Replica) -> dict[str, Any] | None:
    marks = _setup_marks(r, "table")
    return dict(marks[0].args.get("fields") or {}) if marks else None


def ready_seats(r: Replica) -> dict[int, dict[str, str]]:
    """Seat -> public deck headers, for every seat whose player finished its setup."""
    out: dict[int, dict[str, str]] = {}
    for op in _setup_marks(r, "ready"):
        seat = op.args.get("seat")
        held = r.state.seats.get(seat) if isinstance(seat, int) else None
        if held is not None and held.peer == op.author:
            deck = (op.args.get("fields") or {}).get("deck") or {}
            out[seat] = {str(k): str(v) for k, v in deck.items()}
    return out


def setup_complete(r: Replica) -> bool:
    """The LAN setup is over: the game's setup, or a start from a position (even a pending one:
    its players then finish the game's setup themselves)."""
    return bool(_setup_marks(r, "complete") or _setup_marks(r, "position-end"))


def record_note(r: Replica) -> str:
    """What a player is told on joining about the end-of-game record (empty if nothing)."""
    info = table_info(r) or {}
    if info.get("record_to_watchers") is False:
        return ""
    return ("at the end of the game (or when you leave the table), your peer sends your secrets "
            "(your hidden cards, deck list) to the table's watchers, if any")


def _public_deck(headers: dict[str, str]) -> Deck:
    return Deck(name=headers.get("name", ""), file="", headers=headers, sections={})


# ------------------------------------------------------------------ the steps
def host_layout(r: Replica, module: GameModule, seats: int, table_name: str,
                settings: dict[str, Any] | None = None) -> None:
    act.mark(r, "setup", value="table", fields={
        "game": module.id, "game_hash": module.content_hash, "seats": seats,
        "name": table_name, "module_version": module.version, **(settings or {})})
    record_module(r, module)
    lay_out(r, module, seats, None, only_seats=set(), shared=True, conditional=False)


def _reveal_at(steps: tuple[SetupStep, ...]) -> int:
    """Index of the game's simultaneous reveal (a shared SetFace), or len(steps) if none."""
    for i, step in enumerate(steps):
        if isinstance(step, SetFace) and step.seat is None:
            return i
    return len(steps)


def has_reveal(module: GameModule, seats: int) -> bool:
    steps = module.setup_for(seats, None)
    return _reveal_at(steps) < len(steps)


def seat_setup(r: Replica, module: GameModule, seats: int, seat: int, deck: Deck | None) -> None:
    """Lay out one seat's objects and run its steps up to the reveal, on that seat's own peer."""
    decks = {seat: deck} if deck is not None else {}
    record_decks(r, module, decks)
    lay_out(r, module, seats, decks, only_seats={seat}, shared=False)
    steps = module.setup_for(seats, decks)
    for step in steps[:_reveal_at(steps)]:
        if step.seat == seat:
            run_steps(r, [step], seats={seat}, shared=False)
    act.mark(r, "setup", value="ready", for_seat=seat,
             fields={"deck": dict(deck.headers) if deck is not None else {}})


def seat_reveal(r: Replica, module: GameModule, seats: int, seat: int) -> None:
    """After every seat is ready: turn up this seat's cards together, then its later steps."""
    headers = ready_seats(r).get(seat, {})
    decks = {seat: _public_deck(headers)}  # later steps need only header-named cards (Leader)
    steps = module.setup_for(seats, decks)
    for step in steps[_reveal_at(steps):]:
        if isinstance(step, SetFace) and step.seat is None:
            for zone_id in step.zones:  # a shared reveal: each owner turns its own cards
                zone = r.state.live(zone_id)
                for card_id in list(zone.children) if zone is not None else []:
                    card = r.state.objs[card_id]
                    if card.kind == "card" and card.owner == seat:
                        act.flip(r, card_id, step.face_up, seat=seat)
        elif step.seat == seat:
            run_steps(r, [step], seats={seat}, shared=False)
    act.mark(r, "setup", value="revealed", for_seat=seat)


def revealed_seats(r: Replica) -> set[int]:
    return {op.args["seat"] for op in _setup_marks(r, "revealed")
            if isinstance(op.args.get("seat"), int)}


def host_finish(r: Replica, module: GameModule, seats: int) -> None:
    """The shared rest of the setup, once every seat is ready (and revealed)."""
    decks = {s: _public_deck(h) for s, h in ready_seats(r).items()}
    lay_out(r, module, seats, decks, only_seats=set(), shared=True, conditional=True)
    for step in module.setup_for(seats, decks):
        if step.seat is None and not isinstance(step, SetFace):
            try:
                run_steps(r, [step], seats=set(), shared=True)
            except (CoreError, ValueError) as err:
                log.warning("shared setup step %s skipped: %s", type(step).__name__, err)
    act.mark(r, "setup", value="complete")


async def _finish_when_ready(t: LanTable) -> None:
    """The host's side of the setup: call the reveal, then finish."""
    assert t.module is not None
    reveal = has_reveal(t.module, t.seats)
    while not setup_complete(t.replica):
        if len(ready_seats(t.replica)) >= t.seats:
            if not reveal or len(revealed_seats(t.replica)) >= t.seats:
                host_finish(t.replica, t.module, t.seats)
                log.info("every seat is ready: setup complete")
                return
            if not _setup_marks(t.replica, "reveal"):
                act.mark(t.replica, "setup", value="reveal")
        await asyncio.sleep(0.1)


async def _reveal_when_called(t: LanTable, seat: int) -> None:
    """A seat's side of a simultaneous reveal: wait for the call, then turn up its cards."""
    assert t.module is not None
    if not has_reveal(t.module, t.seats):
        return
    while seat not in revealed_seats(t.replica) and not setup_complete(t.replica):
        if _setup_marks(t.replica, "reveal"):
            seat_reveal(t.replica, t.module, t.seats, seat)
            return
        await asyncio.sleep(0.05)


async def take_seat(t: LanTable, seat: int, deck: Deck | None = None, name: str = "",
                    settle: float = 0.5) -> None:
    """Claim a seat and set it up (unless this peer already did, e.g. after a restart)."""
    r = t.replica
    assert t.module is not None
    if is_watcher(r.state, r.peer_id):
        raise LanError("a watcher takes no seat")
    if not 1 <= seat <= t.seats:
        raise LanError(f"this table has seats 1 to {t.seats}")
    held = r.state.seats.get(seat)
    if held is not None and held.peer != r.peer_id:
        raise LanError(f"seat {seat} is taken")
    if held is None:
        colour = t.module.seats[seat - 1].colour if seat <= len(t.module.seats) else None
        r.issue("seat", {"seat": seat, "name": name or f"Seat {seat}", "colour": colour})
        # Two players may claim a seat at once: the first in canonical order wins. Let the
        # other peers' concurrent ops arrive before relying on it.
        loop = asyncio.get_running_loop()
        deadline = loop.time() + settle
        while loop.time() < deadline and not t.session.synced_with_all():
            await asyncio.sleep(0.02)
        held = r.state.seats.get(seat)
        if held is None or held.peer != r.peer_id:
            raise LanError(f"seat {seat} was taken by another player at the same moment")
    if seat not in ready_seats(r) and t.position is not None:
        lan_seat(r, t.position, seat)  # this seat's hidden cards, from this peer's file
        headers = t.position.decks[seat].headers if seat in t.position.decks else {}
        act.mark(r, "setup", value="ready", for_seat=seat, fields={"deck": dict(headers)})
        return
    if seat not in ready_seats(r):
        if deck is None:
            deck = default_decks(t.module, t.seats).get(seat)
        seat_setup(r, t.module, t.seats, seat, deck)
    _spawn(t, _reveal_when_called(t, seat))


# ------------------------------------------------------------------ hosting and joining
def _new_identity(log_path: str | Path) -> Identity:
    identity = Identity.generate()
    save_identity(identity, log_path)
    return identity


async def host(module: GameModule, *, table_name: str, seats: int, log_path: str | Path,
               options: SessionOptions | None = None,
               position: Position | None = None, watchers: bool = True,
               record_to_watchers: bool = True) -> LanTable:
    """Start a table: announce it, lay it out, and finish the setup once every seat is ready.
    A log that exists is resumed (a host restarting after a crash). With a `position`, the
    table starts in it: the host places the public part, each seat's peer its hidden cards.
    `watchers`: the table takes watchers; `record_to_watchers`: each player's peer sends its
    secrets to the watchers at the end of the game (both are announced in the layout mark)."""
    settings = {"watchers": watchers, "record_to_watchers": record_to_watchers}
    try:
        module.check_seats(seats)
    except ValueError as err:
        raise LanError(str(err)) from None
    opts = options or SessionOptions()
    opts.table_name, opts.game, opts.seats = table_name, module.id, seats
    opts.watchers = watchers  # announced from the start (and in the layout mark)
    path = Path(log_path)
    opts.peers_file = str(peers_path(path))
    if path.exists() and path.stat().st_size > 0:
        # A host restarting from its log: the same rejoin as Resume (it redials the peers
        # its log and address file name, and finds them by mDNS too).
        return await _resume(path, opts, host_role=True)
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
    _follow_modules(t)
    if position is not None:
        act.mark(replica, "setup", value="table", fields={
            "game": module.id, "game_hash": module.content_hash, "seats": seats,
            "name": table_name, "module_version": module.version,
            "position": {"name": position.name, "digest": position.digest}, **settings})
        lan_begin(replica, position)
        _spawn(t, _finish_position_when_ready(t))
        return t
    host_layout(replica, module, seats, table_name, settings)
    _spawn(t, _finish_when_ready(t))
    return t


async def _finish_position_when_ready(t: LanTable) -> None:
    """Once every seat's peer made its hidden cards: setup complete, the turn, the end marker."""
    assert t.position is not None
    while len(ready_seats(t.replica)) < t.seats:
        await asyncio.sleep(0.1)
    position_finish(t.replica, t.position, as_seat=False)


async def resolve(*, table: str | None = None, connect: str | None = None,
                  interfaces: list[str] | None = None, timeout: float = 10.0
                  ) -> tuple[str, list[tuple[str, int]], str]:
    """(table id, addresses to dial, table name) from a table name (discovery) or host:port."""
    if connect:
        host_, _, port_text = connect.rpartition(":")
        if not host_ or not port_text.isdigit():
            raise LanError(f"cannot read {connect!r}: expected HOST:PORT")
        table_id = await _probe_retrying(host_, int(port_text), timeout)
        return table_id, [(host_, int(port_text))], ""
    if not table:
        raise LanError("name a table or give HOST:PORT")
    listing = await find_table(table, interfaces, timeout)
    if listing is None:
        raise LanError(f"no table named {table!r} found on the LAN (try HOST:PORT)")
    return listing.table_id, [(p.host, p.port) for p in listing.peers], listing.name


async def _probe_retrying(host_: str, port: int, timeout: float) -> str:
    """The table id at host:port; a busy table is asked again until ``timeout``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    delay = 0.3
    while True:
        try:
            return await probe_table_id(host_, port, max(0.5, min(timeout, deadline - loop.time())))
        except Exception as err:
            if _busy(str(err)) and loop.time() + delay < deadline:
                log.warning("the table is busy, retrying")
                await asyncio.sleep(delay)
                delay = min(2.0, delay * 2)
                continue
            if _busy(str(err)):
                raise LanError(f"the table at {host_}:{port} stayed busy; try again") from None
            raise LanError(f"no table answers at {host_}:{port}: {err}") from None


async def join(*, log_path: str | Path, table: str | None = None, connect: str | None = None,
               options: SessionOptions | None = None, timeout: float = 15.0,
               listed: tuple[str, list[tuple[str, int]], str] | None = None,
               position: Position | None = None,
               progress: Callable[[str], None] | None = None) -> LanTable:
    """Join a table by name or host:port and catch up. A log that exists is resumed.
    ``listed`` = (table id, addresses, name) of a table a browser already listed;
    ``progress`` hears how the transfer of the table's module goes, when it needs one."""
    opts = options or SessionOptions()
    path = Path(log_path)
    opts.peers_file = str(peers_path(path))
    if listed is not None:
        table_id, addresses, name = listed
    else:
        table_id, addresses, name = await resolve(table=table, connect=connect,
                                                  interfaces=opts.interfaces, timeout=timeout)
    if path.exists() and path.stat().st_size > 0:
        t = await _resume(path, opts, addresses=addresses)
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
        await _dial(t, addresses, timeout)
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
        _follow_modules(t)
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


def _follow_modules(t: LanTable) -> None:
    """Serve the table's modules to others, and fetch each new one the table moves to."""
    t.session.blobs.server.lookup = blob_lookup(t.replica)
    t.modules = ModuleFollower(t.replica, t.session.blobs, on_module=t.module_changed,
                               report=lambda text: log.info("%s", text))


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
    writer = LogWriter(path, make_header(replica.table_id, replica.peer_id, module.id,
                                         module.content_hash, **replica.header_extra))
    for op in replica.store.all_ops():
        writer.append(op.to_wire())
    replica.log = writer


def _busy(reason: str | None) -> bool:
    return bool(reason) and BUSY_REASON in str(reason)


async def _dial(t: LanTable, addresses: list[tuple[str, int]], timeout: float) -> None:
    if not addresses:
        raise LanError("could not join the table (no address)")
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    delay = 0.3
    while True:
        for host_, port in addresses:
            if await t.session.connect(host_, port) or t.session.mesh.peers():
                return
        failures = [t.session.mesh.dial_failures.get(a) for a in addresses]
        if not any(_busy(f) for f in failures) or loop.time() + delay > deadline:
            break
        # A busy table (its handshake slots are full) is there: wait and try again.
        log.warning("the table is busy, retrying")
        await asyncio.sleep(delay)
        delay = min(2.0, delay * 2)
    # Did the table answer at all? Then the handshake failed: the passphrase.
    for host_, port in addresses:
        try:
            await probe_table_id(host_, port, min(timeout, 3.0))
        except Exception:
            continue
        if t.session.options.passphrase:
            raise LanError("could not join the table: wrong passphrase")
        raise LanError("could not join the table: it needs a passphrase")
    raise LanError("could not join the table: it is gone (no answer at "
                   + ", ".join(f"{h}:{p}" for h, p in addresses) + ")")


async def _wait_table_info(t: LanTable, timeout: float) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        info = table_info(t.replica)
        if info is not None and await t.session.wait_caught_up(0):
            return info
        if loop.time() > deadline:
            waiting = t.session.replication.waiting_for()
            raise LanError(f"could not join: still waiting for {waiting}" if waiting
                           else "the table did not send its layout in time")
        await asyncio.sleep(0.05)


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
                 timeout: float = 8.0, addresses: list[tuple[str, int]] | None = None
                 ) -> LanTable:
    """Get back into a LAN game after a crash (or a closed window), from this peer's log.

    Same peer id and key (``<log>.key``); this peer hosts again if it issued the table's
    ``mark setup "table"``. Without ``addresses`` the other peers of the table are found by
    its table id through discovery (every peer of a table announces it); then they are
    dialled, this peer catches up (up to ``timeout``) and announces the table again.
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
    if not addresses:
        addresses = await _find_others(table_id, me, opts.interfaces, timeout)
        if not addresses:
            raise NobodyFound(f"nobody else of table {shown!r} is on the LAN; "
                           "ask another player for their HOST:PORT")
    t = await _resume(path, opts, host_role=host_role)
    try:
        await _dial(t, addresses, timeout)
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


async def _resume(path: Path, opts: SessionOptions, *, host_role: bool = False,
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
    _follow_modules(t)
    if addresses:
        for host_, port in addresses:
            if await session.connect(host_, port):
                break
    if not setup_complete(replica):
        if host_role and (table_info(replica) or {}).get("position"):
            log.warning("this table was starting from a position when its host stopped: "
                        "finish it by hand (mark setup complete) or start it again")
        elif host_role:
            _spawn(t, _finish_when_ready(t))
        for seat in sorted(s for s, held in replica.state.seats.items()
                           if held.peer == replica.peer_id):
            _spawn(t, _reveal_when_called(t, seat))
    log.info("resumed %s: %d ops from the log", path, sum(replica.version_vector().values()))
    return t


def _spawn(t: LanTable, coro: Any) -> None:
    task = asyncio.ensure_future(coro)
    t.tasks.add(task)
    task.add_done_callback(t.tasks.discard)


def module_for(game: str) -> GameModule:
    try:
        return find_module(game)
    except ModuleNotFound:
        raise LanError(f"no game module {game!r} (see `sandtable games`)") from None
