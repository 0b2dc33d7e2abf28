"""Second versions of ops that are not delivered yet, held until they can be compared.

A proof of equivocation (both versions of one (author, seq)) can reach a peer before the
author's earlier ops: the first version then waits in the causal store for its dependencies,
and the second has nothing delivered to be compared with. Dropping it would lose the proof for
good (its sender shows it only once per link), so it is held here, and compared as soon as an
op under that number is delivered. Bounded: a peer cannot fill memory with held versions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

MAX_HELD = 1000


class HeldVersions:
    def __init__(self) -> None:
        # (author, seq) -> (wire, raw bytes, the peer it came from): the first held is kept
        self._held: dict[tuple[str, int], tuple[list[Any], bytes, str]] = {}

    def __len__(self) -> int:
        return len(self._held)

    def hold(self, wire: list[Any], raw: bytes, from_peer: str) -> None:
        ref = (wire[0], wire[1])
        if ref not in self._held and len(self._held) < MAX_HELD:
            self._held[ref] = (wire, raw, from_peer)

    def ready(self, delivered: Callable[[str, int], bool]) -> list[tuple[list[Any], bytes, str]]:
        """Take out every held version whose number now has a delivered op."""
        refs = [ref for ref in self._held if delivered(*ref)]
        return [self._held.pop(ref) for ref in refs]
