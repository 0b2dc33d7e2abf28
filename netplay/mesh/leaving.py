"""How a stopping mesh lets go of its links: each is told (a bye, or dropped as a crash
would), given a moment to finish, and then its socket is closed whatever it still waits for.
A peer that reads nothing keeps a graceful close flushing for ever; a socket left to the
collector is a leak (and, on Python 3.13.0, an error out of the server's close)."""
from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterable

from netplay.link.link import Link
from netplay.link.link_state import LinkState

CLOSE_WAIT = 2.0  # seconds a link is given to finish its close


async def let_go(links: Iterable[Link], graceful: bool) -> None:
    """Close every link, waiting up to CLOSE_WAIT for each, then drop the sockets still open."""
    links = list(links)
    for link in links:
        link.close("leaving the table") if graceful else link.abort("mesh stopped")
    for link in links:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(link.wait_closed(), CLOSE_WAIT)
        if link.state is not LinkState.CLOSED:
            link.drop_socket()


async def stop_accepting(server: asyncio.Server) -> None:
    """Take no more connections, and let those accepted already become the open server's
    transports (their task's first step), so that closing the server closes them. Closed
    first, the server would leave such a connection half made: its transport is refused by
    the closed server, never closed, and left to the collector (on Python 3.13.0 an error out
    of the server's close)."""
    loop = asyncio.get_running_loop()
    for sock in server.sockets:
        with contextlib.suppress(NotImplementedError):  # a loop that does not watch sockets
            loop.remove_reader(sock.fileno())
    await asyncio.sleep(0)


async def close_server(server: asyncio.Server) -> None:
    """Close the listener and the accepted connections no link holds any more (a handshake
    given up, a duplicate), waiting up to CLOSE_WAIT. close_clients() is new in Python 3.13."""
    server.close()
    close_clients = getattr(server, "close_clients", None)
    if close_clients is not None:
        close_clients()
    with contextlib.suppress(Exception):
        await asyncio.wait_for(server.wait_closed(), CLOSE_WAIT)
