"""Plain data exchanged between the LAN widgets and the wiring that runs the network."""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger(__name__)


class LanProblem(Exception):
    """Hosting or joining failed; the message is for the player, shown as is."""


class NoPeersFound(LanProblem):
    """Rejoining: nobody else of the table answered on the LAN; ask for a HOST:PORT."""


@dataclass(frozen=True, slots=True)
class TableEntry:
    """A table announced on the LAN."""
    table_id: str
    name: str
    game: str
    players: int
    free_seats: int
    passphrase_needed: bool
    addresses: tuple[str, ...] = ()  # "host:port" of each announcing peer


@dataclass(frozen=True, slots=True)
class PeerRow:
    peer_id: str
    name: str
    seats: tuple[int, ...]
    # "me" | "connected" | "catching up" | "reconnecting" | "back" | "gone"
    status: str
    address: str = ""
    watching: bool = False  # a watcher (no seat)


@dataclass(slots=True)
class HostRequest:
    game_id: str
    seats: int
    table_name: str
    passphrase: str | None
    seat: int
    deck: str | None
    player_name: str
    port: int = 0
    position: str = ""  # a position file to start from (it names the game and seats)
    watchers: bool = True  # let watchers (peers with no seat) join
    record_to_watchers: bool = True  # players send their secrets to the watchers at the end
    internet: bool = False  # also invite over the internet (a ticket, docs/internet-play.md)
    local_draws: bool = False  # players may roll and shuffle alone (not flagged, not audited)
    # what the session is (a tag op: group, event, free tags), for the designer's report
    tags: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class RejoinRequest:
    """Get back into a LAN game from its log (after a crash or a closed window)."""
    log_path: str
    passphrase: str | None
    address: str = ""  # "host:port" typed by the player, when discovery found nobody


@dataclass(slots=True)
class JoinRequest:
    table_id: str  # "" with a manual address
    addresses: tuple[str, ...]  # "host:port"
    passphrase: str | None
    player_name: str
    position: str = ""  # the same position file as the host's, for a table started from one
    watch: bool = False  # join as a watcher: no seat, the public table, chat and notes only
    ticket: str = ""  # an internet ticket from the host (instead of a listing or an address)


@dataclass(slots=True)
class JoinedTable:
    """What a joiner learns once caught up: enough to pick a seat and a deck."""
    table_name: str
    game_id: str
    game_name: str
    seats: int
    free_seats: list[int]
    decks: list[str] = field(default_factory=list)
    default_decks: dict[int, str] = field(default_factory=dict)  # seat -> deck name
    record_note: str = ""  # the table sends players' secrets to its watchers at the end
    draws_note: str = ""  # the table allows local draws
    watching: bool = False  # this peer joined as a watcher


WATCH_SEAT = 0  # take_seat(WATCH_SEAT, None): open the table as a watcher, taking no seat


def message_of(err: BaseException) -> str:
    """What to show for a failure: a LanProblem's own words, else a plain summary."""
    if isinstance(err, LanProblem):
        return str(err)
    log.error("LAN action failed", exc_info=err)
    text = str(err).strip()
    return f"Something went wrong ({type(err).__name__}{': ' + text if text else ''})."


def run_soon(coro: Awaitable[Any], done: Callable[[Any, BaseException | None], None]
             ) -> asyncio.Future[Any]:
    """Run a coroutine on the event loop (qasync in the app); call ``done(result, error)``
    on the UI side when it finishes (not when it is cancelled)."""
    task = asyncio.ensure_future(coro)

    def finished(t: asyncio.Future[Any]) -> None:
        if t.cancelled():
            return
        err = t.exception()
        done(None if err is not None else t.result(), err)

    task.add_done_callback(finished)
    return task
