"""A LAN player in its own process for the long-session test: hosts or joins a table (Gauntlet
by default) on 127.0.0.1, takes its seat, shuffles its deck jointly N times (one after the
other), waits until every seat has, then (the host) ends the game, so every peer publishes
its record, and leaves when stdin closes.

Prints ``PORT n`` (the host), ``SHUFFLED <card secrets it knows>`` and ``PUBLISHED``; errors
go to stderr.
"""
from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from netplay_testkit import FAST_MESH, LOOPBACK, wait_until

from netplay.session.lan_session import SessionOptions
from table import lan
from table.core import actions as act
from table.core.audit import audit_replica


def out(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def joint_play_shuffles(t: lan.LanTable, seat: int | None = None) -> int:
    ops = [rec.op for rec in t.replica.records() if rec.op.kind == "consume"
           and rec.op.args.get("why") == "shuffle" and rec.op.args.get("fair")
           and (seat is None or rec.op.seat == seat)]
    return len(ops)


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--join", type=int, default=0, help="the host's port")
    parser.add_argument("--seat", type=int, required=True)
    parser.add_argument("--seats", type=int, required=True)
    parser.add_argument("--shuffles", type=int, required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--game", default="gauntlet")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    options = SessionOptions(interfaces=[LOOPBACK], announce=False, passphrase="pw",
                             mesh=FAST_MESH)
    if args.join:
        t = await lan.join(log_path=args.log, connect=f"{LOOPBACK}:{args.join}",
                           options=options, timeout=30)
    else:
        t = await lan.host(lan.module_for(args.game), table_name="long",
                           seats=args.seats, log_path=args.log, options=options)
        out(f"PORT {t.session.port}")
    t.replica.subscribe_reports(lambda m: print(f"report: {m}", file=sys.stderr))
    await lan.take_seat(t, args.seat)
    assert await wait_until(lambda: lan.setup_complete(t.replica), 60), "setup incomplete"
    seat, deck = args.seat, f"p{args.seat}.deck"
    base = joint_play_shuffles(t, seat)  # the setup's
    for n in range(1, args.shuffles + 1):
        assert act.shuffle(t.replica, deck, seat=seat) is None  # drawn jointly
        assert await wait_until(lambda n=n: joint_play_shuffles(t, seat) >= base + n, 30), n
    every = args.seats * (args.shuffles + 1)
    assert await wait_until(lambda: joint_play_shuffles(t) >= every, 120), "others' shuffles"
    out(f"SHUFFLED {len(t.replica.knowledge.cards)}")  # the secrets its record will hold
    if not args.join:
        act.end_game(t.replica, [1], "victory", seat=seat)  # every peer publishes
    assert await wait_until(lambda: not audit_replica(t.replica).unverifiable, 60), \
        audit_replica(t.replica).summary()
    out("PUBLISHED")
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    await t.close()


if __name__ == "__main__":
    asyncio.run(main())
