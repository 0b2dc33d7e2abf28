"""The game's recorded result closes the last timing window: a Dusk that leaves damage on a
Champion is flagged when the `end` op (or a winner marker) follows it, exactly once, at the op
that closed the Dusk."""
from __future__ import annotations

import pytest

from assist.dead_to_rites import plugin
from assist.testing import AssistTable
from table.core import actions as act


def damaged_at_dusk(clear: bool) -> tuple[AssistTable, int]:
    """A damaged Champion at seat 1's Dusk; the checkpoint before the Dusk marker."""
    t = AssistTable("dead-to-rites", plugin=plugin)
    t.phase("Combat", seat=1)
    t.do({"seat": 1, "op": "create", "id": "guard", "kind": "card", "to": "p1.play",
          "card": "ember-court-brand-guard", "owner": 1},
         {"seat": 1, "op": "counter", "id": "guard", "key": "damage", "add": 1})
    since = t.checkpoint()
    t.phase("Dusk", seat=1)
    if clear:
        t.do({"seat": 1, "op": "counter", "id": "guard", "key": "damage", "value": 0})
    return t, since


@pytest.mark.parametrize(("clear", "expected"), [(False, ["DTR-DAMAGE-CLEAR-DUSK"]), (True, [])])
def test_the_last_dusk_before_the_end_op_is_checked(clear: bool, expected: list[str]) -> None:
    t, since = damaged_at_dusk(clear)
    act.end_game(t.replica, [2], "time", seat=1, text="time limit")
    assert t.rules(since) == expected, t.describe(since)
    if expected:
        (entry,) = t.entries(since)
        assert entry.index == len(t.replica.records()) - 1  # the end op moved on from Dusk


def test_a_winner_marker_then_the_end_op_check_the_window_once() -> None:
    t, since = damaged_at_dusk(clear=False)
    t.mark("winner", 1, seat=1)
    act.end_game(t.replica, [1], "time", seat=1, text="time limit")
    assert t.rules(since).count("DTR-DAMAGE-CLEAR-DUSK") == 1, t.describe(since)


def test_a_dusk_closed_by_the_next_turn_is_checked_as_before() -> None:
    t, since = damaged_at_dusk(clear=False)
    t.turn(2)
    act.end_game(t.replica, [2], "time", seat=2, text="time limit")
    assert t.rules(since) == ["DTR-DAMAGE-CLEAR-DUSK"], t.describe(since)


def test_a_marker_after_the_winner_does_not_check_the_window_again() -> None:
    t, since = damaged_at_dusk(clear=False)
    t.mark("winner", 1, seat=1)
    t.turn(2)  # play goes on after the result (a house rule, a mistake): no second flag
    assert t.rules(since).count("DTR-DAMAGE-CLEAR-DUSK") == 1, t.describe(since)
