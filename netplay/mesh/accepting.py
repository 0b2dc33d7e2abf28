"""An accepted connection's way to its handshake (the rules are :mod:`netplay.mesh.admission`'s):
an idle place until its first bytes arrive, then a handshake slot.

The responder's handshake starts only once the dialler has spoken (its hello; a table probe
sends ``probe``): the responder's hello costs a key exchange (SPAKE2: some 20 ms of CPU), which
a flood of silent connections must not be able to make it pay. The link then reads the
connection through :class:`HeardReader`, which tells the admission when bytes arrive (a
handshake that goes silent can be reclaimed; one that talks cannot).
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import Callable
from typing import Any, Protocol, cast

from netplay.link.framing import write_frame
from netplay.link.link import Link
from netplay.link.streams import READ_CHUNK
from netplay.mesh.admission import BUSY_LOG_EVERY, BUSY_REASON, Admission, AdmissionLimits, Ticket
from netplay.mesh.config import MeshConfig
from netplay.protocol.handshake import PROTOCOL_VERSION
from netplay.protocol.wire import encode_frame, pack

log = logging.getLogger("netplay.mesh.mesh")  # where the busy warning always was
# what a dialler that never spoke reads before the connection closes (protocol 1's dialler
# waited for the responder's hello)
SILENT_REASON = (f"this table speaks protocol {PROTOCOL_VERSION}, where the dialler sends its "
                 "hello first")


class AcceptingMesh(Protocol):
    """What taking an accepted connection uses of its mesh."""

    admission: Admission
    config: MeshConfig

    @property
    def peer_id(self) -> str: ...
    @property
    def running(self) -> bool: ...
    def now(self) -> float: ...
    def track(self, task: asyncio.Task[Any]) -> asyncio.Task[Any]: ...
    def new_link(self) -> Link: ...
    def refused(self, link: Link, address: str) -> bool: ...


async def take_connection(mesh: AcceptingMesh, reader: Any, writer: Any,
                          address: str | None) -> None:
    """An accepted stream (TCP, or QUIC with the remote endpoint as ``address``): admitted,
    then handed to a link for its handshake. Nothing it does takes the listener down."""
    handler = asyncio.current_task()  # the server's task for this connection
    if handler is not None:
        mesh.track(handler)
    peer = writer.get_extra_info("peername")
    if address is None:
        address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
    try:
        if not mesh.running:
            writer.close()
            return
        admitted = await admit(mesh.admission, address, reader, writer, mesh.now,
                               mesh.config.link.hello_timeout, mesh.peer_id)
        if admitted is None:
            return  # busy (and told so), or silent, gone, or closed for a newcomer
        ticket, heard = admitted
        try:
            link = mesh.new_link()
            if await link.accept(cast(asyncio.StreamReader, heard), writer):
                pass
            elif not mesh.refused(link, link.via or address) and link.via and not link.peer_id:
                # a failed handshake (no probes come over the internet): worth a warning
                log.warning("mesh %s: refused %s: %s", mesh.peer_id, link.via, link.close_reason)
        finally:
            mesh.admission.release(ticket)
    except asyncio.CancelledError:
        writer.close()
    except Exception:  # never let one connection take the listener down
        log.exception("mesh %s: unexpected error on an incoming connection", mesh.peer_id)
        writer.close()


class HeardReader:
    """The connection's reader as its link reads it (only ``read`` is used): first the bytes
    already read, then the stream, telling the admission each time more bytes arrive."""

    def __init__(self, first: bytes, reader: asyncio.StreamReader,
                 on_data: Callable[[], None]) -> None:
        self._first, self._reader, self._on_data = first, reader, on_data

    @property
    def stream(self) -> asyncio.StreamReader:
        """The stream read (an open link takes its connection over: netplay.link.direct)."""
        return self._reader

    async def read(self, n: int = -1) -> bytes:
        if self._first:
            data, self._first = self._first, b""
            return data
        data = await self._reader.read(n)
        if data:
            self._on_data()
        return data


async def admit(admission: Admission, address: str, reader: asyncio.StreamReader,
                writer: asyncio.StreamWriter, now: Callable[[], float], hello_timeout: float,
                me: str = "") -> tuple[Ticket, HeardReader] | None:
    """Wait for the connection's first bytes in the idle pool (closing the longest-waiting
    idle connection if the pool is full), then take a handshake slot. Returns the ticket
    (release it when the handshake ends) and the reader for the link; or None: the table was
    busy (the dialler is told so, and retries), or the connection stayed silent for
    ``hello_timeout``, went away, or was closed for a newcomer."""
    transport = writer.transport
    ticket = admission.open(address, now(), transport.abort,  # a flood's: no goodbye
                            lambda: _bytes_waiting(reader, writer))
    if ticket is None:
        await _busy(admission, address, writer, now(), me)
        return None
    silent = False
    try:
        first = await asyncio.wait_for(reader.read(READ_CHUNK), hello_timeout)
    except TimeoutError:
        first, silent = b"", True
    except (OSError, ConnectionError):
        first = b""
    if not first or ticket.done:
        evicted = ticket.done  # closed for a newcomer already
        admission.release(ticket)
        if silent and not evicted:  # perhaps a peer of protocol 1, waiting for our hello
            with contextlib.suppress(Exception):
                writer.write(encode_frame(pack({"t": "reject", "reason": SILENT_REASON})))
            writer.close()
        else:
            transport.abort()
        return None
    if not admission.started(ticket, now()):
        admission.release(ticket)
        await _busy(admission, address, writer, now(), me)
        return None
    return ticket, HeardReader(first, reader, lambda: admission.heard(ticket, now()))


def _bytes_waiting(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bool:
    """Bytes arrived on the connection that no one has read: in the reader's buffer (asyncio
    read them from the socket) or still in the kernel's (peeked, nothing consumed)."""
    if getattr(reader, "_buffer", b""):  # asyncio's StreamReader keeps them there
        return True
    sock = writer.get_extra_info("socket")
    if sock is None:
        return False
    try:
        with socket.fromfd(sock.fileno(), sock.family, sock.type) as peek:  # a dup: ours
            return bool(peek.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT))
    except (BlockingIOError, InterruptedError):
        return False
    except OSError:  # reset or gone: nothing to keep it for
        return False


async def _busy(admission: Admission, address: str, writer: asyncio.StreamWriter, now: float,
                me: str) -> None:
    """Say "busy" (a plaintext reject, which a dialler reads instead of a hello) and hang
    up, so that a joiner retries instead of concluding that nobody is there."""
    if now - admission.busy_logged >= BUSY_LOG_EVERY:  # a flood: log once in a while
        admission.busy_logged = now
        log.warning("mesh %s: too many handshakes pending (from %s); refusing connections for "
                    "now", me, address)
    with contextlib.suppress(Exception):
        await asyncio.wait_for(
            write_frame(writer, pack({"t": "reject", "reason": BUSY_REASON})), 1.0)
    writer.close()


def room_for_connections(limits: AdmissionLimits) -> None:
    """Raise this process's open-file limit (soft, up to the hard one) to hold the idle pool
    and the handshakes with room to spare: at the usual default of 1,024 a flood would make
    the listener's accept() fail for everyone, the joiner included."""
    try:
        import resource
    except ImportError:  # not on this platform (Windows: no such limit to raise)
        return
    want = 2 * (limits.idle + limits.handshakes) + 512
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < want:
        target = want if hard == resource.RLIM_INFINITY else min(want, hard)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
