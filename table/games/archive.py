"""A game module as one canonical, content-addressed archive: what a log records and a LAN
peer receives, so a session carries the exact draft it was played under.

The archive holds every text file of the module (game.toml, cards.csv, decks/, notes) with
line endings normalised to LF and no UTF-8 BOM, and names every other file (art) by its SHA-256
and size only: art travels apart and is cached by its hash, and a module whose art is missing
still loads (cards are drawn from their data).

The module hash (``GameModule.content_hash``) is SHA-256 over, in the order of their paths'
UTF-8 bytes, for each file::

    b"T" | len(path) (u64 BE) | path | len(text) (u64 BE) | text        a text file
    b"A" | len(path) (u64 BE) | path | sha256(bytes) (32) | size (u64 BE)   an art file

The stored form is zlib-compressed msgpack ``{"game", "version", "name", "text": {path: bytes},
"art": {path: [sha256 hex, size]}}``; a reader recomputes the hash from its content and never
trusts the one it was given.
"""
from __future__ import annotations

import hashlib
import zlib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

import msgpack

TEXT_SUFFIXES = {".toml", ".csv", ".txt", ".md", ".svg", ".json"}
MAX_TEXT_BYTES = 8 * 1024 * 1024  # the text of one module, uncompressed: a log record's budget
MAX_ART_BYTES = 64 * 1024 * 1024  # all the art of one module (carried apart from the archive)


class ArchiveError(ValueError):
    """An archive that cannot be used: damaged, over the limits, or not what it claims."""


@dataclass(frozen=True, slots=True)
class ModuleArchive:
    hash: str
    game: str
    version: str
    name: str
    text: dict[str, bytes]
    art: dict[str, tuple[str, int]] = field(default_factory=dict)  # path -> (sha256, size)

    @property
    def short(self) -> str:
        return self.hash[:12]

    def label(self) -> str:
        """How every reader names the module it used: name, version and short hash."""
        return f"{self.name} {self.version} ({self.short})"

    def pack(self) -> bytes:
        body = {"game": self.game, "version": self.version, "name": self.name,
                "text": dict(sorted(self.text.items())),
                "art": {p: [d, n] for p, (d, n) in sorted(self.art.items())}}
        return zlib.compress(msgpack.packb(body, use_bin_type=True), 6)


def _normalise(data: bytes) -> bytes:
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    return data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")


def _u64(n: int) -> bytes:
    return n.to_bytes(8, "big")


def archive_hash(text: dict[str, bytes], art: dict[str, tuple[str, int]]) -> str:
    entries: list[tuple[bytes, bytes]] = []
    for path, data in text.items():
        name = path.encode("utf-8")
        entries.append((name, b"T" + _u64(len(name)) + name + _u64(len(data)) + data))
    for path, (digest, size) in art.items():
        name = path.encode("utf-8")
        entries.append((name, b"A" + _u64(len(name)) + name + bytes.fromhex(digest) + _u64(size)))
    h = hashlib.sha256()
    for _, chunk in sorted(entries):
        h.update(chunk)
    return h.hexdigest()


def module_files(root: Path) -> list[Path]:
    """The files that make up a module, in a stable order (hidden files and caches skipped)."""
    files = [p for p in root.rglob("*") if p.is_file()
             and not any(part.startswith(".") or part == "__pycache__"
                         for part in p.relative_to(root).parts)
             and p.relative_to(root).parts[0] != "scenarios"]  # rule tests, not the rules
    return sorted(files, key=lambda p: p.relative_to(root).as_posix().encode("utf-8"))


def read_folder(root: Path, game: str = "", version: str = "", name: str = "") -> ModuleArchive:
    """The archive of the module in folder ``root`` (its text files and its art's digests)."""
    text: dict[str, bytes] = {}
    art: dict[str, tuple[str, int]] = {}
    for path in module_files(root):
        rel = path.relative_to(root).as_posix()
        data = path.read_bytes()
        if path.suffix.lower() in TEXT_SUFFIXES:
            text[rel] = _normalise(data)
        else:
            art[rel] = (hashlib.sha256(data).hexdigest(), len(data))
    if sum(len(d) for d in text.values()) > MAX_TEXT_BYTES:
        raise ArchiveError(f"{root}: the module's text is over {MAX_TEXT_BYTES // 2**20} MiB")
    if sum(n for _, n in art.values()) > MAX_ART_BYTES:
        raise ArchiveError(f"{root}: the module's art is over {MAX_ART_BYTES // 2**20} MiB")
    return ModuleArchive(archive_hash(text, art), game or root.name, version, name, text, art)


def folder_hash(root: Path) -> str:
    return read_folder(root).hash


def _safe_path(path: Any) -> str:
    if not isinstance(path, str) or not path or "\\" in path or "\x00" in path:
        raise ArchiveError(f"bad file name {path!r} in the archive")
    pure = PurePosixPath(path)
    if pure.is_absolute() or any(part in ("", ".", "..") for part in pure.parts):
        raise ArchiveError(f"file name {path!r} leaves the module folder")
    return path


def unpack(data: bytes, expect_hash: str | None = None) -> ModuleArchive:
    """Read a stored archive, checking its limits and (when given) that it is ``expect_hash``.

    Raises ArchiveError naming what is wrong; nothing partial is ever returned.
    """
    try:
        raw = zlib.decompressobj().decompress(data, MAX_TEXT_BYTES + 1024 * 1024)
        body = msgpack.unpackb(raw, raw=False, strict_map_key=True)
    except Exception as err:  # any decode failure is a damaged archive
        raise ArchiveError(f"damaged module archive ({type(err).__name__})") from None
    if not isinstance(body, dict) or not isinstance(body.get("text"), dict):
        raise ArchiveError("damaged module archive (no file list)")
    text: dict[str, bytes] = {}
    for path, content in body["text"].items():
        if not isinstance(content, bytes):
            raise ArchiveError(f"damaged module archive ({path!r} is not bytes)")
        text[_safe_path(path)] = content
    art: dict[str, tuple[str, int]] = {}
    for path, entry in (body.get("art") or {}).items():
        if (not isinstance(entry, list) or len(entry) != 2 or not isinstance(entry[0], str)
                or len(entry[0]) != 64 or type(entry[1]) is not int or entry[1] < 0):
            raise ArchiveError(f"damaged module archive (art entry {path!r})")
        art[_safe_path(path)] = (entry[0], entry[1])
    if sum(len(d) for d in text.values()) > MAX_TEXT_BYTES:
        raise ArchiveError(f"the module's text is over {MAX_TEXT_BYTES // 2**20} MiB")
    if "game.toml" not in text:
        raise ArchiveError("the module archive has no game.toml")
    digest = archive_hash(text, art)
    if expect_hash is not None and digest != expect_hash:
        raise ArchiveError(f"the module archive's content hashes to {digest[:12]}, "
                           f"not {expect_hash[:12]}")
    return ModuleArchive(digest, str(body.get("game", "")), str(body.get("version", "")),
                         str(body.get("name", "")), text, art)


def write_folder(archive: ModuleArchive, root: Path, art_source: Path | None = None) -> None:
    """Write the archive's text files under ``root`` (and its art, from ``art_source/<sha256>``
    where present there)."""
    for rel, data in archive.text.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    if art_source is None:
        return
    for rel, (digest, _size) in archive.art.items():
        cached = art_source / digest
        if cached.is_file():
            target = root / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(cached.read_bytes())
