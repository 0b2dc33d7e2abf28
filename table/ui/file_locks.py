"""Operating-system file locks shared by the running Sandtable programs of one computer: they
go with the program that holds them, even a killed one (``flock`` on POSIX, ``msvcrt`` on
Windows, one byte at the start of a lock file nobody writes)."""
from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]
try:
    import msvcrt
except ImportError:  # everywhere else
    msvcrt = None  # type: ignore[assignment]


def try_lock(handle: IO[bytes]) -> bool:
    """An exclusive lock on the open file, at once or not at all."""
    try:
        if fcntl is not None:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        elif msvcrt is not None:
            handle.seek(0)
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
        return True
    except OSError:
        return False


def unlock(handle: IO[bytes]) -> None:
    with contextlib.suppress(OSError):
        if fcntl is not None:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
        elif msvcrt is not None:
            handle.seek(0)
            msvcrt.locking(handle.fileno(), msvcrt.LK_UNLCK, 1)


def is_held(path: Path) -> bool:
    """Whether a running program holds the lock on `path` (a lock this program holds through
    another open file counts too)."""
    if not path.exists():
        return False
    try:
        handle = path.open("a+b")
    except OSError:
        return False
    with handle:
        if not try_lock(handle):
            return True
        unlock(handle)
    return False


@contextlib.contextmanager
def holding(path: Path, wait: float = 5.0) -> Iterator[None]:
    """Hold the lock on `path` for a short read-modify-write (waits up to `wait` seconds for
    another program's; after that goes on unlocked rather than hang the window)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a+b") as handle:
        deadline = time.monotonic() + wait
        locked = try_lock(handle)
        while not locked and time.monotonic() < deadline:
            time.sleep(0.01)
            locked = try_lock(handle)
        try:
            yield
        finally:
            if locked:
                unlock(handle)
