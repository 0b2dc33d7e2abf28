"""Flags that follow the table: a flag about where a piece is clears from the live views once
the piece is where the rule wants it; the history (`include_resolved`) keeps it."""
from __future__ import annotations

from tests.assist.mantle_of_the_keeper.kit import Game


def _live(g: Game) -> list[str]:
    """The start-space flags the live views show (moving a standee in play flags the move
    itself too: a flag about a move, which stays)."""
    return [e.flag.rule for e in g.t.runner.entries() if e.flag.rule == "MAN-SETUP-CHOSEN-SPACE"]


def test_a_chosen_not_on_the_arena_clears_once_its_standee_is_put_there() -> None:
    g = Game(standees={1: (2, 1), 2: (6, 1)})  # Velya's standee is left off the arena
    assert _live(g) == ["MAN-SETUP-CHOSEN-SPACE"]
    (entry,) = [e for e in g.t.runner.entries() if e.flag.rule == "MAN-SETUP-CHOSEN-SPACE"]
    assert "not on the arena" in entry.flag.message and entry.flag.objects == ("p3.standee",)
    assert g.t.runner.flags_by_object().get("p3.standee")  # the badge on the standee
    g.put("p2.standee", (6, 2), seat=2)  # another piece: the flag stays
    assert _live(g) == ["MAN-SETUP-CHOSEN-SPACE"]

    g.put("p3.standee", (2, 6), seat=3)

    assert _live(g) == []
    assert "p3.standee" not in g.t.runner.flags_by_object()
    assert g.t.runner.flags_at(entry.index) == ()
    kept = g.t.runner.entries(include_resolved=True)
    assert entry in kept  # the history keeps it
    assert g.t.runner.cleared_at(entry.flag) == len(g.t.replica.records()) - 1


def test_a_standee_put_on_an_obstruction_keeps_its_flag_until_it_stands_on_a_free_space() -> None:
    g = Game(standees={1: (1, 1), 2: (6, 1), 3: (2, 6)})  # (1, 1) is an Obstruction
    assert _live(g) == ["MAN-SETUP-CHOSEN-SPACE"]
    g.put("p1.standee", (3, 3), seat=1)  # another Obstruction: the table still shows it
    assert _live(g) == ["MAN-SETUP-CHOSEN-SPACE"]
    g.put("p1.standee", (2, 1), seat=1)
    assert _live(g) == []


def test_a_rollback_past_the_fix_brings_the_flag_back_until_the_fix_is_applied_again() -> None:
    g = Game(standees={1: (2, 1), 2: (6, 1)})
    runner, timeline = g.t.runner, g.t.replica.timeline
    g.put("p3.standee", (2, 6), seat=3)
    assert _live(g) == []
    ops = [r.op for r in timeline.records]
    timeline.rebuild(ops[:-1])  # the fix taken back (a rollback to before it)
    assert _live(g) == ["MAN-SETUP-CHOSEN-SPACE"]
    timeline.insert(ops[-1])
    assert _live(g) == [] and len(runner.resolved()) == 1
