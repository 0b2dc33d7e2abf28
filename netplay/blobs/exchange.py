"""Blobs over a mesh: serve what this peer holds, fetch what it lacks (the table's module and
its art), from whichever linked peer has it.

The thin asyncio side of `netplay.blobs.transfer`: it routes `want`/`blob`/`nohave` messages between the
mesh and the sans-IO objects, asks the next peer when one fails or stays silent, and reports
progress. A fetched blob is returned only once it verified whole.
"""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from netplay.blobs.transfer import Blob, BlobFetch, BlobServer, Complete, NoHave, PeerFailed, Progress, Want
from netplay.mesh.events import MessageReceived, PeerLeft
from netplay.mesh.mesh import Mesh

log = logging.getLogger(__name__)



class TransferFailed(Exception):
    """No linked peer could send the blob; the message says why, peer by peer."""


class BlobExchange:
    def __init__(self, mesh: Mesh, lookup: Callable[[str], bytes | None],
                 answer_timeout: float = 5.0) -> None:
        self.mesh = mesh
        self.server = BlobServer(lookup)
        self.answer_timeout = answer_timeout
        self._fetches: dict[str, tuple[BlobFetch, asyncio.Queue[Any]]] = {}
        self._unsub = mesh.events.subscribe(self._on_event)

    def close(self) -> None:
        self._unsub()

    def _on_event(self, event: Any) -> None:
        if isinstance(event, PeerLeft):
            for _fetch, queue in self._fetches.values():
                queue.put_nowait((event.peer_id, None))
            return
        if not isinstance(event, MessageReceived):
            return
        msg = event.message
        if isinstance(msg, Want):
            self.mesh.send(event.peer_id, self.server.answer(msg))
        elif isinstance(msg, Blob | NoHave):
            entry = self._fetches.get(msg.h)
            if entry is not None:
                entry[1].put_nowait((event.peer_id, msg))

    async def fetch(self, digest: str, verify: Callable[[bytes], bool], *,
                    progress: Callable[[int, int], None] | None = None,
                    max_size: int | None = None) -> bytes:
        """The blob `digest` from the linked peers (in turn, resuming where one stopped).
        Raises TransferFailed naming every peer that could not serve it, and why."""
        if digest in self._fetches:
            raise RuntimeError(f"blob {digest[:12]} is already being fetched")
        fetch = BlobFetch(digest, verify) if max_size is None else \
            BlobFetch(digest, verify, max_size=max_size)
        queue: asyncio.Queue[Any] = asyncio.Queue()
        self._fetches[digest] = (fetch, queue)
        try:
            while True:
                asked = fetch.ask(self.mesh.peers())
                if asked is None:
                    raise TransferFailed(f"no peer could send {digest[:12]}: "
                                         f"{fetch.why_failed()}")
                peer, request = asked
                result = await self._from(peer, request, fetch, queue, progress)
                if result is not None:
                    return result
        finally:
            del self._fetches[digest]

    async def _from(self, peer: str, request: Want, fetch: BlobFetch,
                    queue: asyncio.Queue[Any], progress: Callable[[int, int], None] | None
                    ) -> bytes | None:
        """Ask `peer` chunk by chunk; the blob, or None once that peer failed."""
        while True:
            if not self.mesh.send(peer, request):
                fetch.peer_gone(peer)
                return None
            try:
                while True:
                    sender, msg = await asyncio.wait_for(queue.get(), self.answer_timeout)
                    events = fetch.peer_gone(sender) if msg is None else \
                        fetch.on_message(sender, msg)
                    if events:
                        break
            except TimeoutError:
                fetch.failed[peer] = f"no answer in {self.answer_timeout:g} s"
                fetch.source = None
                return None
            for event in events:
                if isinstance(event, Progress) and progress is not None:
                    progress(event.done, event.total)
                elif isinstance(event, Complete):
                    return event.data
                elif isinstance(event, PeerFailed):
                    log.warning("blob %s from %s: %s", fetch.digest[:12], event.peer,
                                event.reason)
                    return None
            next_request = fetch.next_request()
            if next_request is None:
                return None
            request = next_request
