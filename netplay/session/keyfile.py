"""A peer's signing key, kept beside its log as ``<log>.key`` (never inside the log: logs are
shared), so a restarted peer rejoins as the same peer."""
from __future__ import annotations

import os
from pathlib import Path

from netplay.protocol.identity import Identity


def identity_path(log_path: str | Path) -> Path:
    """Where a peer keeps its signing key beside its log (never inside it: logs are shared)."""
    return Path(str(log_path) + ".key")


def save_identity(identity: Identity, log_path: str | Path) -> None:
    path = identity_path(log_path)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(f"{identity.peer_id} {identity.seed.hex()}\n")


def load_identity(log_path: str | Path) -> Identity | None:
    path = identity_path(log_path)
    try:
        peer_id, seed = path.read_text().split()
        return Identity.from_seed(peer_id, bytes.fromhex(seed))
    except (OSError, ValueError):
        return None
