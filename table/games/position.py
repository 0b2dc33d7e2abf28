"""A position: a game situation written by name in a TOML file (docs/positions.md).

A position names the game, the seats, and where every card, counter, token, die, board side and
tile is, plus the turn, the phase and whether setup is over. `read_position` checks every name
against the module (zones, cards, counters, tokens, phases, deck lists) and reports each problem
as `file:line: message`, with a "did you mean" for a near miss. Starting a table from a position
is `position_table.start_position`; saving one from a table is `position_writer.write_position`.
What it reads into is in `position_model`.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .decks import load_deck
from .loader import load_module
from .model import Deck
from .module import GameModule
from .position_model import (
    FACES,
    UNKNOWN,
    CardPlacement,
    Position,
    PositionError,
    TilePlacement,
    TokenPlacement,
    ZonePlacement,
)
from .position_parts import read_parts
from .position_source import PositionSource
from .problems import ModuleError, Problem
from .registry import find_module
from .setup import default_decks
from .spelling import suggest

__all__ = ["FACES", "UNKNOWN", "CardPlacement", "Position", "PositionError", "TilePlacement",
           "TokenPlacement", "ZonePlacement", "read_position", "suggest"]


def _module_for(r: PositionSource, head: dict[str, Any]) -> GameModule | None:
    game, ref = head.get("game"), head.get("module")
    try:
        if isinstance(ref, str):
            folder = Path(ref) if Path(ref).is_absolute() or r.base is None else r.base / ref
            module = load_module(folder)
            if isinstance(game, str) and module.id != game:
                r.bad(("position", "module"), f"module folder {ref} holds game '{module.id}', "
                      f"not '{game}'")
            return module
        if not isinstance(game, str):
            r.bad(("position",), "[position] needs game = \"<module id>\"")
            return None
        return find_module(game)
    except ModuleError as err:
        for p in err.problems:
            r.sink.add(r.line("position", "module"), f"draft module: {p}")
    except (LookupError, OSError) as err:  # ModuleNotFound, an unreadable folder
        where = "module" if isinstance(ref, str) else "game"
        r.bad(("position", where), str(err))
    return None


def read_position(path: str | Path | None = None, *, text: str | None = None,
                  source: str | None = None, base: Path | None = None,
                  data: dict[str, Any] | None = None, line: int = 0,
                  module: GameModule | None = None, extra: Iterable[str] = ()) -> Position:
    """Read and check a position file, its text, or its tables given as `data` (inline in a
    JSON line, every problem at `line`). `module` replaces the game module the position names
    (a draft under test); `extra`: further top-level tables the caller reads (a scenario's).
    Raises PositionError."""
    if text is None and data is None:
        if path is None:
            raise ValueError("read_position needs a path or a text")
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as err:
            raise PositionError([Problem(str(path), 0, f"cannot read position: {err}")]) from None
        base = base or path.parent
    r = PositionSource(source or (str(path) if path is not None else "<position>"), text, base,
                data, line)
    if r.sink.problems:
        raise PositionError(r.sink.problems)
    r.only((), r.data, {"position", "turn", "seats", "zones", "counters", "tokens", "dice",
                        "boards", "tiles", *extra})
    head = r.table("position")
    r.only(("position",), head, {"game", "module", "name", "seats", "seed", "setup"})
    if module is not None and isinstance(head.get("game"), str) and head["game"] != module.id:
        r.bad(("position", "game"), f"this position is for '{head['game']}', not the module "
              f"given ('{module.id}')")
    module = module or _module_for(r, head)
    if module is None:
        raise PositionError(r.sink.problems)
    seats = head.get("seats", module.players.min)
    if type(seats) is not int or not module.players.min <= seats <= module.players.max:
        r.bad(("position", "seats"), f"seats must be {module.players.min}-"
              f"{module.players.max} for {module.name}, not {seats!r}")
        raise PositionError(r.sink.problems)
    setup = head.get("setup", "complete")
    if setup not in ("complete", "pending"):
        r.bad(("position", "setup"), f"setup must be \"complete\" or \"pending\", not {setup!r}")
    seed = head.get("seed")
    if seed is not None and type(seed) is not int:
        r.bad(("position", "seed"), "seed must be an integer")
        seed = None
    players, decks, refs = _read_seats(r, module, seats)
    parts = read_parts(r, module, seats, decks)
    if r.sink.problems:
        raise PositionError(r.sink.problems)
    digest = hashlib.sha256((text if text is not None else json.dumps(
        data, sort_keys=True, default=str)).encode("utf-8")).hexdigest()
    return Position(module=module, seats=seats, source=r.source, name=str(head.get("name", "")),
                    digest=digest,
                    module_ref=head.get("module"), seed=seed, setup_complete=setup == "complete",
                    players=players, decks=decks, deck_refs=refs, **parts)


def _read_seats(r: PositionSource, module: GameModule, seats: int
                ) -> tuple[dict[int, str], dict[int, Deck], dict[int, str]]:
    players: dict[int, str] = {}
    decks: dict[int, Deck] = dict(default_decks(module, seats))
    starter_key = {id(d): key for key, d in module.starter_decks.items()}
    refs: dict[int, str] = {s: starter_key.get(id(d), d.name) for s, d in decks.items()}
    for key, value in r.table("seats").items():
        path: tuple[str | int, ...] = ("seats", key)
        if not key.isdigit() or not 1 <= int(key) <= seats:
            r.bad(path, f"[seats.{key}]: seats are numbered 1-{seats}")
            continue
        if not isinstance(value, dict):
            r.bad(path, f"[seats.{key}] must be a table")
            continue
        r.only(path, value, {"player", "deck"})
        seat = int(key)
        if "player" in value:
            if isinstance(value["player"], str) and value["player"].strip():
                players[seat] = value["player"]
            else:
                r.bad((*path, "player"), "player must be a name")
        ref = value.get("deck")
        if ref is None:
            continue
        if not isinstance(ref, str):
            r.bad((*path, "deck"), "deck must be a starter deck name, a file or the list text")
            continue
        deck = _load_deck(r, module, ref, (*path, "deck"))
        if deck is not None:
            decks[seat], refs[seat] = deck, ref
    return players, decks, refs


def _load_deck(r: PositionSource, module: GameModule, ref: str, path: tuple[str | int, ...]
               ) -> Deck | None:
    try:
        if "\n" in ref:
            return load_deck(module, ref)
        if ref in module.starter_decks:
            return module.starter_decks[ref]
        file = Path(ref) if Path(ref).is_absolute() or r.base is None else r.base / ref
        if file.is_file():
            return load_deck(module, file)
    except ModuleError as err:
        for p in err.problems:
            r.bad(path, f"deck list: {p}")
        return None
    starters = ", ".join(sorted(module.starter_decks))
    r.bad(path, f"no deck list '{ref}': give a starter deck ({starters}), a file next to the "
          f"position, or the list's text{suggest(ref, module.starter_decks)}")
    return None


