"""The table's module crosses the LAN: a joiner that lacks the draft a table plays gets it from
any peer that has it, so only the designer needs the draft's files.

The archive comes first (checked against the module hash), then each art file it names that the
cache lacks (checked against its SHA-256); only then is the module cached and loaded, so a
partial module is never used. Every peer serves what it holds: its log's module archives, and
the archives and art in its module cache.
"""
from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable

from netplay.blob_exchange import BlobExchange, TransferFailed
from table.core.replica import Replica
from table.games.archive import MAX_ART_BYTES, MAX_TEXT_BYTES, ArchiveError, unpack
from table.games.module import GameModule
from table.games.problems import ModuleError
from table.games.store import ModuleStore, default_store

log = logging.getLogger(__name__)

Report = Callable[[str], None]


class ModuleTransferError(Exception):
    """The table's module could not be had: every peer failed, or it is over the limits."""


def blob_lookup(replica: Replica, store: ModuleStore | None = None
                ) -> Callable[[str], bytes | None]:
    """What this peer can serve: module archives from its log or cache, art from its cache."""
    store = store or default_store()

    def lookup(digest: str) -> bytes | None:
        return replica.blobs.get(digest) or store.archive_bytes(digest) or \
            store.art_bytes(digest)

    return lookup


def _mib(n: int) -> str:
    return f"{n / 2**20:.1f} MiB"


async def obtain_module(exchange: BlobExchange, digest: str, *,
                        store: ModuleStore | None = None,
                        report: Report | None = None) -> GameModule:
    """The module ``digest``: from the cache or the installed games, else from the table's peers.
    Raises ModuleTransferError with a message a player can act on."""
    store = store or default_store()
    found = store.find(digest)
    if found is not None:
        return found
    say = report or (lambda text: log.info("%s", text))

    def shown(what: str) -> Callable[[int, int], None]:
        return lambda done, total: say(f"receiving {what}: {_mib(done)} of {_mib(total)}")

    def archive_ok(data: bytes) -> bool:
        try:
            unpack(data, digest)
        except ArchiveError:
            return False
        return True

    try:
        data = await exchange.fetch(digest, archive_ok, progress=shown("the table's module"),
                                    max_size=MAX_TEXT_BYTES)
        archive = unpack(data, digest)
        art_total = sum(size for _, size in archive.art.values())
        if art_total > MAX_ART_BYTES:
            raise ModuleTransferError(
                f"the table's module {archive.label()} has {_mib(art_total)} of art, over the "
                f"{_mib(MAX_ART_BYTES)} this program accepts")
        for path, (art_hash, size) in sorted(archive.art.items()):
            if store.art_bytes(art_hash) is None:
                art = await exchange.fetch(art_hash, _is_sha256(art_hash),
                                           progress=shown(path), max_size=max(size, 1))
                store.add_art(art_hash, art)
        store.add(data, digest)
        module = store.load(digest)
    except TransferFailed as err:
        raise ModuleTransferError(f"could not get the table's module: {err}") from None
    except (ArchiveError, ModuleError) as err:
        raise ModuleTransferError(f"the table's module is unusable: {err}") from None
    say(f"received the table's module {module.name} {module.version} ({digest[:12]})")
    return module


def _is_sha256(digest: str) -> Callable[[bytes], bool]:
    return lambda data: hashlib.sha256(data).hexdigest() == digest
