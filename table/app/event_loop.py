"""The program's one event loop: asyncio (netplay) over Qt's (the window), through qasync, with
two of qasync's per-event costs taken out.

qasync runs every `call_soon` callback through a Qt timer of its own (start a timer, a timer
event into Python, kill the timer), and a socket that is ready through one more: its notifier's
signal disables it and schedules the read with `call_soon`. One op between peers crosses that
twice, and the timers cost more than the rest of the hop's loop work (docs/performance.md,
"One hop between peers"). Here:

- callbacks queued with `call_soon` wait in one queue that a single zero-interval Qt timer
  drains: each turn runs the callbacks queued before it started, in order, as asyncio's own
  loop does; callbacks they queue run on the next turn, after Qt's own events (input, paint)
  had theirs;
- a ready socket's callback runs from its notifier's signal, which Qt delivers from its own
  loop exactly where the timer's event would have come; the notifier is off while the callback
  runs (a nested Qt loop, a modal dialog, cannot re-enter it), as qasync does.

Everything else (timers with a delay, threads, executors, closing) is qasync's.
"""
from __future__ import annotations

import asyncio
import contextvars
from collections import deque
from collections.abc import Callable
from typing import Any

import qasync
from PySide6.QtCore import QSocketNotifier, QTimer

Notifiers = dict[int, QSocketNotifier]


def _fileno(fd: Any) -> int:
    return fd if isinstance(fd, int) else int(fd.fileno())


def _activated(notifier: QSocketNotifier) -> Any:
    """The notifier's `activated(int)` signal: the overload qasync's own removal disconnects."""
    signal: Any = notifier.activated
    return signal["int"]


class TableEventLoop(qasync.QEventLoop):  # type: ignore[misc]  # qasync is untyped
    def __init__(self, app: Any = None, set_running_loop: bool = False,
                 already_running: bool = False) -> None:
        self._soon_queue: deque[asyncio.Handle] = deque()
        self._soon_timer = QTimer()
        self._soon_timer.setSingleShot(True)
        self._soon_timer.setInterval(0)
        self._soon_timer.timeout.connect(self._run_soon)
        super().__init__(app, set_running_loop, already_running)

    # --- call_soon: one queue, one timer ---------------------------------------------------
    def call_soon(self, callback: Callable[..., Any], *args: Any,
                  context: contextvars.Context | None = None) -> asyncio.Handle:
        self._check_closed()
        handle = asyncio.Handle(callback, args, self, context=context)
        self._soon_queue.append(handle)
        if not self._soon_timer.isActive():
            self._soon_timer.start()
        return handle

    def _run_soon(self) -> None:
        if self.is_closed():
            return
        for _ in range(len(self._soon_queue)):  # what this turn found; later ones wait a turn
            handle = self._soon_queue.popleft()
            if not handle.cancelled():
                handle._run()  # noqa: SLF001 - asyncio's own way to run a handle (it reports errors)
        if self._soon_queue:
            self._soon_timer.start()

    def close(self) -> None:
        super().close()
        self._soon_timer.stop()
        self._soon_queue.clear()

    # --- sockets: a ready one's callback runs from its notifier ----------------------------
    def _add_reader(self, fd: Any, callback: Callable[..., Any], *args: Any) -> None:
        self._watch(self._read_notifiers, QSocketNotifier.Type.Read, fd, callback, args)

    def _add_writer(self, fd: Any, callback: Callable[..., Any], *args: Any) -> None:
        self._watch(self._write_notifiers, QSocketNotifier.Type.Write, fd, callback, args)

    def _watch(self, notifiers: Notifiers, kind: QSocketNotifier.Type, fd: Any,
               callback: Callable[..., Any], args: tuple[Any, ...]) -> None:
        self._check_closed()
        number = _fileno(fd)
        existing = notifiers.get(number)
        if existing is not None:  # replaced: the old one must never fire again
            existing.setEnabled(False)
            _activated(existing).disconnect()
        notifier = QSocketNotifier(number, kind)
        notifier.setEnabled(True)
        _activated(notifier).connect(
            lambda *_: self._on_socket_ready(notifiers, notifier, number, callback, args))
        notifiers[number] = notifier

    def _on_socket_ready(self, notifiers: Notifiers, notifier: QSocketNotifier, fd: int,
                         callback: Callable[..., Any], args: tuple[Any, ...]) -> None:
        if notifiers.get(fd) is not notifier:  # removed, or the loop closed
            notifier.setEnabled(False)
            return
        notifier.setEnabled(False)
        try:
            callback(*args)
        except (SystemExit, KeyboardInterrupt):
            raise
        except BaseException as exc:  # as a handle reports it: the loop goes on
            self.call_exception_handler({"message": f"Exception in callback {callback!r}",
                                         "exception": exc})
        finally:
            if self._read_notifiers is not None and notifiers.get(fd) is notifier:
                notifier.setEnabled(True)
