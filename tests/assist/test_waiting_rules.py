"""Verdicts that wait on later ops: pending at once, settled into a flag (laid at the move it
judges) or cleared when the payment or window closes, the end of the input closing every
window; and for every rule that waits, a shipped scenario whose slip is its last move (judged
only because the input ends there) beside its nearest legal twin."""
from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from assist.dead_to_rites import plugin as dtr
from assist.runner import AssistRunner, load_plugin
from assist.scenarios import ScenarioRunner, scenario_files
from assist.testing import AssistTable
from table.core.timeline import Timeline

ASSETS = Path(__file__).resolve().parents[2] / "assets"
GAMES = ["gauntlet", "mantle-of-the-keeper", "dead-to-rites"]


def colossus(favor: int = 2) -> AssistTable:
    """Seat 1's Main phase with `favor` Favor and Ashen Colossus (cost 4) in hand."""
    t = AssistTable("dead-to-rites", plugin=dtr)
    t.phase("Main", seat=1)
    t.do({"seat": 1, "op": "create", "id": "colossus", "kind": "card", "to": "p1.hand",
          "card": "ember-court-ashen-colossus", "owner": 1},
         {"seat": 1, "op": "counter", "id": "p1.favor", "value": favor})
    return t


PLAY = {"seat": 1, "op": "move", "card": "p1.hand:Ashen Colossus", "to": "p1.play",
        "face_up": True}


def pay(amount: int) -> dict[str, Any]:
    return {"seat": 1, "op": "counter", "id": "p1.favor", "add": -amount}


def test_an_unpaid_play_is_pending_at_once_then_a_flag_at_the_play() -> None:
    t = colossus()
    since = t.checkpoint()
    played = t.do(PLAY)
    assert played is not None
    (open_,) = t.pending()
    assert open_.ref == played.ref and open_.pending.rule == "DTR-PLAY-COST"
    assert "unpaid so far" in open_.pending.message and t.rules(since) == []
    t.do({"seat": 1, "op": "roll", "sides": 6, "values": [3]})  # neither pays nor ends it
    assert t.pending() and t.rules(since) == []
    t.phase("Combat", seat=1)  # the payment is over: settled, laid at the play
    assert t.pending() == []
    (entry,) = t.entries(since)
    assert entry.ref == played.ref and entry.flag.rule == "DTR-PLAY-COST"


def test_paying_right_after_clears_the_pending_verdict() -> None:
    t = colossus(favor=4)
    since = t.checkpoint()
    t.do(PLAY)
    assert t.pending()
    t.do(pay(2))
    assert t.pending()[0].pending.message.endswith("2 Favor paid so far.")
    t.do(pay(2))
    assert t.pending() == []  # paid in full so far: nothing to show
    t.phase("Combat", seat=1)
    assert t.rules(since) == []


def test_the_end_of_the_input_settles_and_a_later_op_takes_it_back() -> None:
    t = colossus(favor=4)
    since = t.checkpoint()
    t.do(PLAY)
    t.end()
    assert t.rules(since) == ["DTR-PLAY-COST"] and t.pending() == []
    t.do(pay(2), pay(2))  # the input went on after all: the payment was open
    assert t.rules(since) == [] and t.pending() == []
    t.end()
    assert t.rules(since) == []


def test_taking_the_play_back_drops_its_verdict() -> None:
    t = colossus()
    t.do(PLAY)
    assert t.pending()
    t.do({"seat": 1, "op": "undo"})
    assert t.pending() == []
    t.phase("Combat", seat=1)
    assert t.runner.entries() == []


def test_a_rollback_restores_what_was_open_and_what_was_settled() -> None:
    t = colossus()
    t.do(PLAY)
    t.phase("Combat", seat=1)
    ops = [r.op for r in t.replica.records()]
    module, plugin = t.module, t.plugin
    late = ops[-1]  # the marker that settled the play arrives late: a rollback, a re-apply
    runner = AssistRunner(module, plugin)
    timeline = Timeline()
    runner.attach(timeline)
    for op in [*ops[:-2], late]:
        timeline.insert(op)
    timeline.insert(ops[-2])
    assert [e.flag.rule for e in runner.entries()] == ["DTR-PLAY-COST"]
    assert runner.entries()[0].ref == ops[-2].ref
    assert [e.flag.rule for e in runner.pending()] == []


def test_a_face_down_commit_revealed_next_is_a_block_not_a_play() -> None:
    t = AssistTable("dead-to-rites", plugin=dtr)
    t.phase("Rite", seat=1)
    t.do({"seat": 1, "op": "counter", "id": "p1.favor", "value": 2},
         {"seat": 1, "op": "counter", "id": "p1.favor", "add": -2},
         {"seat": 1, "op": "move", "card": "p1.rites:top", "to": "altar"})
    since = t.checkpoint()
    card = t.do({"seat": 2, "op": "move", "card": "p2.hand:#0", "to": "defense-pool"})
    assert card is not None and t.pending() == []
    t.do({"seat": 2, "op": "flip", "id": card.args["id"], "face_up": True})
    t.end()
    assert "DTR-PLAY-COST" not in t.rules(since), t.describe(since)


def test_setup_counters_and_the_first_turn_marker_are_not_play() -> None:
    t = AssistTable("dead-to-rites", plugin=dtr)
    first = t.replica.state.turn["seat"]
    since = t.checkpoint()
    other = first % 4 + 1
    t.do({"seat": other, "op": "counter", "id": f"p{other}.favor", "value": 3})  # a start value
    t.turn(first)  # the first-turn marker: the start of play, not a second turn
    t.phase("Dawn", seat=first)
    assert t.rules(since) == [], t.describe(since)
    t.do({"seat": other, "op": "counter", "id": f"p{other}.favor", "add": 1})  # in play: a refill
    assert t.rules(since) == ["DTR-FAVOR-REFILL-OWN-TURN"], t.describe(since)


def test_a_gauntlet_first_turn_marker_passes_no_turn() -> None:
    t = AssistTable("gauntlet")
    first = t.replica.state.turn["seat"]
    since = t.checkpoint()
    t.turn(first)
    t.phase("Capture", seat=first)
    assert t.rules(since) == [], t.describe(since)


def _expects(path: Path) -> tuple[list[str], str | None]:
    head = tomllib.loads(path.read_text(encoding="utf-8"))["scenario"]
    return [e["rule"] for e in head.get("expect", [])], head.get("twin")


@pytest.mark.parametrize("game", GAMES)
def test_every_rule_that_waits_has_a_last_move_scenario_and_its_twin(
        game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    plugin = load_plugin(game)
    assert plugin is not None and plugin.waits
    folder = ASSETS / game / "scenarios"
    slips: dict[str, list[Path]] = {}
    for path in scenario_files(folder):
        rules, twin = _expects(path)
        for rule in rules:
            if rule in plugin.waits and twin is not None:
                assert _expects(folder / twin)[0] == [], f"{path.name}: its twin {twin} flags"
                slips.setdefault(rule, []).append(path)
    assert set(plugin.waits) <= set(slips), sorted(set(plugin.waits) - set(slips))
    # judged only because the input ends there: without the end, the slip is not flagged yet
    monkeypatch.setattr(AssistRunner, "finish", lambda self: None)
    runner = ScenarioRunner()
    for rule in plugin.waits:
        ends = [p for p in slips[rule] if rule not in {r for r, _m in runner.run(p).flags}]
        assert ends, f"{rule}: no scenario whose slip only the end of the input judges"
