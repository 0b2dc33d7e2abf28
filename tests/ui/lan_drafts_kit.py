"""Three LAN peers on 127.0.0.1 (two seats of Gauntlet and a peer without one), each with its
table window, in one qasync process; the host plays a draft from a folder as
`sandtable host --module` does. Used by the live-reload test and
the `drafts` benchmark (file save to every peer's scene)."""
from __future__ import annotations

import asyncio
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from netplay.link.link import LinkConfig
from netplay.mesh.mesh import MeshConfig
from netplay.replication.replication import ReplicationConfig
from netplay.session.lan_session import SessionOptions

REPO = Path(__file__).resolve().parents[2]
LOOPBACK = "127.0.0.1"
OLD_TEXT, NEW_TEXT = "draw one card", "draw two cards"


def options(name: str) -> SessionOptions:
    return SessionOptions(
        interfaces=[LOOPBACK], announce=False, player_name=name,
        mesh=MeshConfig(link=LinkConfig(heartbeat_interval=0.5, dead_after=3.0,
                                        handshake_timeout=5.0, connect_timeout=3.0),
                        gossip_interval=1.0, dial_grace=0.3),
        replication=ReplicationConfig(hash_interval=0.5))


def draft(root: Path) -> Path:
    folder = root / "designer" / "gauntlet"
    shutil.copytree(REPO / "assets" / "gauntlet", folder)
    return folder


async def until(pred: Any, timeout: float, what: str) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not pred():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.005)


@dataclass
class Table:
    folder: Path
    tables: list[Any] = field(default_factory=list)
    windows: list[Any] = field(default_factory=list)
    watch: Any = None

    def leaders(self) -> list[tuple[Any, str]]:
        """Each window with the id of seat 1's leader card (Ambassador) in its scene."""
        out = []
        for w in self.windows:
            oid = next(o for o, item in w.scene.cards.items()
                       if item.face is not None and item.face.name == "Ambassador")
            out.append((w, oid))
        return out

    def texts(self) -> list[str]:
        return [w.scene.cards[oid].face.text for w, oid in self.leaders()]

    async def edit(self, old: str, new: str, timeout: float = 10.0) -> float:
        """Save an edit of the draft's cards.csv; seconds until every scene shows it."""
        cards = self.folder / "cards.csv"
        text = cards.read_text("utf-8")
        assert old in text
        leaders = self.leaders()
        start = time.perf_counter()
        cards.write_text(text.replace(old, new), encoding="utf-8")
        try:
            await until(lambda: all(new in w.scene.cards[oid].face.text for w, oid in leaders),
                        timeout, f"every scene to show {new!r}")
        except AssertionError as err:
            shown = [new in w.scene.cards[o].face.text for w, o in leaders]
            raise AssertionError(f"watch: {self.watch.done() and self.watch.exception()!r} "
                                 f"scenes: {shown}"
                                 f"; modules: {[t.replica.state.module for t in self.tables]}"
                                 f"; reports: {[t.replica.reports[-3:] for t in self.tables]}"
                                 ) from err
        return time.perf_counter() - start

    async def close(self) -> None:
        if self.watch is not None:
            self.watch.cancel()
        for w in self.windows:
            w.shutdown()
        for t in self.tables:
            await t.close()


async def three_peers(root: Path, lan_app: Any) -> Table:
    from table import lan
    from table.app.commands.headless_peer import _watch_draft
    from table.games import load_module

    folder = draft(root)
    host = await lan.host(load_module(folder), table_name="draft", seats=2,
                          log_path=root / "h.log", options=options("Host"))
    table = Table(folder, [host])
    address = f"{LOOPBACK}:{host.session.port}"
    for n in (2, 3):
        table.tables.append(await lan.join(log_path=root / f"j{n}.log", connect=address,
                                           options=options(f"P{n}")))
    for seat, t in enumerate(table.tables[:2], start=1):  # the third peer only watches
        await lan.take_seat(t, seat)
    await until(lambda: all(lan.setup_complete(t.replica) for t in table.tables), 30,
                "the setup on every peer")
    table.windows = [lan_app.open_window(t) for t in table.tables]
    table.watch = asyncio.ensure_future(_watch_draft(host, folder))  # what host --module runs
    await asyncio.sleep(0.2)  # the watcher has seen the folder as it is
    return table
