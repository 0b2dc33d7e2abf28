"""A cancelled dial or handshake stops, even when what it awaited finished in the same turn
(netplay.link.streams.wait_for; asyncio.wait_for on Python 3.11 returns the result then). No
sockets: a future stands for the read."""
from __future__ import annotations

import asyncio

import pytest

from netplay.link.streams import wait_for


def test_a_cancel_in_the_turn_the_awaited_finishes_is_not_lost() -> None:
    async def scenario() -> None:
        read: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        task = asyncio.ensure_future(wait_for(read, 10.0))
        await asyncio.sleep(0)  # the task waits on the read
        read.set_result(b"the peer's hello")  # the bytes arrive...
        task.cancel()  # ...in the turn the mesh stops
        with pytest.raises(asyncio.CancelledError):
            await task
        # an uncancelled wait is the plain one: its result, and a timeout as TimeoutError
        assert await wait_for(asyncio.sleep(0, "data"), 10.0) == "data"
        with pytest.raises(TimeoutError):
            await wait_for(asyncio.sleep(10), 0.01)
    asyncio.run(scenario())
