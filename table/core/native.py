"""The core's optional compiled build (mypyc; packaging/compile_core.py), and its guard.

An extension module runs the code of the day it was built, so the build records the digest of
the core's sources (compiled.stamp); when a source has changed since, the extensions are passed
over and the Python sources load instead (with one warning): never stale code. This module
stays Python in the build (it decides whether the extensions may load).
"""
from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

CORE = Path(__file__).resolve().parent
STAMP = CORE / "compiled.stamp"
PACKAGE = __name__.rpartition(".")[0]


def sources_digest(core: Path = CORE) -> str:
    """The digest of the core's Python sources (those in `core`), as a compiled build records
    it."""
    digest = hashlib.sha256()
    for path in sorted(core.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def compiled() -> bool:
    """Whether the core's modules run compiled in this process."""
    from . import state

    return not (state.__file__ or "").endswith(".py")


class _SourcesFirst(importlib.abc.MetaPathFinder):
    """Loads the core's modules from their .py files, ahead of any stale extension."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        package, _, name = fullname.rpartition(".")
        source = CORE / f"{name}.py"
        if package != PACKAGE or not source.is_file():
            return None
        return importlib.util.spec_from_file_location(fullname, source)


def load_sources() -> None:
    """From now on this process loads the core's modules from their sources, compiled or not
    (those not imported yet: call it first). A modified client does (tests/e2e/rogue_watcher.py:
    a compiled module's functions cannot be replaced)."""
    if not any(isinstance(finder, _SourcesFirst) for finder in sys.meta_path):
        sys.meta_path.insert(0, _SourcesFirst())


def guard() -> None:
    """Called by the package on import where a build left its stamp."""
    if STAMP.read_text(encoding="ascii").strip() != sources_digest():
        load_sources()
        warnings.warn("table/core's compiled modules are older than its sources: the sources "
                      "run (python packaging/compile_core.py builds them again, --clean "
                      "removes them)", stacklevel=2)
