"""The LAN tables the players of this computer sat at, so the start screen can offer each one
back ("Rejoin “Friday” as Bob") and the Join dialog can show a player's own seat as theirs.

One list for the computer (``lan-tables.json`` beside the settings), shared by every running
Sandtable: each entry is one player's place at one table: the log (the peer's key is kept
beside it, and the addresses where it last reached the others), the table, the name played
under, the seats, and which running program has it open (its profile, :mod:`..profiles`), so
a second window never offers the table the first one is playing. A table whose game ended
is offered for replay instead. Never the passphrase: only whether the table needs one.
"""
from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

from ..file_locks import holding
from ..profiles import current, running
from ..settings import config_dir

log = logging.getLogger(__name__)
KEEP = 50  # entries kept, the most recently played first
OFFERED = 6  # tables the start screen offers at most


@dataclass
class RememberedTable:
    log: str  # this peer's log of the table
    table_id: str
    table: str  # the table's name
    name: str  # the player's name at it
    peer: str = ""  # this peer's id at the table
    game: str = ""  # the game's name, as shown
    seats: list[int] = field(default_factory=list)
    watching: bool = False
    passphrase: bool = False  # the table needs one (typed again to rejoin)
    open_in: int = 0  # the profile of the running program that has it open (0: none)
    ended: str = ""  # how the game ended ("Bob won (victory)"); "" while it goes on
    last: float = 0.0  # when it was last opened (time.time())

    def place(self) -> str:
        """"seat 2", "seats 1, 3" or "watching"."""
        if self.watching or not self.seats:
            return "watching"
        return ("seat " if len(self.seats) == 1 else "seats ") + ", ".join(map(str, self.seats))


def memory_path() -> Path:
    return config_dir() / "lan-tables.json"


def _lock_path() -> Path:
    return config_dir() / "running" / "lan-tables.lock"


def load() -> list[RememberedTable]:
    """Every remembered table; a damaged file is an empty memory (logged), never an error."""
    try:
        raw = json.loads(memory_path().read_text(encoding="utf-8"))
    except FileNotFoundError:
        return []
    except (OSError, ValueError) as err:
        log.warning("%s: unreadable, the tables played are forgotten (%s)", memory_path(), err)
        return []
    known = {f.name for f in fields(RememberedTable)}
    out = []
    for item in raw if isinstance(raw, list) else []:
        if not isinstance(item, dict):
            continue
        try:
            out.append(RememberedTable(**{k: v for k, v in item.items() if k in known}))
        except TypeError:
            continue
    return out


def _save(entries: list[RememberedTable]) -> None:
    path = memory_path()
    tmp = path.with_name(path.name + ".tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(json.dumps([asdict(e) for e in entries], indent=1), encoding="utf-8")
        os.replace(tmp, path)
    except OSError as err:
        log.warning("cannot save the tables played (%s)", err)


def _update(change: Callable[[list[RememberedTable]], None]) -> None:
    """Read, change and write the list while holding its lock (other programs share it)."""
    with holding(_lock_path()):
        entries = load()
        change(entries)
        entries.sort(key=lambda e: -e.last)
        _save(entries[:KEEP])


def remember(entry: RememberedTable) -> None:
    """This program opened the table: remember it (again), open here."""
    entry.open_in, entry.last = current(), time.time()

    def put(entries: list[RememberedTable]) -> None:
        entries[:] = [e for e in entries if e.log != entry.log]
        entries.append(entry)
    _update(put)


def _edit(log_path: str, change: Callable[[RememberedTable], None]) -> None:
    def edit(entries: list[RememberedTable]) -> None:
        for e in entries:
            if e.log == log_path:
                change(e)
    _update(edit)


def closed(log_path: str) -> None:
    """The table's window closed: no program has it open (it stays remembered)."""
    _edit(log_path, lambda e: setattr(e, "open_in", 0))


def ended(log_path: str, how: str) -> None:
    """The table's game ended (or its end was taken back: `how` is "")."""
    _edit(log_path, lambda e: setattr(e, "ended", how))


def open_elsewhere(entry: RememberedTable) -> bool:
    """Another running program (another window on this computer) plays this place."""
    return bool(entry.open_in) and entry.open_in != current() and running(entry.open_in)


def available(open_here: set[str]) -> list[RememberedTable]:
    """The places this program may take back, the last played first: the game goes on, the
    log is there, and no window has it open (this program's `open_here`, or another's)."""
    return [e for e in load() if not e.ended and e.log not in open_here
            and not open_elsewhere(e) and Path(e.log).exists()]


def offers(open_here: set[str]) -> list[RememberedTable]:
    """What the start screen offers: the most recent of :func:`available`."""
    return available(open_here)[:OFFERED]


def place_at(table_id: str, open_here: set[str]) -> RememberedTable | None:
    """This computer's place at the table `table_id` that this program may take back."""
    return next((e for e in available(open_here) if e.table_id == table_id), None)
