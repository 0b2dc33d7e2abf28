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
    yours: str = ""  # this player's place at it, to take back ("seat 2 as Bob"), if any


@dataclass(frozen=True, slots=True)
class RejoinOffer:
    """A LAN table this computer's player sat at and whose game goes on (the start screen)."""
    log_path: str
    table: str  # the table's name
    name: str  # the player's name at it
    game: str
    place: str  # "seat 2", "watching"
    # another peer of the table answers now; False: nobody (reopen it alone); None: not
    # looked for yet (the button waits)
    reachable: bool | None

    def label(self) -> str:
        if self.reachable is None:
            return f"Looking for “{self.table}”…"
        verb = "Rejoin" if self.reachable else "Reopen"
        return f"{verb} “{self.table}” as {self.name or 'yourself'}"

    def note(self) -> str:
        there = ("looking for its players on the network" if self.reachable is None else
                 "the table is on the network now" if self.reachable else
                 "nobody of this table is on the network now: reopen it, the others find it "
                 "when they come back")
        return " · ".join(x for x in (self.game, self.place, there) if x)


@dataclass(frozen=True, slots=True)
class NetworkOption:
    """A network a table may be announced and found on: one of this machine's addresses, or
    None for every network it has (the default)."""
    address: str | None
    label: str  # "Every network", "eth0 (192.168.1.20)", "This computer only (127.0.0.1)"

    @property
    def interfaces(self) -> list[str] | None:
        return None if self.address is None else [self.address]


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
    interfaces: list[str] | None = None  # the network to host on; None: every network
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
    interfaces: list[str] | None = None  # the network the table was found on; None: every one


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
    own_seats: list[int] = field(default_factory=list)  # this player's seats, to take back
    own_name: str = ""  # the name this player had at the table


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
