"""Which games the start screen offers, and starting or reopening one as a replica.

Game modules come from `table.games` (Qt-free); the built-in sample game is always there, so the
window works even with no module installed.
"""
from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from table.core.replica import Replica

from .catalog import Catalog
from .sample import SAMPLE_ID, sample_catalog, sample_table

log = logging.getLogger(__name__)


@dataclass(slots=True)
class GameChoice:
    id: str
    name: str
    min_seats: int
    max_seats: int
    decks: list[str] = field(default_factory=list)   # starter deck names
    default_decks: list[str] = field(default_factory=list)  # per seat, in seat order
    module: Any = None


def available_games() -> list[GameChoice]:
    out = [_choice(module) for module in _modules()]
    out.append(_sample_choice())
    return out


def game_choice(game_id: str) -> GameChoice | None:
    """The one game with this id, reading no other module (a game opened from the command
    line); None when there is none or it cannot be read."""
    if game_id == SAMPLE_ID:
        return _sample_choice()
    try:
        from table.games.registry import module_dirs

        folder = module_dirs().get(game_id)
        return None if folder is None else _choice(_module_at(folder))
    except Exception as err:  # a broken module: the caller says there is no such game
        log.warning("cannot load game module %s: %s", game_id, err)
        return None


def _choice(module: Any) -> GameChoice:
    decks = sorted(module.starter_decks)
    return GameChoice(module.id, module.name, module.players.min, module.players.max,
                      decks, _default_decks(decks, module.players.max), module)


def _sample_choice() -> GameChoice:
    return GameChoice(SAMPLE_ID, "Sample game (built in)", 1, 4)


def _default_decks(decks: list[str], seats: int) -> list[str]:
    return [decks[i % len(decks)] for i in range(seats)] if decks else []


_loaded: dict[Path, tuple[tuple[tuple[str, float], ...], Any]] = {}


def _stamp(folder: Path) -> tuple[tuple[str, float], ...]:
    """Every file of a module folder with its modification time: what a reload depends on."""
    out = []
    for root, _dirs, files in os.walk(folder):
        for name in files:
            path = os.path.join(root, name)
            out.append((path, os.stat(path).st_mtime))
    return tuple(sorted(out))


def _modules() -> list[Any]:
    """The installed modules, each read again only when one of its files changed (the start
    screen, `play` and the table all ask; reading a module takes a good part of a second)."""
    try:
        from table.games.registry import module_dirs

        return [_module_at(folder) for _id, folder in sorted(module_dirs().items())]
    except Exception as err:  # a broken module must not keep the window from opening
        log.warning("cannot load game modules: %s", err)
        return []


def _module_at(folder: Path) -> Any:
    """The module in `folder`, read again only when one of its files changed."""
    from table.games.loader import load_module

    stamp = _stamp(folder)
    known = _loaded.get(folder)
    if known is None or known[0] != stamp:
        known = _loaded[folder] = (stamp, load_module(folder))
    return known[1]


def catalog_for(game_id: str) -> Catalog:
    """The catalog of an installed game; ids and plain faces when it is missing or broken."""
    if game_id == SAMPLE_ID or not game_id:
        return sample_catalog()
    from table.games import ModuleError, ModuleNotFound, find_module

    try:
        return Catalog.from_module(find_module(game_id))
    except (ModuleNotFound, ModuleError) as err:
        log.warning("cannot load game %s: %s", game_id, err)
        return Catalog(game_id, game_id)


def start_game(choice: GameChoice, seats: int, decks: list[str] | None = None, *,
               log_path: str | Path | None = None, rng: Any = None) -> tuple[Replica, Catalog]:
    """A hot-seat table after setup, logging to `log_path`."""
    if choice.module is None:
        return sample_table(seats, log_path=log_path), sample_catalog()
    from table.games.setup import new_table  # written alongside the modules

    deck_map = None
    if decks:
        deck_map = {s + 1: choice.module.deck(name) for s, name in enumerate(decks[:seats])}
    replica = new_table(choice.module, seats, deck_map, log_path=log_path, rng=rng)
    return replica, Catalog.from_module(choice.module)


def open_log(path: str | Path, *, reopen: bool) -> tuple[Replica, Catalog]:
    """A log and the catalog of the module it was played under (recorded in the log)."""
    replica = Replica.from_log(path, reopen=reopen)
    if replica.game == SAMPLE_ID or not replica.game:
        return replica, sample_catalog()
    from table.games.registry import ModuleNotFound
    from table.games.store import module_for

    try:
        resolved = module_for(replica)
    except (ModuleNotFound, ValueError) as err:
        replica.report(str(err))
        return replica, Catalog(replica.game, replica.game)
    if resolved.note:
        replica.report(resolved.note)
    return replica, Catalog.from_module(resolved.module)
