"""`sandtable bench net --transport quic` runs TCP and QUIC side by side and says so: every op
delivered, every link end of the QUIC run over QUIC, the last line one JSON object with p50/p99
for each transport and peer count and their ratio (figures, never asserted on)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.socket, pytest.mark.processes]

ROOT = Path(__file__).resolve().parents[2]


def test_bench_net_over_quic_reports_both_transports_and_the_ratio() -> None:
    out = subprocess.run([sys.executable, "-m", "table.app.cli", "bench", "net", "--transport",
                          "quic", "--ops", "40"], capture_output=True, text=True, timeout=300,
                         cwd=str(ROOT), env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert out.returncode == 0, out.stderr[-2000:]
    lines = out.stdout.strip().splitlines()
    summary = json.loads(lines[-1])
    for n in (2, 6):
        for kind in ("tcp", "quic"):
            assert summary[f"{kind}_{n}_peers_converged"] is True
            assert summary[f"{kind}_{n}_peers_p50_ms"] > 0
            assert summary[f"{kind}_{n}_peers_p99_ms"] >= summary[f"{kind}_{n}_peers_p50_ms"]
        assert summary[f"ratio_{n}_peers_p50"] > 0
    quic_lines = [ln for ln in lines if "over QUIC (" in ln]
    assert len(quic_lines) == 2
    assert all(f"{40 * (n - 1)}/{40 * (n - 1)} deliveries" in ln and
               f"{n * (n - 1)} of {n * (n - 1)} link ends over QUIC" in ln
               for n, ln in zip((2, 6), quic_lines, strict=True))
