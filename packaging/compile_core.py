#!/usr/bin/env python3
"""Compile the table's core (table/core) with mypyc, in place: the optional fast build.

    python packaging/compile_core.py           # build the extension modules beside the sources
    python packaging/compile_core.py --clean   # remove them: the Python sources run again

The same code runs as Python or compiled; the compiled fold replays about 1.8x as fast (docs/
performance.md). It needs mypy (the test extras have it) and a C compiler. The build records
the digest of the sources it compiled (table/core/compiled.stamp): when a source changes after
the build, table/core/__init__.py loads the Python sources instead of the stale extensions and
says so once, so an edit always takes effect.
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORE = REPO / "table" / "core"
sys.path.insert(0, str(REPO))  # this checkout's core, whatever else is installed

# Python, not compiled: the package's __init__ and native.py (they decide whether the
# extensions may load); the Journal, a subclass of `list` (mypyc compiles none); the log's
# Renderer, which the UI extends (a Python class cannot extend a compiled one); the fair draws'
# ops, which tests stand a cheating peer's software in for by replacing what they call.
KEPT_AS_PYTHON = {"__init__.py", "native.py", "journal.py", "render.py", "fair_ops.py"}


def compiled_files() -> list[Path]:
    """The extension modules (and their shared runtime library) a build left in the tree."""
    return [*CORE.glob("*.so"), *CORE.glob("*.pyd"), *REPO.glob("*__mypyc.*")]


def clean() -> None:
    for path in compiled_files():
        path.unlink()
    (CORE / "compiled.stamp").unlink(missing_ok=True)


def build() -> None:
    from mypyc.build import mypycify
    from setuptools import setup

    clean()  # first: importing the core below must not load the extensions being replaced
    from table.core.native import sources_digest

    sources = sorted(p for p in CORE.glob("*.py") if p.name not in KEPT_AS_PYTHON)
    work = Path(tempfile.mkdtemp(prefix="sandtable-mypyc-"))
    os.chdir(REPO)  # mypyc names the modules from the paths, relative to the repo
    try:
        modules = mypycify([str(p.relative_to(REPO)) for p in sources], opt_level="3",
                           target_dir=str(work / "c"))
        setup(name="sandtable-core", ext_modules=modules, script_args=[
            "--quiet", "build_ext", "--inplace", "--build-temp", str(work / "temp")])
    finally:
        shutil.rmtree(work, ignore_errors=True)
    (CORE / "compiled.stamp").write_text(sources_digest() + "\n", encoding="ascii")
    print(f"compiled {len(sources)} modules of table/core ({len(compiled_files())} files)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python packaging/compile_core.py")
    parser.add_argument("--clean", action="store_true", help="remove the compiled modules")
    args = parser.parse_args(argv)
    if args.clean:
        clean()
        print("removed the compiled modules of table/core: the Python sources run")
    else:
        build()
    return 0


if __name__ == "__main__":
    sys.exit(main())
