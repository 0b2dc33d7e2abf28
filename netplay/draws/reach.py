"""Since when this peer could hear each other peer: what dates another peer's draw.

A peer's software draws alone only when no other player can be reached, and leaves nobody it
can reach out of a joint draw. So another peer's draw made while this peer could be reached by
it, without this peer's commitment, is not what honest software does. Two facts show that an
op was made while this peer was reachable, whatever its author claims and whether or not it
ever sends ``caught_up``:

* **causal**: the op depends on an op of this peer made after the author became reachable
  (and it has stayed reachable since): the author had that op, so it made its draw after;
* **the link**: on a direct link, the author's first ``vv`` gives how many ops of its own it
  had when the link opened; an op numbered above that was made while the link was open. An
  author that sends ops before its ``vv`` (or never sends one) is judged from the ops this
  peer held of it when the link opened.

:class:`Reach` keeps both, fed by the session (links opened and closed, the reachable set, the
first ``vv`` of each link); netplay.draws.witness asks it about each draw.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass


@dataclass(slots=True)
class Since:
    own: int  # how many ops of its own this peer had made when the other became reachable
    at: float  # when (the clock given to Reach)


@dataclass(slots=True)
class _Link:
    held: int  # the linked peer's ops this peer held when the link opened
    before: int | None = None  # the linked peer's own ops before the link (its first vv)


class Reach:
    def __init__(self, own_count: Callable[[], int], delivered: Callable[[str], int],
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._own, self._delivered, self.clock = own_count, delivered, clock
        self.since: dict[str, Since] = {}
        self._links: dict[str, _Link] = {}

    def update(self, reachable: Iterable[str]) -> list[str]:
        """The peers reachable now; returns those that no longer are (sorted)."""
        now = set(reachable)
        lost = sorted(set(self.since) - now)
        for peer in lost:
            del self.since[peer]
        for peer in now - set(self.since):
            self.since[peer] = Since(self._own(), self.clock())
        return lost

    def link_opened(self, peer: str) -> None:
        self._links[peer] = _Link(self._delivered(peer))

    def link_closed(self, peer: str) -> None:
        self._links.pop(peer, None)

    def first_vv(self, peer: str, own: int) -> bool:
        """The linked peer's ``vv`` said it had ``own`` ops of its own; True if this was the
        link's first (which sets what it made before the link)."""
        link = self._links.get(peer)
        if link is None or link.before is not None:
            return False
        link.before = own
        return True

    def ops_first(self, peer: str) -> bool:
        """The linked peer sent ops before its ``vv``: judged from what was held here; True
        if that settled it."""
        link = self._links.get(peer)
        if link is None or link.before is not None:
            return False
        link.before = link.held
        return True

    def made_while_linked(self, peer: str, seq: int) -> bool | None:
        """Whether ``peer``'s op ``seq`` was made while its direct link here is open: None
        while its first ``vv`` has not come; False without a direct link."""
        link = self._links.get(peer)
        if link is None:
            return False
        if link.before is None:
            return None
        return seq > link.before
