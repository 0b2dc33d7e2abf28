from __future__ import annotations

import shutil
from pathlib import Path

import pytest

ASSETS = Path(__file__).resolve().parents[2] / "assets"


@pytest.fixture
def copy_module(tmp_path: Path):
    """Copy a built-in module to tmp_path/<id> and return its folder."""

    def _copy(module_id: str) -> Path:
        dest = tmp_path / module_id
        shutil.copytree(ASSETS / module_id, dest)
        return dest

    return _copy
