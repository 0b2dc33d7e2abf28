"""How the iroh binding's async calls are driven on the event loop.

The generated binding (uniffi) runs each async call as a Rust future that Python polls: every
poll hands Rust a continuation callback, which Rust calls exactly once, with READY or "poll me
again", either inside the poll (the call finished there, as a stream write nearly always does)
or later from one of iroh's threads (a read woken by a packet). The binding's own driver makes
that callback a Python function: iroh's thread must take the interpreter's lock to run it (and
the event loop's thread then waits to get it back after its next call into Rust), and every
callback, even one made inside the poll, goes through ``call_soon_threadsafe`` and an asyncio
future, so each call costs two extra turns of the loop.

:func:`drive_calls_inline` installs a driver for the same Rust futures (same calls, same order,
same results and errors) that

* takes a callback made inside its own poll at once: a call that finishes in its first poll
  returns without suspending, with no loop turn at all (:func:`start_eagerly` runs one so
  from plain code);
* where the C library has ``eventfd_write`` (64-bit Linux), hands Rust that C function as the
  callback, with a pipe's write end as its data: the callback writes the 8-byte code into the
  pipe without touching Python, and the loop reads it (at once after the poll, or when the
  pipe turns readable). Each pending poll has a pipe of its own, reused only once its one code
  has been read, so a late callback never writes into a pipe another call uses. Elsewhere the
  callback stays a Python function (still without the extra loop turns).

A binding built otherwise keeps its own driver, and so do calls made for a loop set with the
binding's ``uniffi_set_event_loop`` (from other threads).
"""
from __future__ import annotations

import asyncio
import contextlib
import ctypes
import functools
import os
import platform
import select
import sys
import threading
import weakref
from collections.abc import Coroutine
from typing import Any

import iroh

_READY = 0  # uniffi's RustFuturePoll values: READY, or MAYBE_READY ("poll again")
_CODE_SIZE = 8  # eventfd_write writes its value as 8 bytes (the code in the lowest)
_LATE_CODE_WAIT = 1.0  # at most this long for the callback of a poll given up (it is due now)
_INTERNALS = ("_uniffi_rust_call_async", "_uniffi_rust_call_with_error",
              "_UNIFFI_RUST_FUTURE_CONTINUATION_CALLBACK")
_GLOBAL_LOOP = "_UNIFFI_GLOBAL_EVENT_LOOP"

Pipe = tuple[int, int]


def _eventfd_write() -> int | None:
    """The address of libc's ``eventfd_write(int fd, uint64 value)``, whose registers take
    uniffi's ``(u64 data, i8 code)`` as (fd, code): 64-bit Linux only."""
    if not sys.platform.startswith("linux") or platform.machine() not in ("x86_64", "aarch64"):
        return None
    try:
        function = ctypes.CDLL(None).eventfd_write
    except (AttributeError, OSError):
        return None
    address = ctypes.cast(function, ctypes.c_void_p).value
    return int(address) if address else None


def _code(fd: int) -> int | None:
    """The code a callback wrote into the pipe, or None if none has yet."""
    try:
        data = os.read(fd, _CODE_SIZE)
    except BlockingIOError:
        return None
    return data[0] if data else None


def _late_code(fd: int) -> bool:
    """Whether the code of a poll given up (cancelled) came: then its pipe is clean."""
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    return bool(poller.poll(_LATE_CODE_WAIT * 1000)) and _code(fd) is not None


class _LoopPipes:
    """One event loop's pipes, each watched by the loop for good: the free ones, and the
    pending poll each other one's code is for. A pipe is never closed while Rust may write
    to it (only clean ones, once the loop is gone)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.free: list[Pipe] = []
        self.waits: dict[int, asyncio.Future[int]] = {}
        weakref.finalize(loop, _close_pipes, self.free)  # (holding no reference to the loop)

    def take(self, loop: asyncio.AbstractEventLoop) -> Pipe:
        if self.free:
            return self.free.pop()
        pipe: Pipe = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
        loop.add_reader(pipe[0], self._woken, pipe[0])
        return pipe

    def _woken(self, fd: int) -> None:
        code = _code(fd)
        if code is None:
            return
        future = self.waits.pop(fd, None)
        if future is not None and not future.done():
            future.set_result(code)


def _close_pipes(pipes: list[Pipe]) -> None:
    for pipe in pipes:
        for fd in pipe:
            os.close(fd)


class _PyWait:
    """One poll whose callback is a Python function: its code, or the future awaiting it."""
    __slots__ = ("code", "future", "loop", "polling", "thread")

    def __init__(self, loop: asyncio.AbstractEventLoop, thread: int) -> None:
        self.loop, self.thread = loop, thread
        self.code: int | None = None
        self.future: asyncio.Future[int] | None = None
        self.polling = False  # its poll runs now (on `thread`)

    def settle(self, code: int) -> None:
        self.code = code
        if self.future is not None and not self.future.done():
            self.future.set_result(code)


class CallDriver:
    """Runs the binding's Rust futures for its generated methods (``call`` takes the place of
    the binding's own driver): woken through pipes given ``eventfd_write``'s address, else
    through a Python callback."""

    def __init__(self, ffi: Any, eventfd_write: int | None) -> None:
        self.ffi = ffi
        self.original, self.call_with_error, callback_type = (getattr(ffi, name)
                                                              for name in _INTERNALS)
        self.pipes: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _LoopPipes] | None = \
            weakref.WeakKeyDictionary() if eventfd_write is not None else None
        self.callback = callback_type(eventfd_write if eventfd_write is not None
                                      else self._continued)
        self.waits: dict[int, _PyWait] = {}
        self.lock = threading.Lock()
        self.next_handle = 1

    def call(self, rust_future: Any, ffi_poll: Any, ffi_complete: Any, ffi_free: Any,
             lift_func: Any, error_ffi_converter: Any) -> Coroutine[Any, Any, Any]:
        args = (rust_future, ffi_poll, ffi_complete, ffi_free, lift_func, error_ffi_converter)
        if getattr(self.ffi, _GLOBAL_LOOP, None) is not None:  # calls from other threads
            return self.original(*args)  # type: ignore[no-any-return]
        return self._run_piped(*args) if self.pipes is not None else self._run_python(*args)

    def _result(self, rust_future: Any, ffi_complete: Any, lift_func: Any,
                error_ffi_converter: Any) -> Any:
        return lift_func(self.call_with_error(error_ffi_converter, ffi_complete, rust_future))

    # ------------------------------------------------------------------ C callback, pipes
    async def _run_piped(self, rust_future: Any, ffi_poll: Any, ffi_complete: Any,
                         ffi_free: Any, lift_func: Any, error_ffi_converter: Any) -> Any:
        assert self.pipes is not None
        loop = asyncio.get_running_loop()
        pipes = self.pipes.get(loop)
        if pipes is None:
            with self.lock:  # loops in other threads may make theirs now
                pipes = self.pipes.setdefault(loop, _LoopPipes(loop))
        pipe = pipes.take(loop)
        pending = False  # a poll's code is still to come
        try:
            while True:
                ffi_poll(rust_future, self.callback, pipe[1])
                code = _code(pipe[0])
                if code is None:
                    pending = True
                    future = pipes.waits[pipe[0]] = loop.create_future()
                    code = await future
                    pending = False
                if code == _READY:
                    return self._result(rust_future, ffi_complete, lift_func, error_ffi_converter)
        finally:
            ffi_free(rust_future)  # a pending poll's callback is made now (READY), or under way
            if not pending or pipes.waits.pop(pipe[0], None) is None or _late_code(pipe[0]):
                pipes.free.append(pipe)  # else kept out of use for good

    # ------------------------------------------------------------------ Python callback
    def _continued(self, handle: int, code: int) -> None:
        with self.lock:
            wait = self.waits.pop(handle, None)
        if wait is None:
            return
        if wait.polling and threading.get_ident() == wait.thread:
            wait.code = code  # inside its own poll: read right after the poll returns
        else:
            with contextlib.suppress(RuntimeError):  # its loop closed: nobody waits any more
                wait.loop.call_soon_threadsafe(wait.settle, code)

    async def _run_python(self, rust_future: Any, ffi_poll: Any, ffi_complete: Any,
                          ffi_free: Any, lift_func: Any, error_ffi_converter: Any) -> Any:
        try:
            loop = asyncio.get_running_loop()
            while True:
                wait = _PyWait(loop, threading.get_ident())
                with self.lock:
                    handle, self.next_handle = self.next_handle, self.next_handle + 1
                    self.waits[handle] = wait
                wait.polling = True
                try:
                    ffi_poll(rust_future, self.callback, handle)
                finally:
                    wait.polling = False
                if wait.code is None:
                    wait.future = loop.create_future()
                    await wait.future
                if wait.code == _READY:
                    return self._result(rust_future, ffi_complete, lift_func, error_ffi_converter)
        finally:
            ffi_free(rust_future)


def drive_calls_inline() -> None:
    """Drive the binding's async calls with :class:`CallDriver` (once per process)."""
    ffi = getattr(iroh, "iroh_ffi", None)
    if ffi is None or not all(hasattr(ffi, name) for name in (*_INTERNALS, _GLOBAL_LOOP)):
        return
    if getattr(ffi, "sandtable_driver", None) is not None:
        return
    driver = CallDriver(ffi, _eventfd_write())
    ffi.sandtable_driver = driver  # holds the callback Rust calls: kept for good
    setattr(ffi, _INTERNALS[0], driver.call)


def start_eagerly(coro: Coroutine[Any, Any, None]) -> asyncio.Future[None] | None:
    """Run `coro` (a binding call) at once, up to its first real wait: None if it finished
    there, else a task that runs it to its end. Raises what the call raised."""
    try:
        waiting = coro.send(None)
    except StopIteration:
        return None
    return asyncio.ensure_future(_resume(coro, waiting))


async def _resume(coro: Coroutine[Any, Any, None], waiting: asyncio.Future[Any]) -> None:
    # `waiting` is already the suspended call's own (awaiting it again is refused): wait for
    # it through a future of this task's, then resume the call
    loop = asyncio.get_running_loop()
    while True:
        done: asyncio.Future[None] = loop.create_future()
        waiting.add_done_callback(functools.partial(_settle, done))
        try:
            await done
        except BaseException:  # cancelled: the call is given up (its Rust future freed)
            coro.close()
            raise
        try:
            waiting = coro.send(None)
        except StopIteration:
            return


def _settle(done: asyncio.Future[None], _waiting: asyncio.Future[Any]) -> None:
    if not done.done():
        done.set_result(None)
