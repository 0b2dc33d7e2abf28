"""setuptools' part of the build (pyproject.toml holds the rest): the compiled core in a wheel.

packaging/sandtable_backend.py sets SANDTABLE_BUILD_COMPILED_CORE for a wheel build that
compiles; then the core's modules are built by mypyc (packaging/compile_core.py names them) and
the wheel records their sources' digest (table/core/compiled.stamp), so the installed core's
guard (table.core.native) can tell the build is current. Otherwise this adds nothing.
"""
from __future__ import annotations

import importlib.util
import os
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent


def _compile_core():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("_sandtable_compile_core",
                                                  ROOT / "packaging" / "compile_core.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BuildPyWithStamp(build_py):
    """The Python files as usual, and the compiled build's stamp beside the core's."""

    def run(self) -> None:
        super().run()
        compile_core = _compile_core()
        stamp = Path(self.build_lib) / "table" / "core" / compile_core.STAMP
        stamp.write_text(compile_core.sources_digest(ROOT / "table" / "core") + "\n",
                         encoding="ascii")


if os.environ.get("SANDTABLE_BUILD_COMPILED_CORE"):
    setup(ext_modules=_compile_core().extensions(ROOT / "build" / "mypyc"),
          cmdclass={"build_py": BuildPyWithStamp})
else:
    setup()
