"""Speed of drafts travelling with the table (prints figures; the last line is JSON).

    python -m tests.benchmarks.drafts [--art-mib 20] [--joiners 3] [--sessions 1000]

transfer: a module with that much art, from the host to every joiner at once over loopback
links (real sockets, encrypted), each joiner's cache empty; the time until the last joiner has
the module loaded.
report: that many legal sessions of four drafts (Gauntlet and Mantle of the Keeper, each as
installed and with one rule number changed), reported from a data directory where no draft
was ever cached: each session's draft comes from its own log.
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


def _report(root: Path, sessions: int) -> dict[str, float]:
    from table.games import find_module
    from table.report.bench import draft_of
    from table.report.build import build_report
    from table.report.corpus import Plan, play

    drafts = []
    for game in ("gauntlet", "mantle-of-the-keeper"):
        module = find_module(game)
        drafts += [module, draft_of(module, root / f"{game}-draft")]
    logs = root / "logs"
    logs.mkdir()
    start = time.perf_counter()
    for i in range(sessions):
        module = drafts[i % len(drafts)]
        seats = min(module.players.max, module.players.min + (i // len(drafts)) % 2)
        play(module, seats, 7_000 + i, logs / f"s{i:05d}.sandlog", Plan(),
             start_time=1.7e9 + i * 3600.0)
    made = time.perf_counter() - start
    for game in ("gauntlet", "mantle-of-the-keeper"):  # no draft left anywhere but the logs
        shutil.rmtree(root / f"{game}-draft")
    os.environ["SANDTABLE_HOME"] = str(root / "fresh-home")
    report = build_report([str(logs)], root / "report.html", show_progress=False)
    versions = {(s.game, s.version) for s in report.sessions}
    return {"sessions": len(report.sessions), "drafts": len(versions),
            "made_s": round(made, 1), "report_s": round(report.seconds, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--art-mib", type=int, default=20)
    parser.add_argument("--joiners", type=int, default=3)
    parser.add_argument("--sessions", type=int, default=1000)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="sandtable-bench-"))
    try:
        result: dict[str, float] = asyncio.run(_transfer(root, args.art_mib, args.joiners))
        print(f"transfer of a {result['module_mib']} MiB module to {result['joiners']} "
              f"joiners: {result['transfer_s']} s (target <= 2 s)")
        if args.sessions:
            report = _report(root, args.sessions)
            print(f"report over {report['sessions']} sessions of {report['drafts']} drafts: "
                  f"{report['report_s']} s (target <= 20 s; made in {report['made_s']} s)")
            result.update({f"report_{k}": v for k, v in report.items()})
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
