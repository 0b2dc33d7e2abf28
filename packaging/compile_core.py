#!/usr/bin/env python3
"""Compile the table's core (table/core) with mypyc: the fast build.

    python packaging/compile_core.py           # build the extension modules beside the sources
    python packaging/compile_core.py --check   # exit 0 when a current build is in place, else 1
    python packaging/compile_core.py --clean   # remove them: the Python sources run again
    python packaging/compile_core.py --from-wheel W.whl --into DIR
                                               # a wheel's compiled core into a copy of the tree

The same code runs as Python or compiled; the compiled fold replays about 1.8x as fast (docs/
performance.md). It needs mypy and a C compiler. scripts/run.sh builds it in the background
(scripts/compile_core.sh); a wheel built on a machine with a C compiler carries it (setup.py,
through packaging/sandtable_backend.py); the desktop bundle ships it (packaging/build.py).

A build records the digest of the sources it compiled (table/core/compiled.stamp): when a
source changes after the build, table/core/__init__.py loads the Python sources instead of the
stale extensions and says so once, so an edit always takes effect. The digest is taken before
the build starts: a source edited while it runs leaves the build stale, never passed as current.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
CORE = REPO / "table" / "core"
STAMP = "compiled.stamp"
GROUP = "compiled"  # the shared library of the compiled modules: table/core/compiled__mypyc.*

# Python, not compiled: the package's __init__ and native.py (they decide whether the
# extensions may load); the Journal, a subclass of `list` (mypyc compiles none); the log's
# Renderer, which the UI extends (a Python class cannot extend a compiled one); the fair draws'
# ops, which tests stand a cheating peer's software in for by replacing what they call.
KEPT_AS_PYTHON = {"__init__.py", "native.py", "journal.py", "render.py", "fair_ops.py"}


def core_sources(root: Path = REPO) -> list[str]:
    """The core's modules that compile, as paths relative to `root` (mypyc names the modules
    from them)."""
    core = root / "table" / "core"
    return sorted(p.relative_to(root).as_posix() for p in core.glob("*.py")
                  if p.name not in KEPT_AS_PYTHON)


def sources_digest(core: Path = CORE) -> str:
    """The digest table.core.native checks a build's stamp against, by its own function
    (native.py loaded from its file alone: this may run where the package cannot be imported,
    e.g. in a wheel's build environment)."""
    spec = importlib.util.spec_from_file_location("_sandtable_core_native", core / "native.py")
    assert spec is not None and spec.loader is not None
    native = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(native)
    return str(native.sources_digest(core))


def extensions(target_dir: Path, root: Path = REPO) -> list[Any]:
    """The core's extension modules, as setuptools builds them (mypycify: it runs mypy over
    the sources first; the working directory must be the tree's root, `root`)."""
    from mypyc.build import mypycify

    # the shared runtime library inside the package (table/core/compiled__mypyc.*), where an
    # editable install's finder and a wheel both find it (at the top level it was importable
    # only with the checkout itself on sys.path)
    return list(mypycify(core_sources(root), opt_level="3", target_dir=str(target_dir),
                         group_name=f"table.core.{GROUP}"))


def have_c_compiler() -> bool:
    return any(shutil.which(name) for name in ("cc", "gcc", "clang", "cl"))


def compiled_files(root: Path = REPO) -> list[Path]:
    """The extension modules (and their shared runtime library) a build left in the tree."""
    core = root / "table" / "core"
    return [*core.glob("*.so"), *core.glob("*.pyd"), *root.glob("*__mypyc.*")]


def clean(root: Path = REPO) -> None:
    for path in compiled_files(root):
        path.unlink()
    (root / "table" / "core" / STAMP).unlink(missing_ok=True)


def is_current() -> bool:
    """Whether a build is in place and was made from the sources as they are now."""
    stamp = CORE / STAMP
    return (bool(compiled_files()) and stamp.is_file()
            and stamp.read_text(encoding="ascii").strip() == sources_digest())


def build(root: Path = REPO) -> None:
    """Compile the core of the tree at `root` (this checkout, or a copy of it) in place."""
    from setuptools import setup

    core = root / "table" / "core"
    digest = sources_digest(core)
    work = Path(tempfile.mkdtemp(prefix="sandtable-mypyc-"))
    here = Path.cwd()
    os.chdir(root)  # mypyc names the modules from the paths, relative to the tree's root
    try:
        modules = extensions(work / "c", root)
        setup(name="sandtable-core", ext_modules=modules, script_args=[
            "--quiet", "build_ext", "--build-lib", str(work / "lib"),
            "--build-temp", str(work / "temp")])
        built = [p for p in (work / "lib").rglob("*") if p.is_file()]
        # Into place: the old build out, the stamp first (so no extension is ever in the tree
        # unguarded), then each file by one rename. A program started meanwhile runs a mix of
        # compiled and Python modules of the same sources, which is the same code.
        clean(root)
        (core / STAMP).write_text(digest + "\n", encoding="ascii")
        for path in built:
            target = root / path.relative_to(work / "lib")
            staged = target.with_name(target.name + ".new")
            shutil.copyfile(path, staged)
            staged.chmod(0o755)
            staged.replace(target)
    finally:
        os.chdir(here)
        shutil.rmtree(work, ignore_errors=True)
    print(f"compiled {len(core_sources(root))} modules of {core} "
          f"({len(compiled_files(root))} files)")


def is_compiled_file(name: str) -> bool:
    """Whether a wheel's file belongs to the compiled core (its extensions, their shared
    runtime library, the stamp)."""
    top = "/" not in name
    in_core = name.startswith("table/core/") and name.count("/") == 2
    return ((top and "__mypyc." in name)
            or (in_core and (name.endswith((".so", ".pyd")) or name.endswith(STAMP))))


def from_wheel(wheel: Path, root: Path) -> int:
    """Put the compiled core a wheel carries into the tree at `root` (a copy of the checkout
    whose sources the wheel was built from): the same build users install. 1 when the wheel
    holds none (built without a C compiler), or was built from other sources."""
    with zipfile.ZipFile(wheel) as archive:
        names = [n for n in archive.namelist() if is_compiled_file(n)]
        stamps = [n for n in names if n.endswith(STAMP)]
        if not stamps:
            print(f"{wheel.name} carries no compiled core", file=sys.stderr)
            return 1
        built_from = archive.read(stamps[0]).decode("ascii").strip()
        if built_from != sources_digest(root / "table" / "core"):
            print(f"{wheel.name} was built from other sources than {root}'s core",
                  file=sys.stderr)
            return 1
        for name in names:
            target = root / name
            target.write_bytes(archive.read(name))
            target.chmod(0o755)
    print(f"the compiled core of {wheel.name} ({len(names)} files) is in {root}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python packaging/compile_core.py")
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--clean", action="store_true", help="remove the compiled modules")
    action.add_argument("--check", action="store_true",
                        help="exit 0 when a build made from the current sources is in place")
    action.add_argument("--from-wheel", type=Path, metavar="WHEEL",
                        help="copy a wheel's compiled core into the tree given by --into")
    parser.add_argument("--into", type=Path, default=REPO, metavar="DIR",
                        help="with --from-wheel: the tree to put it in (default: this checkout)")
    args = parser.parse_args(argv)
    if args.from_wheel:
        return from_wheel(args.from_wheel, args.into)
    if args.check:
        return 0 if is_current() else 1
    if args.clean:
        clean()
        print("removed the compiled modules of table/core: the Python sources run")
    else:
        build()
    return 0


if __name__ == "__main__":
    sys.exit(main())
