"""A headless LAN peer (`sandtable host` / `sandtable join`): open the table, take the seat,
play the script, print STATUS and PEER lines, leave cleanly. The command line itself is
table.app.commands.net."""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import signal
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from .tagging import tag_args


def interfaces_arg(text: str | None) -> list[str] | None:
    """--interfaces: comma-separated IPs, or None for every interface."""
    if not text:
        return None
    return [part.strip() for part in text.split(",") if part.strip()]


def out(line: str) -> None:
    """A line for whoever reads this peer's stdout (tests, demos), at once."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def run(args: argparse.Namespace, hosting: bool) -> int:
    from table.core.gc_tuning import tune_gc

    tune_gc()
    try:
        return asyncio.run(_main(args, hosting))
    except KeyboardInterrupt:
        return 130


def session_options(args: argparse.Namespace) -> Any:
    """The session's options from the command line."""
    from netplay.link.link_state import LinkConfig
    from netplay.mesh.mesh import MeshConfig
    from netplay.replication.replication import ReplicationConfig
    from netplay.session.lan_session import SessionOptions

    opts = SessionOptions(passphrase=args.passphrase, interfaces=interfaces_arg(args.interfaces),
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

        interfaces = interfaces_arg(args.interfaces)
        opts.mesh = replace(opts.mesh, quic=QuicSettings(
            relay=args.relay, bind_host=interfaces[0] if interfaces else "0.0.0.0",
            port=args.quic_port, external=tuple(args.external_addr)))
    return opts


async def _main(args: argparse.Namespace, hosting: bool) -> int:
    from table import lan

    stop = asyncio.Event()
    terminated = _stop_on_signals(stop)
    opts = session_options(args)
    opts.watch = bool(getattr(args, "watch", False))
    if opts.watch and args.seat:
        print("error: a watcher takes no seat (--watch or --seat, not both)", file=sys.stderr)
        return 2
    try:
        t = await _open_table(args, opts, hosting)
    except lan.LanError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    if t is None:
        return 2
    out(f"TABLE {t.replica.table_id} {t.session.port} {t.session.peer_id}")
    if t.ticket is not None:
        out(f"TICKET {t.ticket}")
    t.replica.subscribe_reports(_print_report)
    if getattr(args, "print_ops", False):
        _print_ops(t.replica)
    if lan.draws_note(t.replica):
        print(f"note: {lan.draws_note(t.replica)}", file=sys.stderr)
    if not opts.watch and lan.record_note(t.replica):
        print(f"note: {lan.record_note(t.replica)}", file=sys.stderr)
    tasks = [asyncio.ensure_future(_status_loop(t))] if args.status else []
    if hosting and args.module and t.module is not None:
        tasks.append(asyncio.ensure_future(_watch_draft(t, Path(args.module))))
    code = 0
    try:
        await _play(t, args, stop)
    except lan.LanError as err:
        print(f"error: {err}", file=sys.stderr)
        code = 2
    finally:
        for task in tasks:
            task.cancel()
        for report in t.session.divergences:
            print(f"divergence: {report}", file=sys.stderr)
        digest = t.replica.public_state_hash()
        await t.close(graceful=True)
    if args.print_hash_on_exit or terminated():
        out(digest)
    return code


def _stop_on_signals(stop: asyncio.Event) -> Callable[[], bool]:
    """SIGTERM and SIGINT set `stop`; the returned call says whether one came."""
    loop = asyncio.get_running_loop()
    got: list[int] = []

    def on_term(sig: int) -> None:
        got.append(sig)
        stop.set()

    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, on_term, sig)
    return lambda: bool(got)


async def _open_table(args: argparse.Namespace, opts: Any, hosting: bool) -> Any:
    """The table hosted or joined, or None after printing why not."""
    from table import lan

    position = None
    if args.position:
        from table.games.position import PositionError, read_position

        try:
            position = read_position(args.position)
        except PositionError as err:
            print(str(err), file=sys.stderr)
            return None
    if not hosting:
        return await lan.join(log_path=args.log, table=args.table, connect=args.connect,
                              ticket=args.ticket, options=opts, timeout=args.timeout,
                              position=position,
                              progress=lambda text: print(f"module: {text}", file=sys.stderr))
    try:
        tags = tag_args(args)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return None
    hosted = {"table_name": args.table, "log_path": args.log, "options": opts,
              "watchers": not args.no_watchers,
              "record_to_watchers": not args.no_record_to_watchers,
              "local_draws": args.local_draws, "tags": tags}
    if position is not None:
        return await lan.host(position.module, seats=position.seats, position=position,
                              **hosted)
    if not args.game and not args.module:
        print("error: host needs --game (or --position, or --module)", file=sys.stderr)
        return None
    module = _draft(args.module) if args.module else lan.module_for(args.game)
    if module is None:
        return None
    return await lan.host(module, seats=args.seats or _min_seats(module), **hosted)


async def _play(t: Any, args: argparse.Namespace, stop: asyncio.Event) -> None:
    """Take the seat, play the script (then leave, with --exit-after-script), wait for stop."""
    from table import lan

    if args.seat:
        deck = None
        if args.deck:
            from table.games.decks import load_deck

            if t.module is None:
                raise lan.LanError("the table's module is not known yet")
            deck = load_deck(t.module, Path(args.deck))
        await lan.take_seat(t, args.seat, deck, name=args.name)
        out(f"SEATED {args.seat}")
    if getattr(args, "bot", None) and args.seat:
        await _play_bot(t, args, stop)
        return
    if args.script:
        # Play once every seat is set up (the script may touch any player's objects).
        # polled: the replica offers nothing to await for it
        while not lan.setup_complete(t.replica) and not stop.is_set():  # noqa: ASYNC110
            await asyncio.sleep(0.05)
        script_task = asyncio.ensure_future(_play_script(t, Path(args.script), args.seat))
        waiter = asyncio.ensure_future(stop.wait())
        await asyncio.wait({script_task, waiter}, return_when=asyncio.FIRST_COMPLETED)
        waiter.cancel()
        if script_task.done():
            await _draws_settled(t, stop)
            # the state holding the script's last ops is said first: a reader that has seen
            # SCRIPT DONE compares peers on it, not on a STATUS line up to a poll behind
            out(status_line(t))
            out(f"SCRIPT DONE {script_task.result()}")
            if args.exit_after_script is not None and not stop.is_set():
                await _settle(t, stop)
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(stop.wait(), args.exit_after_script)
                stop.set()
        else:
            script_task.cancel()
    await stop.wait()


async def _play_bot(t: Any, args: argparse.Namespace, stop: asyncio.Event) -> None:
    """The seat played by a bot, once every seat is set up; then leave when the game ends."""
    from table import lan
    from table.app.commands.bot_peer import play_bot

    while not lan.setup_complete(t.replica) and not stop.is_set():  # noqa: ASYNC110
        await asyncio.sleep(0.05)
    how = await play_bot(t, args.bot, args.seat, stop)
    out(f"BOT DONE {how}")
    if how == "stopped" and t.replica.state.result is None:  # taken out of its seat
        t.replica.issue("seat", {"seat": args.seat, "release": True})  # free again
    await _settle(t, stop)


def _print_ops(replica: Any) -> None:
    """OP lines: each op once, when it is first applied here (a rollback applies again)."""
    seen: set[tuple[str, int]] = {rec.op.ref for rec in replica.records()}

    def on_change(change: Any) -> None:
        for record in change.records:
            if record.op.ref not in seen:
                seen.add(record.op.ref)
                out(f"OP {record.op.author} {record.op.seq} {record.op.kind}")

    replica.subscribe(on_change)


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


async def _settle(t: Any, stop: asyncio.Event, within: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    while loop.time() < deadline and not stop.is_set():
        if t.session.synced_with_all():
            return
        await asyncio.sleep(0.05)


async def _draws_settled(t: Any, stop: asyncio.Event, timeout: float = 30.0) -> None:
    """A script's last rolls may still be joint rounds in flight: SCRIPT DONE comes once they
    are issued (or given up), so a table that has converged after it holds every draw, and a
    peer leaving then takes nothing still open with it."""
    settled = asyncio.Event()
    t.session.fair.when_settled(settled.set)
    waits = [asyncio.ensure_future(settled.wait()), asyncio.ensure_future(stop.wait())]
    _, pending = await asyncio.wait(waits, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()


async def _status_loop(t: Any) -> None:
    last = None
    peers: dict[str, str] = {}
    while True:
        for info in t.session.peer_list():
            status = "connected" if info.status == "catching up" else info.status
            if info.status != "me" and peers.get(info.peer_id, "gone") != status:
                if status != "connected" or peers.get(info.peer_id) in ("reconnecting", "back"):
                    out(f"PEER {info.peer_id} {status}")
                peers[info.peer_id] = status
        line = status_line(t)
        if line != last:
            out(line)
            last = line
        await asyncio.sleep(0.1)


def status_line(t: Any) -> str:
    """STATUS <ops held> <public state hash> <peers linked> <seats taken>."""
    r = t.replica
    seats = ",".join(str(s) for s in sorted(r.state.seats))
    return (f"STATUS {sum(r.version_vector().values())} {r.public_state_hash()} "
            f"{len(t.session.mesh.peers())} {seats or '-'}")


async def _play_script(t: Any, path: Path, my_seat: int | None) -> int:
    """Perform a JSON Lines script; returns how many lines failed (each is reported)."""
    from table.app.commands.log import _namer
    from table.app.commands.peer_entries import perform_entry

    namer = _namer(t.replica)
    failures = 0
    for number, line in enumerate((await asyncio.to_thread(path.read_text)).splitlines(), start=1):
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
        ok, error = await perform_entry(t, entry, namer)
        if not ok:
            failures += 1
            print(f"{path}:{number}: {error}", file=sys.stderr)
        await asyncio.sleep(0)  # let the network breathe between ops
    return failures
