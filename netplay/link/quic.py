"""The internet transport: links over QUIC bi-streams between iroh endpoints.

A link does not care what carries its bytes: :class:`QuicReader` and :class:`QuicWriter` give a
QUIC bi-stream the slice of the asyncio ``StreamReader``/``StreamWriter`` interface that
:mod:`netplay.link.link`, :mod:`netplay.link.streams` and :mod:`netplay.link.outbox` use (``read``, ``write``,
``drain``, ``close``, ``wait_closed``, ``get_extra_info``, ``transport``), so framing, the
handshake, encryption and everything above run unchanged over either transport.

One :class:`QuicTransport` per mesh: an iroh endpoint (its key derived from the peer's identity,
so its endpoint id survives a restart), one connection and one bi-stream per link. The relay
mode is ``off`` (direct paths only: no relay, no discovery service, nothing leaves for an address
the user did not give; what every test uses), ``default`` (n0's public relays and address
lookup) or the URL of a self-hosted iroh-relay.
"""


from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import iroh
from nacl.encoding import RawEncoder
from nacl.hash import blake2b

from netplay.link.addresses import is_ticket_address
from netplay.link.quic_bytes import lighten_binding
from netplay.link.quic_calls import drive_calls_inline, start_eagerly

log = logging.getLogger(__name__)

ALPN = b"sandtable/1"
RELAY_OFF = "off"
RELAY_DEFAULT = "default"
READ_MAX = 64 * 1024  # bytes a read asks for at most
SMALL_READ = 4 * 1024  # ... and, unless the last read filled its buffer, at first
WRITE_HIGH_WATER = 256 * 1024  # drain() waits while more than this is buffered
ACCEPT_STREAM_TIMEOUT = 5.0  # an incoming connection must open its stream this soon
DRAIN_TIMEOUT = 3.0  # at most this long for the peer to read what a closing stream sent

StreamHandler = Callable[["QuicReader", "QuicWriter", str], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class QuicSettings:
    """Where the endpoint listens and which relays it uses (``off``, ``default`` or a URL)."""
    relay: str = RELAY_OFF
    bind_host: str = "0.0.0.0"
    port: int = 0
    # where the internet reaches this endpoint besides its own addresses (a router's port
    # mapping): put in its tickets; with relays off, a host behind a NAT needs one
    external: tuple[str, ...] = ()


class TicketError(ValueError):
    """A ticket or endpoint address that cannot be read."""



def read_endpoint_ticket(text: str) -> iroh.EndpointAddr:
    try:
        return iroh.EndpointTicket.from_string(text.strip()).endpoint_addr()
    except Exception as err:  # iroh's own error types; the message is what matters
        raise TicketError(f"not an endpoint ticket ({_iroh_reason(err)})") from None


def usual_port(seed: bytes) -> int:
    """The UDP port this peer's endpoint tries first (from its identity): the same after a
    restart, so the tickets the other peers hold for it stay good."""
    digest = blake2b(seed, digest_size=4, person=b"sandtable-port", encoder=RawEncoder)
    return 20000 + int.from_bytes(digest, "big") % 40000


def endpoint_secret(seed: bytes) -> bytes:
    """The endpoint's Ed25519 secret, derived from the peer's identity seed (one-way)."""
    return bytes(blake2b(seed, digest_size=32, person=b"sandtable-quic", encoder=RawEncoder))


def _iroh_reason(err: BaseException) -> str:
    message = getattr(err, "message", None)
    if callable(message):
        with contextlib.suppress(Exception):
            return str(message())
    return str(err) or type(err).__name__


def stream_opener(transport: QuicTransport | None, host: str, timeout: float
                  ) -> Callable[[str, int], Awaitable[tuple[QuicReader, QuicWriter]]] | None:
    """How a link reaches an address: None (TCP) for a host; QUIC for an endpoint ticket,
    which is never looked up as a host name, even where no endpoint is open."""
    if not is_ticket_address(host):
        return None

    async def open_stream(ticket: str, _port: int) -> tuple[QuicReader, QuicWriter]:
        if transport is None:
            raise ConnectionRefusedError("no internet endpoint here (host or join with "
                                         "--internet to reach peers over the internet)")
        return await transport.open(ticket, timeout)

    return open_stream


class LoopTurns:
    """Numbers the turns of the event loop in which someone asks (one callback per such turn,
    however many writers ask in it)."""

    def __init__(self) -> None:
        self._count = 0
        self._counting = False

    def now(self) -> int:
        if not self._counting:
            self._counting = True
            asyncio.get_running_loop().call_soon(self._next)
        return self._count

    def _next(self) -> None:
        self._count += 1
        self._counting = False


class QuicReader:
    """The receiving half of a bi-stream, read like an asyncio StreamReader. The binding
    allocates and zeroes a buffer of the size asked for on every read: a read asks for a
    small one unless the last read filled its own (a burst), then for what the caller asked."""

    def __init__(self, recv: iroh.RecvStream) -> None:
        self._recv = recv
        self._eof = False
        self._chunk = SMALL_READ

    async def read(self, n: int = -1) -> bytes:
        if self._eof:
            return b""
        size = min(n if n > 0 else READ_MAX, self._chunk)
        try:
            data = await self._recv.read(size)
        except Exception as err:  # a reset stream or a lost connection
            raise ConnectionResetError(f"QUIC stream: {_iroh_reason(err)}") from None
        if not data:
            self._eof = True
        self._chunk = READ_MAX if len(data) >= size else SMALL_READ
        return bytes(data)


class QuicWriter:
    """The sending half of a bi-stream, written like an asyncio StreamWriter. A write with
    nothing ahead of it goes into the stream at once (as a socket write does); what else is
    written in the same turn of the loop, or while a call waits for the peer's flow control,
    is buffered and sent in order by a pump task, one call per turn. It is its own
    ``transport`` (buffer size, closing)."""

    def __init__(self, conn: iroh.Connection, send: iroh.SendStream, remote: str,
                 turns: LoopTurns) -> None:
        self._conn, self._send, self.remote = conn, send, remote
        self._buffer = bytearray()
        self._wake = asyncio.Event()
        self._drained = asyncio.Event()
        self._drained.set()
        self._closing = False
        self._error: BaseException | None = None
        self._turns = turns
        self._sent_in = -1  # the turn of the loop in which a write last went out at once
        self._pump_idle = False
        self._sending: asyncio.Future[None] | None = None  # a write started at once, waiting
        self._in_flight = 0  # bytes handed to a call still waiting (the peer's flow control)
        self._pump = asyncio.ensure_future(self._run())
        self._closer: asyncio.Task[None] | None = None

    @property
    def transport(self) -> QuicWriter:
        return self

    def get_write_buffer_size(self) -> int:
        return len(self._buffer) + self._in_flight

    def is_closing(self) -> bool:
        return self._closing

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"quic_remote": self.remote}.get(name, default)

    def write(self, data: bytes) -> None:
        if self._error is not None:
            raise ConnectionResetError(str(self._error))
        if self._closing:
            raise ConnectionResetError("QUIC stream is closing")
        turn = self._turns.now()
        if self._buffer or self._sent_in == turn or not self._pump_idle \
                or self._sending is not None:
            self._buffer += data
            self._drained.clear()
            self._wake.set()
            return
        self._sent_in = turn
        try:
            self._sending = start_eagerly(self._send.write_all(bytes(data)))
        except Exception as err:  # a reset stream or a lost connection: the next write says so
            self._failed(err)
            return
        if self._sending is not None:  # flow control: the pump finishes it, then sends the rest
            self._in_flight = len(data)
            self._drained.clear()
            self._wake.set()

    def _failed(self, err: BaseException) -> None:
        self._error = ConnectionResetError(f"QUIC stream: {_iroh_reason(err)}")
        self._buffer.clear()
        self._in_flight = 0
        self._drained.set()

    async def drain(self) -> None:
        while self.get_write_buffer_size() > WRITE_HIGH_WATER \
                or (self._buffer and self._pump.done()):
            if self._error is not None:
                raise ConnectionResetError(str(self._error))
            await self._drained.wait()
        if self._error is not None:
            raise ConnectionResetError(str(self._error))

    async def _run(self) -> None:
        try:
            while True:
                self._pump_idle = True
                await self._wake.wait()
                self._pump_idle = False
                self._wake.clear()
                if self._sending is not None:
                    await self._sending
                    self._sending, self._in_flight = None, 0
                while self._buffer:
                    chunk = bytes(self._buffer)
                    del self._buffer[:]
                    self._in_flight = len(chunk)
                    await self._send.write_all(chunk)
                    self._in_flight = 0
                self._drained.set()
                if self._closing:
                    await self._send.finish()
                    return
        except Exception as err:
            self._failed(err)

    def close(self) -> None:
        """Send what is buffered, end the stream, then close the connection (in a task of its
        own: a caller that stops waiting does not leave the connection open)."""
        if self._closing:
            return
        self._closing = True
        self._wake.set()
        self._closer = asyncio.ensure_future(self._close())

    async def _close(self) -> None:
        # QUIC drops what the peer has not acknowledged when a connection closes (TCP would
        # still deliver it): wait until the peer has read the stream to its end (a bye, the
        # last ops), bounded, before closing.
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.shield(self._pump), DRAIN_TIMEOUT)
        if self._error is None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._send.stopped(), DRAIN_TIMEOUT)
        with contextlib.suppress(Exception):
            self._conn.close(0, b"closed")

    def abort(self) -> None:
        """Close at once, nothing flushed (what admission does to a connection it drops)."""
        self._closing = True
        self._buffer.clear()
        self._pump.cancel()
        if self._sending is not None:
            self._sending.cancel()
        with contextlib.suppress(Exception):
            self._conn.close(0, b"dropped")

    @property
    def closer(self) -> asyncio.Task[None] | None:
        return self._closer

    async def wait_closed(self) -> None:
        if self._closer is not None:
            await asyncio.shield(self._closer)


class QuicTransport:
    """One iroh endpoint: dial tickets, hand accepted streams to ``on_stream``."""

    def __init__(self, endpoint: iroh.Endpoint, settings: QuicSettings) -> None:
        self.endpoint = endpoint
        self.settings = settings
        self._accepting: asyncio.Task[None] | None = None
        self._connections: set[iroh.Connection] = set()
        self._taking: set[asyncio.Task[None]] = set()  # held: a task nobody holds may vanish
        self._writers: set[QuicWriter] = set()  # so that close() lets their last bytes arrive
        self._turns = LoopTurns()  # one per endpoint: its writers share one count of turns

    @classmethod
    async def bind(cls, seed: bytes, settings: QuicSettings) -> QuicTransport:
        lighten_binding()
        drive_calls_inline()
        if settings.relay == RELAY_OFF:
            preset, relay = iroh.preset_minimal(), iroh.RelayMode.disabled()
        elif settings.relay == RELAY_DEFAULT:
            preset, relay = iroh.preset_n0(), iroh.RelayMode.default_mode()
        else:
            preset, relay = iroh.preset_minimal(), iroh.RelayMode.custom_from_urls([settings.relay])
        ports = [settings.port] if settings.port else [usual_port(seed), 0]  # 0: any free one
        for port in ports:
            options = iroh.EndpointOptions(preset=preset, bind_addr=f"{settings.bind_host}:{port}",
                                           secret_key=endpoint_secret(seed), alpns=[ALPN],
                                           relay_mode=relay)
            try:
                endpoint = await iroh.Endpoint.bind(options)
                break
            except Exception as err:
                if port == ports[-1]:
                    raise OSError(f"cannot open the internet endpoint on UDP port {port}: "
                                  f"{_iroh_reason(err)}") from None
        for address in settings.external:
            try:
                await endpoint.add_external_addr(address)
            except Exception as err:
                await endpoint.close()
                raise OSError(f"bad external address {address!r}: {_iroh_reason(err)}") from None
        if settings.relay != RELAY_OFF:  # wait (a little) for a home relay, so tickets name it
            with contextlib.suppress(Exception):
                await asyncio.wait_for(endpoint.online(), 5.0)
        return cls(endpoint, settings)

    @property
    def endpoint_id(self) -> str:
        return str(self.endpoint.id())

    def ticket(self) -> str:
        """This endpoint's address as a ticket (id, relay URL, direct addresses)."""
        return str(iroh.EndpointTicket.from_addr(self.endpoint.addr()))

    def serve(self, on_stream: StreamHandler) -> None:
        self._accepting = asyncio.ensure_future(self._accept_loop(on_stream))

    async def _accept_loop(self, on_stream: StreamHandler) -> None:
        while True:
            try:
                incoming = await self.endpoint.accept_next()
            except Exception as err:
                log.warning("internet endpoint stopped accepting: %s", _iroh_reason(err))
                return
            if incoming is None:  # the endpoint closed
                return
            task = asyncio.ensure_future(self._take(incoming, on_stream))
            self._taking.add(task)
            task.add_done_callback(self._taking.discard)

    async def _take(self, incoming: iroh.Incoming, on_stream: StreamHandler) -> None:
        conn: iroh.Connection | None = None
        try:
            accepting = await incoming.accept()
            conn = await asyncio.wait_for(accepting.connect(), ACCEPT_STREAM_TIMEOUT)
            bi = await asyncio.wait_for(conn.accept_bi(), ACCEPT_STREAM_TIMEOUT)
        except Exception as err:  # a stranger that never opened a stream, a bad ALPN
            log.info("internet connection dropped before its stream: %s", _iroh_reason(err))
            if conn is not None:
                with contextlib.suppress(Exception):
                    conn.close(1, b"no stream")
            return
        remote = f"quic:{conn.remote_id().fmt_short()}"
        self._connections.add(conn)
        try:
            await on_stream(QuicReader(bi.recv()), self._writer(conn, bi.send(), remote), remote)
        finally:
            self._connections.discard(conn)

    async def open(self, ticket: str, timeout: float) -> tuple[QuicReader, QuicWriter]:
        """A connection and its bi-stream to the endpoint a ticket names."""
        try:
            addr = read_endpoint_ticket(ticket)
        except TicketError as err:
            raise ConnectionRefusedError(str(err)) from None
        try:
            conn = await asyncio.wait_for(self.endpoint.connect(addr, ALPN), timeout)
            bi = await conn.open_bi()
        except TimeoutError:
            raise ConnectionRefusedError("no internet path to that endpoint (timed out)") from None
        except Exception as err:
            raise ConnectionRefusedError(f"internet connect failed: {_iroh_reason(err)}") from None
        remote = f"quic:{conn.remote_id().fmt_short()}"
        return QuicReader(bi.recv()), self._writer(conn, bi.send(), remote)

    def _writer(self, conn: iroh.Connection, send: iroh.SendStream, remote: str) -> QuicWriter:
        writer = QuicWriter(conn, send, remote, self._turns)
        self._writers.add(writer)
        if len(self._writers) > 64:  # forget the ones long closed
            self._writers = {w for w in self._writers if w.closer is None or not w.closer.done()}
        return writer

    async def close(self) -> None:
        if self._accepting is not None:
            self._accepting.cancel()
        for task in list(self._taking):
            task.cancel()
        closing = [w.closer for w in self._writers if w.closer is not None and not w.closer.done()]
        if closing:  # the links' last bytes (their bye) reach the peers first
            await asyncio.wait(closing, timeout=DRAIN_TIMEOUT)
        for conn in list(self._connections):
            with contextlib.suppress(Exception):
                conn.close(0, b"leaving")
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.endpoint.close(), 3.0)
