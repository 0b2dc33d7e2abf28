"""One link: a single connection to one peer (TCP, or a QUIC bi-stream), from handshake to
close.

States: CONNECTING -> HANDSHAKING -> OPEN -> CLOSING -> CLOSED (any state may go straight to
CLOSING or CLOSED). Only :meth:`Link._set_state` changes the state.

A link never raises into the program because of what the peer sends: a malformed, oversized,
unknown or undecryptable frame, a handshake failure, a heartbeat timeout or a socket error
closes the link, logs ``peer id + reason`` and records ``close_reason``.

Received messages (decoded and checked: :class:`~netplay.protocol.channel.Received`, the
message with the bytes it came as) go to ``on_message(link, received)`` when given, otherwise
to an inbox read with ``async for msg in link.messages()``. ``hb`` and ``bye`` are handled by
the link itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import Any

from netplay.link.direct import take_over
from netplay.link.heartbeat import keep_alive
from netplay.link.inbound import Inbound
from netplay.link.link_state import TRANSITIONS, LinkConfig, LinkState
from netplay.link.outbox import Outbox, PackedMessage
from netplay.link.streams import run_handshake, tune_socket
from netplay.protocol.channel import MessageChannel, Received
from netplay.protocol.handshake import Handshake, Rejected
from netplay.protocol.identity import Identity
from netplay.protocol.messages import HANDSHAKE_KINDS, Bye, Heartbeat, Message, wire_form
from netplay.protocol.secure import FrameCipher
from netplay.protocol.wire import ProtocolError, pack

log = logging.getLogger(__name__)


MessageHandler = Callable[["Link", Received], None]
LinkHandler = Callable[["Link"], None]
OpenHandler = Callable[["Link"], bool]
# Opens a byte stream to an address for a transport other than TCP (netplay.link.quic).
StreamOpener = Callable[[str, int], Awaitable[tuple[Any, Any]]]

_STOP = object()
# How a dial that never got a stream to the address begins its reason (a joiner may try again)
CONNECT_FAILED = "connect to"


class Link:
    """A connection to one peer. Create it, then call :meth:`connect` or :meth:`accept`."""

    def __init__(
        self,
        identity: Identity,
        table_id: str,
        passphrase: str | None = None,
        *,
        config: LinkConfig | None = None,
        listen_port: int = 0,
        on_message: MessageHandler | None = None,
        on_open: OpenHandler | None = None,
        on_closed: LinkHandler | None = None,
        on_run_end: LinkHandler | None = None,
        on_closing: LinkHandler | None = None,
    ) -> None:
        self.identity = identity
        self.table_id = table_id
        self._passphrase = passphrase
        self.config = config or LinkConfig()
        self.listen_port = listen_port
        self.on_message = on_message
        self.on_open = on_open
        self.on_closed = on_closed
        self.on_run_end = on_run_end  # after messages that arrived together (Received.more)
        self.on_closing = on_closing  # an open link begins to close (before it has closed)

        self._state = LinkState.CONNECTING
        self.initiator = False
        self.peer_id: str | None = None
        self.peer_key: bytes | None = None
        self.peer_port = 0  # the peer's listening port (dialed port, or the one its hello gave)
        self.advertised_port = 0
        self.remote_host: str | None = None
        self.via: str | None = None  # "quic:<endpoint>" for a link over the QUIC transport
        self.close_reason: str | None = None
        self.close_error: Exception | None = None  # the handshake's typed error, if it failed

        self._reader: asyncio.StreamReader | None = None
        self._writer: Any = None  # the stream's writer, or a DirectWriter once taken over
        self._direct = False  # read by DirectProtocol's callbacks, not by a read task
        self._channel: MessageChannel | None = None
        self._inbound: Inbound | None = None  # the receiving half, once open
        self._outbox: Outbox | None = None  # the sending half, once open
        self._inbox: asyncio.Queue[Any] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._writer_task: asyncio.Task[None] | None = None
        self._closer: asyncio.Task[None] | None = None
        self._closed = asyncio.Event()
        # the kinds the link handles itself, before the handler sees anything
        self._own_kinds: dict[type[Message], Callable[[Message], None]] = {
            Heartbeat: self._on_heartbeat, Bye: self._on_bye}

    # ----------------------------------------------------------------- state
    @property
    def state(self) -> LinkState:
        return self._state

    @property
    def is_open(self) -> bool:
        return self._state is LinkState.OPEN

    @property
    def label(self) -> str:
        if self.peer_id:
            return self.peer_id
        if self.via is not None:
            return self.via
        if self.remote_host is not None:
            return f"{self.remote_host}:{self.peer_port or '?'}"
        return "?"

    def _set_state(self, new: LinkState) -> None:
        if new not in TRANSITIONS[self._state]:
            raise RuntimeError(f"link {self.label}: illegal transition {self._state.value} -> {new.value}")
        log.debug("link %s: %s -> %s", self.label, self._state.value, new.value)
        self._state = new

    # ------------------------------------------------------------- open
    async def connect(self, host: str, port: int, opener: StreamOpener | None = None) -> bool:
        """Dial ``host:port`` (TCP; or through ``opener``, another transport's stream to that
        address) and run the handshake as initiator. True once the link is open."""
        self.initiator = True
        self.remote_host, self.peer_port = host, port
        try:
            opening = opener(host, port) if opener is not None else \
                asyncio.open_connection(host, port)
            reader, writer = await asyncio.wait_for(opening, self.config.connect_timeout)
        except (TimeoutError, OSError) as exc:
            where = f"{host}:{port}" if opener is None else host[:24] + "..."
            why = str(exc) or (f"no answer within {self.config.connect_timeout:g} s"
                               if isinstance(exc, TimeoutError) else type(exc).__name__)
            self._fail_before_open(f"{CONNECT_FAILED} {where} failed: {why}")
            return False
        tune_socket(writer, self.config.dead_after)
        self.via = writer.get_extra_info("quic_remote")
        return await self._handshake(reader, writer)

    async def accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bool:
        """Run the handshake as responder on an accepted connection. True once open."""
        self.initiator = False
        peer = writer.get_extra_info("peername")
        if isinstance(peer, tuple) and len(peer) >= 2:
            self.remote_host, self.peer_port = str(peer[0]), 0
        self.via = writer.get_extra_info("quic_remote")
        tune_socket(writer, self.config.dead_after)
        return await self._handshake(reader, writer)

    def _fail_before_open(self, reason: str) -> None:
        self.close_reason = reason
        log.info("link %s failed: %s", self.label, reason)
        if self._state is not LinkState.CLOSED:
            self._set_state(LinkState.CLOSED)
        self._closed.set()
        self._inbox.put_nowait(_STOP)
        self._notify_closed()

    async def _handshake(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bool:
        self._reader, self._writer = reader, writer
        self._set_state(LinkState.HANDSHAKING)
        # A responder drops a connection whose hello does not start within hello_timeout: idle
        # connections must not hold a handshake slot for the whole handshake timeout.
        handshake = Handshake(
            self.identity, self.table_id, self._passphrase, initiator=self.initiator,
            listen_port=self.listen_port, limits=self.config.limits,
            clock=asyncio.get_running_loop().time, timeout=self.config.handshake_timeout,
            hello_timeout=None if self.initiator else self.config.hello_timeout,
        )
        try:
            result = await run_handshake(reader, writer, handshake)
        except asyncio.CancelledError:
            writer.close()
            self._fail_before_open("cancelled during the handshake")
            raise
        if isinstance(result, Rejected):
            writer.close()
            self.close_error = result.error
            self._fail_before_open(result.reason)
            return False
        self.peer_id, self.peer_key = result.peer_id, result.peer_key
        self.advertised_port = result.peer_port
        if not self.initiator:
            self.peer_port = result.peer_port
        channel = self._open_halves(result.cipher, result.leftover)
        if not self._kept_by_owner():
            if self._state is LinkState.OPEN:
                reason = self.close_reason or "refused after the handshake"
                with contextlib.suppress(Exception):  # tell the peer why, best effort
                    writer.write(channel.frame(pack({"t": "bye", "reason": reason[:200]})))
                self._begin_close(reason, graceful=False, quiet=True)
            return False
        if self._state is not LinkState.OPEN:
            return False
        self._start_pumps()
        log.info("link %s open (%s)", self.label, "initiator" if self.initiator else "responder")
        return True

    def _open_halves(self, cipher: FrameCipher, leftover: bytes) -> MessageChannel:
        """The link's two halves over the cipher agreed on; the connection taken over by
        :mod:`netplay.link.direct` when it can be (else read by a task, :meth:`_start_pumps`)."""
        self._channel = MessageChannel(cipher, self.config.limits)
        owner_end = self.on_run_end
        run_end = (lambda: owner_end(self)) if owner_end is not None else None
        inbound = self._inbound = Inbound(
            self._channel, leftover, asyncio.get_running_loop().time,
            lambda received: self._dispatch(received), lambda: self._state is LinkState.OPEN,
            self._drop, run_end)
        direct = take_over(self._reader, self._writer, inbound.take, inbound.ended)
        if direct is not None:
            self._writer, held = direct
            self._direct = True
            inbound.pending += held
        self._outbox = Outbox(self._writer, self._channel, self.config.send_queue_max,
                              self._drop, lambda: self.label)
        self._set_state(LinkState.OPEN)
        return self._channel

    @property
    def messages_received(self) -> int:
        return self._inbound.received if self._inbound is not None else 0

    def _kept_by_owner(self) -> bool:
        """The mesh's say on a link just opened (a duplicate, a full table, a key that differs)."""
        if self.on_open is None:
            return True
        try:
            return self.on_open(self)
        except Exception:
            log.exception("link %s: on_open handler failed", self.label)
            return False

    def _start_pumps(self) -> None:
        assert self._outbox is not None
        self._writer_task = asyncio.ensure_future(self._outbox.run())
        self._tasks = [self._writer_task, asyncio.ensure_future(keep_alive(self))]
        assert self._inbound is not None and self._reader is not None
        if self._direct:  # bytes that came with the handshake, next turn (as a read task would)
            asyncio.get_running_loop().call_soon(self._inbound.take, b"")
        else:
            self._tasks.append(asyncio.ensure_future(self._inbound.read_loop(self._reader)))

    # ------------------------------------------------------------- send
    def send(self, msg: Message | Mapping[str, Any]) -> bool:
        """Send a message to the peer (at once when nothing waits ahead of it, else queued:
        :mod:`netplay.link.outbox`). False if the link is not open.

        Raises ProtocolError if *our* message is invalid or too large (a bug in the caller).
        """
        if self._state is not LinkState.OPEN or self._outbox is None:
            return False
        return self._outbox.send(wire_form(msg))

    def send_packed(self, packed: PackedMessage) -> bool:
        """Send a message already checked and packed once (:func:`pack_message`), e.g. the
        same broadcast for every link. False if the link is not open."""
        if self._state is not LinkState.OPEN or self._outbox is None:
            return False
        return self._outbox.send(packed)

    @property
    def messages_sent(self) -> int:
        return self._outbox.sent if self._outbox is not None else 0

    def _drop(self, reason: str) -> None:
        self._begin_close(reason, graceful=False)

    # ------------------------------------------------------------- receive
    def _dispatch(self, received: Received) -> None:
        msg = received.message
        own = self._own_kinds.get(type(msg))
        if own is not None:
            own(msg)
            return
        if isinstance(msg, HANDSHAKE_KINDS):
            raise ProtocolError(f"handshake message {msg.T!r} on an open link")
        if self._state is not LinkState.OPEN:
            return
        if self.on_message is None:
            self._inbox.put_nowait(msg)
            return
        try:
            self.on_message(self, received)
        except ProtocolError:
            raise
        except Exception:
            log.exception("link %s: handler failed on %r message", self.label, msg.T)
            raise ProtocolError(f"internal error handling {msg.T!r} message") from None

    def _on_heartbeat(self, _msg: Message) -> None:
        """Nothing to do: every message received, this one too, keeps the link alive."""

    def _on_bye(self, msg: Message) -> None:
        assert isinstance(msg, Bye)
        self._begin_close(f"peer closed: {msg.reason[:200]}", graceful=False, quiet=True)

    async def messages(self) -> AsyncIterator[Message]:
        """Received messages, until the link closes (only when no on_message is set)."""
        while True:
            msg = await self._inbox.get()
            if msg is _STOP:
                self._inbox.put_nowait(_STOP)
                return
            yield msg

    @property
    def last_heard(self) -> float:
        """When the last frame came (the link's clock); -inf before the link opened."""
        return self._inbound.last_recv if self._inbound is not None else float("-inf")

    # ------------------------------------------------------------- close
    def close(self, reason: str = "closed") -> None:
        """Close gracefully: send ``bye``, flush briefly, close the socket. Idempotent."""
        self._begin_close(reason, graceful=True)

    async def aclose(self, reason: str = "closed") -> None:
        self.close(reason)
        await self.wait_closed()

    async def wait_closed(self) -> None:
        await self._closed.wait()

    def abort(self, reason: str) -> None:
        """Drop the connection at once, without a bye (e.g. a protocol violation)."""
        self._begin_close(reason, graceful=False)

    def drop_socket(self) -> None:
        """Close the connection's socket now, whatever a close under way still waits for (a
        peer that reads nothing keeps a graceful close flushing): the mesh is stopping and
        will not wait longer, and a socket left to the collector is a leak."""
        writer = self._writer
        if writer is None:
            return
        transport = getattr(writer, "transport", None)
        with contextlib.suppress(Exception):
            if transport is not None:
                transport.abort()  # at once: close() would still flush what is queued
            else:
                writer.close()

    def _begin_close(self, reason: str, graceful: bool, quiet: bool = False) -> None:
        if self._state in (LinkState.CLOSING, LinkState.CLOSED):
            return
        self.close_reason = reason
        if graceful or quiet:
            log.info("link %s closing: %s", self.label, reason)
        else:
            log.warning("link %s dropped: %s", self.label, reason)
        was_open = self._state is LinkState.OPEN
        self._set_state(LinkState.CLOSING)
        if was_open and self.on_closing is not None:
            self.on_closing(self)
        if self._outbox is not None:
            self._outbox.close({"t": "bye", "reason": reason[:200]} if graceful and was_open
                               else None)
        self._closer = asyncio.ensure_future(self._finish_close(graceful and was_open))

    async def _finish_close(self, flush: bool) -> None:
        me = asyncio.current_task()
        writer_task = self._writer_task
        if flush and writer_task is not None and not writer_task.done():
            with contextlib.suppress(asyncio.TimeoutError, Exception):
                await asyncio.wait_for(asyncio.shield(writer_task), self.config.close_timeout)
        for task in self._tasks:
            if task is not me and not task.done():
                task.cancel()
        for task in self._tasks:
            if task is not me:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        if self._writer is not None:
            self._writer.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._writer.wait_closed(), self.config.close_timeout)
        self._set_state(LinkState.CLOSED)
        self._closed.set()
        self._inbox.put_nowait(_STOP)
        self._notify_closed()

    def _notify_closed(self) -> None:
        if self.on_closed is not None:
            try:
                self.on_closed(self)
            except Exception:
                log.exception("link %s: on_closed handler failed", self.label)

    def __repr__(self) -> str:
        return f"<Link {self.label} {self._state.value}>"
