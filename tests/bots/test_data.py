"""Card effects and strategies as data: the vocabulary parses, and says where it does not."""
from __future__ import annotations

import pytest

from table.bots.effects import EffectError, parse, total
from table.bots.strategy import StrategyError, compile_rule, read


def test_effects_parse_and_add_up() -> None:
    effects = parse("battle: bonus 1; battle: bonus 1 if initiated; action: gain 2 favor")
    assert total(effects, "battle", "bonus", {"attacker"}) == 1
    assert total(effects, "battle", "bonus", {"initiated"}) == 2
    assert effects[-1].word == "favor" and effects[-1].amount == 2


@pytest.mark.parametrize(("cell", "says"), [
    ("battle bonus 1", "cannot read"), ("later: draw 1", "unknown moment"),
    ("action: fly 2", "unknown action"), ("action: gain 2", "needs what"),
    ("battle: bonus 1 if lucky", "unknown condition"), ("battle: bonus one", "needs a number")])
def test_effect_errors_name_the_clause(cell: str, says: str) -> None:
    with pytest.raises(EffectError, match=says):
        parse(cell)


def test_strategy_rules(tmp_path) -> None:
    path = tmp_path / "strategy.toml"
    path.write_text('[default]\nrules = [{ do = "rite", when = "favor >= cost + 2" }]\n'
                    '["Hollow Market"]\nrules = [{ do = "rite", when = "favor >= cost" }]\n')
    got = read(path)
    assert got["default"].allows("rite", favor=5, cost=4) is False
    assert got["Hollow Market"].allows("rite", favor=5, cost=4) is True
    assert got["default"].allows("block", favor=1) is None
    with pytest.raises(StrategyError, match="only numbers"):
        compile_rule("rite", "__import__('os')")


def test_a_strategy_file_beside_a_draft_steers_the_heuristic_bot(tmp_path) -> None:
    import shutil

    from table.bots import batch, registry
    from table.bots.effects import module_effects
    from table.bots.match import Match
    from table.bots.strategy import strategies_for
    from table.games import find_module, load_module

    draft = tmp_path / "dead-to-rites"
    shutil.copytree(find_module("dead-to-rites").path, draft)
    (draft / "strategy.toml").write_text('[default]\nrules = [{ do = "rite", when = "0" }]\n')
    module = load_module(draft)
    strategy = strategies_for(module).get("any")
    assert strategy is not None and strategy.allows("rite", favor=6, cost=2) is False
    effects = module_effects(module.cards)
    bots = {1: registry.find("heuristic", module.id)(seed=1, effects=effects, strategy=strategy)}
    bots.update({s: registry.find("random", module.id)(seed=s, effects=effects) for s in (2, 3, 4)})
    match = Match(module, bots, 3, max_turns=16)
    match.play()
    placed = [rec for rec in match.replica.records()
              if rec.op.kind == "move" and rec.op.args.get("to") == "altar"]
    match.close()
    assert placed and all(rec.op.seat != 1 for rec in placed)
    assert batch.load("dead-to-rites", None).id == "dead-to-rites"
