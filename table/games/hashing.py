"""The content hash of a module: sha256 over its files, independent of file-system order
and of line endings."""
from __future__ import annotations

import hashlib
from pathlib import Path

TEXT_SUFFIXES = {".toml", ".csv", ".txt", ".md", ".svg", ".json"}


def module_files(root: Path) -> list[Path]:
    """The files that make up a module, in a stable order (hidden files and caches skipped)."""
    files = [p for p in root.rglob("*") if p.is_file()
             and not any(part.startswith(".") or part == "__pycache__"
                         for part in p.relative_to(root).parts)
             and p.relative_to(root).parts[0] != "scenarios"]  # rule tests, not the rules
    return sorted(files, key=lambda p: p.relative_to(root).as_posix())


def content_hash(root: Path) -> str:
    """sha256 hex over (relative path, content) of every file; text files are hashed with
    LF line endings and without a UTF-8 BOM, so a checkout on any OS hashes the same."""
    h = hashlib.sha256()
    for path in module_files(root):
        data = path.read_bytes()
        if path.suffix.lower() in TEXT_SUFFIXES:
            if data.startswith(b"\xef\xbb\xbf"):
                data = data[3:]
            data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        name = path.relative_to(root).as_posix().encode("utf-8")
        h.update(len(name).to_bytes(8, "big") + name)
        h.update(len(data).to_bytes(8, "big") + data)
    return h.hexdigest()
