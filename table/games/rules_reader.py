"""The [rules] table of a game.toml: the rule numbers the assist reads, [rules.overrides] (a
card column setting a rule number per card) and [rules.deck.<section>] (deck-list limits), and
the counter maxima that take their value from a rule."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from .model import Column, Counter, DeckRules
from .toml_reader import Table

DECK_RULE_KEYS = ("min_cards", "max_cards", "cards", "max_copies", "unique_flag", "value_field",
                  "max_value", "distinct", "max_flagged", "own_group_only", "allow_neutral")


def counter_maxima(root_t: Table, counters: list[Counter], rules: dict[str, Any]
                   ) -> list[Counter]:
    """A counter whose max_from names a rule takes its max from [rules] (stated once there)."""
    out = []
    for i, c in enumerate(counters):
        if c.max_rule is not None:
            value = rules.get(c.max_rule)
            if not isinstance(value, int) or isinstance(value, bool):
                root_t.sink.add(root_t.index.line_of(("counters", i, "max_from", "rule")),
                                f"counter '{c.id}': max_from rule '{c.max_rule}' is not an "
                                "integer in [rules]")
            else:
                c = replace(c, max=value)
        out.append(c)
    return out


def _check_overrides(r: Table, rules: dict[str, Any], cols: dict[str, Column]) -> None:
    """[rules.overrides]: which card column sets a rule number per card (rule_sources.py)."""
    ov = r.table("overrides", label="[rules.overrides]")
    for rule, spec in (ov.data.items() if ov else []):
        assert ov is not None
        if not isinstance(spec, dict):
            ov.problem(rule, f"[rules.overrides] {rule} must be a table: "
                       "{ card_type = \"...\", column = \"...\" }")
            continue
        t = ov.sub(rule, spec, f"[rules.overrides] {rule}")
        t.check_keys(("card_type", "column"))
        t.str("card_type")
        column = t.str("column", required=True)
        if column is not None and (column not in cols or cols[column].type != "int"):
            t.problem("column", f"[rules.overrides] {rule}: '{column}' is not an int column")
        if rule not in rules:
            ov.problem(rule, f"[rules.overrides] {rule}: [rules] gives no '{rule}' to override")


def read_rules(root_t: Table, sections: list[str], columns: list[Column]
               ) -> tuple[dict[str, Any], dict[str, DeckRules]]:
    r = root_t.table("rules", label="[rules]")
    if r is None:
        return {}, {}
    rules = {k: v for k, v in r.data.items() if k != "deck"}
    deck_rules: dict[str, DeckRules] = {}
    d = r.table("deck", label="[rules.deck]")
    cols = {c.name: c for c in columns}
    _check_overrides(r, rules, cols)
    for section, spec in (d.data.items() if d else []):
        assert d is not None
        if section not in sections:
            d.problem(section, f"[rules.deck.{section}]: '{section}' is not a deck-list "
                      f"section ({', '.join(sections)})")
            continue
        if not isinstance(spec, dict):
            d.problem(section, f"[rules.deck.{section}] must be a table")
            continue
        deck_rules[section] = _read_deck_rules(d.sub(section, spec, f"[rules.deck.{section}]"),
                                               section, cols)
    return rules, deck_rules


def _read_deck_rules(t: Table, section: str, cols: dict[str, Column]) -> DeckRules:
    """One [rules.deck.<section>] table: sizes, copies, flagged and valued columns."""
    t.check_keys(DECK_RULE_KEYS)
    exact = t.int("cards")
    lo, hi = t.int("min_cards", default=exact), t.int("max_cards", default=exact)
    if lo is not None and hi is not None and lo > hi:
        t.problem("min_cards", f"[rules.deck.{section}]: min_cards {lo} > max_cards {hi}")
    for key, want in (("unique_flag", "bool"), ("value_field", "int")):
        col = t.str(key)
        if col is not None and (col not in cols or cols[col].type != want):
            t.problem(key, f"[rules.deck.{section}] {key}: '{col}' is not a {want} column")
    flagged: dict[str, int] = {}
    mf = t.table("max_flagged")
    for flag, limit in (mf.data.items() if mf else []):
        assert mf is not None
        if flag not in cols or cols[flag].type != "bool":
            mf.problem(flag, f"max_flagged: '{flag}' is not a bool column")
        elif not isinstance(limit, int) or isinstance(limit, bool):
            mf.problem(flag, f"max_flagged.{flag} must be an integer")
        else:
            flagged[flag] = limit
    return DeckRules(
        section=section, min_cards=lo, max_cards=hi, max_copies=t.int("max_copies"),
        unique_flag=t.str("unique_flag"), value_field=t.str("value_field"),
        max_value=t.int("max_value"), distinct=t.bool("distinct"), max_flagged=flagged,
        own_group_only=t.bool("own_group_only"), allow_neutral=t.bool("allow_neutral", True))
