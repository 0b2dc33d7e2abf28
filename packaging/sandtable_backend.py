"""The build backend pyproject.toml names: setuptools, with the core compiled by mypyc in a wheel.

A wheel built where a C compiler exists carries the core compiled (the fast core: setup.py
builds its extension modules with mypyc, and the wheel is then for that platform and Python);
without a compiler, or with SANDTABLE_PURE_CORE=1, it is the pure-Python wheel, which runs the
same code more slowly. An editable install (`uv sync`, `pip install -e .`) never compiles: the
sources are what runs there, and scripts/compile_core.sh builds the fast core beside them.

mypy (mypyc) is asked for only by a wheel build that will compile, at the version uv.lock pins
when the lock is at hand.
"""
from __future__ import annotations

import os
import re
import shutil
from pathlib import Path
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import (  # noqa: F401  (the hooks passed through unchanged)
    build_editable,
    build_sdist,
    get_requires_for_build_editable,
    get_requires_for_build_sdist,
    prepare_metadata_for_build_editable,
    prepare_metadata_for_build_wheel,
)

COMPILE_VAR = "SANDTABLE_BUILD_COMPILED_CORE"  # read by setup.py
ROOT = Path(__file__).resolve().parents[1]


def compiles() -> bool:
    """Whether a wheel built here carries the compiled core."""
    if os.environ.get("SANDTABLE_PURE_CORE"):
        return False
    return any(shutil.which(name) for name in ("cc", "gcc", "clang", "cl"))


def mypy_requirement() -> str:
    lock = ROOT / "uv.lock"
    if lock.is_file():
        found = re.search(r'^name = "mypy"\nversion = "([^"]+)"', lock.read_text(), re.M)
        if found:
            return f"mypy=={found.group(1)}"
    return "mypy>=1.10,<3"


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    needed = list(_setuptools.get_requires_for_build_wheel(config_settings))
    return [*needed, mypy_requirement()] if compiles() else needed


def build_wheel(wheel_directory: str, config_settings: dict[str, Any] | None = None,
                metadata_directory: str | None = None) -> str:
    os.environ[COMPILE_VAR] = "1" if compiles() else ""
    try:
        return str(_setuptools.build_wheel(wheel_directory, config_settings, metadata_directory))
    finally:
        os.environ.pop(COMPILE_VAR, None)
