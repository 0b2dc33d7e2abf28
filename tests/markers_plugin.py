"""Marks that cannot drift: a test that opens a socket or starts a process says so, or fails.

``pytest -m "not socket and not processes"`` is the fast suite (the protocol fed bytes, the
core, the games, the UI offscreen) only if every test that opens a real socket is marked
``socket`` and every one that starts a process is marked ``processes``. A hand-kept list of
such tests drifts; this plugin watches instead. While a test runs (its fixtures' setup and
teardown included), binding, connecting or listening on a socket and starting a process
(``subprocess.Popen``, which asyncio's subprocesses and ``subprocess.run`` use too,
``multiprocessing``, ``os.fork``) are checked against the test's marks. An unmarked one is
refused at once (so a wrongly unmarked test cannot slow the fast suite down) and the test
fails naming what it tried to open.

Marks are put where they are true: a module's ``pytestmark``, a test's decorator, or a fixture
that opens them, declared with :func:`marks_users`, which marks every test using it (directly
or through another fixture) at collection, so that ``-m`` deselects them.

A socket pair (``socket.socketpair``: every asyncio event loop makes one to wake itself) is
neither bound nor connected through these calls and is not counted.
"""

from __future__ import annotations

import multiprocessing.process
import os
import socket
import subprocess
from collections.abc import Callable, Generator, Iterable
from typing import Any, TypeVar

import pytest

SOCKET, PROCESSES = "socket", "processes"

F = TypeVar("F", bound=Callable[..., Any])

# fixture name -> the marks its users get (filled when the conftest modules are imported,
# that is before collection ends)
_FIXTURE_MARKS: dict[str, set[str]] = {}


class UnmarkedResource(RuntimeError):
    """A test opened a socket or a process without the mark that says it does."""


def marks_users(*marks: str, name: str | None = None) -> Callable[[F], F]:
    """Under ``@pytest.fixture``: every test that uses this fixture gets ``marks``.

    ``name`` is the fixture's name when it is not the function's own (``@pytest.fixture(name=)``).
    """
    def register(fn: F) -> F:
        _FIXTURE_MARKS.setdefault(name or fn.__name__, set()).update(marks)
        return fn
    return register


class _Watch:
    """The tests running now, innermost last (a test may run pytest inside: pytester), each
    with what it opened without its mark."""

    def __init__(self) -> None:
        self.running: list[tuple[pytest.Item, list[str]]] = []
        self.installed = False

    def check(self, mark: str, what: str) -> None:
        if not self.running:
            return
        item, refused = self.running[-1]
        if item.get_closest_marker(mark) is not None:
            return
        message = (f"{item.nodeid} opened {what} but is not marked {mark!r}: mark it "
                   f"(pytestmark = pytest.mark.{mark}, or markers_plugin.marks_users on the "
                   f"fixture that opens it)")
        refused.append(message)
        raise UnmarkedResource(message)


_watch = _Watch()


def _describe_command(args: Any) -> str:
    if isinstance(args, (str, bytes, os.PathLike)):
        return repr(os.fsdecode(args))
    parts = [os.fsdecode(a) if isinstance(a, (str, bytes, os.PathLike)) else str(a)
             for a in args]
    return repr(" ".join(parts)[:200])


def _wrap_socket_call(name: str) -> None:
    real = getattr(socket.socket, name)

    def watched(self: socket.socket, *args: Any) -> Any:
        _watch.check(SOCKET, f"a socket ({name} {args[0]!r})" if args else f"a socket ({name})")
        return real(self, *args)

    watched.__name__ = name
    setattr(socket.socket, name, watched)


def _install() -> None:
    if _watch.installed:  # once per process, however many pytest sessions run in it
        return
    _watch.installed = True
    for name in ("bind", "connect", "connect_ex", "listen"):
        _wrap_socket_call(name)

    real_popen_init = subprocess.Popen.__init__

    def popen_init(self: subprocess.Popen[Any], args: Any, *rest: Any, **kw: Any) -> None:
        _watch.check(PROCESSES, f"a process ({_describe_command(args)})")
        real_popen_init(self, args, *rest, **kw)

    subprocess.Popen.__init__ = popen_init  # type: ignore[method-assign]  # the watch itself

    real_start = multiprocessing.process.BaseProcess.start

    def process_start(self: multiprocessing.process.BaseProcess) -> None:
        _watch.check(PROCESSES, f"a multiprocessing process ({self.name})")
        real_start(self)

    multiprocessing.process.BaseProcess.start = process_start  # type: ignore[method-assign]

    real_fork = os.fork

    def fork() -> int:
        _watch.check(PROCESSES, "a process (os.fork)")
        return real_fork()

    os.fork = fork


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", f"{SOCKET}: binds, connects or listens on a real socket (127.0.0.1 only); "
        "enforced by tests/markers_plugin.py")
    config.addinivalue_line(
        "markers", f"{PROCESSES}: starts a process (subprocess, asyncio subprocess, "
        "multiprocessing); enforced by tests/markers_plugin.py")
    _install()


def fixture_marks(fixturenames: Iterable[str]) -> set[str]:
    """The marks the fixtures named (a test's whole fixture closure) give their users."""
    marks: set[str] = set()
    for name in fixturenames:
        marks |= _FIXTURE_MARKS.get(name, set())
    return marks


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # tryfirst: before `-m` deselects (the marks must be on the items by then)
    for item in items:
        for mark in sorted(fixture_marks(getattr(item, "fixturenames", ()))):
            if item.get_closest_marker(mark) is None:
                item.add_marker(getattr(pytest.mark, mark))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, object, object]:
    _watch.running.append((item, []))
    try:
        return (yield)
    finally:
        _watch.running.pop()


def _fail_if_refused() -> None:
    refused = _watch.running[-1][1] if _watch.running else []
    if refused:
        message = "\n".join(dict.fromkeys(refused))
        refused.clear()
        pytest.fail(message, pytrace=False)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, None, None]:
    try:
        yield
    finally:
        _fail_if_refused()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    # Raised even where the test caught the refusal (a retry loop, a task's exception), and
    # in place of the failure the refusal caused.
    try:
        yield
    finally:
        _fail_if_refused()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Generator[None, None, None]:
    try:
        yield
    finally:
        _fail_if_refused()
