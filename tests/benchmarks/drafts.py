"""Speed of drafts travelling with the table (prints figures; the last line is JSON).

    python -m tests.benchmarks.drafts [--art-mib 20] [--joiners 3]

transfer: a module with that much art, from the host to every joiner at once over loopback
links (real sockets, encrypted), each joiner's cache empty; the time until the last joiner has
the module loaded.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import tempfile
import time
from pathlib import Path

from netplay.blob_exchange import BlobExchange
from table.core.replica import Replica
from table.games.store import ModuleStore
from table.lan_modules import blob_lookup, obtain_module

REPO = Path(__file__).resolve().parents[2]


def _draft_with_art(root: Path, art_mib: int) -> Path:
    folder = root / "designer" / "gauntlet"
    shutil.copytree(REPO / "assets" / "gauntlet", folder)
    (folder / "art").mkdir()
    per_file = 2 * 2**20
    for i in range(max(1, art_mib * 2**20 // per_file)):
        (folder / "art" / f"card-{i:02d}.png").write_bytes(os.urandom(per_file))
    return folder


async def _transfer(root: Path, art_mib: int, joiners: int) -> dict[str, float]:
    import sys
    sys.path.insert(0, str(REPO / "tests" / "netplay"))
    from netplay_testkit import LOOPBACK, start_meshes, stop_all, wait_until

    host_store = ModuleStore(root / "host-cache")
    archive, data = host_store.add_folder(_draft_with_art(root, art_mib))
    size = len(data) + sum(n for _, n in archive.art.values())
    meshes = await start_meshes(joiners + 1)
    host, others = meshes[0], meshes[1:]
    exchanges = [BlobExchange(host, blob_lookup(Replica("t", "h"), host_store))]
    for m in others:
        await m.connect(LOOPBACK, host.port)
    await wait_until(lambda: all(host.peer_id in m.peers() for m in others), 10)
    stores = [ModuleStore(root / f"joiner-{i}") for i in range(joiners)]
    asking = [BlobExchange(m, blob_lookup(Replica("t", m.peer_id), s))
              for m, s in zip(others, stores)]
    exchanges += asking
    start = time.perf_counter()
    for ex in asking:  # each joiner asks the host only: the worst case for the host
        ex.mesh.peers = lambda h=host.peer_id: [h]  # type: ignore[method-assign]
    await asyncio.gather(*(obtain_module(ex, archive.hash, store=s, report=lambda _t: None)
                           for ex, s in zip(asking, stores)))
    seconds = time.perf_counter() - start
    for ex in exchanges:
        ex.close()
    await stop_all(meshes)
    return {"module_mib": round(size / 2**20, 1), "joiners": joiners,
            "transfer_s": round(seconds, 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--art-mib", type=int, default=20)
    parser.add_argument("--joiners", type=int, default=3)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="sandtable-bench-"))
    try:
        result = asyncio.run(_transfer(root, args.art_mib, args.joiners))
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(f"transfer of a {result['module_mib']} MiB module to {result['joiners']} joiners: "
          f"{result['transfer_s']} s")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
