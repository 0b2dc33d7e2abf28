"""`sandtable tables`, `sandtable host`, `sandtable join`: LAN play from the command line.

Headless peers for playtests with scripted players, tests and demos. `--interfaces` defaults
to every interface (the product default); tests and demos pass 127.0.0.1.

Both `host` and `join` run until SIGTERM/SIGINT (or, with --exit-after-script, until their
script is done and the table has settled), then leave the table cleanly with the log complete.
With --print-hash-on-exit, or when stopped by SIGTERM, the last line they print is the public
state hash. With --status they print `STATUS <ops> <hash> <linked peers> <seats>` whenever
that changes, and `PEER <peer id> <status>` when another peer's link status changes
("reconnecting" when its link is lost and being redialled, "back" once relinked, "gone" when
it left the table).
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import signal
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("tables", help="list the tables announced on the LAN",
                       description="Listen for tables announced over mDNS on the LAN and list "
                                   "them: name, game, seats taken and free, peers' addresses.")
    p.add_argument("--interfaces", help="comma-separated IPs to use (default: all)")
    p.add_argument("--wait", type=float, default=2.0, help="seconds to listen (default 2)")
    p.add_argument("--json", action="store_true", help="one JSON object per table")
    p.set_defaults(handler=cmd_tables)

    p = sub.add_parser("host", help="host a LAN table",
                       description="Host a LAN table as a headless peer (no window: scripted "
                                   "players, tests, demos); to host with a window, use the "
                                   "start screen's Host button. Runs until stopped.")
    p.add_argument("--headless", action="store_true",
                   help="run without a window (accepted for clarity: this command always does)")
    p.add_argument("--game", help="game module id (or --position, or --module)")
    p.add_argument("--module", metavar="PATH",
                   help="play a draft from this module folder; its edits reach every peer "
                        "while the table is open (docs/game-module.md)")
    p.add_argument("--table", required=True, help="table name shown on the LAN")
    p.add_argument("--seats", type=int, help="number of seats (default: the game's minimum)")
    p.add_argument("--seat", type=int, help="also play this seat")
    p.add_argument("--no-watchers", action="store_true",
                   help="refuse watchers (peers who join with no seat); announced with the table")
    p.add_argument("--local-draws", action="store_true",
                   help="let players roll and shuffle alone while others are linked (not "
                        "flagged, not audited); announced in the table's layout and at join")
    p.add_argument("--no-record-to-watchers", action="store_true",
                   help="players' peers do not send their secrets to the watchers at the end "
                        "of the game (default: they do)")
    _common(p)
    p.set_defaults(handler=cmd_host)

    p = sub.add_parser("join", help="join a LAN table",
                       description="Join a LAN table, found by name over mDNS or at an address, "
                                   "as a headless peer (no window) for a seat or as a watcher; "
                                   "to join with a window, use the start screen's Join button.")
    p.add_argument("--headless", action="store_true",
                   help="run without a window (accepted for clarity: this command always does)")
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--table", help="table name (found by mDNS)")
    where.add_argument("--connect", metavar="HOST:PORT", help="a peer's address")
    where.add_argument("--ticket", help="a ticket `host --internet` printed (internet play)")
    p.add_argument("--seat", type=int, help="the seat to play")
    p.add_argument("--watch", action="store_true",
                   help="watch the table: no seat, the public table live, chat and notes only")
    p.add_argument("--timeout", type=float, default=15.0, help="seconds to find and join")
    _common(p)
    p.set_defaults(handler=cmd_join, module=None)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--passphrase", help="the table's passphrase")
    p.add_argument("--interfaces", help="comma-separated IPs to use (default: all)")
    p.add_argument("--log", required=True, help="this peer's log file (resumed if it exists)")
    p.add_argument("--name", default="", help="player name")
    p.add_argument("--deck", help="deck list file for your seat (default: a starter deck)")
    p.add_argument("--position", metavar="FILE",
                   help="start the table from this position (host); every player joins with "
                        "the same file, from which their peer makes their own hidden cards")
    p.add_argument("--script", help="JSON Lines of ops to play (optional 'after': seconds)")
    p.add_argument("--print-hash-on-exit", action="store_true",
                   help="print the public state hash as the last line when leaving")
    p.add_argument("--status", action="store_true", help="print STATUS lines on change")
    p.add_argument("--exit-after-script", type=float, metavar="S", default=None,
                   help="leave S seconds after the script is done and the table has settled")
    p.add_argument("--port", type=int, default=0, help="TCP port to listen on (default: any)")
    p.add_argument("--allow-requests", choices=("always", "never"), default="always",
                   help="perform other players' requests on your seat's hidden piles "
                        "(draw, move, shuffle); a headless peer is a scripted player: always "
                        "by default")
    p.add_argument("--no-announce", action="store_true", help="do not announce over mDNS")
    p.add_argument("--fast", action="store_true",
                   help="short heartbeats and hash checks (tests)")
    p.add_argument("--internet", action="store_true",
                   help="open an internet endpoint beside the LAN listener and print one line "
                        "TICKET <ticket> that invites to this table (docs/internet-play.md)")
    p.add_argument("--relay", default=os.environ.get("SANDTABLE_RELAY", "").strip() or "default",
                   metavar="default|URL|off", type=_relay,
                   help="internet play: n0's public relays (default, or SANDTABLE_RELAY), your "
                        "own iroh-relay's URL, or off (direct paths only: no relay, no "
                        "discovery service)")
    p.add_argument("--quic-port", type=int, default=0,
                   help="internet play: UDP port of this peer's endpoint (default: one derived "
                        "from its identity, the same after a restart; any free one if taken)")
    p.add_argument("--external-addr", action="append", default=[], metavar="IP:PORT",
                   help="internet play: where the internet reaches this endpoint (a router's "
                        "port mapping to --quic-port); put in the ticket")


def _relay(text: str) -> str:
    if text in ("default", "off") or text.startswith(("https://", "http://")):
        return text
    raise argparse.ArgumentTypeError(f"{text!r}: expected default, off or a relay's URL "
                                     "(https://...)")


def _interfaces(text: str | None) -> list[str] | None:
    if not text:
        return None
    return [part.strip() for part in text.split(",") if part.strip()]


def _out(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


# ------------------------------------------------------------------ tables
def cmd_tables(args: argparse.Namespace) -> int:
    from netplay.discovery.listing import safe_text
    from netplay.discovery.table_search import browse_tables

    tables = asyncio.run(browse_tables(_interfaces(args.interfaces), args.wait))
    if not tables:
        print("no tables found (mDNS may be blocked: join with --connect HOST:PORT)")
        return 0
    for t in tables:
        peers = " ".join(f"{p.host}:{p.port}" for p in t.peers)
        if args.json:
            print(json.dumps({"name": safe_text(t.name), "table_id": t.table_id, "game": t.game,
                              "players": t.players, "free_seats": t.free_seats,
                              "passphrase": t.passphrase_needed, "local_draws": t.local_draws,
                              "peers": peers.split()}))
        else:
            lock = " (passphrase)" if t.passphrase_needed else ""
            draws = " (local draws)" if t.local_draws else ""
            print(f"{safe_text(t.name)}  {safe_text(t.game)}  {t.players} seated, "
                  f"{t.free_seats} free{lock}{draws}  {peers}")
    return 0


# ------------------------------------------------------------------ host / join
def _options(args: argparse.Namespace) -> Any:
    from netplay.link.link import LinkConfig
    from netplay.mesh.mesh import MeshConfig
    from netplay.replication.replication import ReplicationConfig
    from netplay.session.lan_session import SessionOptions

    opts = SessionOptions(passphrase=args.passphrase, interfaces=_interfaces(args.interfaces),
                          port=getattr(args, "port", 0) or 0, announce=not args.no_announce,
                          player_name=args.name, allow_requests=args.allow_requests)
    if args.fast:
        opts.mesh = MeshConfig(link=LinkConfig(heartbeat_interval=0.5, dead_after=3.0,
                                               handshake_timeout=5.0, connect_timeout=3.0),
                               gossip_interval=1.0, dial_grace=0.3)
        opts.replication = ReplicationConfig(hash_interval=0.5)
    from netplay.discovery.peerfile import played_over_internet

    if getattr(args, "internet", False) or getattr(args, "ticket", None) \
            or played_over_internet(args.log):  # a restart redials its peers' tickets
        from netplay.link.quic import QuicSettings

        interfaces = _interfaces(args.interfaces)
        opts.mesh = replace(opts.mesh, quic=QuicSettings(
            relay=args.relay, bind_host=interfaces[0] if interfaces else "0.0.0.0",
            port=args.quic_port, external=tuple(args.external_addr)))
    return opts


def cmd_host(args: argparse.Namespace) -> int:
    return _run(args, hosting=True)


def cmd_join(args: argparse.Namespace) -> int:
    return _run(args, hosting=False)


def _run(args: argparse.Namespace, hosting: bool) -> int:
    from table.core.gc_tuning import tune_gc

    tune_gc()
    try:
        return asyncio.run(_main(args, hosting))
    except KeyboardInterrupt:
        return 130


async def _main(args: argparse.Namespace, hosting: bool) -> int:
    from table import lan

    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    got_term = False

    def on_term() -> None:
        nonlocal got_term
        got_term = True
        stop.set()

    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, on_term)

    opts = _options(args)
    opts.watch = bool(getattr(args, "watch", False))
    if opts.watch and args.seat:
        print("error: a watcher takes no seat (--watch or --seat, not both)", file=sys.stderr)
        return 2
    position = None
    if args.position:
        from table.games.position import PositionError, read_position

        try:
            position = read_position(args.position)
        except PositionError as err:
            print(str(err), file=sys.stderr)
            return 2
    try:
        if hosting and position is not None:
            t = await lan.host(position.module, table_name=args.table, seats=position.seats,
                               log_path=args.log, options=opts, position=position,
                               watchers=not args.no_watchers,
                               record_to_watchers=not args.no_record_to_watchers,
                               local_draws=args.local_draws)
        elif hosting:
            if not args.game and not args.module:
                print("error: host needs --game (or --position, or --module)", file=sys.stderr)
                return 2
            module = _draft(args.module) if args.module else \
                lan.module_for(args.game)
            if module is None:
                return 2
            seats = args.seats or _min_seats(module)
            t = await lan.host(module, table_name=args.table, seats=seats, log_path=args.log,
                               options=opts, watchers=not args.no_watchers,
                               record_to_watchers=not args.no_record_to_watchers,
                               local_draws=args.local_draws)
        else:
            t = await lan.join(log_path=args.log, table=args.table, connect=args.connect,
                               ticket=args.ticket, options=opts, timeout=args.timeout, position=position,
                               progress=lambda text: print(f"module: {text}", file=sys.stderr))
    except lan.LanError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    _out(f"TABLE {t.replica.table_id} {t.session.port} {t.session.peer_id}")
    if t.ticket is not None:
        _out(f"TICKET {t.ticket}")
    t.replica.subscribe_reports(_print_report)
    if lan.draws_note(t.replica):
        print(f"note: {lan.draws_note(t.replica)}", file=sys.stderr)
    if not opts.watch and lan.record_note(t.replica):
        print(f"note: {lan.record_note(t.replica)}", file=sys.stderr)
    status_task = asyncio.ensure_future(_status_loop(t)) if args.status else None
    if hosting and args.module and t.module is not None:
        watch_task: asyncio.Future[None] | None = asyncio.ensure_future(
            _watch_draft(t, Path(args.module)))
    else:
        watch_task = None
    code = 0
    try:
        if args.seat:
            deck = None
            if args.deck:
                from table.games.decks import load_deck

                if t.module is None:
                    raise lan.LanError("the table's module is not known yet")
                deck = load_deck(t.module, Path(args.deck))
            await lan.take_seat(t, args.seat, deck, name=args.name)
            _out(f"SEATED {args.seat}")
        if args.script:
            # Play once every seat is set up (the script may touch any player's objects).
            while not lan.setup_complete(t.replica) and not stop.is_set():
                await asyncio.sleep(0.05)
            script_task = asyncio.ensure_future(_play_script(t, Path(args.script), args.seat))
            waiter = asyncio.ensure_future(stop.wait())
            await asyncio.wait({script_task, waiter}, return_when=asyncio.FIRST_COMPLETED)
            waiter.cancel()
            if script_task.done():
                problems = script_task.result()
                _out(f"SCRIPT DONE {problems}")
                if args.exit_after_script is not None and not stop.is_set():
                    await _settle(t, stop)
                    with contextlib.suppress(asyncio.TimeoutError):
                        await asyncio.wait_for(stop.wait(), args.exit_after_script)
                    stop.set()
            else:
                script_task.cancel()
        await stop.wait()
    except lan.LanError as err:
        print(f"error: {err}", file=sys.stderr)
        code = 2
    finally:
        for task in (status_task, watch_task):
            if task is not None:
                task.cancel()
        for report in t.session.divergences:
            print(f"divergence: {report}", file=sys.stderr)
        digest = t.replica.public_state_hash()
        await t.close(graceful=True)
    if args.print_hash_on_exit or got_term:
        _out(digest)
    return code


def _print_report(message: str) -> None:
    if "DIVERGENCE" not in message:  # divergences are listed when the peer leaves
        print(f"report: {message}", file=sys.stderr)


def _draft(folder: str) -> Any:
    """The draft module in a folder, or None after printing its problems (file:line)."""
    from table.games import ModuleError, load_module

    try:
        return load_module(Path(folder))
    except ModuleError as err:
        print(str(err), file=sys.stderr)
        return None


async def _watch_draft(t: Any, folder: Path) -> None:
    """Live reload: a settled edit of the draft goes into the log and so to every peer."""
    from table.games.watch import Broken, DraftWatcher, Refused, Reloaded

    watcher = DraftWatcher(t.replica, t.module, folder)
    while True:
        await asyncio.sleep(0.05)  # a stat per file: cheap enough to look often
        event = watcher.poll()
        if isinstance(event, Reloaded):
            t.module = event.change.new
            print(f"module: updated to {event.change.describe()}", file=sys.stderr)
            for warning in event.warnings:
                print(f"module: warning: {warning}", file=sys.stderr)
        elif isinstance(event, Broken):
            print("module: the draft has errors; nothing changed:\n  "
                  + "\n  ".join(event.problems), file=sys.stderr)
        elif isinstance(event, Refused):
            print("module: the table cannot take this version; nothing changed: "
                  + "; ".join(event.reasons), file=sys.stderr)


def _min_seats(module: Any) -> int:
    return int(module.players.min)


async def _settle(t: Any, stop: asyncio.Event, timeout: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline and not stop.is_set():
        if t.session.synced_with_all():
            return
        await asyncio.sleep(0.05)


async def _status_loop(t: Any) -> None:
    last = None
    peers: dict[str, str] = {}
    while True:
        for info in t.session.peer_list():
            status = "connected" if info.status == "catching up" else info.status
            if info.status != "me" and peers.get(info.peer_id, "gone") != status:
                if status != "connected" or peers.get(info.peer_id) in ("reconnecting", "back"):
                    _out(f"PEER {info.peer_id} {status}")
                peers[info.peer_id] = status
        r = t.replica
        state = (sum(r.version_vector().values()), r.public_state_hash(), len(t.session.mesh.peers()),
                 ",".join(str(s) for s in sorted(r.state.seats)))
        if state != last:
            _out(f"STATUS {state[0]} {state[1]} {state[2]} {state[3] or '-'}")
            last = state
        await asyncio.sleep(0.1)


async def _play_script(t: Any, path: Path, my_seat: int | None) -> int:
    """Perform a JSON Lines script; returns how many lines failed (each is reported)."""
    from table.app.commands.log import _namer

    namer = _namer(t.replica)
    failures = 0
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            entry = json.loads(line)
        except json.JSONDecodeError as err:
            print(f"{path}:{number}: not JSON: {err}", file=sys.stderr)
            failures += 1
            continue
        if not isinstance(entry, dict):
            print(f"{path}:{number}: each line must be a JSON object", file=sys.stderr)
            failures += 1
            continue
        after = entry.pop("after", 0)
        if isinstance(after, (int, float)) and after > 0:
            await asyncio.sleep(float(after))
        if my_seat is not None:
            entry.setdefault("seat", my_seat)
        ok, error = await _perform(t, entry, namer)
        if not ok:
            failures += 1
            print(f"{path}:{number}: {error}", file=sys.stderr)
        await asyncio.sleep(0)  # let the network breathe between ops
    return failures


async def _perform(t: Any, entry: dict[str, Any], namer: Any) -> tuple[bool, str]:
    """Perform one entry here, or ask the owner of the hidden pile it takes from."""
    from table.core import actions, jsonform

    try:
        jsonform.perform(t.replica, entry, namer)
        return True, ""
    except jsonform.JsonOpError as err:
        # another player's hidden pile: its owner's peer performs the entry, if they consent
        owner = actions.foreign_owner(t.replica, jsonform.source_of(t.replica, entry))
        if owner is None or t.session.options.watch:
            return False, str(err)
    request = {k: v for k, v in entry.items() if k != "seat"}
    return await t.session.request(request, owner)


