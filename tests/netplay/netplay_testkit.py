"""Shared helpers for the netplay tests. Everything binds and connects to 127.0.0.1 only."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from netplay.link.link import LinkConfig
from netplay.mesh.mesh import Mesh, MeshConfig
from netplay.protocol.identity import Identity

LOOPBACK = "127.0.0.1"
T = TypeVar("T")

FAST_LINK = LinkConfig(heartbeat_interval=0.2, dead_after=1.5, handshake_timeout=3.0, connect_timeout=2.0)
FAST_MESH = MeshConfig(link=FAST_LINK, gossip_interval=0.5, dial_grace=0.3)


def run(coro: Awaitable[T], timeout: float = 30.0) -> T:
    """Run a scenario under plain asyncio.run with an overall time bound."""

    async def bounded() -> T:
        return await asyncio.wait_for(coro, timeout)

    return asyncio.run(bounded())


async def start_meshes(n: int, table: str = "table-1", passphrase: str | None = "pw",
                       config: MeshConfig = FAST_MESH) -> list[Mesh]:
    meshes = [Mesh(Identity.generate(), table, passphrase, host=LOOPBACK, config=config) for _ in range(n)]
    for m in meshes:
        await m.start()
    return meshes


async def stop_all(meshes: list[Mesh]) -> None:
    for m in meshes:
        await m.stop()


async def wait_until(predicate: Callable[[], bool], timeout: float, step: float = 0.02) -> bool:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() > deadline:
            return False
        await asyncio.sleep(step)
    return True


class RecordingRelay:
    """A transparent TCP relay on 127.0.0.1 that records every byte in both directions.

    ``transform(direction, data)`` may rewrite chunks (direction "c2s" or "s2c")."""

    def __init__(self, target_port: int,
                 transform: Callable[[str, bytes], bytes] | None = None) -> None:
        self.target_port = target_port
        self.transform = transform
        self.c2s = bytearray()
        self.s2c = bytearray()
        self.port = 0
        self._server: asyncio.base_events.Server | None = None
        self._tasks: set[asyncio.Task[Any]] = set()

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._on_client, LOOPBACK, 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                    direction: str, record: bytearray) -> None:
        try:
            while data := await reader.read(65536):
                record.extend(data)
                if self.transform is not None:
                    data = self.transform(direction, data)
                writer.write(data)
                await writer.drain()
        except (OSError, ConnectionError):
            pass
        finally:
            writer.close()

    async def _on_client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection(LOOPBACK, self.target_port)
        a = asyncio.ensure_future(self._pipe(reader, up_writer, "c2s", self.c2s))
        b = asyncio.ensure_future(self._pipe(up_reader, writer, "s2c", self.s2c))
        self._tasks |= {a, b}
        await asyncio.gather(a, b, return_exceptions=True)

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
        for t in self._tasks:
            t.cancel()
        for t in self._tasks:
            with contextlib.suppress(BaseException):
                await t


class StandIn:
    """A replica as replication sees it (netplay.replication.seam.Replica) with some methods
    replaced: a corrupted or withholding peer. It goes between replication and the real replica
    (`peer.repl.replica = StandIn(peer.replica, ...)`), as a compiled core's objects cannot have
    their methods replaced."""

    def __init__(self, real: Any, **replaced: Callable[..., Any]) -> None:
        self._real = real
        self.__dict__.update(replaced)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


class ReplicaPeer:
    """A real table replica wired to a mesh the way netplay.session.lan_session does it (tests)."""

    def __init__(self, mesh: Mesh, config: Any = None, table: str = "table-1",
                 log_path: Any = None) -> None:
        from netplay.replication.opsign import OpVerifier, op_signer
        from netplay.replication.replication import Replication, ReplicationConfig
        from table.core.replica import Replica

        self.mesh = mesh
        self.replica = Replica(table, mesh.peer_id, log_path=log_path)
        self.replica.signer = op_signer(mesh.identity)
        self.replica.verifier = OpVerifier(mesh.pinned_key, self.replica.store.announced_key)
        self.repl = Replication(mesh, self.replica, config or ReplicationConfig(hash_interval=0.2))
        self.repl.start()
        self.corrupt = False
        self.replica.issue("hello", {"key": mesh.identity.public_key.hex()})

    def play(self, text: Any) -> list[Any]:
        """Issue a note op and broadcast it; returns its wire form."""
        op = self.replica.issue("note", {"text": str(text)})
        wire = op.to_wire()
        self.repl.publish(wire)
        return wire

    def vv(self) -> dict[str, int]:
        return self.replica.version_vector()

    def total(self) -> int:
        return sum(self.vv().values())

    def hash(self) -> str:
        return self.replica.public_state_hash()
