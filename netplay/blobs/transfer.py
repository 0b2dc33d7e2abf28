"""Content-addressed file transfer between peers (a table's module archive and its art).

Sans-IO: `BlobServer` answers requests from what this peer holds; `BlobFetch` follows one
download as messages arrive, from whichever peer answers, and says what to send next. Neither
touches a socket or a clock; the session feeds them messages and sends what they return.

    want  {h, off}                      ask a peer for blob h from byte `off` (resumable)
    blob  {h, size, chunks, off, data}  a chunk: total size, the SHA-256 of every chunk (so a
                                        bad chunk is caught at once), its offset and bytes
    nohave {h, why}                     this peer cannot serve h (lacks it, or it is too large)

A download is whole only when the content hashes to what was asked for (`verify`); until then
nothing of it is used. A chunk that does not match its hash, a wrong size or offset, or a
whole that does not verify drops what that peer sent and names it; the fetch carries on from
another peer, from the last good chunk.
"""
from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from netplay.protocol.messages import Message, message_kind

CHUNK = 256 * 1024
MAX_BLOB = 96 * 1024 * 1024  # a module's text archive (8 MiB) or one art file, with room



@message_kind("want")
@dataclass(frozen=True, slots=True)
class Want(Message):
    h: str
    off: int


@message_kind("blob")
@dataclass(frozen=True, slots=True)
class Blob(Message):
    h: str
    size: int
    chunks: list[Any]
    off: int
    data: bytes


@message_kind("nohave")
@dataclass(frozen=True, slots=True)
class NoHave(Message):
    h: str
    why: str


Answer = Blob | NoHave


def _mib(n: int) -> str:
    return f"{n / 2**20:.1f} MiB"


def chunk_hashes(data: bytes) -> list[bytes]:
    return [hashlib.sha256(data[i:i + CHUNK]).digest() for i in range(0, len(data), CHUNK)]


class BlobServer:
    """Serves blobs this peer holds, chunk by chunk (`lookup`: hash -> bytes or None)."""

    def __init__(self, lookup: Callable[[str], bytes | None], max_size: int = MAX_BLOB) -> None:
        self.lookup = lookup
        self.max_size = max_size
        self._manifests: dict[str, list[bytes]] = {}

    def answer(self, msg: Want) -> Answer:
        digest, off = msg.h, msg.off
        data = self.lookup(digest)
        if data is None:
            return NoHave(digest, "not here")
        if len(data) > self.max_size:
            return NoHave(digest, f"over the {_mib(self.max_size)} limit")
        if off < 0 or off > len(data) or (off % CHUNK and off != len(data)):
            return NoHave(digest, f"bad offset {off}")
        chunks = self._manifests.get(digest)
        if chunks is None:
            chunks = self._manifests[digest] = chunk_hashes(data)
        return Blob(digest, len(data), list(chunks), off, data[off:off + CHUNK])


@dataclass(slots=True)
class Progress:
    digest: str
    done: int
    total: int


@dataclass(slots=True)
class Complete:
    digest: str
    data: bytes


@dataclass(slots=True)
class PeerFailed:
    """A peer could not (or did not properly) serve the blob; the fetch moves on."""
    digest: str
    peer: str
    reason: str


Event = Progress | Complete | PeerFailed


@dataclass
class BlobFetch:
    """One download. `verify(data)` says whether a whole download is the blob asked for."""

    digest: str
    verify: Callable[[bytes], bool]
    max_size: int = MAX_BLOB
    size: int | None = None
    chunks: list[bytes] = field(default_factory=list)
    parts: list[bytes] = field(default_factory=list)
    source: str | None = None  # the peer being asked now
    failed: dict[str, str] = field(default_factory=dict)  # peer -> why it was dropped
    done: bool = False
    _fresh: bool = False  # no answer yet from the peer being asked

    @property
    def received(self) -> int:
        return sum(len(p) for p in self.parts)

    def ask(self, peers: list[str]) -> tuple[str, Want] | None:
        """The next peer to ask and the request, or None when every peer has failed."""
        for peer in peers:
            if peer not in self.failed:
                self.source, self._fresh = peer, True
                return peer, Want(self.digest, self.received)
        return None

    def on_message(self, peer: str, msg: Answer) -> list[Event]:
        if self.done or msg.h != self.digest or peer != self.source:
            return []
        if isinstance(msg, NoHave):
            return self._drop(peer, f"cannot serve it ({msg.why})")
        size, chunks, off, data = msg.size, msg.chunks, msg.off, msg.data
        if size > self.max_size:
            return self._drop(peer, f"it is {_mib(size)}, over the {_mib(self.max_size)} limit")
        expected_chunks = (size + CHUNK - 1) // CHUNK
        if (len(chunks) != expected_chunks
                or not all(isinstance(c, bytes) and len(c) == 32 for c in chunks)):
            return self._drop(peer, "a malformed chunk list")
        fresh = self._fresh
        self._fresh = False
        if self.size is not None and (size != self.size or chunks != self.chunks):
            # another peer's copy: keep the chunks that match its list, go on from there
            keep = 0
            while keep < len(self.parts) and keep < len(chunks) and \
                    hashlib.sha256(self.parts[keep]).digest() == chunks[keep]:
                keep += 1
            del self.parts[keep:]
        elif fresh and self.size is not None and self.received == size:
            return self._drop(peer, "its copy is the one that did not match the hash")
        self.size, self.chunks = size, list(chunks)
        index = len(self.parts)
        if fresh and off != self.received:  # asked before its chunk list was known
            return [Progress(self.digest, self.received, size)]
        if off != self.received or index >= len(chunks):
            return self._drop(peer, f"a chunk at byte {off}, not {self.received}")
        if hashlib.sha256(data).digest() != chunks[index] or \
                len(data) != min(CHUNK, size - off):
            return self._drop(peer, f"chunk {index + 1} of {len(chunks)} does not match its "
                                    f"hash")
        self.parts.append(bytes(data))
        if self.received < size:
            return [Progress(self.digest, self.received, size)]
        whole = b"".join(self.parts)
        if not self.verify(whole):  # the next peer's chunk list shows which chunks were bad
            return self._drop(peer, "the whole does not match the hash asked for")
        self.done = True
        return [Progress(self.digest, size, size), Complete(self.digest, whole)]

    def why_failed(self) -> str:
        """Why no peer could send the blob (when `ask` finds nobody left)."""
        return "; ".join(f"{peer}: {why}" for peer, why in self.failed.items()) or \
            "no peer has it"

    def next_request(self) -> Want | None:
        """After a Progress: the request for the next chunk, from the same peer."""
        if self.done or self.source is None:
            return None
        return Want(self.digest, self.received)

    def peer_gone(self, peer: str) -> list[Event]:
        if peer == self.source and not self.done:
            return self._drop(peer, "left before the transfer ended")
        return []

    def _drop(self, peer: str, reason: str) -> list[Event]:
        """Stop asking `peer`. The chunks it sent stay until another peer's chunk list says
        which of them differ (a resumed download keeps every chunk both agree on)."""
        self.failed[peer] = reason
        self.source = None
        return [PeerFailed(self.digest, peer, reason)]
