"""The desktop bundle, built with packaging/build.py and run as a playtester would run it.

Slow (one PyInstaller build, about a minute on two cores); the build is shared by every test
here. Set SANDTABLE_TEST_BUNDLE=dist/sandtable to test an existing build instead.
"""
from __future__ import annotations

import json
import os
import sys
from importlib import import_module
from pathlib import Path

import pytest

from table import __version__
from table.games import registry

from .conftest import Bundle, packaging_module

pytestmark = pytest.mark.slow

build_script = packaging_module("build")

# A budget, not a target: 293 MiB measured on Linux x86-64 with PySide6 6.11, the designer's
# Parquet and DuckDB included (docs/packaging.md).
MAX_BUNDLE_MIB = 300


@pytest.mark.processes
def test_version(bundle: Bundle, tmp_path: Path) -> None:
    out = bundle.run("--version", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().startswith(f"sandtable {__version__} (core: ")


@pytest.mark.processes
def test_games_lists_the_bundled_modules(bundle: Bundle, tmp_path: Path) -> None:
    out = bundle.run("games", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    listed = [line.split()[0] for line in out.stdout.splitlines() if line.strip()]
    source = [m.id for m in registry.builtin_modules()]
    assert listed == source and "dead-to-rites" in listed


@pytest.mark.processes
def test_screenshot_offscreen(bundle: Bundle, tmp_path: Path) -> None:
    png = tmp_path / "shots" / "dead-to-rites.png"
    out = bundle.run("screenshot", "--game", "dead-to-rites", "--size", "1200x800",
                     "--out", str(png), cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert png.is_file() and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    from PySide6.QtGui import QImage

    img = QImage(str(png))
    assert not img.isNull()
    assert (img.width(), img.height()) == (1200, 800)
    # Not blank: a real table has many colours, spread over the whole picture.
    colours = {img.pixel(x, y) for x in range(0, 1200, 15) for y in range(0, 800, 15)}
    assert len(colours) > 50
    halves = [{img.pixel(x, y) for x in range(x0, x0 + 600, 15) for y in range(0, 800, 15)}
              for x0 in (0, 600)]
    assert all(len(h) > 10 for h in halves)


@pytest.mark.processes
def test_the_designer_tools_work_frozen(bundle: Bundle, tmp_path: Path) -> None:
    """A designer with the bundle alone: headless table logs, then `dataset` (Parquet) and
    `report` (DuckDB queries over it) over them, from the bundle's folder outside the
    checkout."""
    logs = []
    for game, seats in (("gauntlet", "2"), ("dead-to-rites", "4"), ("gauntlet", "2")):
        log = tmp_path / f"{game}-{len(logs)}.sandlog"
        out = bundle.run("new", "--game", game, "--seats", seats, "--out", str(log),
                         cwd=tmp_path)
        assert out.returncode == 0 and log.is_file(), out.stdout + out.stderr
        logs.append(str(log))
    folder = tmp_path / "dataset"
    out = bundle.run("dataset", *logs, "--out", str(folder), "--jobs", "1", cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "3 session(s)" in out.stdout and list((folder / "sessions").glob("*.parquet"))
    html = tmp_path / "report.html"
    out = bundle.run("report", *logs, "--out", str(html), "--no-progress", "--jobs", "1",
                     cwd=tmp_path, env={"XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert out.returncode == 0 and html.is_file(), out.stdout + out.stderr
    page = html.read_text(encoding="utf-8")
    assert "Dead to Rites" in page and "Gauntlet" in page


@pytest.mark.processes
def test_the_bundle_runs_the_core_it_was_built_with(bundle: Bundle, tmp_path: Path) -> None:
    out = bundle.run("--version", cwd=tmp_path)
    core = "compiled (mypyc)" if bundle.info.get("core_compiled") else "Python"
    assert out.returncode == 0 and out.stdout.strip().endswith(f"(core: {core})"), out.stdout


def _selfcheck(bundle: Bundle, cwd: Path) -> dict:
    out = bundle.run(cwd=cwd, env={"SANDTABLE_BUNDLE_SELFCHECK": "1"})
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


@pytest.mark.processes
def test_frozen_app_finds_entry_points_and_assets_inside_the_bundle(bundle: Bundle,
                                                                    tmp_path: Path) -> None:
    report = _selfcheck(bundle, tmp_path)
    assert report["frozen"] is True
    assert report["version"] == __version__
    # The dist-info inside the bundle carries every entry point pyproject.toml declares.
    assert {tuple(e) for e in report["entry_points"]} == build_script.declared_entry_points()
    assert report["console_script"] == "table.app.cli:main"
    # Game modules come from the bundle (sys._MEIPASS/assets), never from the checkout.
    internal = Path(report["meipass"]).resolve()
    assert report["asset_dirs"] == [str(internal / "assets")]
    assert report["games"] == sorted(registry.module_dirs())


@pytest.mark.processes
def test_assist_plugins_load_frozen_as_from_source(bundle: Bundle, tmp_path: Path) -> None:
    """`entry_points(group="sandtable.assist")` in the bundle finds the plugins pyproject
    declares, and each one that imports from source imports from the bundle too."""
    report = _selfcheck(bundle, tmp_path)
    declared = sorted(n for g, n, _ in build_script.declared_entry_points()
                      if g == "sandtable.assist")
    assert sorted(report["assist_plugins"]) == declared
    for group, name, value in build_script.declared_entry_points():
        if group != "sandtable.assist":
            continue
        frozen = report["assist_plugins"][name]
        module, _, attr = value.partition(":")
        try:
            obj = import_module(module)
            for part in filter(None, attr.split(".")):
                obj = getattr(obj, part)
        except (ImportError, AttributeError):  # broken from source too (work in progress)
            assert frozen.startswith("ERROR"), (name, frozen)
        else:
            assert not frozen.startswith("ERROR"), (name, frozen)


@pytest.mark.processes
def test_every_module_of_ours_imports_frozen(bundle: Bundle, tmp_path: Path) -> None:
    """Nothing PyInstaller's analysis missed (a lazy or dynamic import of a dependency)."""
    out = bundle.run(cwd=tmp_path, env={"SANDTABLE_BUNDLE_SELFCHECK": "imports"})
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["modules_imported"] > 50
    for name, error in report["import_errors"].items():
        try:
            import_module(name)
        except Exception as source_error:  # a module broken from source too is not our concern
            print(f"{name}: broken from source as well ({error}; {source_error})")
        else:
            pytest.fail(f"{name} imports from source but not in the bundle: {error}")


def test_bundle_is_lean(bundle: Bundle) -> None:
    internal = bundle.folder / "_internal"
    files = [p for p in bundle.folder.rglob("*") if p.is_file() and not p.is_symlink()]
    size_mib = sum(p.stat().st_size for p in files) / 2**20
    assert size_mib < MAX_BUNDLE_MIB, f"bundle grew to {size_mib:.1f} MiB"
    names = {p.relative_to(internal).as_posix() for p in files if internal in p.parents}
    # Only the Qt modules the app imports, no translations, no unused plugin types.
    qt_modules = {n.split("/")[1].split(".")[0] for n in names
                  if n.startswith("PySide6/Qt") and n.count("/") == 1}
    assert qt_modules == {"QtCore", "QtGui", "QtWidgets"}
    assert not any("/translations/" in n for n in names)
    plugin_types = {n.split("/")[3] for n in names if n.startswith("PySide6/Qt/plugins/")}
    assert plugin_types <= set(packaging_module("bundle_filters").KEPT_PLUGINS)
    platforms = {Path(n).stem for n in names if n.startswith("PySide6/Qt/plugins/platforms/")}
    assert any("offscreen" in p for p in platforms)
    if sys.platform.startswith("linux"):
        assert {"libqxcb", "libqwayland"} <= platforms
    # No test or build tools.
    for tool in ("pytest", "_pytest", "hypothesis", "PyInstaller", "mypy", "pytestqt"):
        assert not any(n.split("/")[0] == tool for n in names), tool
    # No dangling links (e.g. to a Qt library that was filtered out).
    assert not [p for p in bundle.folder.rglob("*") if p.is_symlink() and not p.exists()]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux desktop entry")
@pytest.mark.processes
def test_linux_desktop_entry(bundle: Bundle, tmp_path: Path) -> None:
    for name in ("sandtable.desktop", "sandtable.png", "install-desktop-entry.sh"):
        assert (bundle.folder / name).is_file(), name
    entry = (bundle.folder / "sandtable.desktop").read_text()
    assert "Icon=sandtable" in entry and "Exec=sandtable" in entry
    # The installer writes an entry whose Exec is this bundle's executable.
    import subprocess

    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "share"))
    subprocess.run(["sh", str(bundle.folder / "install-desktop-entry.sh")], env=env,
                   check=True, capture_output=True)
    installed = (tmp_path / "share" / "applications" / "sandtable.desktop").read_text()
    assert f'Exec="{bundle.folder}/sandtable"' in installed
    assert (tmp_path / "share" / "icons" / "hicolor" / "256x256" / "apps" / "sandtable.png").is_file()
