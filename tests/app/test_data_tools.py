"""`sandtable dataset` and `report` where Parquet or DuckDB is missing (as in the desktop
bundle): the command stops with one line naming what is missing, writes nothing, and exits 2."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

# a Python where the library cannot be imported: sys.modules[name] = None is how Python itself
# marks a module as absent
HIDE = "import sys\nsys.modules[{name!r}] = None\n"


@pytest.mark.processes
@pytest.mark.parametrize(("command", "hidden"), [("dataset", "duckdb"), ("dataset", "pyarrow"),
                                                 ("report", "duckdb")])
def test_a_missing_library_is_named_in_one_line_and_nothing_is_written(
        tmp_path: Path, command: str, hidden: str) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(HIDE.format(name=hidden))
    (tmp_path / "a.sandlog").write_bytes(b"")
    out = tmp_path / "out"
    args = ["--out", str(out)] if command == "dataset" else ["--out", str(out / "r.html")]
    done = subprocess.run([sys.executable, "-m", "table.app.cli", command,
                           str(tmp_path / "a.sandlog"), *args],
                          capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and f"{command} needs pyarrow and duckdb" in lines[0]
    assert f"({hidden} missing)" in lines[0]
    assert not out.exists()
