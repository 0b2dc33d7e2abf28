"""The compiled core's guard (table.core.native): extension modules older than the sources are
passed over, so an edited source always takes effect. Each case imports a copy of the package in
a process of its own, beside a stand-in extension that fails if it is ever loaded."""
from __future__ import annotations

import importlib.machinery
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from table.core.native import sources_digest

pytestmark = pytest.mark.processes

ROOT = Path(__file__).resolve().parents[2]
PROBE = ("import table.core.native as native, table.core.state as state; "
         "print(state.__file__); print(native.compiled())")


def _copy_with_a_build(tmp_path: Path, stamp: str) -> Path:
    """The table and table.core packages as sources, plus a 'compiled' state module that is not
    a real extension (loading it raises ImportError) and the build's stamp."""
    (tmp_path / "table").mkdir()
    shutil.copy(ROOT / "table" / "__init__.py", tmp_path / "table" / "__init__.py")
    core = tmp_path / "table" / "core"
    shutil.copytree(ROOT / "table" / "core", core,
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", "*.stamp"))
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    (core / f"state{suffix}").write_bytes(b"not an extension module")
    (core / "compiled.stamp").write_text(stamp + "\n", encoding="ascii")
    return tmp_path


def _probe(folder: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(folder)}
    return subprocess.run([sys.executable, "-W", "always", "-c", PROBE], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=60)


def test_an_extension_older_than_the_sources_is_passed_over_with_a_warning(tmp_path):
    folder = _copy_with_a_build(tmp_path, "0" * 64)  # the digest of other sources
    done = _probe(folder)
    assert done.returncode == 0, done.stderr
    module, running_compiled = done.stdout.split()
    assert Path(module) == folder / "table" / "core" / "state.py"
    assert running_compiled == "False"
    assert "compiled modules are older than its sources" in done.stderr


def test_an_extension_built_from_these_sources_is_the_one_loaded(tmp_path):
    """The control: with the stamp of these very sources, the stand-in extension is what
    Python loads (and fails on), so the case above did pass it over."""
    folder = _copy_with_a_build(tmp_path, sources_digest())
    done = _probe(folder)
    assert done.returncode != 0
    assert "ImportError" in done.stderr and "state" in done.stderr
