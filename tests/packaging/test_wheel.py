"""The wheel carries the built-in games: built by `pip wheel .`, installed into a fresh venv
outside the checkout, `sandtable games` lists the three and `sandtable new` plays one."""
from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.processes

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    # The build backend pyproject.toml names, from the test environment (the test extras bring
    # it): an isolated build env would fetch it from the package index on every run.
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                    "--no-build-isolation", str(REPO), "-w", str(out)], check=True,
                   capture_output=True, timeout=300)
    return next(out.glob("sandtable-*.whl"))


def test_every_asset_file_is_in_the_wheel(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    shipped = {n.split("/data/share/sandtable/", 1)[1] for n in names
               if "/data/share/sandtable/assets/" in n}
    wanted = {p.relative_to(REPO).as_posix() for p in (REPO / "assets").rglob("*")
              if p.is_file() and not p.name.startswith(".")}
    assert wanted and shipped == wanted, "pyproject.toml [tool.setuptools.data-files] is stale"


def test_an_installed_wheel_lists_and_plays_the_games(wheel: Path, tmp_path: Path) -> None:
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    # the wheel goes into the fresh venv alone (the test's own pip installs into it, so the
    # venv needs no pip of its own; the test's environment is left as it is); its
    # dependencies come from the test's own environment's site-packages (no download),
    # searched after the venv's own
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q",
                    "--no-deps", "--no-index", str(wheel)], check=True, capture_output=True,
                   timeout=300)
    deps = sysconfig.get_paths()["purelib"]
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "SANDTABLE_ASSETS")}
    env["SANDTABLE_HOME"] = str(tmp_path / "home")
    site_hook = tmp_path / "deps" / "sitecustomize.py"
    site_hook.parent.mkdir()
    site_hook.write_text(f"import sys\nsys.path.append({deps!r})\n")
    env["PYTHONPATH"] = str(site_hook.parent)
    run = subprocess.run([str(python), "-c", "import table, sys; print(table.__file__)"],
                         capture_output=True, text=True, env=env, cwd=tmp_path, check=True)
    assert str(env_dir) in run.stdout, run.stdout  # the installed copy, not the checkout
    games = subprocess.run([str(python), "-m", "table.app.cli", "games"], capture_output=True,
                           text=True, env=env, cwd=tmp_path, timeout=120)
    assert games.returncode == 0, games.stderr
    for name in ("gauntlet", "mantle-of-the-keeper", "dead-to-rites"):
        assert name in games.stdout
    new = subprocess.run([str(python), "-m", "table.app.cli", "new", "--game", "gauntlet",
                          "--seats", "2", "--out", str(tmp_path / "t.sandlog")],
                         capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    assert new.returncode == 0, new.stderr
    assert (tmp_path / "t.sandlog").stat().st_size > 0
