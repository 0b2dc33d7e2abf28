"""Fixtures for the packaging tests: the built desktop bundle (built once per test run)."""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests import bundle_build

REPO = Path(__file__).resolve().parents[2]
PACKAGING = REPO / "packaging"


@dataclass
class Bundle:
    folder: Path
    exe: Path
    info: dict

    def run(self, *args: str, cwd: Path, timeout: float = 120,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        """Run the bundled `sandtable` as a playtester would: offscreen here, from another
        folder, with no hint of the source checkout in the environment."""
        base = {k: v for k, v in os.environ.items()
                if k not in ("PYTHONPATH", "PYTHONHOME", "SANDTABLE_ASSETS", "VIRTUAL_ENV")}
        base["QT_QPA_PLATFORM"] = "offscreen"
        base.update(env or {})
        return subprocess.run([str(self.exe), *args], cwd=cwd, env=base, capture_output=True,
                              text=True, timeout=timeout)


def packaging_module(name: str):  # type: ignore[no-untyped-def]
    """Import packaging/<name>.py under a private name (packaging/ is not a package, and
    `build` would clash with the PyPA build tool)."""
    key = f"_sandtable_packaging_{name}"
    if key not in sys.modules:
        spec = importlib.util.spec_from_file_location(key, PACKAGING / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[key] = module
        spec.loader.exec_module(module)
    return sys.modules[key]


def _ensure_pyinstaller() -> None:
    if importlib.util.find_spec("PyInstaller") is None:  # the test extra brings it; older venvs
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "pyinstaller>=6"],
                       check=True)


@pytest.fixture(scope="session")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Bundle:
    exe_name = "sandtable.exe" if sys.platform == "win32" else "sandtable"
    reuse = os.environ.get(bundle_build.REUSE_VAR)
    if reuse:
        folder = Path(reuse).resolve()
        info_path = folder.parent / "build-info.json"
        info = json.loads(info_path.read_text()) if info_path.is_file() else {}
        return Bundle(folder, folder / exe_name, info)
    started = os.environ.get(bundle_build.STARTED_VAR)
    if started:  # the test run started the build at its start (tests/bundle_build.py)
        root = Path(started)
        code, output = bundle_build.wait(root)
    else:
        _ensure_pyinstaller()
        root = tmp_path_factory.mktemp("bundle")
        proc = subprocess.run(bundle_build.command(root), cwd=REPO, capture_output=True,
                              text=True, timeout=600)
        code, output = proc.returncode, proc.stdout[-4000:] + "\n" + proc.stderr[-6000:]
    if code != 0:
        pytest.fail(f"bundle build failed ({code}):\n{output}")
    info = json.loads((root / "build-info.json").read_text())
    print(f"\nbundle: {info['bytes'] / 2**20:.1f} MiB, {info['files']} files, "
          f"built in {info['build_seconds']} s")
    return Bundle(Path(info["bundle"]), Path(info["executable"]), info)
