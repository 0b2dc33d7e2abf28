"""Movement cost, occupancy, Hazards and turret placement on the arena.

Board (see kit): Obstructions (1,1) (3,3) (9,0) (6,2) (7,2) (0,7) (1,8) (8,6) (7,7); Shem (seat
1, Base Movement 3) at (2,1), Khaya (2) at (6,1), Velya (3) at (2,6); Tremor (4,4), Surge (5,4),
Breach (4,7), Rifts (0,0) and (9,9), Tremor (8,8).
"""
from __future__ import annotations

from assist.mantle_of_the_keeper.geometry import MoveModel, line_of_sight

from .kit import Game


def action_phase(seat: int = 1) -> Game:
    g = Game()
    g.income(seat)
    return g


def test_move_in_action_phase_fires() -> None:
    g = Game()
    g.phase("Income")
    g.step(1, (3, 2))
    assert g.rules() == ["MAN-MOVE-IN-ACTION-PHASE"]


def test_move_in_action_phase_fires_off_turn() -> None:
    g = action_phase()
    g.step(3, (2, 5))
    assert g.rules() == ["MAN-MOVE-IN-ACTION-PHASE"]


def test_move_in_action_phase_legal() -> None:
    g = action_phase()
    g.step(1, (3, 2))
    assert g.rules() == []


def test_move_not_split_fires() -> None:
    g = action_phase()
    g.step(1, (3, 2))
    g.draw(1)
    g.step(1, (4, 3))
    assert g.rules() == ["MAN-MOVE-NOT-SPLIT"]


def test_move_not_split_legal() -> None:
    g = action_phase()
    g.draw(1)
    g.step(1, (3, 2), (4, 3))
    g.draw(1)
    assert g.rules() == []


def test_move_budget_fires() -> None:
    g = action_phase()
    g.step(1, (5, 1))  # 3 spaces: fine
    g.step(1, (5, 0))  # a 4th
    assert g.rules() == ["MAN-MOVE-BUDGET"]


def test_move_budget_legal_with_favor() -> None:
    g = action_phase()
    g.declare("move-favor", 1, amount=1)
    g.favor(1, -1)
    g.step(1, (5, 1), (5, 0))
    assert g.rules() == [], g.describe()


def test_move_budget_legal_with_surge() -> None:
    g = action_phase()
    g.step(1, (3, 2), (4, 3), (5, 4), (5, 5))  # the Surge at (5,4) gives +1
    assert g.rules() == [], g.describe()


def test_move_obstruction_cost_fires() -> None:
    g = action_phase()
    g.step(1, (1, 1), (0, 1), (0, 2))  # 1 in, 2 out, 1 more = 4
    assert g.rules() == ["MAN-MOVE-OBSTRUCTION-COST"]


def test_move_obstruction_cost_legal() -> None:
    g = action_phase()
    g.step(1, (1, 1), (0, 1))  # 1 in, 2 out = 3
    assert g.rules() == []


def test_move_diagonal_squeeze_costs_one_more() -> None:
    model = MoveModel(10, 10, frozenset({(8, 6), (7, 7)}))
    assert model.cost((7, 6), (8, 7)) == 2
    assert model.cost((7, 5), (8, 5)) == 1


def test_move_through_opponent_fires() -> None:
    g = action_phase()
    g.put("p3.standee", (3, 1), seat=3)  # (a card effect put Velya next to Shem)
    g.step(1, (3, 1), (4, 1), (5, 0))  # 1 in, 2 out, 1 = 4
    assert "MAN-MOVE-THROUGH-OPPONENT" in g.rules()


def test_move_through_opponent_legal() -> None:
    g = action_phase()
    g.put("p3.standee", (3, 1), seat=3)
    g.step(1, (3, 1), (4, 1))  # 1 in, 2 out = 3
    assert "MAN-MOVE-THROUGH-OPPONENT" not in g.rules()


def test_move_end_obstruction_fires() -> None:
    g = action_phase()
    g.step(1, (1, 1))
    g.phase("End of turn")
    assert g.rules() == ["MAN-MOVE-END-OBSTRUCTION"]


def test_move_end_obstruction_legal_passing_through() -> None:
    g = action_phase()
    g.step(1, (1, 1), (0, 1))
    g.phase("End of turn")
    assert g.rules() == []


def test_one_per_space_fires() -> None:
    g = action_phase()
    g.declare("move-favor", 1, amount=1)
    g.favor(1, -1)
    g.step(1, (3, 2), (4, 3), (5, 2), (6, 1))
    g.phase("End of turn")
    assert g.rules() == ["MAN-ONE-PER-SPACE"], g.describe()


def test_one_per_space_legal() -> None:
    g = action_phase()
    g.step(1, (3, 2), (4, 3), (5, 2))
    g.phase("End of turn")
    assert g.rules() == []


def test_forced_move_no_favor_fires() -> None:
    g = action_phase()
    g.declare("forced-move", 1, target=3, spaces=1)
    g.put("p3.standee", (2, 4), seat=1)
    assert g.rules() == ["MAN-FORCED-MOVE-NO-FAVOR"]


def test_forced_move_no_favor_legal() -> None:
    g = action_phase()
    g.declare("forced-move", 1, target=3, spaces=2)
    g.put("p3.standee", (2, 4), seat=1)
    assert g.rules() == []


def test_move_own_only_fires() -> None:
    g = action_phase()
    g.put("p3.standee", (2, 5), seat=1)
    assert g.rules() == ["MAN-MOVE-OWN-ONLY"]


def test_move_own_only_legal_card_effect() -> None:
    g = action_phase()
    g.declare("card-effect", 1, card="Sandstorm")
    g.put("p3.standee", (2, 5), seat=1)
    assert g.rules() == []


def test_tremor_enter_fires() -> None:
    g = action_phase()
    g.step(1, (3, 2), (4, 3), (4, 4))
    g.phase("End of turn")
    assert g.rules() == ["MAN-TREMOR-ENTER"]


def test_tremor_enter_legal() -> None:
    g = action_phase()
    g.step(1, (3, 2), (4, 3), (4, 4))
    g.health(1, -1)
    g.phase("End of turn")
    assert g.rules() == []


def tremor_game() -> Game:
    g = Game(standees={1: (4, 4), 2: (6, 1), 3: (2, 6)})
    g.income(1)
    g.end_turn(1, 2)
    return g


def test_tremor_stay_fires() -> None:
    g = tremor_game()
    assert g.rules() == ["MAN-TREMOR-STAY"]


def test_tremor_stay_legal() -> None:
    g = Game(standees={1: (4, 4), 2: (6, 1), 3: (2, 6)})
    g.income(1)
    g.phase("End of turn")
    g.health(1, -1)
    g.turn(2)
    assert g.rules() == []


def test_breach_fires() -> None:
    g = action_phase()
    g.do(seat=1, op="move", id="breach-1", to="hazard-supply")
    assert g.rules() == ["MAN-BREACH"]


def test_breach_legal_after_attack() -> None:
    g = Game(standees={1: (2, 6), 2: (6, 1), 3: (7, 9)})
    g.income(1)
    g.declare("attack", 1, target="breach-1", card="Heirloom Bow")
    g.play(1)
    g.do(seat=1, op="move", id="breach-1", to="hazard-supply")
    g.phase("End of turn")
    assert g.rules() == [], g.describe()


def khaya_turn() -> Game:
    g = Game()
    g.income(1)
    g.end_turn(1, 2)
    g.income(2)
    return g


def test_turret_owner_fires() -> None:
    g = khaya_turn()
    g.put("p2.turret-1", (5, 1), seat=1)
    assert g.rules() == ["MAN-TURRET-OWNER"]


def test_turret_owner_legal() -> None:
    g = khaya_turn()
    g.put("p2.turret-1", (5, 1), seat=2)
    assert g.rules() == []


def test_turret_limit_fires() -> None:
    g = khaya_turn()
    for i, cell in enumerate([(5, 1), (8, 1), (8, 3)], 1):
        g.put(f"p2.turret-{i}", cell, seat=2)
    assert g.rules() == ["MAN-TURRET-LIMIT"]


def test_turret_limit_legal() -> None:
    g = khaya_turn()
    for i, cell in enumerate([(5, 1), (8, 1)], 1):
        g.put(f"p2.turret-{i}", cell, seat=2)
    assert g.rules() == []


def test_turret_placement_fires() -> None:
    g = khaya_turn()
    g.put("p2.turret-1", (4, 4), seat=2)  # a Tremor
    assert g.rules() == ["MAN-TURRET-PLACEMENT"]


def test_los_diagonal_pair_and_corner_graze() -> None:
    assert line_of_sight((6, 6), (8, 8), {(8, 6), (7, 7)}) is not None  # crosses (7,7)
    assert line_of_sight((8, 7), (7, 6), set()) is None
    assert line_of_sight((7, 8), (8, 5), {(8, 6), (7, 7)}) is not None
    assert line_of_sight((6, 8), (9, 5), {(8, 6), (7, 7)}) == ((7, 6), (8, 7)) or \
        line_of_sight((6, 8), (9, 5), {(8, 6), (7, 7)}) is not None
    assert line_of_sight((0, 0), (2, 2), {(0, 1)}) is None  # grazes one corner only
    assert line_of_sight((0, 0), (2, 2), {(0, 1), (1, 0)}) == ((1, 0), (0, 1))


def test_breach_deleted_fires() -> None:
    """A delete op is among the kinds the plugin checks (the runner asks it about no other)."""
    g = action_phase()
    g.do(seat=1, op="delete", id="breach-1")
    assert g.rules() == ["MAN-BREACH"]
