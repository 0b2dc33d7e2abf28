"""One rule-table format for every plugin: the catalogue's rows, and the flags built from them.

A row is (rule id, catalogue severity, rulebook section, summary), as in rules-catalogue.md:
"E" an error, "W" a warning, "E*" an error unless a card-effect declaration excuses the move
(then a warning). The table answers the assist panel's list of rules and builds every flag, so
a rule's severity and section are written once.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from .api import Flag, OpRef, RuleInfo, Severity

Row = tuple[str, str, str, str]  # rule id, "E" | "E*" | "W", rulebook section, summary
_SEVERITIES = {"E", "E*", "W"}


class RuleTable:
    def __init__(self, rows: Iterable[Row]) -> None:
        self._rows: dict[str, Row] = {}
        for row in rows:
            rule, severity = row[0], row[1]
            if severity not in _SEVERITIES:
                raise ValueError(f"{rule}: severity {severity!r} is not one of E, E*, W")
            if rule in self._rows:
                raise ValueError(f"{rule} is listed twice")
            self._rows[rule] = row

    def __iter__(self) -> Iterator[str]:
        return iter(self._rows)

    def __contains__(self, rule: object) -> bool:
        return rule in self._rows

    def __len__(self) -> int:
        return len(self._rows)

    def infos(self) -> list[RuleInfo]:
        """Every rule, for the assist panel and the docs (E* rules are listed as errors)."""
        return [RuleInfo(rule, self.severity(rule, excused=False), section, summary)
                for rule, _severity, section, summary in self._rows.values()]

    def section(self, rule: str) -> str:
        return self._rows[rule][2]

    def excusable(self, rule: str) -> bool:
        return self._rows[rule][1] == "E*"

    def severity(self, rule: str, *, excused: bool) -> Severity:
        nominal = self._rows[rule][1]
        if nominal == "W" or (nominal == "E*" and excused):
            return "warning"
        return "error"

    def flag(self, rule: str, message: str, *, excused: bool, objects: Sequence[str] = (),
             ops: Sequence[OpRef] = ()) -> Flag:
        """A flag for `rule`; `excused` (a declared card effect) softens an E* rule only."""
        return Flag(rule, self.severity(rule, excused=excused), message, self.section(rule),
                    tuple(ops), tuple(objects))
