"""The wheel as users install it: built by `pip wheel .` (or the one scripts/test.sh built,
SANDTABLE_TEST_WHEEL), installed into a fresh venv outside the checkout, it carries the built-in
games (`sandtable games` lists the three and `sandtable new` plays one) and, where a C compiler
built it, the compiled core (`--version` and `bench core` say so)."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.processes

REPO = Path(__file__).resolve().parents[2]


HAVE_COMPILER = any(shutil.which(name) for name in ("cc", "gcc", "clang"))


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    built = os.environ.get("SANDTABLE_TEST_WHEEL")
    if built:
        return Path(built)
    out = tmp_path_factory.mktemp("wheel")
    # The build backend pyproject.toml names, from the test environment (the test extras bring
    # setuptools and mypy): an isolated build env would fetch them from the package index.
    env = {k: v for k, v in os.environ.items() if k != "SANDTABLE_PURE_CORE"}
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                    "--no-build-isolation", str(REPO), "-w", str(out)], check=True,
                   capture_output=True, timeout=600, env=env)
    return next(out.glob("sandtable-*.whl"))


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """The wheel in a fresh venv of its own: its python, and the environment to run it in."""
    root = tmp_path_factory.mktemp("installed")
    env_dir = root / "venv"
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
    env["SANDTABLE_HOME"] = str(root / "home")
    site_hook = root / "deps" / "sitecustomize.py"
    site_hook.parent.mkdir()
    site_hook.write_text(f"import sys\nsys.path.append({deps!r})\n")
    env["PYTHONPATH"] = str(site_hook.parent)
    return python, env


def test_every_asset_file_is_in_the_wheel(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    shipped = {n.split("/data/share/sandtable/", 1)[1] for n in names
               if "/data/share/sandtable/assets/" in n}
    wanted = {p.relative_to(REPO).as_posix() for p in (REPO / "assets").rglob("*")
              if p.is_file() and not p.name.startswith(".")}
    assert wanted and shipped == wanted, "pyproject.toml [tool.setuptools.data-files] is stale"


def test_an_installed_wheel_lists_and_plays_the_games(installed: tuple[Path, dict[str, str]],
                                                     tmp_path: Path) -> None:
    python, env = installed
    run = subprocess.run([str(python), "-c", "import table, sys; print(table.__file__)"],
                         capture_output=True, text=True, env=env, cwd=tmp_path, check=True)
    assert str(python.parents[1]) in run.stdout, run.stdout  # the installed copy, not the checkout
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


@pytest.mark.skipif(not HAVE_COMPILER, reason="no C compiler: the wheel carries the Python core")
def test_an_installed_wheel_runs_the_compiled_core(installed: tuple[Path, dict[str, str]],
                                                   tmp_path: Path) -> None:
    python, env = installed
    version = subprocess.run([str(python), "-m", "table.app.cli", "--version"],
                             capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60)
    assert version.returncode == 0, version.stderr
    assert version.stdout.strip().endswith("(core: compiled (mypyc))"), version.stdout
    bench = subprocess.run([str(python), "-m", "table.app.cli", "bench", "core", "--ops", "3000",
                            "--objects", "100"], capture_output=True, text=True, env=env,
                           cwd=tmp_path, timeout=300)
    assert bench.returncode == 0, bench.stderr
    figures = json.loads(bench.stdout.strip().splitlines()[-1])
    assert figures["core_compiled"] is True and figures["states_equal"] is True
