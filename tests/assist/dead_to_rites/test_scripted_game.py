"""The scripted legal game raises nothing; with a dozen illegal moves slipped in, exactly those."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from assist.dead_to_rites import plugin
from assist.testing import AssistTable

from .script import Game
from .test_rules import _BY_RULE, seq

DOZEN = ["DTR-FAVOR-CAP", "DTR-FAVOR-REFILL-OWN-TURN", "DTR-DAWN-INCOME", "DTR-RITE-NEXT",
         "DTR-WARD-READY-CHAMPIONS", "DTR-BLOCKED-DRAW", "DTR-ATTACKER-ENGAGES",
         "DTR-STRIKE-BACK", "DTR-NO-DEFENDERS", "DTR-DESTROY-DEST", "DTR-POISON-PERSIST",
         "DTR-ACE-UNIQUE", "DTR-FIRST-PLAYER"]


def test_legal_game_raises_no_flag() -> None:
    t = Game().play_all()
    assert t.describe() == "(no flags)"
    assert t.setup_flags() == []


def test_illegal_moves_raise_exactly_those() -> None:
    hooks: dict[str, list] = {}  # type: ignore[type-arg]
    for rule in DOZEN:
        _rule, point, illegal, _legal = _BY_RULE[rule]
        hooks.setdefault(point, []).append(illegal)
    t = Game({p: seq(*steps) for p, steps in hooks.items()}).play_all()
    assert sorted(t.rules()) == sorted(DOZEN), t.describe()


def test_acknowledged_flag_is_hidden() -> None:
    t = AssistTable("dead-to-rites", plugin=plugin)
    t.phase("Dawn", seat=1)  # play starts
    t.do({"seat": 1, "op": "counter", "id": "p1.favor", "value": 9})
    [entry] = t.entries()
    t.ack(entry, "card effect", seat=1)
    assert t.rules() == [] and [f.rule for f in t.flags(include_acked=True)] == ["DTR-FAVOR-CAP"]


def test_card_effect_declaration_downgrades_e_star() -> None:
    hooks = {"declared5": _BY_RULE["DTR-ATTACK-ONCE"][2]}
    t = Game(hooks).play_all()
    assert {f.severity for f in t.flags() if f.rule == "DTR-ATTACK-ONCE"} == {"error"}
    from .test_rules import declare
    hooks = {"declared5": seq(declare(1, "card-effect", card="@brand"),
                              _BY_RULE["DTR-ATTACK-ONCE"][2])}
    t = Game(hooks).play_all()
    assert {f.severity for f in t.flags() if f.rule == "DTR-ATTACK-ONCE"} == {"warning"}


@pytest.mark.processes
def test_sandtable_check_reports_flags(tmp_path: Path) -> None:
    log = tmp_path / "game.sandlog"
    t = AssistTable("dead-to-rites", plugin=plugin, log_path=str(log))
    t.phase("Main", seat=1)  # play starts
    t.do({"seat": 1, "op": "counter", "id": "p1.favor", "value": 9})
    t.replica.close()
    out = subprocess.run([sys.executable, "-m", "table.app.cli", "check", str(log), "--json"],
                         capture_output=True, text=True, check=True)
    flags = [json.loads(line) for line in out.stdout.splitlines()]
    assert [(f["op"], f["rule"], f["severity"]) for f in flags] == [
        (len(t.replica.records()), "DTR-FAVOR-CAP", "error")]
    text = subprocess.run([sys.executable, "-m", "table.app.cli", "check", str(log)],
                          capture_output=True, text=True, check=True)
    assert "DTR-FAVOR-CAP" in text.stdout and text.returncode == 0
