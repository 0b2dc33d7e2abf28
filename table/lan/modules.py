"""The table's module crosses the LAN: a joiner that lacks the draft a table plays gets it from
any peer that has it, so only the designer needs the draft's files.

The archive comes first (checked against the module hash), then each art file it names that the
cache lacks (checked against its SHA-256); only then is the module cached and loaded, so a
partial module is never used. Every peer serves what it holds: its log's module archives, and
the archives and art in its module cache.
"""
from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Callable

from netplay.blobs.exchange import BlobExchange, TransferFailed
from table.core.replica import Replica
from table.games.archive import MAX_ART_BYTES, MAX_TEXT_BYTES, ArchiveError, unpack
from table.games.module import GameModule
from table.games.problems import ModuleError
from table.games.record import module_archive
from table.games.store import MODULE_BLOB, ModuleStore, default_store

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
    return f"{n / 2**20:.1f} MiB" if n >= 2**20 else f"{n / 1024:.0f} KiB"


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
        last = [-1]

        def progress(done: int, total: int) -> None:
            tenth = done * 10 // max(total, 1)
            if tenth != last[0]:  # a line per tenth, not per chunk
                last[0] = tenth
                say(f"receiving {what}: {_mib(done)} of {_mib(total)}")
        return progress

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


def keep_in_log(replica: Replica, module: GameModule, store: ModuleStore | None = None) -> None:
    """Put the module's archive into this peer's log too, so the log alone can be read again
    (on a machine where the draft was never installed)."""
    archive, data = module_archive(module, store)
    if archive.hash == module.content_hash:
        replica.add_blob(MODULE_BLOB, archive.hash, data)


class ModuleFollower:
    """Keeps a LAN peer's copy of every module the table moves to (a draft changed during play
    by the designer's peer): fetched from the peers, kept in the log, handed to `on_module`."""

    def __init__(self, replica: Replica, exchange: BlobExchange,
                 on_module: Callable[[GameModule], None] | None = None,
                 report: Report | None = None, store: ModuleStore | None = None) -> None:
        self.replica, self.exchange, self.store = replica, exchange, store
        self.on_module, self.report = on_module, report
        self._fetching: set[str] = set()
        self.tasks: set[asyncio.Task[None]] = set()
        self._unsubscribe = replica.subscribe(self._on_change)

    def close(self) -> None:
        self._unsubscribe()
        for task in list(self.tasks):
            task.cancel()

    def _on_change(self, _change: object) -> None:
        recorded = self.replica.state.module
        digest = recorded.get("hash") if recorded else None
        if not isinstance(digest, str) or digest in self.replica.blobs \
                or digest in self._fetching:
            return
        self._fetching.add(digest)
        task = asyncio.ensure_future(self._obtain(digest))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _obtain(self, digest: str) -> None:
        try:
            module = await obtain_module(self.exchange, digest, store=self.store,
                                         report=self.report)
        except ModuleTransferError as err:
            self.replica.report(str(err))
            return
        finally:
            self._fetching.discard(digest)
        keep_in_log(self.replica, module, self.store)
        if self.on_module is not None:
            self.on_module(module)
