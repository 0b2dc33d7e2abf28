"""Strategy as data: an optional `strategy.toml` beside a module gives the heuristic bots a
priority list per deck group (faction, Crown, Chosen), Geronimoo-style, so a designer tries a
strategy without writing Python:

    [default]
    rules = [
      { do = "rite", when = "favor >= cost + 2" },   # attempt a Rite only with Favor to spare
      { do = "block", when = "rite_step >= 4" },     # commit to a Defense Pool only late
    ]

    ["Hollow Market"]
    rules = [{ do = "rite", when = "favor >= cost" }]

A group's table replaces `[default]` for that group. Each rule names an action a game's bot
knows (docs/bots.md lists them per game) and a condition over the numbers the bot passes for
it; the first rule for an action decides. Conditions are arithmetic and comparisons only
(`+ - * and or not < <= > >= == !=`), checked when the file is read.
"""
from __future__ import annotations

import ast
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from table.games.module import GameModule

FILE = "strategy.toml"
_ALLOWED = (ast.Expression, ast.BoolOp, ast.And, ast.Or, ast.UnaryOp, ast.Not, ast.USub,
            ast.BinOp, ast.Add, ast.Sub, ast.Mult, ast.Compare, ast.Lt, ast.LtE, ast.Gt,
            ast.GtE, ast.Eq, ast.NotEq, ast.Name, ast.Load, ast.Constant)


class StrategyError(ValueError):
    """A strategy file that cannot be read (the message names the file and the rule)."""


@dataclass(frozen=True, slots=True)
class Rule:
    do: str
    when: str
    code: ast.Expression

    def holds(self, names: Mapping[str, float]) -> bool:
        return bool(_eval(self.code.body, names))


@dataclass(frozen=True, slots=True)
class Strategy:
    group: str
    rules: tuple[Rule, ...]

    def allows(self, action: str, **names: float) -> bool | None:
        """What the first rule for `action` says here; None when no rule names it."""
        for rule in self.rules:
            if rule.do == action:
                return rule.holds(names)
        return None


def _eval(node: ast.AST, names: Mapping[str, float]) -> float | bool:
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        return node.value
    if isinstance(node, ast.Name):
        if node.id not in names:
            raise StrategyError(f"unknown name {node.id!r} (known here: {', '.join(names)})")
        return names[node.id]
    if isinstance(node, ast.UnaryOp):
        value = _eval(node.operand, names)
        return (not value) if isinstance(node.op, ast.Not) else -value
    if isinstance(node, ast.BoolOp):
        values = [bool(_eval(v, names)) for v in node.values]
        return all(values) if isinstance(node.op, ast.And) else any(values)
    if isinstance(node, ast.BinOp):
        a, b = _eval(node.left, names), _eval(node.right, names)
        return a + b if isinstance(node.op, ast.Add) else \
            a - b if isinstance(node.op, ast.Sub) else a * b
    if isinstance(node, ast.Compare):
        left = _eval(node.left, names)
        for op, right_node in zip(node.ops, node.comparators, strict=True):
            right = _eval(right_node, names)
            ok = {ast.Lt: left < right, ast.LtE: left <= right, ast.Gt: left > right,
                  ast.GtE: left >= right, ast.Eq: left == right,
                  ast.NotEq: left != right}[type(op)]
            if not ok:
                return False
            left = right
        return True
    raise StrategyError(f"cannot evaluate {ast.dump(node)}")


def compile_rule(do: str, when: str) -> Rule:
    try:
        code = ast.parse(when or "1", mode="eval")
    except SyntaxError as err:
        raise StrategyError(f"condition {when!r}: {err.msg}") from None
    for node in ast.walk(code):
        if not isinstance(node, _ALLOWED):
            raise StrategyError(f"condition {when!r}: only numbers, names, arithmetic and "
                                f"comparisons are allowed")
    return Rule(do, when, code)


def read(path: Path) -> dict[str, Strategy]:
    """Every group's strategy in a file ("default" included); raises StrategyError."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as err:
        raise StrategyError(f"{path}: {err}") from None
    out: dict[str, Strategy] = {}
    for group, table in data.items():
        rules = table.get("rules", []) if isinstance(table, dict) else None
        if not isinstance(rules, list):
            raise StrategyError(f"{path}: [{group}] needs rules = [ {{ do = ..., when = ... }} ]")
        compiled = []
        for i, rule in enumerate(rules, start=1):
            if not isinstance(rule, dict) or not isinstance(rule.get("do"), str):
                raise StrategyError(f"{path}: [{group}] rule {i}: needs do = \"ACTION\"")
            try:
                compiled.append(compile_rule(rule["do"], str(rule.get("when", ""))))
            except StrategyError as err:
                raise StrategyError(f"{path}: [{group}] rule {i}: {err}") from None
        out[group] = Strategy(group, tuple(compiled))
    return out


class Strategies(dict[str, Strategy]):
    def get(self, group: str, default: Strategy | None = None) -> Strategy | None:  # type: ignore[override]
        return super().get(group) or super().get("default") or default


def strategies_for(module: GameModule) -> Strategies:
    """The module's strategy file, if it has one (else no strategy: the bots' defaults)."""
    path = Path(module.path) / FILE if getattr(module, "path", None) else None
    if path is None or not path.is_file():
        return Strategies()
    return Strategies(read(path))


__all__ = ["FILE", "Rule", "Strategies", "Strategy", "StrategyError", "compile_rule", "read",
           "strategies_for"]
