"""Rule numbers with one source: a `[rules]` value, and the card column that may set it per card.

A module states each rule number once. Where a number may differ per card (Dead to Rites' Favor
cap is 6, but the Hollow Market Crown's is 7), `[rules.overrides]` states which source wins:

    [rules]
    favor_cap = 6
    [rules.overrides]
    favor_cap = { card_type = "Crown", column = "favor_cap" }   # a Crown's column, where given

The card's column wins where the card gives a value; every other card of that type follows the
rule. `effective` is that answer (the assist and the report ask it at each op, of the module in
force there); `shadow_warnings` says where a `[rules]` value can have no effect (every card of
the type sets the column) or a card repeats the rule's value (so a later change of the rule
would silently skip it). `validate` prints them, and a draft reloaded during play reports
those about the values it changed.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .problems import Problem

if TYPE_CHECKING:
    from .model import Card
    from .module import GameModule


@dataclass(frozen=True, slots=True)
class Override:
    rule: str  # the [rules] key
    card_type: str
    column: str


def overrides(module: GameModule) -> dict[str, Override]:
    spec = (module.rules or {}).get("overrides")
    out: dict[str, Override] = {}
    if isinstance(spec, dict):
        for rule, value in spec.items():
            if isinstance(value, dict) and isinstance(value.get("column"), str):
                out[rule] = Override(rule, str(value.get("card_type", "")), value["column"])
    return out


def _card_value(card: Card | None, column: str) -> int | None:
    value = card.get(column) if card is not None else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def effective(module: GameModule, rule: str, card: Card | None = None,
              default: Any = None) -> Any:
    """The value of `[rules] rule` for `card` (e.g. a seat's Crown): the card's column where
    the module says it overrides the rule and the card gives one, else the rule's value."""
    o = overrides(module).get(rule)
    if o is not None and card is not None and (not o.card_type or card.type == o.card_type):
        value = _card_value(card, o.column)
        if value is not None:
            return value
    return (module.rules or {}).get(rule, default)


def _cards_of(module: GameModule, card_type: str) -> list[Card]:
    return [c for c in module.cards.values() if not card_type or c.type == card_type]


@dataclass(frozen=True, slots=True)
class Shadow:
    """One number stated twice: the rule it is about and, for a card repeating it, the card."""
    message: str
    rule: str
    card: str | None = None

    def __str__(self) -> str:
        return self.message


def shadows(module: GameModule, rules: set[str] | None = None) -> list[Shadow]:
    """Where a rule value and a card column both state a number (only `rules`, if given)."""
    out: list[Shadow] = []
    given = module.rules or {}
    for o in overrides(module).values():
        if rules is not None and o.rule not in rules:
            continue
        value = given.get(o.rule)
        cards = _cards_of(module, o.card_type)
        kind = o.card_type or "card"
        setting = [c for c in cards if _card_value(c, o.column) is not None]
        if cards and len(setting) == len(cards):
            out.append(Shadow(f"rules {o.rule} = {value} has no effect: every {kind}'s "
                              f"{o.column} column sets it (leave the column empty where the "
                              "rule should apply)", o.rule))
            continue
        out.extend(Shadow(f"{kind} {c.name}: {o.column} {value} repeats rules {o.rule} = "
                          f"{value}; leave it empty so that a change of the rule reaches it",
                          o.rule, c.id)
                   for c in setting if _card_value(c, o.column) == value)
    for column in module.columns:
        if column.name in given and column.name not in overrides(module) \
                and (rules is None or column.name in rules):
            out.append(Shadow(f"rules {column.name} and the cards' {column.name} column both "
                              "give a value; say which wins in [rules.overrides]", column.name))
    return out


def shadow_warnings(module: GameModule, rules: set[str] | None = None) -> list[str]:
    return [s.message for s in shadows(module, rules)]


def warning_problems(module: GameModule, root_label: str, toml_text: str,
                     cards_text: str = "") -> list[Problem]:
    """The shadow warnings as file:line problems: the rule's line in game.toml, or the card's
    row in the cards file."""
    out = []
    for shadow in shadows(module):
        if shadow.card is not None:
            found = re.compile(rf"(?m)^{re.escape(shadow.card)},").search(cards_text)
            line = cards_text.count("\n", 0, found.start()) + 1 if found else 0
            out.append(Problem(f"{root_label}/cards.csv", line, f"warning: {shadow}"))
            continue
        start = max(toml_text.find("\n[rules]"), 0)  # the value, not its column's type
        found = re.compile(rf"(?m)^\s*{re.escape(shadow.rule)}\s*=").search(toml_text, start)
        line = toml_text.count("\n", 0, found.start()) + 1 if found else 0
        out.append(Problem(f"{root_label}/game.toml", line, f"warning: {shadow}"))
    return out


__all__ = ["Override", "Shadow", "effective", "overrides", "shadow_warnings", "shadows",
           "warning_problems"]
