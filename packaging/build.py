#!/usr/bin/env python3
"""Build the Sandtable desktop bundle (a folder a playtester runs without Python).

    python packaging/build.py                 # -> dist/sandtable/
    python packaging/build.py --archive       # also dist/sandtable-<version>-<os>-<arch>.tar.gz
                                              # (.zip on Windows)
    python packaging/build.py --dist DIR --work DIR
    python packaging/build.py --core-wheel W.whl   # ship the compiled core this wheel carries

The bundle ships the core compiled by mypyc where this machine has a C compiler (`--core python`
ships the sources alone): taken from a wheel built from these sources (`--core-wheel`), or
compiled for the bundle into its staged copy of the sources (work/sources), never in the checkout.

Use the Python of the environment the project is installed in (``uv sync --locked --extra bundle``);
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
        fail(f"PyInstaller is not installed for {sys.executable}; run: "
             "bash -c '\"$(bash scripts/uv.sh)\" sync --locked --extra bundle'")
    sys.path.insert(0, str(REPO))
    import table

    if Path(table.__file__).resolve().parent != REPO / "table":
        fail(f"this Python imports table from {table.__file__}, not from {REPO}")
    if installed_entry_points() != declared_entry_points():
        if not refresh:
            fail("the installed sandtable metadata is missing or out of date with pyproject.toml; "
                 "run: bash -c '\"$(bash scripts/uv.sh)\" sync --locked --extra bundle'")
        print("build: refreshing the installed sandtable metadata (entry points changed)")
        uv = subprocess.run(["bash", str(REPO / "scripts" / "uv.sh")], check=True,
                            capture_output=True, text=True).stdout.strip()
        subprocess.run([uv, "pip", "install", "--quiet", "--python", sys.executable,
                        "--no-deps", "-e", str(REPO)], check=True)
        # a fresh interpreter sees the new dist-info; importlib caches are per process
        out = subprocess.run([sys.executable, "-c", "import json,importlib.metadata as m;"
                              "print(json.dumps(sorted([e.group,e.name,e.value] for e in "
                              "m.distribution('sandtable').entry_points)))"],
                             check=True, capture_output=True, text=True, cwd=REPO).stdout
        if {tuple(e) for e in json.loads(out)} != declared_entry_points():
            fail("the sandtable metadata still differs from pyproject.toml after reinstalling")


def _compile_core():  # type: ignore[no-untyped-def]
    """packaging/compile_core.py, imported by path (packaging/ is not a package)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("_sandtable_compile_core",
                                                  HERE / "compile_core.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def stage_sources(work: Path, core: str, core_wheel: Path | None) -> tuple[Path, bool]:
    """A copy of our packages for PyInstaller to freeze, with the compiled core in it when
    asked for and possible; the copy's folder and whether its core is compiled."""
    staged = work / "sources"
    shutil.rmtree(staged, ignore_errors=True)
    skip = shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", "compiled.stamp")
    for package in ("table", "netplay", "assist"):
        shutil.copytree(REPO / package, staged / package, ignore=skip)
    compile_core = _compile_core()
    if core == "python":
        return staged, False
    if core_wheel is not None:
        if compile_core.from_wheel(core_wheel, staged) != 0:
            fail(f"{core_wheel} carries no compiled core")
        return staged, True
    if not compile_core.have_c_compiler():
        print("build: no C compiler: the bundle ships the core as Python")
        return staged, False
    print("build: compiling the core with mypyc (a minute or two)", flush=True)
    compile_core.build(staged)
    return staged, True


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
    ap.add_argument("--core", choices=("compiled", "python"), default="compiled",
                    help="ship the core compiled by mypyc (where a C compiler or --core-wheel "
                         "gives it; the default) or as Python")
    ap.add_argument("--core-wheel", type=Path, metavar="WHEEL",
                    help="take the compiled core from this wheel (built from these sources)")
    args = ap.parse_args(argv)

    check_inputs(refresh=not args.no_refresh)
    dist, work = args.dist.resolve(), args.work.resolve()
    started = time.monotonic()
    sources, core_compiled = stage_sources(work, args.core, args.core_wheel)
    cmd = [sys.executable, "-m", "PyInstaller", "--noconfirm", "--log-level", "WARN",
           "--distpath", str(dist), "--workpath", str(work), str(SPEC)]
    if args.clean:
        cmd.insert(3, "--clean")
    print("build:", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True, cwd=REPO,
                   env={**os.environ, "SANDTABLE_BUNDLE_SOURCES": str(sources)})
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
        version = out.stdout.split()[1]  # "sandtable 0.1.0 (core: ...)"
    size, files = folder_size(bundle)
    info = {"bundle": str(bundle), "executable": str(exe), "bytes": size, "files": files,
            "build_seconds": round(seconds, 1), "version": version, "platform": sys.platform,
            "python": platform.python_version(), "core_compiled": core_compiled}
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
