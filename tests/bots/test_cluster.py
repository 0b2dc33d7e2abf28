"""`simulate` gives the same sessions, game for game, in one process, in two worker processes
and on a local 2-worker Dask cluster (127.0.0.1 only, no dashboard, no usage reporting)."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytestmark = [pytest.mark.socket, pytest.mark.processes]

distributed = pytest.importorskip("distributed")


def _simulate(out: str, *extra: str) -> list[str]:
    run = subprocess.run([sys.executable, "-m", "table.app.cli", "simulate", "--game",
                          "gauntlet", "--bots", "heuristic,random", "--games", "2", "--seed",
                          "9", "--out", out, "--quiet", "--no-check", *extra],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "won" in run.stdout
    return list(json.loads((__import__("pathlib").Path(out) / "summary.json").read_text())
                ["summary"]["digests"])


def test_jobs_and_cluster_give_the_same_sessions(tmp_path) -> None:
    import dask

    dask.config.set({"distributed.diagnostics.nvml": False})
    alone = _simulate(str(tmp_path / "one"))
    assert _simulate(str(tmp_path / "two"), "--jobs", "2") == alone
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1",
                                  dashboard_address=None, processes=True) as cluster:
        assert _simulate(str(tmp_path / "cluster"), "--cluster",
                         cluster.scheduler_address) == alone
        # the dataset of the games, built on the cluster, one shard per worker
        run = subprocess.run([sys.executable, "-m", "table.app.cli", "dataset",
                              str(tmp_path / "one" / "games"), "--out",
                              str(tmp_path / "ds"), "--cluster", cluster.scheduler_address],
                             capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, run.stderr
    parts = list((tmp_path / "ds" / "sessions").glob("part-*.parquet"))
    assert parts
