"""The one rule-table format: severities as in the catalogue, flags built from the row."""
from __future__ import annotations

import re

import pytest

import assist.dead_to_rites as dead_to_rites
import assist.gauntlet as gauntlet
import assist.mantle_of_the_keeper as mantle
from assist.rule_table import RuleTable

TABLE = RuleTable([
    ("X-ERROR", "E", "§1", "An error."),
    ("X-EXCUSABLE", "E*", "§2", "An error unless a card effect excuses it."),
    ("X-WARNING", "W", "§3", "A warning."),
])


@pytest.mark.parametrize(("rule", "plain", "excused"), [
    ("X-ERROR", "error", "error"),
    ("X-EXCUSABLE", "error", "warning"),
    ("X-WARNING", "warning", "warning"),
])
def test_a_flag_takes_its_severity_and_section_from_the_row(rule: str, plain: str,
                                                            excused: str) -> None:
    flag = TABLE.flag(rule, "what happened", excused=False, objects=["c1"], ops=[("p", 3)])
    assert (flag.severity, flag.section, flag.objects, flag.ops) == (
        plain, TABLE.section(rule), ("c1",), (("p", 3),))
    assert TABLE.flag(rule, "what happened", excused=True).severity == excused


def test_the_panel_lists_every_rule_once_with_its_nominal_severity() -> None:
    assert [(i.rule, i.severity) for i in TABLE.infos()] == [
        ("X-ERROR", "error"), ("X-EXCUSABLE", "error"), ("X-WARNING", "warning")]


@pytest.mark.parametrize(("rows", "message"), [
    ([("X", "E+", "§1", "?")], "X: severity 'E+' is not one of E, E*, W"),
    ([("X", "E", "§1", "?"), ("X", "W", "§2", "?")], "X is listed twice"),
])
def test_a_bad_row_fails_with_the_rule_named(rows: list[tuple[str, str, str, str]],
                                             message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        RuleTable(rows)


@pytest.mark.parametrize(("module", "prefix"), [
    (gauntlet, "GAU-"), (mantle, "MAN-"), (dead_to_rites, "DTR-")])
def test_every_plugin_lists_its_rules_from_its_table(module: object, prefix: str) -> None:
    infos = module.plugin.rules()  # type: ignore[attr-defined]
    assert infos and all(i.rule.startswith(prefix) and i.section and i.summary for i in infos)
    assert len({i.rule for i in infos}) == len(infos)
