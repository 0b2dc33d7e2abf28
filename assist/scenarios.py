"""Rule tests for designers: a scenario is a position, moves in the JSON form, and the flags the
assist is expected to raise. `sandtable check --scenarios DIR` runs every scenario under DIR.

A scenario file is a position file (docs/positions.md) with one more table:

    [scenario]
    name = "Four cards in hand when the turn passes"
    rulebook = "Gauntlet v0.6.0, Cleanup Step"
    expect = [{ rule = "GAU-HAND-LIMIT", at = 1 }]     # at: the move's number; [] = no flag
    twin = "hand-limit-discard.toml"                    # optional: its nearest legal play
    moves = '''
    {"seat": 1, "op": "mark", "what": "turn", "for_seat": 2}
    '''

It passes when the flags raised after the position are exactly those expected (a flag without
`at` may come at any move). A flag's move is the move it judges: a verdict given later (a
payment, a timing window) names the move it judges, and the scenario's last move ends the input
(every window still open closes there), so a slip that is the last move is judged like any
other. Run against a draft module folder, it shows which rule situations
the draft judges differently.
"""
from __future__ import annotations

import json
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from table.core.jsonform import JsonOpError
from table.core.rng import Rng
from table.games.module import GameModule
from table.games.op_checks import OpChecker
from table.games.position import PositionError, read_position
from table.games.position_table import start_position
from table.games.toml_reader import LineIndex

from .api import CARD_EFFECT, Plugin
from .runner import AssistRunner, load_plugin

SCENARIO_KEYS = {"name", "rulebook", "expect", "moves", "note", "twin"}


@dataclass(slots=True)
class ScenarioResult:
    path: Path
    name: str
    rulebook: str = ""
    problems: list[str] = field(default_factory=list)  # why it failed (empty: passed)
    flags: list[tuple[str, int]] = field(default_factory=list)  # (rule, move) raised
    twin: Path | None = None  # the nearest legal play's scenario, when the file names one

    @property
    def passed(self) -> bool:
        return not self.problems


@dataclass(frozen=True, slots=True)
class Expected:
    rule: str
    at: int | None


class ScenarioRunner:
    """Runs scenarios, loading each game's plugin once (and the draft module, if given)."""

    def __init__(self, module: GameModule | None = None) -> None:
        self.module = module
        self._plugins: dict[str, Plugin | None] = {}

    def plugin(self, game_id: str) -> Plugin | None:
        if game_id not in self._plugins:
            self._plugins[game_id] = load_plugin(game_id)
        return self._plugins[game_id]

    def run_all(self, paths: Iterable[Path]) -> list[ScenarioResult]:
        return [self.run(p) for p in paths]

    def run(self, path: Path) -> ScenarioResult:
        result = ScenarioResult(path, path.stem)
        try:
            text = path.read_text(encoding="utf-8")
            head = tomllib.loads(text).get("scenario")
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
            result.problems.append(f"{path}: cannot read: {err}")
            return result
        index = LineIndex(text)
        if not isinstance(head, dict):
            result.problems.append(f"{path}: a scenario needs a [scenario] table")
            return result
        result.name = str(head.get("name", path.stem))
        result.rulebook = str(head.get("rulebook", ""))
        twin = head.get("twin")
        if twin is not None:
            result.twin = path.parent / str(twin)
            if not isinstance(twin, str) or not result.twin.is_file():
                result.problems.append(f"{path}:{index.line_of(('scenario', 'twin'))}: twin "
                                       f"{twin!r} is not a scenario file beside this one")
        expected = self._expected(path, head, index, result)
        try:
            position = read_position(path, module=self.module, extra=("scenario",))
        except PositionError as err:
            result.problems.extend(str(p) for p in err.problems)
            return result
        if result.problems:
            return result
        self._play(path, head, index, position, expected, result)
        return result

    def _expected(self, path: Path, head: dict[str, Any], index: LineIndex,
                  result: ScenarioResult) -> list[Expected]:
        for key in head:
            if key not in SCENARIO_KEYS:
                result.problems.append(f"{path}:{index.line_of(('scenario', key))}: unknown "
                                       f"[scenario] key '{key}'")
        out = []
        raw = head.get("expect", [])
        if not isinstance(raw, list):
            raw = [None]
        for i, item in enumerate(raw):
            at = item.get("at") if isinstance(item, dict) else None
            if not isinstance(item, dict) or not isinstance(item.get("rule"), str) or (
                    at is not None and (type(at) is not int or at < 1)):
                line = index.line_of(("scenario", "expect", i))
                result.problems.append(f"{path}:{line}: expect is a list of {{ rule = \"ID\", "
                                       "at = MOVE }} (at: the move's number, optional)")
                continue
            out.append(Expected(item["rule"], at))
        return out

    def _play(self, path: Path, head: dict[str, Any], index: LineIndex, position: Any,
              expected: list[Expected], result: ScenarioResult) -> None:
        module = position.module
        plugin = self.plugin(module.id)
        if plugin is None:
            result.problems.append(f"{path}: {module.name} has no rules assist")
            return
        replica = start_position(position, rng=Rng(position.seed if position.seed is not None
                                                    else 1), peer_id="scenario",
                                 table_id="scenario")
        runner = AssistRunner.for_replica(replica, module, plugin, seat=-1)
        known = [CARD_EFFECT, *(d.name for d in plugin.declarations())]
        checker = OpChecker(module, known)
        start = len(replica.records())
        first_line = index.line_of(("scenario", "moves")) + 1
        ranges: list[tuple[int, int]] = []  # record index span of each move
        moves = head.get("moves", "")
        for offset, line in enumerate(str(moves).splitlines()):
            if not line.strip() or line.lstrip().startswith("//"):
                continue
            where = f"{path}:{first_line + offset}"
            before = len(replica.records())
            try:
                checker.perform(replica, json.loads(line))
            except json.JSONDecodeError as err:
                result.problems.append(f"{where}: not valid JSON ({err.msg})")
                return
            except JsonOpError as err:
                result.problems.append(f"{where}: {err}")
                return
            ranges.append((before, len(replica.records())))
        runner.finish()  # the scenario's last move ends the input: every window closes
        for entry in runner.entries(include_undone=True, include_resolved=True, since=start):
            move = next((n for n, (a, b) in enumerate(ranges, 1) if a <= entry.index < b), 0)
            result.flags.append((entry.flag.rule, move))
        result.problems.extend(_compare(expected, list(result.flags)))


def _compare(expected: list[Expected], got: list[tuple[str, int]]) -> list[str]:
    problems = []
    for want in expected:
        match = next((g for g in got if g[0] == want.rule
                      and (want.at is None or g[1] == want.at)), None)
        if match is None:
            at = f" at move {want.at}" if want.at is not None else ""
            problems.append(f"expected {want.rule}{at}, not raised")
        else:
            got.remove(match)
    problems += [f"unexpected {rule} at move {move}" for rule, move in got]
    return problems


def scenario_game(path: Path) -> str | None:
    """The game a scenario file names (None when it cannot be read: its run reports why)."""
    try:
        game = tomllib.loads(path.read_text(encoding="utf-8")).get("position", {}).get("game")
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, AttributeError):
        return None
    return game if isinstance(game, str) else None


def scenario_files(root: Path) -> list[Path]:
    """Every scenario file under `root` (or `root` itself), sorted."""
    if root.is_file():
        return [root]
    return sorted(p for p in root.rglob("*.toml") if "[scenario]" in p.read_text("utf-8"))
