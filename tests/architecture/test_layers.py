"""The layers contract holds today, and a cross-layer import injected into a copy breaks it.

Each case copies the three packages and pyproject.toml into a temporary folder, adds one import
to one module there, and runs `lint-imports` on the copy (the copy comes first on the path, so
the checkout's own packages are not read).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.processes

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def _copy(tmp_path: Path) -> Path:
    for package in ("table", "netplay", "assist"):
        shutil.copytree(ROOT / package, tmp_path / package,
                        ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def _lint(copy: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(copy))
    return subprocess.run([str(LINT_IMPORTS), "--no-cache"], cwd=copy, env=env,
                          capture_output=True, text=True, timeout=120)


def _inject(copy: Path, module: str, line: str) -> None:
    path = copy / module
    path.write_text(path.read_text(encoding="utf-8") + f"\n{line}\n", encoding="utf-8")


def test_the_house_keeps_its_layers(tmp_path: Path) -> None:
    result = _lint(_copy(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


@pytest.mark.parametrize(("module", "line", "broken"), [
    # netplay reaching up into the app (which pulls in Qt)
    ("netplay/mesh/mesh.py", "import table.app.lan_wiring  # noqa", ("layers",)),
    # the core reaching the UI
    ("table/core/apply.py", "from table.ui import style  # noqa", ("layers",)),
    # the games reaching netplay
    ("table/games/cards.py", "import netplay.protocol.wire  # noqa", ("layers",)),
    # indirect: netplay imports a UI module, which imports Qt, so netplay reaches Qt
    ("netplay/protocol/wire.py", "import table.ui.style  # noqa",
     ("layers", "Qt only in the UI and the app")),
    # Qt in the model, even where the layers would allow it
    ("table/report/charts.py", "import PySide6.QtCore  # noqa", ("Qt only in the UI and the app",)),
    # the UI reaching netplay (a lower layer, but forbidden)
    ("table/ui/style.py", "import netplay.protocol.wire  # noqa", ("the UI never reaches netplay",)),
    # siblings: LAN wiring reaching the UI
    ("table/lan/modules.py", "import table.ui.style  # noqa", ("layers",)),
    # the dataset reaching up into the report (the report may read the dataset, not back)
    ("table/dataset/rows.py", "import table.report.session  # noqa", ("layers",)),
    # inside netplay: the protocol reaching up into the mesh
    ("netplay/protocol/messages.py", "import netplay.mesh.mesh  # noqa", ("netplay rooms",)),
    # indirect, inside netplay: a link reaching replication, through a module of its own room
    ("netplay/link/addresses.py", "import netplay.replication.catchup  # noqa", ("netplay rooms",)),
    # siblings that never import each other: replication reaching into the blobs room
    ("netplay/replication/catchup.py", "import netplay.blobs.transfer  # noqa", ("netplay rooms",)),
    # the protocol doing I/O (the layers allow asyncio; the protocol's own contract does not)
    ("netplay/protocol/wire.py", "import asyncio  # noqa",
     ("the protocol does no I/O",)),
    ("netplay/protocol/handshake.py", "import zeroconf  # noqa", ("the protocol does no I/O",)),
])
def test_a_cross_layer_import_breaks_the_contract(tmp_path: Path, module: str, line: str,
                                                  broken: tuple[str, ...]) -> None:
    copy = _copy(tmp_path)
    _inject(copy, module, line)
    result = _lint(copy)
    assert result.returncode != 0, result.stdout
    broken_lines = [text for text in result.stdout.splitlines() if text.endswith("BROKEN")]
    for contract in broken:
        assert any(text.startswith(contract) for text in broken_lines), result.stdout
