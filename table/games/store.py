"""The module store: game modules by content hash, so a log is always read under the draft it
was played with.

Every reader of a log resolves its module here (``module_for``): the module op in the log's
state names a hash; the store answers from its cache (``<data dir>/modules/<hash>/``), or from
the archive embedded in the log, or from an installed module of that hash. A log written before
modules were recorded falls back to the installed module of its game, with a one-line note.
A module is loaded once per process per hash, so a report over a hundred logs of one draft
reads that draft once.
"""
from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import shutil
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import platformdirs

from .archive import ArchiveError, ModuleArchive, read_folder, unpack, write_folder
from .loader import load_module
from .module import GameModule
from .problems import ModuleError
from .registry import ModuleNotFound, find_module, module_dirs

log = logging.getLogger(__name__)

MODULE_BLOB = "module"  # the kind of a log blob that holds a module archive


def data_dir() -> Path:
    """Where Sandtable keeps per-user data; SANDTABLE_HOME points it elsewhere."""
    home = os.environ.get("SANDTABLE_HOME")
    return Path(home) if home else Path(platformdirs.user_data_dir("sandtable", appauthor=False))


@dataclass(frozen=True, slots=True)
class Resolved:
    """The module a log is read under, and where it came from (for the one-line note)."""

    module: GameModule
    source: str  # "log", "cache", "installed", "installed (fallback)"
    note: str = ""

    @property
    def label(self) -> str:
        return f"{self.module.name} {self.module.version} ({self.module.content_hash[:12]})"


class ModuleStore:
    """A cache of module archives by hash; a received archive is only ever written here."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = root or data_dir() / "modules"
        self._loaded: dict[str, GameModule] = {}

    # -- adding ----------------------------------------------------------------------------
    def add_folder(self, folder: Path) -> tuple[ModuleArchive, bytes]:
        """Archive a module folder (a draft being played), cache it and its art."""
        archive = read_folder(folder)
        module = load_module(folder)  # a broken draft is refused before anything is stored
        archive = replace(archive, game=module.id, version=module.version, name=module.name)
        data = archive.pack()
        self._save(archive, data)
        art = self.root / "art"
        for rel, (digest, _size) in archive.art.items():
            if not (art / digest).is_file():
                art.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(folder / rel, art / digest)
        return archive, data

    def add(self, data: bytes, expect_hash: str | None = None) -> ModuleArchive:
        """Cache an archive received from a log or a peer: checked against its hash, and loaded
        once as a module before it is kept (raises ArchiveError or ModuleError; a module that
        does not load is never stored)."""
        archive = unpack(data, expect_hash)
        if not self.has(archive.hash):
            self._save(archive, data, check=True)
        return archive

    def keep_loaded(self, module: GameModule, archive: ModuleArchive, data: bytes) -> None:
        """Cache the archive of a module this process has just loaded (a draft being played):
        no second load to check it, and later look-ups of its hash get this module."""
        if not self.has(archive.hash):
            self._save(archive, data)
        self._loaded.setdefault(archive.hash, module)

    def keep_all(self, blobs: Mapping[str, bytes]) -> None:
        """Cache every module archive a log holds: each version of a draft changed during play,
        so the assist finds the one in effect at any op. An unusable one is logged, not kept."""
        for digest, data in blobs.items():
            if not self.has(digest):
                try:
                    self.add(data, digest)
                except (ArchiveError, ModuleError) as err:
                    log.warning("a module archive in this log is unusable: %s", err)

    def _save(self, archive: ModuleArchive, data: bytes, check: bool = False) -> None:
        final = self.root / archive.hash
        if (final / "archive").is_file():
            return
        self.root.mkdir(parents=True, exist_ok=True)
        # written beside, then renamed: a crash never leaves a half module under its hash
        tmp = Path(tempfile.mkdtemp(prefix=".incoming-", dir=self.root))
        try:
            write_folder(archive, tmp / (archive.game or "module"), self.root / "art")
            if check:
                load_module(tmp / (archive.game or "module"))
            (tmp / "archive").write_bytes(data)
            with contextlib.suppress(OSError):  # another process stored the same hash meanwhile
                tmp.rename(final)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    # -- reading ---------------------------------------------------------------------------
    def has(self, digest: str) -> bool:
        return (self.root / digest / "archive").is_file()

    def archive_bytes(self, digest: str) -> bytes | None:
        path = self.root / digest / "archive"
        return path.read_bytes() if path.is_file() else None

    def load(self, digest: str) -> GameModule:
        """The cached module of this hash (loaded once per process). Raises ModuleNotFound,
        or ModuleError when the cached module does not load."""
        module = self._loaded.get(digest)
        if module is not None:
            return module
        data = self.archive_bytes(digest)
        if data is None:
            raise ModuleNotFound(f"module {digest[:12]} is not in the module cache ({self.root})")
        archive = unpack(data, digest)
        folder = self.root / digest / (archive.game or "module")
        # the hash is the archive's: a cached copy whose art is missing is still this module
        module = replace(load_module(folder), content_hash=digest)
        self._loaded[digest] = module
        return module

    def resolve(self, game: str, digest: str | None,
                blobs: Mapping[str, bytes] | None = None) -> Resolved:
        """The module a log names (``digest``) from the cache, the log's own blobs or the
        installed games, else the installed module of ``game`` with a note saying so.
        Raises ModuleNotFound when none of these has it."""
        if digest:
            found = self._by_hash(digest, blobs or {})
            if found is not None:
                return found
        installed = _installed(game)
        if installed is None:
            what = f"module {digest[:12]} of {game!r}" if digest else f"game module {game!r}"
            raise ModuleNotFound(f"{what} is not installed (nor in the log or the module "
                                 f"cache)", game)
        if digest:
            note = (f"this log's module ({game} {digest[:12]}) is not available here; read "
                    f"under the installed {installed.name} {installed.version} "
                    f"({installed.content_hash[:12]})")
        else:
            note = (f"this log predates recorded modules; read under the installed "
                    f"{installed.name} {installed.version} ({installed.content_hash[:12]})")
        return Resolved(installed, "installed (fallback)", note)

    def find(self, digest: str) -> GameModule | None:
        """The module of this hash from the cache or the installed games, if either has it."""
        found = self._by_hash(digest, {})
        return found.module if found is not None else None

    def add_art(self, digest: str, data: bytes) -> None:
        """Cache an art file by its SHA-256 (checked here)."""
        if hashlib.sha256(data).hexdigest() != digest:
            raise ArchiveError(f"art file does not hash to {digest[:12]}")
        art = self.root / "art"
        art.mkdir(parents=True, exist_ok=True)
        tmp = art / f".{digest}.part"
        tmp.write_bytes(data)
        tmp.replace(art / digest)

    def art_bytes(self, digest: str) -> bytes | None:
        path = self.root / "art" / digest
        return path.read_bytes() if len(digest) == 64 and path.is_file() else None

    def _by_hash(self, digest: str, blobs: Mapping[str, bytes]) -> Resolved | None:
        if self.has(digest):
            return Resolved(self.load(digest), "cache")
        data = blobs.get(digest)
        if data is not None:
            try:
                self.add(data, digest)
                return Resolved(self.load(digest), "log")
            except (ArchiveError, ModuleError) as err:
                log.warning("the module archive in this log is unusable: %s", err)
        for game in module_dirs():
            module = _installed(game)
            if module is not None and module.content_hash == digest:
                return Resolved(module, "installed")
        return None


_installed_cache: dict[str, GameModule | None] = {}


def _installed(game: str) -> GameModule | None:
    if game not in _installed_cache:
        try:
            _installed_cache[game] = find_module(game)
        except (ModuleNotFound, ModuleError):
            _installed_cache[game] = None
    return _installed_cache[game]


_default: ModuleStore | None = None


def default_store() -> ModuleStore:
    """The per-user store (re-made when SANDTABLE_HOME changes, as tests do)."""
    global _default
    root = data_dir() / "modules"
    if _default is None or _default.root != root:
        _default = ModuleStore(root)
    return _default


def module_for(replica: Any, store: ModuleStore | None = None) -> Resolved:
    """The module a replica's log was played under: the latest module op in its state."""
    store = store or default_store()
    store.keep_all(getattr(replica, "blobs", {}))
    recorded = getattr(replica.state, "module", None) or {}
    digest = recorded.get("hash") if isinstance(recorded, dict) else None
    game = str(recorded.get("game") or replica.game) if isinstance(recorded, dict) \
        else replica.game
    return store.resolve(game, digest, getattr(replica, "blobs", {}))


def recorded_module(records: list[Any]) -> tuple[dict[str, Any] | None, dict[str, bytes]]:
    """The first module op's arguments and the module blobs in a log's records, read before
    the log is folded (a reader that judges ops as it folds needs the module first)."""
    found: dict[str, Any] | None = None
    blobs: dict[str, bytes] = {}
    for record in records:
        if type(record) is dict:
            blob = record.get("blob")
            if isinstance(blob, dict) and isinstance(blob.get("hash"), str) \
                    and isinstance(blob.get("data"), bytes):
                blobs.setdefault(blob["hash"], blob["data"])
                continue
            record = record.get("op")
        if found is None and type(record) is list and len(record) == 9 \
                and record[3] == "module" and isinstance(record[4], dict):
            found = record[4]
    return found, blobs


def module_for_recorded(game: str, args: dict[str, Any] | None, blobs: Mapping[str, bytes],
                        store: ModuleStore | None = None) -> Resolved:
    """The module a log was played under, from what `recorded_module` read of its records
    (see `module_for`)."""
    store = store or default_store()
    store.keep_all(blobs)
    digest = args.get("hash") if args else None
    game = str(args.get("game") or game) if args else game
    return store.resolve(game, digest if isinstance(digest, str) else None, blobs)
