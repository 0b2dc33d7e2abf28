"""`sandtable bench net`: op latency between peers on 127.0.0.1, a baseline, and discovery time.

Everything binds to 127.0.0.1 and zeroconf runs with ``interfaces=["127.0.0.1"]`` only.

* latency: N peers (real replicas, signed ops, encrypted links, full mesh, every op's
  signature verified by every receiver before it is applied); ops are issued paced, round
  robin over the peers, one every ``PACE`` seconds; each op's latency is the time from its
  apply at its author to its apply at each other peer (so N - 1 samples per op). Measured with
  every peer in one process and with each peer its own process (timestamps from the
  system-wide monotonic clock). The headline (``p50_ms``, ``p99_ms``) is the one-process
  run, or with ``processes=True`` (``--processes``) the one-process-each run; both are always
  reported. One process is the default headline because it measures the peers' own work:
  the receivers take their turns on one core, each verifying the op itself, so the median
  sample is the third of five to apply it; with a process each, six processes share the
  machine's cores (two on the test machine), and the figure measures how the system
  schedules them (and whatever else runs) as much as the peers' work. ``*_by_order_ms``
  gives the median latency of the first, second, ... receiver to apply each op.
  The multi-process peers play on a shared schedule (op ``i`` at ``t0 + i * PACE``), so they
  take turns as the one-process peers do; each runs with the program's GC settings.
* catch-up: a peer holding 10,000 signed ops and a newcomer that links to it; seconds from
  dialing to the newcomer holding (and having verified) every op, ``caught_up`` received.
* throughput: the same peers, every op issued at once; ops_per_s counts ops applied at every
  peer per second.
* baseline: a plain asyncio + msgpack echo over loopback (one-way = round trip / 2).
* discovery: seconds from announcing a table to a browser listing it.
* hop / floor: CPU per op between two peers (paced, burst, on qasync) over the same work with
  nothing of ours, in the same run: ``hop_floor_ratio_*`` (net_hop.py, net_floor.py).

Prints figures, then as its last line one JSON object.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import os
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import msgpack

from table.bench.bench_peer import LOOPBACK, PACE, BenchPeer, pct, poll_until, start_peers
from table.bench.net_hop import hop_figures


def _by_order(sent: dict[Any, float], applied: list[dict[Any, float]]) -> list[float]:
    """Median latency (ms) of the first, second, ... peer to apply each op."""
    ranks: list[list[float]] = []
    for ref, t in sent.items():
        times = sorted(a[ref] - t for a in applied if ref in a)
        for k, dt in enumerate(times):
            if k == len(ranks):
                ranks.append([])
            ranks[k].append(dt * 1000)
    return [round(statistics.median(r), 3) for r in ranks]


async def _in_process(n: int, ops: int) -> dict[str, Any]:
    peers = await start_peers(n)
    sent: dict[tuple[str, int], float] = {}
    # Latency: paced ops, round robin.
    for i in range(ops):
        ref, t = peers[i % n].play(i)
        sent[ref] = t
        await asyncio.sleep(PACE)
    target = n + ops
    await poll_until(lambda: all(p.ops_held() >= target for p in peers), 0.01, 30)
    lat = [(p.applied[ref] - t) * 1000 for ref, t in sent.items() for p in peers
           if ref in p.applied]
    by_order = _by_order(sent, [p.applied for p in peers])
    # Throughput: everything at once.
    burst = max(ops, 1000)
    t0 = time.monotonic()
    for i in range(burst):
        peers[i % n].play(i)
        if i % 50 == 49:
            await asyncio.sleep(0)
    target += burst
    await poll_until(lambda: all(p.ops_held() >= target for p in peers), 0.002, 60)
    elapsed = time.monotonic() - t0
    for p in peers:
        await p.repl.stop()
        await p.mesh.stop()
    hashes = {p.replica.public_state_hash() for p in peers}
    return {"latencies": lat, "by_order": by_order, "ops_per_s": burst / elapsed,
            "converged": len(hashes) == 1,
            "samples": len(lat)}


# ------------------------------------------------------------------ separate processes
async def _child(index: int, n: int, ops: int, first_port: int) -> None:
    """One peer of the multi-process bench: prints PORT, then READY once the mesh is whole;
    reads ``GO <t0>`` and plays ops ``index, index + n, ...``, op ``i`` at ``t0 + i * PACE``
    on the system-wide monotonic clock (so the peers take turns, round robin, as in one
    process); prints its results."""
    from netplay.mesh.mesh import Mesh
    from netplay.protocol.identity import Identity
    from table.core.gc_tuning import tune_gc

    tune_gc()  # as the program does at start (and the in-process run)
    mesh = Mesh(Identity.generate(), "bench", None, host=LOOPBACK)
    await mesh.start()
    peer = BenchPeer(mesh)
    print(f"PORT {mesh.port}", flush=True)
    if first_port:
        await mesh.connect(LOOPBACK, first_port)
    if not await poll_until(lambda: len(mesh.peers()) >= n - 1 and peer.ops_held() >= n,
                            0.01, 60):
        raise RuntimeError("the mesh did not form")
    print("READY", flush=True)
    go = await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    t0 = float(go.split()[1])
    sent: dict[str, float] = {}
    for i in range(index, ops, n):
        await asyncio.sleep(max(0.0, t0 + i * PACE - time.monotonic()))
        ref, t = peer.play(i)
        sent[f"{ref[0]}:{ref[1]}"] = t
    if not await poll_until(lambda: peer.ops_held() >= n + ops, 0.01, 60 + ops * PACE):
        raise RuntimeError("not every peer's ops arrived")
    applied = {f"{a}:{s}": t for (a, s), t in peer.applied.items()}
    print("RESULT " + json.dumps({"sent": sent, "applied": applied,
                                  "hash": peer.replica.public_state_hash()}), flush=True)
    await asyncio.sleep(1.0)
    await peer.repl.stop()
    await mesh.stop()


def _child_result(proc: subprocess.Popen[str]) -> dict[str, Any] | None:
    assert proc.stdout is not None
    result = None
    for line in proc.stdout:
        if line.startswith("RESULT "):
            result = json.loads(line[7:])
    proc.wait(30)
    return result


def _wait_ready(proc: subprocess.Popen[str]) -> None:
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("READY"):
            return
    raise RuntimeError("a bench peer ended before the mesh formed")


def _processes(n: int, ops: int) -> dict[str, Any]:
    env = dict(os.environ)
    cmd = [sys.executable, "-m", "table.bench.net", "--child"]

    def spawn(i: int, port: int) -> subprocess.Popen[str]:
        return subprocess.Popen([*cmd, str(i), str(n), str(ops), str(port)], env=env,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    procs = [spawn(0, 0)]
    assert procs[0].stdout is not None
    port = int(procs[0].stdout.readline().split()[1])
    procs += [spawn(i, port) for i in range(1, n)]
    for proc in procs:
        _wait_ready(proc)
    t0 = time.monotonic() + 0.3
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write(f"GO {t0!r}\n")
        proc.stdin.flush()
    # Read every child's output at once: a RESULT line is larger than a pipe's buffer, and a
    # child blocked writing it would stall its event loop (and its links) meanwhile.
    with ThreadPoolExecutor(len(procs)) as pool:
        results = [r for r in pool.map(_child_result, procs) if r is not None]
    sent = {k: v for r in results for k, v in r["sent"].items()}
    # from the first op played to the last apply anywhere (paced: not a throughput)
    last = max((t for r in results for t in r["applied"].values()), default=t0)
    elapsed = max(last - min(sent.values(), default=t0), 1e-9)
    lat = [(r["applied"][k] - t) * 1000 for k, t in sent.items() for r in results
           if k in r["applied"]]
    return {"latencies": lat, "by_order": _by_order(sent, [r["applied"] for r in results]),
            "ops_per_s": ops / elapsed, "rate": "paced rate",
            "converged": len({r["hash"] for r in results}) == 1, "samples": len(lat)}


# ------------------------------------------------------------------ catch-up
async def _catch_up(count: int) -> dict[str, Any]:
    """Seconds for a newcomer to catch up ``count`` ops (every signature verified)."""
    from netplay.mesh.mesh import Mesh
    from netplay.protocol.identity import Identity

    meshes = [Mesh(Identity.generate(), "bench", None, host=LOOPBACK) for _ in range(2)]
    for m in meshes:
        await m.start()
    server = BenchPeer(meshes[0])
    for i in range(count):
        server.replica.issue("note", {"text": f"op {i}"})
    joiner = BenchPeer(meshes[1])
    joiner.stop_timing()  # no per-op timing here
    target = server.replica.version_vector()
    t0 = time.monotonic()
    await meshes[1].connect(LOOPBACK, meshes[0].port)
    await poll_until(lambda: joiner.repl.catch_up.caught_up_with(meshes[0].peer_id) and all(
        joiner.replica.version_vector().get(a, 0) >= n for a, n in target.items()), 0.001, 120)
    elapsed = time.monotonic() - t0
    verifier = joiner.replica.verifier
    verified = getattr(verifier, "verified", 0)
    complete = joiner.replica.version_vector().get(meshes[0].peer_id, 0) == count + 1
    for p in (server, joiner):
        await p.repl.stop()
        await p.mesh.stop()
    return {"ops": count + 1, "seconds": elapsed, "verified": verified, "complete": complete}


# ------------------------------------------------------------------ baseline and discovery
async def _baseline(count: int = 2000) -> list[float]:
    async def echo(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while data := await reader.read(65536):
            writer.write(data)
        writer.close()

    server = await asyncio.start_server(echo, LOOPBACK, 0)
    port = server.sockets[0].getsockname()[1]
    reader, writer = await asyncio.open_connection(LOOPBACK, port)
    unpacker = msgpack.Unpacker()
    out: list[float] = []
    payload = ["0123456789abcdef", 1, 2, "note", {"text": "op 1"}, {}, 1.0, None, b"x" * 64]
    for _ in range(count):
        t = time.monotonic()
        writer.write(msgpack.packb(payload))
        got = None
        while got is None:
            unpacker.feed(await reader.read(65536))
            got = next(unpacker, None)
        out.append((time.monotonic() - t) * 1000 / 2)
    writer.close()
    with contextlib.suppress(Exception):
        await writer.wait_closed()
    await asyncio.sleep(0.01)  # let the echo side see the end of the stream
    server.close()
    with contextlib.suppress(Exception):
        await server.wait_closed()
    return out


async def _discovery() -> float:
    from netplay.discovery.listing import TableAnnouncement
    from netplay.discovery.mdns import TableAnnouncer, TableBrowser
    from netplay.protocol.identity import new_peer_id

    pid = new_peer_id()
    browser = TableBrowser(interfaces=[LOOPBACK])
    await browser.start()
    ann = TableAnnouncer(TableAnnouncement("bench-" + pid, "Bench", "bench", pid, 9, 1, 1, False),
                         interfaces=[LOOPBACK])
    t0 = time.monotonic()
    await ann.start()
    ok = await browser.wait_until(lambda ts: any(t.table_id == "bench-" + pid for t in ts), 10)
    elapsed = time.monotonic() - t0 if ok else float("nan")
    await ann.stop()
    await browser.stop()
    return elapsed


def _latency_line(label: str, peers: int, ops: int, result: dict[str, Any]) -> None:
    lat = result["latencies"]
    print(f"{peers} peers ({label}), {ops} ops, every op verified: {result['samples']} "
          f"deliveries, p50 {pct(lat, 0.5):.3f} ms, p99 {pct(lat, 0.99):.3f} ms, "
          f"mean {statistics.fmean(lat) if lat else float('nan'):.3f} ms; "
          f"{result.get('rate', 'throughput')} {result['ops_per_s']:.0f} ops/s; "
          f"converged: {result['converged']}")
    print(f"  median by the order the peers applied each op: "
          f"{', '.join(f'{x:.3f}' for x in result['by_order'])} ms")


def _hop_line() -> dict[str, float]:
    hop = hop_figures()
    print(f"CPU per hop, 2 peers, paced / burst: {hop['hop_us_paced']} / {hop['hop_us_burst']}"
          f" us; floor {hop['floor_hop_us_paced']} / {hop['floor_hop_us_burst']} us; on qasync"
          f" {hop['qasync_hop_us_paced']} us (paced)")
    return hop


def run_hop() -> dict[str, float]:
    """Only the hop figures (``sandtable bench net --hop``); last line one JSON object."""
    from table.core.gc_tuning import tune_gc

    tune_gc()
    hop = _hop_line()
    print(json.dumps(hop))
    return hop


def run(peers: int = 6, processes: bool = False, ops: int = 2000,
        catch_up_ops: int = 10_000) -> dict[str, Any]:
    from table.core.gc_tuning import tune_gc

    tune_gc()
    base = asyncio.run(_baseline())
    print(f"baseline asyncio+msgpack echo, one way: p50 {pct(base, 0.5):.3f} ms, "
          f"p99 {pct(base, 0.99):.3f} ms")
    cpu0, wall0 = time.process_time(), time.monotonic()
    one = asyncio.run(_in_process(peers, ops))
    cpu, wall = time.process_time() - cpu0, time.monotonic() - wall0
    _latency_line("one process", peers, ops, one)
    print(f"process CPU time {cpu:.2f} s over {wall:.2f} s wall "
          f"({100 * cpu / wall if wall else 0:.0f}% of one core); "
          f"load average {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    multi = _processes(peers, ops)
    _latency_line("one process each", peers, ops, multi)
    catch = asyncio.run(_catch_up(catch_up_ops))
    print(f"catch-up of {catch['ops']} ops over 127.0.0.1, {catch['verified']} signatures "
          f"checked: {catch['seconds']:.3f} s (complete: {catch['complete']})")
    disc = asyncio.run(_discovery())
    print(f"discovery (announce -> listed, 127.0.0.1): {disc:.3f} s")
    hop = _hop_line()
    head = multi if processes else one
    lat, one_lat, multi_lat = head["latencies"], one["latencies"], multi["latencies"]
    summary = {"peers": peers, "processes": processes, "ops": ops,
               "p50_ms": round(pct(lat, 0.5), 3), "p99_ms": round(pct(lat, 0.99), 3),
               "ops_per_s": round(head["ops_per_s"], 1),
               "one_process_p50_ms": round(pct(one_lat, 0.5), 3),
               "one_process_p99_ms": round(pct(one_lat, 0.99), 3),
               "processes_p50_ms": round(pct(multi_lat, 0.5), 3),
               "processes_p99_ms": round(pct(multi_lat, 0.99), 3),
               "one_process_by_order_ms": one["by_order"],
               "processes_by_order_ms": multi["by_order"],
               "catch_up_ops": catch["ops"], "catch_up_s": round(catch["seconds"], 3),
               "catch_up_complete": catch["complete"],
               "baseline_p50_ms": round(pct(base, 0.5), 3),
               "baseline_p99_ms": round(pct(base, 0.99), 3),
               "discovery_s": round(disc, 3),
               "converged": one["converged"] and multi["converged"],
               "cpu_s": round(cpu, 2), "wall_s": round(wall, 2),
               "deliveries": one["samples"] + multi["samples"], **hop}
    print(json.dumps(summary))
    return summary


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        index, n, ops, port = (int(v) for v in sys.argv[2:6])
        asyncio.run(_child(index, n, ops, port))
    else:
        run()
