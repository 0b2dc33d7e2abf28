"""The seam for jointly drawn randomness: a service a LAN session may set on a replica.

`actions.roll` and `actions.shuffle` ask `replica.joint_draws` first; when it takes the draw
(returns True) the op is issued a few milliseconds later, once the peers have drawn the value
together (netplay.draws.round_driver), and the action returns None. Without one (hot-seat, a lone
peer, a log being replayed) the replica's own randomness is used at once, marked local.
"""
from __future__ import annotations

from typing import Protocol


class JointDraws(Protocol):
    def roll(self, *, sides: int, count: int, die_id: str | None, why: str | None,
             seat: int | None) -> bool: ...

    def shuffle(self, pile_id: str, *, seat: int | None) -> bool: ...
