"""Setup rules: at the setup-complete marker and at the start of play."""
from __future__ import annotations

from assist.mantle_of_the_keeper import plugin
from assist.testing import AssistTable
from table.games import load_deck

from .kit import DECKS, GAME, MODULE, Game


def setup_rules(t: AssistTable) -> list[str]:
    return [f.rule for f in t.setup_flags()]


def start_rules(g: Game) -> list[str]:
    return g.t.rules(g.pre)


def test_player_count_fires() -> None:
    assert "MAN-SETUP-PLAYER-COUNT" in setup_rules(AssistTable(GAME, 5, plugin=plugin))


def test_player_count_legal() -> None:
    assert setup_rules(AssistTable(GAME, 4, plugin=plugin)) == []


def test_chosen_pick_fires() -> None:
    t = AssistTable(GAME, 2, plugin=plugin, decks={1: DECKS[1], 2: DECKS[1]})
    assert "MAN-SETUP-CHOSEN-PICK" in setup_rules(t)


def test_chosen_pick_legal() -> None:
    assert setup_rules(AssistTable(GAME, 2, plugin=plugin, decks={1: DECKS[1], 2: DECKS[2]})) \
        == []


def test_kit_fires() -> None:
    mixed = load_deck(MODULE, "chosen: Shem the Ranger\n\n15 heirloom-bow\n5 tome-of-defense\n")
    t = AssistTable(GAME, 2, plugin=plugin, decks={1: mixed, 2: DECKS[2]}, seed=1)
    assert "MAN-SETUP-KIT" in setup_rules(t)


def test_kit_legal() -> None:
    t = AssistTable(GAME, 2, plugin=plugin, decks={1: DECKS[1], 2: DECKS[2]}, seed=1)
    assert setup_rules(t) == []


def test_mat_side_fires() -> None:
    g = Game(start=False)
    g.do(seat=1, op="set", id="p1.mat", field="props.side", value="Character Stat")
    g.do(seat=None, op="mark", what="setup", value="complete")
    assert "MAN-SETUP-MAT-SIDE" in g.t.rules(g.pre)


def test_mat_side_legal() -> None:
    g = Game(start=False)
    g.do(seat=None, op="mark", what="setup", value="complete")
    assert g.t.rules(g.pre) == []


def test_deck_fires() -> None:
    g = Game(start=False)
    g.play(1, "Heirloom Bow", to="supply")  # a card leaves the Chosen's 20
    g.do(seat=None, op="mark", what="setup", value="complete")
    assert "MAN-SETUP-DECK" in g.t.rules(g.pre)


def test_cubes_fires() -> None:
    g = Game(start=False)
    g.do(seat=1, op="move", id="p1.cube-4", to="p1.mat.ability-2")
    g.do(seat=None, op="mark", what="setup", value="complete")
    assert "MAN-SETUP-CUBES" in g.t.rules(g.pre)


def test_draw_fires() -> None:
    g = Game(start=False)
    g.draw(1)
    g.do(seat=None, op="mark", what="setup", value="complete")
    assert g.t.rules(g.pre) == ["MAN-SETUP-DRAW"]


def test_first_roll_fires_and_legal() -> None:
    g = Game(start=False)
    g.do(seat=1, op="roll", sides=6, values=[2], why="first player")
    g.do(seat=2, op="roll", sides=6, values=[5], why="first player")
    g.do(seat=None, op="mark", what="turn", for_seat=1)
    g.do(seat=None, op="mark", what="setup", value="complete")
    assert "MAN-SETUP-FIRST-ROLL" in g.t.rules(g.pre)
    g2 = Game(start=False)
    g2.do(seat=1, op="roll", sides=6, values=[6], why="first player")
    g2.do(seat=2, op="roll", sides=6, values=[5], why="first player")
    g2.do(seat=None, op="mark", what="turn", for_seat=1)
    g2.do(seat=None, op="mark", what="setup", value="complete")
    assert "MAN-SETUP-FIRST-ROLL" not in g2.t.rules(g2.pre)


def test_start_of_play_legal() -> None:
    assert start_rules(Game()) == []


def test_tile_count_and_shape_fire() -> None:
    g = Game(start=False)
    g.do(seat=1, op="move", id="tile.rym-4", to="tile-supply")
    g.t.turn(1)
    assert {"MAN-SETUP-TILE-COUNT", "MAN-SETUP-TILE-SHAPE"} <= set(g.t.rules(g.pre))


def test_tile_shape_fires() -> None:
    g = Game(start=False)
    g.do(seat=1, op="move", id="tile.rym-4", to="arena.t1")
    g.t.turn(1)
    assert g.t.rules(g.pre) == ["MAN-SETUP-TILE-SHAPE"]


def test_hazard_count_fires() -> None:
    g = Game(start=False)
    g.put("surge-2", (5, 5))
    g.t.turn(1)
    assert g.t.rules(g.pre) == ["MAN-SETUP-HAZARD-COUNT"]


def test_rift_pairs_fires() -> None:
    g = Game(start=False)
    g.do(seat=1, op="move", id="rift-2", to="hazard-supply")
    g.put("surge-2", (5, 5))
    g.t.turn(1)
    assert g.t.rules(g.pre) == ["MAN-SETUP-RIFT-PAIRS"]


def test_hazard_space_fires() -> None:
    g = Game(start=False)
    g.put("tremor-2", (7, 7))  # an Obstruction
    g.t.turn(1)
    assert g.t.rules(g.pre) == ["MAN-SETUP-HAZARD-SPACE"]


def test_hazard_supply_fires() -> None:
    g = Game(start=False)
    g.t.replica.issue("create", {"id": "surge-9", "kind": "token", "to": "arena",
                                 "pos": [5.0, 5.0], "props": {"token_kind": "hazard"}}, seat=1)
    g.do(seat=1, op="move", id="tremor-2", to="hazard-supply")
    g.put("surge-2", (5, 6))
    g.put("surge-3", (5, 7))
    g.do(seat=1, op="move", id="breach-1", to="hazard-supply")
    g.do(seat=1, op="move", id="tremor-1", to="hazard-supply")
    g.t.turn(1)
    assert g.t.rules(g.pre) == ["MAN-SETUP-HAZARD-SUPPLY"], g.t.describe(g.pre)


def test_chosen_space_fires() -> None:
    g = Game(start=False)
    g.put("p1.standee", (1, 1), seat=1)  # an Obstruction
    g.t.turn(1)
    assert g.t.rules(g.pre) == ["MAN-SETUP-CHOSEN-SPACE"]


def test_one_per_tile_fires() -> None:
    g = Game(start=False)
    g.put("p2.standee", (4, 2), seat=2)  # on Shem's tile
    g.t.turn(1)
    assert g.t.rules(g.pre) == ["MAN-SETUP-ONE-PER-TILE"]


def test_start_player_fires() -> None:
    g = Game(start=False)
    g.t.turn(2)
    assert g.t.rules(g.pre) == ["MAN-SETUP-START-PLAYER"]


def test_overhaul_fires() -> None:
    g = Game(start=False)
    for _ in range(5):
        g.do(seat=1, op="move", card="p1.hand:top", to="p1.discard", face_up=True)
    g.draw(1, 5)  # must be 4
    g.t.turn(1)
    assert g.t.rules(g.pre) == ["MAN-SETUP-OVERHAUL"]


def test_overhaul_legal() -> None:
    g = Game(start=False)
    for _ in range(5):
        g.do(seat=1, op="move", card="p1.hand:top", to="p1.discard", face_up=True)
    g.draw(1, 4)
    g.t.turn(1)
    assert g.t.rules(g.pre) == []


def test_overhaul_after_start_fires() -> None:
    g = Game()
    g.declare("overhaul", 1)
    assert g.rules() == ["MAN-SETUP-OVERHAUL"]
