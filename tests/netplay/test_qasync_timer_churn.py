"""Netplay under qasync: timer churn plus a Link exchange, in a subprocess so a hard crash
(PySide6 6.12.0 + Python 3.11: "Fatal Python error: none_dealloc" in QObject.killTimer) fails
this test instead of killing pytest."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.socket, pytest.mark.processes]

HERE = Path(__file__).parent


@pytest.mark.parametrize("loop", [[], ["--plain-qasync"]], ids=["program-loop", "qasync"])
def test_qasync_timer_churn_and_link_exchange(loop):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen",
               PYTHONPATH=os.pathsep.join([str(HERE.parent.parent), str(HERE)]))
    proc = subprocess.run([sys.executable, str(HERE / "qasync_churn_main.py"), *loop],
                          capture_output=True, text=True, timeout=90, env=env)
    assert "none_dealloc" not in proc.stderr
    assert proc.returncode == 0, (proc.returncode, proc.stderr[-2000:])
    assert proc.stdout.strip().endswith("OK")
