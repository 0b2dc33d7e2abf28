"""A Favor count out of bounds is a flag about the table: it leaves the live views once the
tracker is back within bounds (the history keeps it)."""
from __future__ import annotations

from assist.dead_to_rites import plugin
from assist.testing import AssistTable


def _live(t: AssistTable) -> list[str]:
    """The live Favor-bounds flags (a gain off one's turn is a flag about the move: it stays)."""
    return [e.flag.rule for e in t.runner.entries()
            if e.flag.rule in ("DTR-FAVOR-CAP", "DTR-FAVOR-NONNEG")]


def test_favor_over_the_cap_clears_once_it_is_back_under_it() -> None:
    t = AssistTable("dead-to-rites", plugin=plugin)
    t.phase("Dawn", seat=1)  # play starts
    t.do({"seat": 1, "op": "counter", "id": "p1.favor", "value": 9})
    assert _live(t) == ["DTR-FAVOR-CAP"]
    t.do({"seat": 1, "op": "counter", "id": "p1.favor", "value": 7})  # still over the cap
    assert _live(t) == ["DTR-FAVOR-CAP", "DTR-FAVOR-CAP"]
    t.do({"seat": 1, "op": "counter", "id": "p1.favor", "value": 6})
    assert _live(t) == []
    assert [f.rule for f in t.flags()] == ["DTR-FAVOR-CAP", "DTR-FAVOR-CAP"]  # history keeps


def test_negative_favor_clears_once_it_is_zero_again() -> None:
    t = AssistTable("dead-to-rites", plugin=plugin)
    t.phase("Dawn", seat=1)  # play starts
    t.do({"seat": 2, "op": "counter", "id": "p2.favor", "value": -1})
    assert _live(t) == ["DTR-FAVOR-NONNEG"]
    t.do({"seat": 2, "op": "counter", "id": "p2.favor", "add": 1})
    assert _live(t) == []
