"""The asyncio side of the sans-IO protocol objects: move their bytes over a stream.

Only this module and ``netplay.link.link`` touch sockets; the protocol itself (framing, handshake,
encryption, message checks) lives in objects fed bytes, tested without any connection.
"""



from __future__ import annotations

import asyncio
import contextlib
import socket

from netplay.protocol.handshake import (
    DEFAULT_TIMEOUT,
    WRONG_PASSPHRASE,
    Established,
    Handshake,
    HandshakeError,
    Rejected,
    Step,
)
from netplay.protocol.identity import Identity
from netplay.protocol.wire import DEFAULT_LIMITS, WireLimits

READ_CHUNK = 64 * 1024  # bytes asked of a stream per read (the handshake, a link, a listener)


async def run_handshake(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, handshake: Handshake
) -> Established | Rejected:
    """Drive ``handshake`` (not started yet) over a connection until it succeeds or fails.

    The deadline is the handshake's own, read on its clock: give it the loop's clock
    (``clock=loop.time``) so the waits here and its :meth:`~Handshake.poll` agree.
    A socket error is a :class:`Rejected` too; this never raises but CancelledError.
    """
    loop = asyncio.get_running_loop()
    step = Step(handshake.start())
    try:
        while True:
            if step.send:
                writer.write(step.send)
                if step.event is not None:  # a last reject: best effort, keep the real reason
                    with contextlib.suppress(OSError, ConnectionError):
                        await writer.drain()
                else:
                    await writer.drain()
            if step.event is not None:
                return step.event
            step = handshake.poll()
            if step.event is not None:
                continue
            try:
                data = await asyncio.wait_for(reader.read(READ_CHUNK),
                                              max(0.0, handshake.deadline - loop.time()))
            except TimeoutError:
                continue  # poll() rejects it on the next turn
            step = handshake.feed(data) if data else handshake.connection_lost()
    except (OSError, ConnectionError) as exc:
        # A reset or broken pipe is the stream ending too: after our auth, that is the peer
        # failing to decrypt it (the documented wrong-passphrase error, not "Broken pipe").
        lost = handshake.connection_lost().event
        if isinstance(lost, Rejected) and lost.reason == WRONG_PASSPHRASE:
            return lost
        error = HandshakeError(f"connection error during handshake: {exc or type(exc).__name__}")
        return Rejected(error.reason, error)


async def perform_handshake(
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
    identity: Identity,
    table_id: str,
    passphrase: str | None,
    initiator: bool,
    listen_port: int = 0,
    limits: WireLimits = DEFAULT_LIMITS,
    timeout: float = DEFAULT_TIMEOUT,
) -> Established:
    """Run a handshake on a fresh connection; raise its typed error if it fails
    (AuthError, HandshakeError). Bytes read past it are in ``leftover``."""
    loop = asyncio.get_running_loop()
    handshake = Handshake(identity, table_id, passphrase, initiator=initiator,
                          listen_port=listen_port, limits=limits, clock=loop.time, timeout=timeout)
    outcome = await run_handshake(reader, writer, handshake)
    if isinstance(outcome, Rejected):
        raise outcome.error
    return outcome


def tune_socket(writer: asyncio.StreamWriter, dead_after: float) -> None:
    """Keepalive and a TCP user timeout, so that the kernel gives up on a dead peer about as
    soon as the heartbeat does instead of retransmitting for minutes."""
    sock = writer.get_extra_info("socket")
    if sock is None:
        return
    options = [(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1),
               (socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)]
    for name, value in (("TCP_KEEPIDLE", max(1, int(dead_after / 2))), ("TCP_KEEPINTVL", 1),
                        ("TCP_KEEPCNT", 3), ("TCP_USER_TIMEOUT", int(dead_after * 1000))):
        if hasattr(socket, name):  # Linux names; other systems keep their defaults
            options.append((socket.IPPROTO_TCP, getattr(socket, name), value))
    for level, option, value in options:
        with contextlib.suppress(OSError):
            sock.setsockopt(level, option, value)

