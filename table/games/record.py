"""Putting what a table is played under into its log: the module (draft) and each seat's deck.

`record_module` keeps the module's archive in the log (a blob, by hash) and issues the module
op that makes it the module in effect; `record_decks` issues one deck op per seat (name, the
header fields the module declares, the hash of the list's text) with the text itself in the
author's private record, since a deck list names cards that are hidden on the table.
"""
from __future__ import annotations

from collections.abc import Mapping

from table.core.knowledge import deck_hash
from table.core.replica import Replica

from .archive import ModuleArchive, read_folder, unpack
from .model import Deck
from .module import GameModule
from .store import MODULE_BLOB, ModuleStore, default_store


def module_archive(module: GameModule, store: ModuleStore | None = None
                   ) -> tuple[ModuleArchive, bytes]:
    """The archive of a loaded module: from the store when it came from there (its folder may
    lack art), else read from its folder."""
    store = store or default_store()
    data = store.archive_bytes(module.content_hash)
    if data is not None:
        return unpack(data, module.content_hash), data
    archive = read_folder(module.path, module.id, module.version, module.name)
    return archive, archive.pack()


def record_module(r: Replica, module: GameModule, store: ModuleStore | None = None,
                  changes: Mapping[str, object] | None = None) -> None:
    """Make ``module`` the table's module from this op on, its archive kept in the log."""
    store = store or default_store()
    archive, data = module_archive(module, store)
    if archive.hash == module.content_hash:  # kept by hash: the assist finds it at any op
        store.keep_loaded(module, archive, data)
    r.add_blob(MODULE_BLOB, archive.hash, data)
    args: dict[str, object] = {"hash": archive.hash, "game": module.id,
                               "version": module.version, "name": module.name}
    if changes:
        args["changes"] = dict(changes)
    r.issue("module", args)


def deck_fields(module: GameModule, deck: Deck) -> dict[str, str]:
    """The header fields of a deck list that the module declares (faction, leader...)."""
    return {k: v for k, v in deck.headers.items() if k in module.deck_headers}


def record_decks(r: Replica, module: GameModule, decks: Mapping[int, Deck]) -> None:
    """One deck op per seat, issued as that seat; the list's text stays private to its peer."""
    for seat, deck in sorted(decks.items()):
        text = deck.text
        r.issue("deck", {"seat": seat, "name": deck.name, "fields": deck_fields(module, deck),
                         "hash": deck_hash(text)}, seat=seat, private={"decks": {str(seat): text}})
