"""Run under QApplication + qasync.QEventLoop: churn timers, then a small Link exchange.

Exits 0 and prints OK on success. Guards against the PySide6 6.12.0 + Python 3.11 crash in
QObject.killTimer ("Fatal Python error: none_dealloc"), which kills the process outright.
"""

from __future__ import annotations

import asyncio
import os
import random
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import contextlib

import qasync
from PySide6.QtWidgets import QApplication

from netplay.link.link import Link, LinkConfig
from netplay.protocol.channel import Received
from netplay.protocol.identity import Identity
from netplay.protocol.messages import Private

TIMERS = int(os.environ.get("CHURN_TIMERS", "5000"))
SLEEPS = int(os.environ.get("CHURN_SLEEPS", "2000"))


async def churn() -> None:
    loop = asyncio.get_running_loop()
    rng = random.Random(7)
    fired = []
    handles = [loop.call_later(rng.random() * 0.05, fired.append, i) for i in range(TIMERS)]
    for h in handles[::2]:
        h.cancel()
    tasks = [asyncio.ensure_future(asyncio.sleep(rng.random() * 0.05)) for _ in range(SLEEPS)]
    for t in tasks[::3]:
        t.cancel()
    for _ in range(200):
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.sleep(0.01), rng.random() * 0.01)
    await asyncio.gather(*tasks, return_exceptions=True)
    await asyncio.sleep(0.1)
    assert len(fired) == TIMERS - len(handles[::2]), len(fired)


async def exchange() -> None:
    cfg = LinkConfig(heartbeat_interval=0.02, dead_after=2.0)
    got: list[dict] = []
    done = asyncio.Event()

    def on_message(link: Link, received: Received) -> None:
        msg = received.message
        assert isinstance(msg, Private)
        got.append(msg.body)
        link.send({"t": "priv", "body": {"echo": msg.body["n"]}})
        if len(got) == 200:
            done.set()

    async def on_client(reader, writer):
        await Link(Identity.generate(), "t", "pw", config=cfg, on_message=on_message).accept(reader, writer)

    server = await asyncio.start_server(on_client, "127.0.0.1", 0)
    echoes: list[Received] = []
    echoed = asyncio.Event()

    def on_echo(_link: Link, m: Received) -> None:
        echoes.append(m)
        if len(echoes) == 200:
            echoed.set()

    a = Link(Identity.generate(), "t", "pw", config=cfg, on_message=on_echo)
    assert await a.connect("127.0.0.1", server.sockets[0].getsockname()[1])
    for n in range(200):
        a.send({"t": "priv", "body": {"n": n}})
        if n % 20 == 0:
            await asyncio.sleep(0.01)
    await asyncio.wait_for(done.wait(), 10)
    await asyncio.wait_for(echoed.wait(), 10)
    await asyncio.sleep(0.3)  # let heartbeats (timers) run and be cancelled on close
    await a.aclose()
    server.close()


async def main() -> None:
    for _ in range(3):
        await churn()
        await exchange()


if __name__ == "__main__":
    app = QApplication.instance() or QApplication(sys.argv)
    if sys.argv[1:] == ["--plain-qasync"]:
        loop = qasync.QEventLoop(app)
    else:  # the program's own loop (table/app/event_loop.py)
        from table.app.event_loop import TableEventLoop

        loop = TableEventLoop(app)
    asyncio.set_event_loop(loop)
    with loop:
        loop.run_until_complete(main())
    sys.stdout.write("OK\n")
