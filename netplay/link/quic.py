"""The internet transport: links over QUIC bi-streams between iroh endpoints.

A link does not care what carries its bytes: a QUIC bi-stream is read and written like an
asyncio stream (:mod:`netplay.link.quic_streams`), so framing, the handshake, encryption and
everything above run unchanged over either transport.

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

import iroh
from nacl.encoding import RawEncoder
from nacl.hash import blake2b

from netplay.link.addresses import is_ticket_address
from netplay.link.quic_bytes import lighten_binding
from netplay.link.quic_calls import drive_calls_inline
from netplay.link.quic_streams import DRAIN_TIMEOUT, LoopTurns, QuicReader, QuicWriter, iroh_reason

log = logging.getLogger(__name__)

ALPN = b"sandtable/1"
RELAY_OFF = "off"
RELAY_DEFAULT = "default"
ACCEPT_STREAM_TIMEOUT = 5.0  # an incoming connection must open its stream this soon
NO_ENDPOINT = "no internet endpoint here"  # a ticket dialled by a peer that has none open

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
        raise TicketError(f"not an endpoint ticket ({iroh_reason(err)})") from None


def usual_port(seed: bytes) -> int:
    """The UDP port this peer's endpoint tries first (from its identity): the same after a
    restart, so the tickets the other peers hold for it stay good."""
    digest = blake2b(seed, digest_size=4, person=b"sandtable-port", encoder=RawEncoder)
    return 20000 + int.from_bytes(digest, "big") % 40000


def endpoint_secret(seed: bytes) -> bytes:
    """The endpoint's Ed25519 secret, derived from the peer's identity seed (one-way)."""
    return bytes(blake2b(seed, digest_size=32, person=b"sandtable-quic", encoder=RawEncoder))


def stream_opener(transport: QuicTransport | None, host: str, timeout: float
                  ) -> Callable[[str, int], Awaitable[tuple[QuicReader, QuicWriter]]] | None:
    """How a link reaches an address: None (TCP) for a host; QUIC for an endpoint ticket,
    which is never looked up as a host name, even where no endpoint is open."""
    if not is_ticket_address(host):
        return None

    async def open_stream(ticket: str, _port: int) -> tuple[QuicReader, QuicWriter]:
        if transport is None:
            raise ConnectionRefusedError(f"{NO_ENDPOINT} (host or join with --internet to "
                                         "reach peers over the internet)")
        return await transport.open(ticket, timeout)

    return open_stream


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
                                  f"{iroh_reason(err)}") from None
        for address in settings.external:
            try:
                await endpoint.add_external_addr(address)
            except Exception as err:
                await endpoint.close()
                raise OSError(f"bad external address {address!r}: {iroh_reason(err)}") from None
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
                log.warning("internet endpoint stopped accepting: %s", iroh_reason(err))
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
            log.info("internet connection dropped before its stream: %s", iroh_reason(err))
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
            raise ConnectionRefusedError(f"internet connect failed: {iroh_reason(err)}") from None
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
