"""Catch-up bookkeeping: which peers finished sending what we lacked, and what is still missing.

A peer that receives ``vv`` sends every op the sender lacks, then ``caught_up`` with the version
vector it served. Ops and ``caught_up`` travel in order on one link, so once ``caught_up`` is
handled every op it covers has been offered here: what the served vector claims and our vector
lacks was never sent (a peer claiming ops that do not exist, or ops that are stuck waiting for
their dependencies). :class:`CatchUp` keeps, per linked peer, whether its catch-up ended and
which ops (author, seq) it claimed without sending, and names what a stalled join waits for.
:class:`AuthorChains` digests each author's ops, so that peers at equal vectors can tell that
an author gave them two versions of one op.
"""

from __future__ import annotations

import hashlib
from typing import Any, Protocol


class _Store(Protocol):
    pending: dict[str, dict[int, Any]]


class _Replica(Protocol):
    def version_vector(self) -> dict[str, int]: ...


class CatchUp:
    def __init__(self, replica: _Replica) -> None:
        self._replica = replica
        self.finished: dict[str, dict[str, int]] = {}  # peer -> vector it served
        self.gaps: dict[str, list[tuple[str, int]]] = {}  # peer -> first op of each gap

    def link_opened(self, peer_id: str) -> None:
        """A (new) link: its catch-up starts over."""
        self.finished.pop(peer_id, None)
        self.gaps.pop(peer_id, None)

    def link_closed(self, peer_id: str) -> None:
        self.link_opened(peer_id)

    def served(self, peer_id: str, vector: dict[str, int]) -> list[tuple[str, int]]:
        """Record that ``peer_id`` ended its catch-up having served ``vector``; returns the
        first op of each author it claimed but we still lack (normally none)."""
        ours = self._replica.version_vector()
        gaps = [(author, ours.get(author, 0) + 1) for author, count in sorted(vector.items())
                if ours.get(author, 0) < count]
        self.finished[peer_id] = dict(vector)
        self.gaps[peer_id] = gaps
        return gaps

    def caught_up_with(self, peer_id: str) -> bool:
        """True once ``peer_id`` ended its catch-up (every op it had is here, except those it
        claimed and never sent, which are named in :attr:`gaps`)."""
        return peer_id in self.finished

    def describe(self, peers: list[str], peer_vvs: dict[str, dict[str, int]]) -> str:
        """What is still awaited, naming each missing op as author#seq (empty: nothing)."""
        ours = self._replica.version_vector()
        store: _Store | None = getattr(self._replica, "store", None)
        parts: list[str] = []
        if not peers:
            return "no peer of the table is linked"
        for pid in peers:
            theirs = peer_vvs.get(pid)
            if theirs is None:
                parts.append(f"peer {pid} has not sent its version vector yet")
                continue
            for author, count in sorted(theirs.items()):
                have = ours.get(author, 0)
                if have >= count:
                    continue
                what = f"op {author}#{have + 1} (peer {pid} has up to #{count})"
                waiting = store.pending.get(author, {}).get(have + 1) if store else None
                if waiting is not None:
                    needs = [f"{a}#{n}" for a, n in sorted(getattr(waiting, "vv", {}).items())
                             if a != author and ours.get(a, 0) < n]
                    what += f", received but waiting for {', '.join(needs) or 'its turn'}"
                if pid in self.finished:
                    what += f"; peer {pid} ended its catch-up without sending it"
                parts.append(what)
            if pid not in self.finished and not any(pid in p for p in parts):
                parts.append(f"peer {pid} has not finished sending its ops")
        return "; ".join(parts)


class AuthorChains:
    """Per author, a running digest of the signatures of its ops in order (8 bytes): two peers
    with equal counts but different digests hold different versions of some op of that author
    (an equivocation split between them). Extended incrementally as ops arrive."""

    def __init__(self, replica: Any) -> None:
        self._replica = replica
        self._cache: dict[str, tuple[int, bytes]] = {}

    def heads(self) -> dict[str, bytes]:
        store = getattr(self._replica, "store", None)
        if store is None:
            return {}
        out: dict[str, bytes] = {}
        for author, ops in store.by_author.items():
            count, digest = self._cache.get(author, (0, b""))
            if count > len(ops):
                count, digest = 0, b""
            for op in ops[count:]:
                digest = hashlib.blake2b(digest + (op.sig or op.signing_bytes()),
                                         digest_size=8).digest()
            self._cache[author] = (len(ops), digest)
            out[author] = digest
        return out
