"""The lock file (uv.lock) and pyproject.toml agree: every install (scripts/run.sh, scripts/
test.sh, CI) takes the locked versions, so a range changed in pyproject.toml without `uv lock`
must fail here, not on a user's machine next month."""
from __future__ import annotations

import os
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

pytestmark = pytest.mark.processes

REPO = Path(__file__).resolve().parents[2]


def _uv() -> str:
    found = subprocess.run(["bash", str(REPO / "scripts" / "uv.sh")], capture_output=True,
                           text=True, timeout=300)
    if found.returncode != 0:
        pytest.skip(f"uv could not be had here: {found.stderr.strip()[-300:]}")
    return found.stdout.strip()


def _check(folder: Path, uv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([uv, "lock", "--check", "--offline", "--project", str(folder)],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "UV_PYTHON_DOWNLOADS": "never"})


def _copy(tmp_path: Path) -> Path:
    for name in ("pyproject.toml", "uv.lock"):
        shutil.copy(REPO / name, tmp_path / name)
    return tmp_path


def test_the_lock_is_current_for_pyproject(tmp_path: Path) -> None:
    done = _check(_copy(tmp_path), _uv())
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("change", [
    ('"duckdb>=2,<3"', '"duckdb>=2,<2.1"'),  # a bound moved
    ('"msgpack>=1.0,<2",', '"msgpack>=1.0,<2",\n    "six>=1.16",'),  # a dependency added
])
def test_a_pyproject_change_without_a_new_lock_fails(tmp_path: Path,
                                                      change: tuple[str, str]) -> None:
    """The control: the check above can fail."""
    folder = _copy(tmp_path)
    text = (folder / "pyproject.toml").read_text()
    assert change[0] in text, "the change no longer applies to pyproject.toml: update the test"
    (folder / "pyproject.toml").write_text(text.replace(change[0], change[1], 1))
    done = _check(folder, _uv())
    # uv says the lock needs updating, or (offline, a package it has never seen) that it cannot
    # resolve without the network: either way the stale lock is refused
    assert done.returncode != 0
    assert "needs to be updated" in done.stderr or "network was disabled" in done.stderr


def test_every_locked_version_is_inside_pyproject_ranges() -> None:
    """What the lock pins lies within the ranges pyproject.toml states (read without uv)."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    lock = tomllib.loads((REPO / "uv.lock").read_text())
    versions: dict[str, list[str]] = {}
    for package in lock["package"]:
        versions.setdefault(package["name"], []).append(package["version"])
    wanted = [Requirement(line) for line in project["dependencies"]]
    for extra in project["optional-dependencies"].values():
        wanted += [Requirement(line) for line in extra]
    for requirement in wanted:
        name = canonicalize_name(requirement.name)
        assert name in versions, f"{name} is not in uv.lock"
        assert any(requirement.specifier.contains(v) for v in versions[name]), \
            f"uv.lock pins {name} {versions[name]}, outside {requirement}"


def test_the_libraries_that_break_their_apis_are_bounded_above() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    bounded = {"duckdb", "pyarrow", "iroh", "pyside6-essentials", "zeroconf", "qasync"}
    for line in project["dependencies"]:
        requirement = Requirement(line)
        if canonicalize_name(requirement.name) in bounded:
            assert any(spec.operator in ("<", "<=", "==", "~=")
                       for spec in requirement.specifier), f"{line}: no upper bound"
