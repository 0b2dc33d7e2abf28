"""An in-memory network and a virtual clock for link tests: no sockets, no real waiting.

``run_virtual(coro)`` runs a scenario on an event loop whose clock is virtual: when nothing is
ready, the loop jumps straight to the next timer instead of sleeping, so a 10-second heartbeat
timeout takes microseconds and always fires at exactly the same virtual instant. Nothing may
wait on a real file descriptor there (a scenario that would block forever fails at once).

``MemoryNetwork`` stands in for TCP: ``listen(port, on_client)`` / ``start_server`` and
``open_connection(host, port)`` give pairs of ordinary asyncio streams joined in memory;
``patched()`` routes ``asyncio.open_connection`` and ``asyncio.start_server`` to it, so links
and meshes use it unchanged (``run_in_memory`` does both: the existing mesh and replication
scenarios pass on it unchanged, in a fifth of their socket time). Every byte written is
recorded per connection, and ``transform`` may rewrite chunks in flight.
"""

from __future__ import annotations

import asyncio
import contextlib
import selectors
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, TypeVar

T = TypeVar("T")
Streams = tuple[asyncio.StreamReader, asyncio.StreamWriter]
ClientHandler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


class _VirtualSelector(selectors.SelectSelector):
    """Polls without blocking; when nothing is ready, advances virtual time by the wait."""

    def __init__(self) -> None:
        super().__init__()
        self.now = 0.0

    def select(self, timeout: float | None = None) -> list[Any]:
        ready = super().select(0)
        if ready:
            return ready
        if timeout is None:
            raise RuntimeError("virtual clock: nothing scheduled, the scenario would hang")
        self.now += timeout
        return []


class VirtualClockLoop(asyncio.SelectorEventLoop):
    def __init__(self) -> None:
        self._virtual = _VirtualSelector()
        super().__init__(self._virtual)

    def time(self) -> float:
        return self._virtual.now


def run_virtual(coro: Awaitable[T], timeout: float = 600.0) -> T:
    """Run ``coro`` on a virtual-clock loop, bounded by ``timeout`` virtual seconds."""
    with asyncio.Runner(loop_factory=VirtualClockLoop) as runner:
        return runner.run(asyncio.wait_for(coro, timeout))


def run_in_memory(coro: Awaitable[T], timeout: float = 600.0) -> T:
    """``run_virtual`` with ``asyncio.open_connection``/``start_server`` on a fresh
    :class:`MemoryNetwork`: a whole mesh of links, meshes and replicas, in memory."""
    with MemoryNetwork().patched():
        return run_virtual(coro, timeout)


class MemoryTransport(asyncio.Transport):
    """One end of an in-memory connection. Writes reach the other end on the next loop turn."""

    def __init__(self, protocol: asyncio.Protocol, peername: tuple[str, int],
                 record: bytearray, transform: Callable[[bytes], bytes] | None) -> None:
        super().__init__()
        self._loop = asyncio.get_running_loop()
        self._protocol = protocol
        self._extra = {"peername": peername}
        self._record = record
        self._transform = transform
        self._closing = False
        self._eof_written = False
        self.peer: MemoryTransport | None = None

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self._extra.get(name, default)

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if self._closing or self._eof_written or self.peer is None:
            return
        chunk = bytes(data)
        self._record.extend(chunk)
        if self._transform is not None:
            chunk = self._transform(chunk)
        self._loop.call_soon(self.peer.deliver, chunk)

    def deliver(self, data: bytes) -> None:
        if not self._closing and data:
            self._protocol.data_received(data)

    def deliver_eof(self) -> None:
        if not self._closing:
            self._protocol.eof_received()

    def write_eof(self) -> None:
        if not self._eof_written and self.peer is not None:
            self._eof_written = True
            self._loop.call_soon(self.peer.deliver_eof)

    def can_write_eof(self) -> bool:
        return True

    def is_closing(self) -> bool:
        return self._closing

    def close(self) -> None:
        if self._closing:
            return
        self._closing = True
        if self.peer is not None and not self._eof_written:  # the other end reads EOF
            self._eof_written = True
            self._loop.call_soon(self.peer.deliver_eof)
        self._loop.call_soon(self._protocol.connection_lost, None)

    def abort(self) -> None:
        self.close()

    def get_write_buffer_size(self) -> int:
        return 0

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass

    def is_reading(self) -> bool:
        return not self._closing


def _end(peername: tuple[str, int], record: bytearray,
         transform: Callable[[bytes], bytes] | None) -> tuple[Streams, MemoryTransport]:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(loop=loop)
    protocol = asyncio.StreamReaderProtocol(reader, loop=loop)
    transport = MemoryTransport(protocol, peername, record, transform)
    protocol.connection_made(transport)
    return (reader, asyncio.StreamWriter(transport, protocol, reader, loop)), transport


class MemoryNetwork:
    """Listeners by port on one pretend host; connections are recorded in ``connections``."""

    def __init__(self, host: str = "127.0.0.1") -> None:
        self.host = host
        self._listeners: dict[int, ClientHandler] = {}
        self._next_client_port = 40000
        self.connections: list[dict[str, bytearray]] = []
        self.transform: Callable[[str, bytes], bytes] | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    def listen(self, port: int, on_client: ClientHandler) -> None:
        self._listeners[port] = on_client

    def unlisten(self, port: int) -> None:
        self._listeners.pop(port, None)

    def listening(self, port: int) -> bool:
        return port in self._listeners

    def connect(self, port: int) -> tuple[Streams, Streams]:
        """A connected pair: (client streams, server streams), without any listener."""
        self._next_client_port += 1
        record = {"c2s": bytearray(), "s2c": bytearray()}
        self.connections.append(record)
        transform = self.transform

        def edit(direction: str) -> Callable[[bytes], bytes] | None:
            return None if transform is None else (lambda data: transform(direction, data))

        client, c_end = _end((self.host, port), record["c2s"], edit("c2s"))
        server, s_end = _end((self.host, self._next_client_port), record["s2c"], edit("s2c"))
        c_end.peer, s_end.peer = s_end, c_end
        return client, server

    async def open_connection(self, host: str, port: int, **_: Any) -> Streams:
        handler = self._listeners.get(port)
        if host != self.host or handler is None:
            raise ConnectionRefusedError(f"[virtual] connect to {host}:{port} refused")
        client, server = self.connect(port)
        result = handler(*server)
        if asyncio.iscoroutine(result):
            task = asyncio.ensure_future(result)
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        return client

    async def start_server(self, client_connected_cb: ClientHandler, host: Any = None,
                           port: int = 0, **_: Any) -> MemoryServer:
        """What ``asyncio.start_server`` gives, on this network (port 0: a free port)."""
        if not port:
            port = next(p for p in range(20000, 30000) if p not in self._listeners)
        if port in self._listeners:
            raise OSError(98, f"[virtual] address already in use: port {port}")
        self.listen(port, client_connected_cb)
        return MemoryServer(self, port)

    @contextlib.contextmanager
    def patched(self) -> Iterator[MemoryNetwork]:
        """Route ``asyncio.open_connection`` and ``asyncio.start_server`` (as links and meshes
        call them) to this network."""
        real = asyncio.open_connection, asyncio.start_server
        asyncio.open_connection = self.open_connection  # type: ignore[assignment]
        asyncio.start_server = self.start_server  # type: ignore[assignment]
        try:
            yield self
        finally:
            asyncio.open_connection, asyncio.start_server = real


class _Socket:
    def __init__(self, host: str, port: int) -> None:
        self._name = (host, port)

    def getsockname(self) -> tuple[str, int]:
        return self._name


class MemoryServer:
    """The listening side of ``MemoryNetwork.start_server``: the calls meshes make."""

    def __init__(self, net: MemoryNetwork, port: int) -> None:
        self._net, self.port = net, port
        self.sockets = [_Socket(net.host, port)]

    def close(self) -> None:
        self._net.unlisten(self.port)

    async def wait_closed(self) -> None:
        return None

    def is_serving(self) -> bool:
        return self._net.listening(self.port)
