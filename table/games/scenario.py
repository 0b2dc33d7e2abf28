"""Build a log from JSON Lines ops: how scenarios, bug reports and tests are written.

The first line may describe the table:
    {"table": {"game": "dead-to-rites", "seats": 4, "seed": 7, "decks": {"2": "path.txt"},
               "players": {"1": "Alice"}, "start": "2026-11-30T19:00:00Z"}}
    {"table": {"position": "situation.toml"}}          (or the position's tables inline)
With a game, the module's setup runs first; with a position, the table starts in that situation
(docs/positions.md). Either way one peer plays every seat. Without a header the table starts
empty and the ops create what they need. Each further line is one op in the form of
docs/ops.md; `"after": seconds` paces the ops' recorded times.

The importer is honest: a name the module does not declare (phase, step, declaration, zone,
card) or an op that would do nothing (void) is an error, unless `allow_void`. Every problem is
reported as FILE:LINE: message; the output file is written only when every line succeeded.
"""
from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterable
from datetime import datetime
from pathlib import Path
from typing import Any

from table.core.jsonform import JsonOpError
from table.core.replica import Replica
from table.core.rng import Rng

from .decks import load_deck
from .model import Deck
from .module import GameModule
from .op_checks import OpChecker
from .position import PositionError, read_position
from .position_table import start_position
from .problems import ModuleError
from .registry import ModuleNotFound, find_module
from .setup import new_table

TABLE_FIELDS = {"game", "seats", "seed", "decks", "id", "players", "position", "start"}


class ScenarioError(Exception):
    """Every problem of a scenario, one `file:line: message` per line."""


class Clock:
    """The time ops are stamped with: starts now (or at `start`), moves on by `after`."""

    def __init__(self, start: float | None = None) -> None:
        self.now = time.time() if start is None else start

    def __call__(self) -> float:
        return self.now


def _start_time(value: Any, where: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    try:
        return datetime.fromisoformat(str(value).replace("Z", "+00:00")).timestamp()
    except ValueError:
        raise ScenarioError(f"{where}: 'start' must be an ISO 8601 time or seconds since the "
                            f"epoch, not {value!r}") from None


def load_seat_deck(module: GameModule, ref: str, base: Path) -> Deck:
    """A deck list given as a starter deck name, a file (relative to `base`) or its text."""
    if "\n" in ref:
        return load_deck(module, ref)
    if ref in module.starter_decks:
        return module.starter_decks[ref]
    path = Path(ref) if Path(ref).is_absolute() else base / ref
    if path.is_file():
        return load_deck(module, path)
    raise ValueError(f"{ref!r} is neither a file, nor a starter deck "
                     f"({', '.join(sorted(module.starter_decks))}), nor a deck list's text (one "
                     "card per line, e.g. \"3 Iron Pass\\n2 Scout\")")


def _table(header: Any, where: str, line: int, out: Path, base: Path, clock: Clock
           ) -> tuple[Replica, GameModule | None]:
    if not isinstance(header, dict):
        raise ScenarioError(f"{where}: 'table' must be an object")
    unknown = set(header) - TABLE_FIELDS
    if unknown:
        raise ScenarioError(f"{where}: unknown table field(s) {sorted(unknown)}")
    clock.now = _start_time(header.get("start"), where) or clock.now
    seed = header.get("seed")
    rng = Rng(seed) if isinstance(seed, int) else None
    if "position" in header:
        return _position_table(header, where, line, out, base, rng, clock)
    game = header.get("game")
    players = _players(header.get("players"), where)
    if game is None:
        replica = Replica(header.get("id"), "scenario", rng=rng or Rng(), log_path=out,
                          clock=clock)
        replica.issue("hello", {"name": "scenario"})
        for seat in range(1, int(header.get("seats", 2)) + 1):
            replica.issue("seat", {"seat": seat, "name": players.get(seat, f"Seat {seat}")})
        return replica, None
    try:
        module = find_module(str(game))
    except (ModuleNotFound, ModuleError) as err:
        raise ScenarioError(f"{where}: unknown game {game!r} ({err})") from None
    decks = {}
    for seat, ref in (header.get("decks") or {}).items():
        try:
            decks[int(seat)] = load_seat_deck(module, str(ref), base)
        except (ModuleError, ValueError, OSError) as err:
            raise ScenarioError(f"{where}: deck for seat {seat}: {err}") from None
    try:
        replica = new_table(module, int(header.get("seats", module.players.min)), decks,
                            log_path=out, rng=rng or Rng(), table_id=header.get("id"),
                            names=players, clock=clock)
    except ValueError as err:
        raise ScenarioError(f"{where}: {err}") from None
    return replica, module


def _players(value: Any, where: str) -> dict[int, str]:
    if value is None:
        return {}
    if not isinstance(value, dict) or not all(str(k).isdigit() and isinstance(v, str)
                                              for k, v in value.items()):
        raise ScenarioError(f"{where}: 'players' maps seats to names: {{\"1\": \"Alice\"}}")
    return {int(k): v for k, v in value.items()}


def _position_table(header: dict[str, Any], where: str, line: int, out: Path, base: Path,
                    rng: Rng | None, clock: Clock) -> tuple[Replica, GameModule]:
    extra = set(header) - {"position", "seed", "id", "start"}
    if extra:
        raise ScenarioError(f"{where}: a position names its game, seats, decks and players; "
                            f"drop {sorted(extra)}")
    ref = header["position"]
    try:
        if isinstance(ref, str):
            position = read_position(Path(ref) if Path(ref).is_absolute() else base / ref)
        elif isinstance(ref, dict):
            position = read_position(data=ref, source=where.rsplit(":", 1)[0], line=line,
                                     base=base)
        else:
            raise ScenarioError(f"{where}: 'position' is a file name or the position's tables")
    except PositionError as err:
        raise ScenarioError(str(err)) from None
    return start_position(position, log_path=out, rng=rng, table_id=header.get("id"),
                          clock=clock), position.module


Declarations = Callable[[str], Iterable[str] | None]


def build_log(source: Path, out: Path, *, declarations: Declarations | None = None,
              allow_void: bool = False) -> int:
    """Write `out` from the JSON Lines in `source`; return the number of ops it holds.

    `declarations(game id)`: the declaration names the game's assist knows (None: unchecked)."""
    try:
        lines = source.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as err:
        raise ScenarioError(f"{source}: cannot read: {err}") from None
    tmp = out.with_name(out.name + ".partial")
    if tmp.exists():
        tmp.unlink()
    replica: Replica | None = None
    checker = OpChecker(None, None, allow_void=allow_void)
    clock = Clock()
    problems: list[str] = []
    try:
        for number, line in enumerate(lines, start=1):
            where = f"{source}:{number}"
            if not line.strip() or line.lstrip().startswith("//"):
                continue
            try:
                entry = json.loads(line)
            except json.JSONDecodeError as err:
                problems.append(f"{where}: not valid JSON ({err.msg} at column {err.colno})")
                continue
            if isinstance(entry, dict) and "table" in entry:
                if replica is not None:
                    problems.append(f"{where}: the table header must be the first line")
                    continue
                try:
                    replica, module = _table(entry["table"], where, number, tmp, source.parent,
                                             clock)
                except ScenarioError as err:
                    problems.append(str(err))
                    break
                known = declarations(module.id) if declarations and module else None
                checker = OpChecker(module, known, allow_void=allow_void)
                continue
            if replica is None:
                replica, _ = _table({}, where, number, tmp, source.parent, clock)
            try:
                _pace(entry, clock)
                checker.perform(replica, entry)
            except JsonOpError as err:
                problems.append(f"{where}: {err}")
        if replica is None:
            problems.append(f"{source}: no ops")
    finally:
        if replica is not None:
            replica.close()
    if problems:
        if tmp.exists():
            tmp.unlink()
        raise ScenarioError("\n".join(problems))
    assert replica is not None
    os.replace(tmp, out)
    return len(replica.records())


def _pace(entry: Any, clock: Clock) -> None:
    after = entry.get("after") if isinstance(entry, dict) else None
    if after is None:
        return
    if isinstance(after, bool) or not isinstance(after, int | float) or after < 0:
        raise JsonOpError(f"'after' is the seconds since the previous op, not {after!r}")
    clock.now += float(after)
