"""Which player this running app is: two Sandtable windows on one computer (two programs) are
two players, each with their own name and settings.

Each running program holds one numbered profile, the lowest no other running program holds,
by a file lock on ``running/player-N.lock`` in the settings folder (:mod:`.file_locks`). The
lock goes with the program, even a killed one, so the next program started takes that profile
again: the player whose window closed finds their own name again (and the tables they sat at,
:mod:`table.ui.lan.memory`). Profile 1 reads and writes ``settings.json`` as it always did;
profile N ``settings-N.json``. A process that claims none (the tests, `sandtable screenshot`)
is profile 1 without a lock.
"""
from __future__ import annotations

import contextlib
import logging
from pathlib import Path
from typing import IO

from .file_locks import is_held, try_lock
from .settings import config_dir, use_profile

log = logging.getLogger(__name__)
MOST = 32  # profiles tried before giving up (then profile 1, unlocked)
_held: dict[int, IO[bytes]] = {}  # profile -> its open, locked file (kept for the program's life)


def lock_file(slot: int) -> Path:
    return config_dir() / "running" / f"player-{slot}.lock"


def claim() -> int:
    """Hold the lowest free profile for as long as this program runs; its number."""
    if _held:
        return min(_held)
    for slot in range(1, MOST + 1):
        path = lock_file(slot)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            handle = path.open("a+b")
        except OSError as err:
            log.warning("cannot keep this window's player apart (%s): profile 1", err)
            return 1
        if try_lock(handle):
            _held[slot] = handle
            use_profile(slot)
            return slot
        handle.close()
    log.warning("%d Sandtable programs are running: this one shares profile 1", MOST)
    return 1


def current() -> int:
    """This program's profile (1 when it claimed none)."""
    return min(_held) if _held else 1


def running(slot: int) -> bool:
    """Whether a running program holds profile `slot` (this one included)."""
    return slot in _held or is_held(lock_file(slot))


def release() -> None:
    """Let the profile go (tests)."""
    for handle in _held.values():
        with contextlib.suppress(OSError):
            handle.close()
    _held.clear()
    use_profile(1)
