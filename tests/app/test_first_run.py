"""First run on a machine that cannot open the window yet: scripts/run.sh names every missing
system library Qt's X11 plugin needs, with the install line; with no display at all, both it
and `sandtable` say so in one line instead of Qt's abort (rc 134)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent / "sandtable"
README_LIBS = ["libxcb-cursor0", "libxcb-icccm4", "libxcb-keysyms1", "libxcb-image0",
               "libxcb-render-util0", "libxcb-xkb1", "libxkbcommon-x11-0", "libxcb-shape0",
               "libxcb-randr0", "libegl1"]
SONAMES = {"libxcb-cursor0": "libxcb-cursor.so.0", "libxcb-icccm4": "libxcb-icccm.so.4",
           "libxcb-keysyms1": "libxcb-keysyms.so.1", "libxcb-image0": "libxcb-image.so.0",
           "libxcb-render-util0": "libxcb-render-util.so.0", "libxcb-xkb1": "libxcb-xkb.so.1",
           "libxkbcommon-x11-0": "libxkbcommon-x11.so.0", "libxcb-shape0": "libxcb-shape.so.0",
           "libxcb-randr0": "libxcb-randr.so.0", "libegl1": "libEGL.so.1"}


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env.update(extra)
    return env


def _fake_ldconfig(folder: Path, present: list[str]) -> str:
    """A PATH whose ldconfig knows only these packages' libraries."""
    lines = "".join(f"\t{SONAMES[p]} (libc6,x86-64) => /usr/lib/{SONAMES[p]}\n" for p in present)
    (folder / "known.txt").write_text(f"{len(present)} libs found in cache\n{lines}")
    tool = folder / "ldconfig"
    tool.write_text(f"#!/bin/sh\ncat '{folder / 'known.txt'}'\n")
    tool.chmod(0o755)
    return f"{folder}:{os.environ['PATH']}"


def test_the_readme_lists_the_libraries_the_check_knows() -> None:
    readme = (ROOT / "README.md").read_text()
    script = (ROOT / "scripts" / "check_display.sh").read_text()
    for package in README_LIBS:
        assert package in readme
        assert f"{package}:{SONAMES[package]}" in script


@pytest.mark.processes
def test_run_sh_names_every_missing_library_with_the_install_line(tmp_path: Path) -> None:
    present = [p for p in README_LIBS if p not in ("libxcb-icccm4", "libxcb-keysyms1")]
    env = _env(DISPLAY=":97", PATH=_fake_ldconfig(tmp_path, present))
    done = subprocess.run(["bash", str(ROOT / "scripts" / "run.sh"), "--game", "sample"],
                          env=env, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert "sudo apt-get install libxcb-icccm4 libxcb-keysyms1\n" in done.stderr
    assert "libxcb-cursor0" not in done.stderr


@pytest.mark.processes
def test_all_libraries_present_passes_the_check(tmp_path: Path) -> None:
    env = _env(DISPLAY=":97", PATH=_fake_ldconfig(tmp_path, README_LIBS))
    done = subprocess.run(["bash", str(ROOT / "scripts" / "check_display.sh")], env=env,
                          capture_output=True, text=True, timeout=30)
    assert (done.returncode, done.stderr) == (0, "")


@pytest.mark.processes
def test_run_sh_without_a_display_says_so_in_one_line() -> None:
    done = subprocess.run(["bash", str(ROOT / "scripts" / "run.sh"), "--game", "sample"],
                          env=_env(), cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "no display" in lines[0], done.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="X11/Wayland displays")
@pytest.mark.processes
def test_sandtable_without_a_display_says_so_instead_of_aborting() -> None:
    assert shutil.which(str(BIN))
    done = subprocess.run([str(BIN), "play", "--game", "sample"], env=_env(),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1  # not Qt's abort (134)
    lines = done.stderr.strip().splitlines()
    assert lines == [lines[0]] and lines[0].startswith("sandtable: no display"), done.stderr
