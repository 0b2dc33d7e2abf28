#!/usr/bin/env python3
"""Build the Sandtable desktop bundle (a folder a playtester runs without Python).

    python packaging/build.py                 # -> dist/sandtable/
    python packaging/build.py --archive       # also dist/sandtable-<version>-<os>-<arch>.tar.gz (.zip on Windows)
    python packaging/build.py --dist DIR --work DIR

Use the Python of the environment the project is installed in (``pip install -e ".[bundle]"``);
PyInstaller freezes that interpreter and its packages. Builds for the OS it runs on only:
run it on Windows for a Windows bundle, on macOS for a macOS one (see docs/packaging.md).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
SPEC = HERE / "sandtable.spec"
NAME = "sandtable"


def fail(msg: str) -> None:
    print(f"build: {msg}", file=sys.stderr)
    raise SystemExit(1)


def declared_entry_points() -> set[tuple[str, str, str]]:
    """Entry points as pyproject.toml declares them now."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    out = {("console_scripts", k, v) for k, v in project.get("scripts", {}).items()}
    out |= {("gui_scripts", k, v) for k, v in project.get("gui-scripts", {}).items()}
    for group, eps in project.get("entry-points", {}).items():
        out |= {(group, k, v) for k, v in eps.items()}
    return out


def installed_entry_points() -> set[tuple[str, str, str]] | None:
    from importlib import metadata

    try:
        dist = metadata.distribution(NAME)
    except metadata.PackageNotFoundError:
        return None
    return {(ep.group, ep.name, ep.value) for ep in dist.entry_points}


def check_inputs(refresh: bool) -> None:
    """The bundle freezes what this Python imports and the installed dist-info: both must be
    this checkout's, and the dist-info's entry points must match pyproject.toml (they are
    written at install time, so a plugin added since then would be missing from the bundle)."""
    try:
        import PyInstaller  # noqa: F401
    except ImportError:
        fail(f'PyInstaller is not installed for {sys.executable}; run: '
             f'{sys.executable} -m pip install -e "{REPO}[bundle]"')
    sys.path.insert(0, str(REPO))
    import table

    if Path(table.__file__).resolve().parent != REPO / "table":
        fail(f"this Python imports table from {table.__file__}, not from {REPO}")
    if installed_entry_points() != declared_entry_points():
        if not refresh:
            fail("the installed sandtable metadata is missing or out of date with pyproject.toml; "
                 f'run: {sys.executable} -m pip install --no-deps -e "{REPO}"')
        print("build: refreshing the installed sandtable metadata (entry points changed)")
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "-e",
                        str(REPO)], check=True)
        # a fresh interpreter sees the new dist-info; importlib caches are per process
        out = subprocess.run([sys.executable, "-c", "import json,importlib.metadata as m;"
                              "print(json.dumps(sorted([e.group,e.name,e.value] for e in "
                              "m.distribution('sandtable').entry_points)))"],
                             check=True, capture_output=True, text=True, cwd=REPO).stdout
        if {tuple(e) for e in json.loads(out)} != declared_entry_points():
            fail("the sandtable metadata still differs from pyproject.toml after reinstalling")


def folder_size(path: Path) -> tuple[int, int]:
    total = count = 0
    for p in path.rglob("*"):
        if p.is_file() and not p.is_symlink():
            total += p.stat().st_size
            count += 1
    return total, count


def add_desktop_files(bundle: Path) -> None:
    """Linux: a .desktop entry, the icon and an installer for both, next to the executable."""
    shutil.copy2(HERE / "linux" / "sandtable.desktop", bundle / "sandtable.desktop")
    shutil.copy2(HERE / "icons" / "sandtable-256.png", bundle / "sandtable.png")
    shutil.copy2(HERE / "linux" / "install-desktop-entry.sh", bundle / "install-desktop-entry.sh")
    (bundle / "install-desktop-entry.sh").chmod(0o755)


def archive(dist: Path, bundle: Path, version: str) -> Path:
    system = {"linux": "linux", "win32": "windows", "darwin": "macos"}.get(sys.platform, sys.platform)
    base = dist / f"{NAME}-{version}-{system}-{platform.machine().lower()}"
    fmt = "zip" if sys.platform == "win32" else "gztar"
    root = bundle.parent if sys.platform != "darwin" else dist
    what = bundle.name if sys.platform != "darwin" else "Sandtable.app"
    return Path(shutil.make_archive(str(base), fmt, root_dir=root, base_dir=what))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dist", type=Path, default=REPO / "dist", help="output folder (default: dist/)")
    ap.add_argument("--work", type=Path, default=REPO / "build" / "pyinstaller",
                    help="PyInstaller work folder (default: build/pyinstaller/)")
    ap.add_argument("--clean", action="store_true", help="ignore PyInstaller's cache")
    ap.add_argument("--archive", action="store_true", help="also pack the bundle into one file")
    ap.add_argument("--no-refresh", action="store_true",
                    help="fail instead of reinstalling when the installed metadata is stale")
    ap.add_argument("--no-smoke", action="store_true", help="skip running `sandtable --version`")
    ap.add_argument("--info", type=Path, help="also write the build report as JSON here")
    args = ap.parse_args(argv)

    check_inputs(refresh=not args.no_refresh)
    dist, work = args.dist.resolve(), args.work.resolve()
    started = time.monotonic()
    cmd = [sys.executable, "-m", "PyInstaller", "--noconfirm", "--log-level", "WARN",
           "--distpath", str(dist), "--workpath", str(work), str(SPEC)]
    if args.clean:
        cmd.insert(3, "--clean")
    print("build:", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True, cwd=REPO)
    bundle = dist / NAME
    if sys.platform.startswith("linux"):
        add_desktop_files(bundle)
    seconds = time.monotonic() - started
    exe = bundle / (NAME + (".exe" if sys.platform == "win32" else ""))
    if not exe.is_file():
        fail(f"no executable at {exe}")

    version = ""
    if not args.no_smoke:
        env = dict(os.environ, QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"))
        out = subprocess.run([str(exe), "--version"], capture_output=True, text=True, env=env,
                             timeout=120)
        if out.returncode != 0:
            fail(f"{exe} --version failed:\n{out.stdout}{out.stderr}")
        version = out.stdout.strip().split()[-1]
    size, files = folder_size(bundle)
    info = {"bundle": str(bundle), "executable": str(exe), "bytes": size, "files": files,
            "build_seconds": round(seconds, 1), "version": version, "platform": sys.platform,
            "python": platform.python_version()}
    print(f"build: {bundle}  {size / 2**20:.1f} MiB in {files} files, built in {seconds:.0f} s"
          + (f", reports sandtable {version}" if version else ""))
    if args.archive:
        if not version:
            import re
            version = re.search(r'__version__ = "([^"]+)"',
                                (REPO / "table" / "__init__.py").read_text()).group(1)
        path = archive(dist, bundle, version)
        info["archive"], info["archive_bytes"] = str(path), path.stat().st_size
        print(f"build: archive {path}  {path.stat().st_size / 2**20:.1f} MiB")
    if args.info:
        args.info.write_text(json.dumps(info, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
