"""Finding the built-in game modules: in a source checkout, an installed copy or a bundle.

`find_module` is the one way to get an installed module by its id; it raises ModuleNotFound
(a LookupError naming where it looked) when there is none. The module store raises the same
error for a module it cannot find by hash. A caller that can do without a module catches it.
"""
from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

from .loader import load_module
from .module import GameModule

log = logging.getLogger(__name__)

ENV_VAR = "SANDTABLE_ASSETS"


class ModuleNotFound(LookupError):
    """No copy of a game module can be found; the message says where the search looked."""

    def __init__(self, message: str, module_id: str = "") -> None:
        super().__init__(message)
        self.module_id = module_id


def asset_dirs() -> list[Path]:
    """Folders that may hold game modules, in order of preference.

    1. ``$SANDTABLE_ASSETS`` (one or more folders, separated by ``os.pathsep``);
    2. ``<repo>/assets`` next to the packages (a source checkout or editable install);
    3. ``assets`` inside a frozen bundle (PyInstaller ``sys._MEIPASS``, or next to the
       executable);
    4. ``<prefix>/share/sandtable/assets`` (a data-files install).
    """
    found: list[Path] = []
    env = os.environ.get(ENV_VAR)
    if env:
        found.extend(Path(p) for p in env.split(os.pathsep) if p)
    found.append(Path(__file__).resolve().parents[2] / "assets")
    meipass = getattr(sys, "_MEIPASS", None)
    if meipass:
        found.append(Path(meipass) / "assets")
    if getattr(sys, "frozen", False):
        found.append(Path(sys.executable).resolve().parent / "assets")
    found.append(Path(sys.prefix) / "share" / "sandtable" / "assets")
    out: list[Path] = []
    for p in found:
        if p.is_dir() and p not in out:
            out.append(p)
    return out


def module_dirs() -> dict[str, Path]:
    """Module id (folder name) -> folder; an earlier asset folder wins over a later one."""
    out: dict[str, Path] = {}
    for base in asset_dirs():
        for child in sorted(base.iterdir()):
            if (child / "game.toml").is_file():
                out.setdefault(child.name, child)
    return out


def builtin_modules() -> list[GameModule]:
    """Every module found (see :func:`asset_dirs`), sorted by id. Raises ModuleError if a
    built-in module is broken."""
    return [load_module(path) for _, path in sorted(module_dirs().items())]


def find_module(module_id: str) -> GameModule:
    """The installed module with this id. Raises ModuleNotFound when there is none, and
    ModuleError when it is there but broken."""
    path = module_dirs().get(module_id)
    if path is None:
        raise ModuleNotFound(f"no game module '{module_id}' (looked in: "
                             f"{', '.join(str(p) for p in asset_dirs()) or 'nowhere'})",
                             module_id)
    return load_module(path)
