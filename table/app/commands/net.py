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
import json
import os

from .headless_peer import interfaces_arg, run
from .tagging import add_tag_options


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
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
    add_tag_options(p)
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
    p.add_argument("--bot", metavar="NAME",
                   help="play --seat with this bot (`sandtable simulate --list`) until the "
                        "game ends, then leave")
    p.add_argument("--print-hash-on-exit", action="store_true",
                   help="print the public state hash as the last line when leaving")
    p.add_argument("--status", action="store_true", help="print STATUS lines on change")
    p.add_argument("--print-ops", action="store_true",
                   help="print a line OP <author> <seq> <kind> as each op is first applied here")
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


# ------------------------------------------------------------------ tables
def cmd_tables(args: argparse.Namespace) -> int:
    from netplay.discovery.listing import safe_text
    from netplay.discovery.table_search import browse_tables

    tables = asyncio.run(browse_tables(interfaces_arg(args.interfaces), args.wait))
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
def cmd_host(args: argparse.Namespace) -> int:
    return run(args, hosting=True)


def cmd_join(args: argparse.Namespace) -> int:
    return run(args, hosting=False)
