"""A headless peer for multi-process tests (binds 127.0.0.1 only).

Prints ``PORT n`` once listening, then ``STATE <vv total> <hash>`` lines; exits when stdin closes.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from netplay_testkit import FAST_MESH, LOOPBACK, ReplicaPeer

from netplay.mesh.mesh import Mesh
from netplay.protocol.identity import Identity
from netplay.replication.replication import ReplicationConfig


def out(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--connect", type=int, default=0, help="port of a peer on 127.0.0.1")
    parser.add_argument("--ops", type=int, default=10)
    parser.add_argument("--peers", type=int, required=True)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    mesh = Mesh(Identity.generate(), "mp-table", "shared words", host=LOOPBACK, config=FAST_MESH)
    await mesh.start()
    peer = ReplicaPeer(mesh, ReplicationConfig(hash_interval=0.3), table="mp-table")
    replica, repl = peer.replica, peer.repl
    out(f"PORT {mesh.port}")
    if args.connect:
        await mesh.connect(LOOPBACK, args.connect)
    await mesh.wait_for_peers(args.peers - 1, 20)
    for i in range(args.ops):
        peer.play(i)
        await asyncio.sleep(0.005)
    loop = asyncio.get_running_loop()
    stdin_closed = loop.run_in_executor(None, sys.stdin.read)
    last = None
    while not stdin_closed.done():
        state = (sum(replica.version_vector().values()), replica.public_state_hash(), len(mesh.peers()))
        if state != last:
            out(f"STATE {state[0]} {state[1]} {state[2]}")
            last = state
        await asyncio.sleep(0.1)
    await repl.stop()
    await mesh.stop()


if __name__ == "__main__":
    asyncio.run(main())
