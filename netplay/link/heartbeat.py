"""A link's heartbeats: ``hb`` every ``heartbeat_interval``, and the link dropped after
``dead_after`` seconds without a frame from the peer (any frame counts)."""
from __future__ import annotations

import asyncio
from typing import Any, Protocol

from netplay.link.link_state import LinkConfig


class Beating(Protocol):
    """What the heartbeat uses of its link."""

    config: LinkConfig

    @property
    def is_open(self) -> bool: ...
    @property
    def last_heard(self) -> float: ...
    def send(self, msg: Any) -> bool: ...
    def abort(self, reason: str) -> None: ...


async def keep_alive(link: Beating) -> None:
    loop = asyncio.get_running_loop()
    cfg = link.config
    tick = min(cfg.heartbeat_interval, cfg.dead_after / 2)
    next_beat = loop.time()
    while link.is_open:
        now = loop.time()
        silent = now - link.last_heard
        if silent > cfg.dead_after:
            link.abort(f"heartbeat timeout ({silent:.1f} s without a frame)")
            return
        if now >= next_beat:
            link.send({"t": "hb"})
            next_beat = now + cfg.heartbeat_interval
        await asyncio.sleep(tick)
