"""Build a log from a JSON Lines scenario: how scenarios, bug reports and tests are written.

The first line may describe the table:
    {"table": {"game": "dead-to-rites", "seats": 4, "seed": 7, "decks": {"2": "path.txt"}}}
With a game, the module's setup runs first (hot-seat: this one peer plays every seat). Without
a header, the table starts empty and the ops create what they need. Each further line is one op
in the form of docs/ops.md. Every problem is reported as FILE:LINE: message; the output file is
written only when every line succeeded.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from table.core.jsonform import JsonOpError, perform
from table.core.replica import Replica
from table.core.rng import Rng

from .decks import load_deck
from .problems import ModuleError
from .registry import find_module
from .setup import new_table


class ScenarioError(Exception):
    """Every problem of a scenario, one `file:line: message` per line."""


def _table(header: Any, where: str, out: Path) -> tuple[Replica, Any]:
    if not isinstance(header, dict):
        raise ScenarioError(f"{where}: 'table' must be an object")
    unknown = set(header) - {"game", "seats", "seed", "decks", "id"}
    if unknown:
        raise ScenarioError(f"{where}: unknown table field(s) {sorted(unknown)}")
    seed = header.get("seed")
    rng = Rng(seed) if isinstance(seed, int) else Rng()
    game = header.get("game")
    if game is None:
        replica = Replica(header.get("id"), "scenario", rng=rng, log_path=out)
        replica.issue("hello", {"name": "scenario"})
        for seat in range(1, int(header.get("seats", 2)) + 1):
            replica.issue("seat", {"seat": seat, "name": f"Seat {seat}"})
        return replica, None
    try:
        module = find_module(str(game))
    except (KeyError, LookupError, ModuleError) as err:
        raise ScenarioError(f"{where}: unknown game {game!r} ({err})") from None
    decks = {}
    for seat, path in (header.get("decks") or {}).items():
        try:
            decks[int(seat)] = load_deck(module, Path(path))
        except (ModuleError, ValueError, OSError) as err:
            raise ScenarioError(f"{where}: deck for seat {seat}: {err}") from None
    try:
        replica = new_table(module, int(header.get("seats", module.players.min)), decks,
                            log_path=out, rng=rng, table_id=header.get("id"))
    except ValueError as err:
        raise ScenarioError(f"{where}: {err}") from None
    return replica, module


def build_log(source: Path, out: Path) -> int:
    """Write `out` from the scenario in `source`; return the number of ops it holds."""
    try:
        lines = source.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as err:
        raise ScenarioError(f"{source}: cannot read: {err}") from None
    tmp = out.with_name(out.name + ".partial")
    if tmp.exists():
        tmp.unlink()
    replica: Replica | None = None
    module = None
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
                    replica, module = _table(entry["table"], where, tmp)
                except ScenarioError as err:
                    problems.append(str(err))
                    break
                continue
            if replica is None:
                replica, module = _table({}, where, tmp)
            namer = (lambda c: module.cards[c].name if c in module.cards else c) if module else None
            try:
                perform(replica, entry, namer)
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
