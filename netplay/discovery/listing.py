"""A table's mDNS listing with no I/O: the TXT record a peer announces, and the checks every
announcement passes before it is listed (announcements are untrusted).

====== ===========================================
key    value
====== ===========================================
v      protocol version (decimal)
tid    table id
name   table name (at most 100 bytes)
game   game module id
pl     players seated (decimal)
free   free seats (decimal)
pw     ``1`` if the table needs a passphrase, else ``0``
pid    the announcing peer's id
watch  ``0`` if the table takes no watchers
draws  ``local`` if players may roll and shuffle alone (absent otherwise)
rev    how many times this peer republished it (decimal): each TXT differs from the earlier
       ones, so a browser's cache reports a count that returns to an earlier value
====== ===========================================

One with an unknown version, counts out of range, or malformed ids is dropped (logged at
debug); names lose their control and escape characters before anyone prints them
(:func:`safe_text`).
"""
from __future__ import annotations

import logging
import re
import unicodedata
from dataclasses import dataclass, field

from netplay.protocol.handshake import PROTOCOL_VERSION
from netplay.protocol.identity import is_valid_peer_id

log = logging.getLogger(__name__)

MAX_SEATS = 64  # announced counts beyond this are nonsense
_TABLE_ID_RE = re.compile(r"[0-9A-Za-z._-]{1,64}")
_GAME_ID_RE = re.compile(r"[0-9A-Za-z._-]{0,64}")
_ESCAPE_RE = re.compile(r"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)?|.)?")



def safe_text(text: str, limit: int = 100) -> str:
    """``text`` fit to print: terminal escape sequences and control/format characters removed
    (a name could otherwise clear the screen of whoever lists the tables)."""
    text = _ESCAPE_RE.sub("", text)
    text = "".join(ch for ch in text if unicodedata.category(ch)[0] != "C" or ch == " ")
    return " ".join(text.split())[:limit]


@dataclass(frozen=True, slots=True)
class TableAnnouncement:
    table_id: str
    table_name: str
    game: str
    peer_id: str
    port: int
    players: int = 0
    free_seats: int = 0
    passphrase_needed: bool = False
    watchers: bool = True  # the table takes watchers (peers with no seat)
    local_draws: bool = False  # players may roll and shuffle alone (docs/lan-play.md)


@dataclass(frozen=True, slots=True)
class TablePeer:
    peer_id: str
    host: str
    port: int


@dataclass(slots=True)
class TableListing:
    table_id: str
    name: str
    game: str
    players: int
    free_seats: int
    passphrase_needed: bool
    version: int
    peers: list[TablePeer] = field(default_factory=list)
    watchers: bool = True  # the host lets watchers join (absent from older announcements)
    local_draws: bool = False  # players may roll and shuffle alone, unaudited


def _truncate(text: str, limit: int) -> str:
    data = text.encode("utf-8")[:limit]
    return data.decode("utf-8", errors="ignore")


def txt_record(a: TableAnnouncement, revision: int = 0) -> dict[str, str]:
    return {
        "rev": str(revision),
        "v": str(PROTOCOL_VERSION),
        "tid": _truncate(a.table_id, 64),
        "name": _truncate(a.table_name, 100),
        "game": _truncate(a.game, 64),
        "pl": str(a.players),
        "free": str(a.free_seats),
        "pw": "1" if a.passphrase_needed else "0",
        "pid": a.peer_id,
        "watch": "1" if a.watchers else "0",
        **({"draws": "local"} if a.local_draws else {}),
    }


def read_listing(props: dict[str, str], name: str, addresses: list[str],
                 port: int) -> TableListing | None:
    """The one-peer listing an announcement makes, or None (logged at debug) if it is bad."""
    try:
        version = int(props.get("v", ""))
        players = int(props.get("pl", "0"))
        free = int(props.get("free", "0"))
    except ValueError:
        log.debug("announcement %s: a number is not a number; dropped", name)
        return None
    tid, pid, game = props.get("tid", ""), props.get("pid", ""), props.get("game", "")
    problem = (
        f"unknown protocol version {version}" if version != PROTOCOL_VERSION else
        "player counts out of range" if not (0 <= players <= MAX_SEATS and 0 <= free <= MAX_SEATS)
        else "bad table id" if not _TABLE_ID_RE.fullmatch(tid) else
        "bad peer id" if not is_valid_peer_id(pid) else
        "bad game id" if not _GAME_ID_RE.fullmatch(game) else
        "no address" if not addresses or not port else "")
    if problem:
        log.debug("announcement %s: %s; dropped", name, problem)
        return None
    return TableListing(
        table_id=tid, name=safe_text(props.get("name", "")), game=game,
        players=players, free_seats=free, passphrase_needed=props.get("pw") == "1",
        version=version, peers=[TablePeer(pid, addresses[0], port)],
        watchers=props.get("watch") != "0", local_draws=props.get("draws") == "local",
    )
