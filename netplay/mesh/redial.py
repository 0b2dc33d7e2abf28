"""Links that come back: for as long as the table is open, the mesh dials every peer of its
book that has no link, on the book's schedule (a first try soon, then backoff with jitter),
trying each of the peer's known addresses in turn. An address where another peer answers now
(a port reused) is dropped from that peer's list."""
from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine
from typing import Any, Protocol

from netplay.mesh.config import MeshConfig
from netplay.mesh.peerbook import KnownPeer, PeerBook

log = logging.getLogger(__name__)


class Redialer(Protocol):
    """What redialling uses of its mesh, and nothing more: so this module does not import the
    mesh that runs it."""

    @property
    def peer_id(self) -> str: ...
    @property
    def running(self) -> bool: ...
    @property
    def config(self) -> MeshConfig: ...
    @property
    def book(self) -> PeerBook: ...
    def is_linked(self, peer_id: str) -> bool: ...
    def spawn(self, coro: Coroutine[Any, Any, None]) -> object: ...
    async def connect(self, host: str, port: int, connect_timeout: float | None = None
                      ) -> str | None: ...


async def dial_later(mesh: Redialer, peer_id: str, host: str, port: int) -> None:
    """Dial a peer heard of after ``dial_grace`` (the one with the lower id dials first)."""
    await asyncio.sleep(mesh.config.dial_grace)
    if not mesh.is_linked(peer_id):
        await mesh.connect(host, port)


async def redial_loop(mesh: Redialer) -> None:
    while mesh.running:
        await asyncio.sleep(mesh.config.redial_tick)
        for peer in mesh.book.due(asyncio.get_running_loop().time()):
            if mesh.is_linked(peer.peer_id):
                continue
            peer.dialing = True
            mesh.spawn(_redial(mesh, peer))


async def _redial(mesh: Redialer, peer: KnownPeer) -> None:
    try:
        for host, port in list(peer.addresses):
            if not mesh.running:
                return
            linked = await mesh.connect(host, port, mesh.config.redial_connect_timeout)
            if mesh.is_linked(peer.peer_id):
                return
            if linked is not None and linked != peer.peer_id:
                with contextlib.suppress(ValueError):
                    peer.addresses.remove((host, port))
        mesh.book.failed(peer.peer_id, asyncio.get_running_loop().time())
        if peer.attempts in (1, 10) or peer.attempts % 50 == 0:
            log.info("mesh %s: peer %s unreachable (try %d), redialling", mesh.peer_id,
                     peer.peer_id, peer.attempts)
    finally:
        peer.dialing = False
