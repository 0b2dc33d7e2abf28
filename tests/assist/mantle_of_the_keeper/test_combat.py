"""Attacks (Nearby: Line of Sight and Range), defenses, damage and Favor, Favor Exchanges and
Abilities, Arcane Turrets. Shem (seat 1, Range 4) attacks with Heirloom Bows (5); Khaya (2)
defends with Tomes of Defense (5); Velya (3, Range 2) has Daggers (3/1)."""
from __future__ import annotations

from .kit import Game


def shem_ready() -> Game:
    """Shem at (4,3), 3 spaces from Velya at (2,6), in his Action Phase."""
    g = Game()
    g.income(1)
    g.step(1, (3, 2), (4, 3))
    return g


def close(g: Game) -> list[str]:
    g.phase("End of turn")
    return g.rules()


def test_attack_nearby_fires() -> None:
    g = shem_ready()
    g.declare("attack", 1, target=1)
    assert g.rules() == ["MAN-ATTACK-NEARBY"]


def test_attack_nearby_fires_off_board() -> None:
    g = shem_ready()
    g.do(seat=3, op="move", id="p3.standee", to="p3.accessories")
    g.declare("attack", 1, target=3)
    assert "MAN-ATTACK-NEARBY" in g.rules()


def test_attack_nearby_legal() -> None:
    g = shem_ready()
    g.attack(1, 3, damage=4, defend="Dagger")
    assert close(g) == [], g.describe()


def test_los_blockers_fires() -> None:
    g = Game(standees={1: (2, 1), 2: (6, 1), 3: (4, 1)})
    g.income(1)
    g.declare("attack", 1, target=2)
    assert g.rules() == ["MAN-LOS-BLOCKERS"]


def test_los_blockers_legal() -> None:
    g = Game()
    g.income(1)
    g.declare("attack", 1, target=2)  # along row 1, 4 spaces: clear
    assert g.rules() == []


def test_range_fires() -> None:
    g = Game()
    g.income(1)
    g.declare("attack", 1, target=3)  # 5 spaces, Range 4
    assert g.rules() == ["MAN-RANGE"]


def test_no_attack_from_obstruction_fires() -> None:
    g = Game(standees={1: (3, 3), 2: (6, 1), 3: (2, 6)})
    g.income(1)
    g.declare("attack", 1, target=3)
    assert g.rules() == ["MAN-NO-ATTACK-FROM-OBSTRUCTION"]


RIFTS = {"rift-1": (5, 0), "rift-2": (5, 9), "tremor-1": (4, 4), "surge-1": (5, 4),
         "breach-1": (4, 7), "tremor-2": (8, 8)}


def test_rift_attack_fires() -> None:
    g = Game(hazards=RIFTS, standees={1: (5, 0), 2: (6, 1), 3: (5, 8)})
    g.income(1)
    g.declare("attack", 1, target=3)
    assert g.rules() == ["MAN-RIFT-ATTACK"]


def test_rift_attack_legal() -> None:
    g = Game(hazards=RIFTS, standees={1: (5, 0), 2: (6, 1), 3: (5, 4)})
    g.income(1)
    g.declare("attack", 1, target=3)
    assert g.rules() == []


def test_one_card_per_attack_fires() -> None:
    g = shem_ready()
    g.declare("attack", 1, target=3, card="Heirloom Bow")
    g.play(1)
    g.play(1)
    g.health(3, -5, by=1)
    g.favor(1, 5)
    assert close(g) == ["MAN-ONE-CARD-PER-ATTACK"]


def test_modifier_one_fires() -> None:
    g = shem_ready()
    g.declare("attack", 1, target=3, card="Heirloom Bow")
    g.play(1)
    g.play(1, "Hunter's Mark")
    g.play(1, "Hunter's Mark")
    assert close(g) == ["MAN-MODIFIER-ONE"]


def test_modifier_one_legal() -> None:
    g = shem_ready()
    g.declare("attack", 1, target=3, card="Heirloom Bow", value=7)
    g.play(1)
    g.play(1, "Hunter's Mark")
    g.health(3, -7, by=1)
    g.favor(1, 7)
    assert close(g) == [], g.describe()


def test_modifier_timing_fires() -> None:
    g = shem_ready()
    g.declare("attack", 1, target=3, card="Heirloom Bow")
    g.play(1)
    g.declare("defense", 3, card="Dagger")
    g.play(3, "Dagger")
    g.play(1, "Hunter's Mark")
    g.health(3, -6, by=1)
    g.favor(1, 6)
    assert close(g) == ["MAN-MODIFIER-TIMING"]


def test_defense_only_target_fires() -> None:
    g = shem_ready()
    g.declare("attack", 1, target=3, card="Heirloom Bow")
    g.play(1)
    g.declare("defense", 2, card="Tome of Defense")
    assert g.rules() == ["MAN-DEFENSE-ONLY-TARGET"]


def test_defense_only_target_fires_two_cards() -> None:
    g = shem_ready()
    g.attack(1, 3, damage=4, defend="Dagger")
    g.play(3, "Dagger")
    assert close(g) == ["MAN-DEFENSE-ONLY-TARGET"]


def test_defense_value_fires() -> None:
    g = shem_ready()
    g.declare("attack", 1, target=3, card="Heirloom Bow")
    g.declare("defense", 3, card="Heirloom Bow")
    assert g.rules() == ["MAN-DEFENSE-VALUE"]


def test_damage_fires() -> None:
    g = shem_ready()
    g.declare("attack", 1, target=3, card="Heirloom Bow")
    g.play(1)
    g.declare("defense", 3, card="Dagger")
    g.play(3, "Dagger")
    g.health(3, -3, by=1)
    g.favor(1, 3)
    assert close(g) == ["MAN-DAMAGE"]


def test_attacker_unharmed_fires() -> None:
    g = shem_ready()
    g.attack(1, 3, damage=4, defend="Dagger")
    g.health(1, -1, by=3)
    assert close(g) == ["MAN-ATTACKER-UNHARMED"]


def test_favor_for_damage_fires() -> None:
    g = shem_ready()
    g.declare("attack", 1, target=3, card="Heirloom Bow")
    g.play(1)
    g.health(3, -5, by=1)
    g.favor(1, 4)
    assert close(g) == ["MAN-FAVOR-FOR-DAMAGE"]


def test_full_defense_fires() -> None:
    g = Game()
    g.income(1)
    g.attack(1, 2, defend="Tome of Defense", bonus=False)
    g.favor(2, 1)
    assert close(g) == ["MAN-FULL-DEFENSE"]


def test_full_defense_legal() -> None:
    g = Game()
    g.income(1)
    g.attack(1, 2, defend="Tome of Defense")
    assert close(g) == []


def test_deal_undefendable_fires() -> None:
    g = shem_ready()
    g.declare("attack", 1, target=3, card="Heirloom Bow", deal=True)
    g.declare("defense", 3, card="Dagger")
    assert g.rules() == ["MAN-DEAL-UNDEFENDABLE"]


def test_deal_undefendable_legal() -> None:
    g = shem_ready()
    g.declare("attack", 1, target=3, card="Heirloom Bow")
    g.declare("defense", 3, card="Dagger")
    assert g.rules() == []


# -- Favor Exchanges and Abilities -------------------------------------------------------------------
def test_exchange_discard_fires() -> None:
    g = shem_ready()
    g.declare("exchange", 1, kind="discard")
    g.play(1)
    g.favor(1, 2)
    assert close(g) == ["MAN-EXCHANGE-DISCARD"]


def test_exchange_draw_fires() -> None:
    g = shem_ready()
    g.favor(1, 2)
    g.declare("exchange", 1, kind="draw")
    g.favor(1, -2)
    g.draw(1, 2)
    assert close(g) == ["MAN-EXCHANGE-DRAW"]


def test_exchange_draw_legal() -> None:
    g = shem_ready()
    g.favor(1, 2)
    g.declare("exchange", 1, kind="draw")
    g.favor(1, -2)
    g.draw(1)
    g.draw(1)  # an action after the exchange
    assert close(g) == [], g.describe()


def unlock(g: Game, cost: int) -> None:
    g.favor(1, 5)
    g.declare("ability-unlock", 1, ability="Second Wind")
    g.do(seat=1, op="move", id="p1.cube-4", to="p1.mat.ability-2")
    g.favor(1, -cost)


def test_ability_unlock_fires() -> None:
    g = shem_ready()
    unlock(g, 4)
    assert close(g) == ["MAN-ABILITY-UNLOCK"]


def test_ability_unlock_fires_without_declaration() -> None:
    g = shem_ready()
    g.do(seat=1, op="move", id="p1.cube-4", to="p1.mat.ability-2")
    assert g.rules() == ["MAN-ABILITY-UNLOCK"]


def test_ability_unlock_legal() -> None:
    g = shem_ready()
    unlock(g, 5)
    assert close(g) == []


def test_ability_locked_fires() -> None:
    g = shem_ready()
    g.declare("ability-use", 1, ability="Volley")
    assert g.rules() == ["MAN-ABILITY-LOCKED"]


def test_ability_locked_fires_wrong_cost() -> None:
    g = shem_ready()
    g.favor(1, 3)
    g.declare("ability-use", 1, ability="Keen Eye")
    g.favor(1, -2)
    assert close(g) == ["MAN-ABILITY-LOCKED"]


def test_ability_use_with_nothing_paid_fires() -> None:
    g = shem_ready()
    g.favor(1, 3)
    g.declare("ability-use", 1, ability="Keen Eye")  # and no Favor spent
    assert close(g) == ["MAN-ABILITY-LOCKED"]


def test_ability_locked_legal() -> None:
    g = shem_ready()
    g.favor(1, 3)
    g.declare("ability-use", 1, ability="Keen Eye")
    g.favor(1, -3)
    assert close(g) == []


# -- Arcane Turrets --------------------------------------------------------------------------------
def turret_turn() -> Game:
    """Khaya's Action Phase with a turret at (5,1): Shem (2,1) is Nearby, Velya (2,6) is not."""
    g = Game()
    g.income(1)
    g.end_turn(1, 2)
    g.income(2)
    g.put("p2.turret-1", (5, 1), seat=2)
    g.declare("turret-activate", 2, turret="p2.turret-1")
    return g


def test_turret_attack_fires() -> None:
    g = turret_turn()
    g.health(3, -1, by=2)
    g.favor(2, 1)
    assert close(g) == ["MAN-TURRET-ATTACK"]


def test_turret_attack_legal() -> None:
    g = turret_turn()
    g.health(1, -1, by=2)
    g.favor(2, 1)
    assert close(g) == []


def test_turret_favor_fires() -> None:
    g = turret_turn()
    g.health(1, -1, by=2)
    assert close(g) == ["MAN-TURRET-FAVOR"]


def test_turret_no_fdb_fires() -> None:
    g = turret_turn()
    g.favor(1, 2)
    assert close(g) == ["MAN-TURRET-NO-FDB"]


def turret_target() -> Game:
    g = Game(start=False)
    g.put("p2.turret-1", (4, 1), seat=2)
    g.t.turn(1)
    g.income(1)
    g.declare("attack", 1, target="p2.turret-1", card="Heirloom Bow")
    g.play(1)
    return g


def test_turret_destroy_fires() -> None:
    g = turret_target()
    g.do(seat=1, op="move", id="p2.turret-1", to="p2.accessories")
    assert close(g) == ["MAN-TURRET-DESTROY"]


def test_turret_destroy_fires_on_defense() -> None:
    g = turret_target()
    g.declare("defense", 2, card="Tome of Defense")
    assert "MAN-TURRET-DESTROY" in g.rules()


def test_turret_destroy_legal() -> None:
    g = turret_target()
    g.do(seat=1, op="move", id="p2.turret-1", to="p2.accessories")
    g.favor(1, 1)
    assert close(g) == []


def test_turret_remove_fires() -> None:
    g = Game(start=False)
    g.put("p2.turret-1", (8, 1), seat=2)
    g.t.turn(1)
    g.income(1)
    g.health(2, -20, by=1)
    g.do(seat=2, op="move", id="p2.standee", to="p2.accessories")
    g.end_turn(1, 3)
    assert g.rules() == ["MAN-TURRET-REMOVE"]


def test_turret_remove_legal() -> None:
    g = Game(start=False)
    g.put("p2.turret-1", (8, 1), seat=2)
    g.t.turn(1)
    g.income(1)
    g.health(2, -20, by=1)
    g.do(seat=2, op="move", id="p2.standee", to="p2.accessories")
    g.do(seat=2, op="move", id="p2.turret-1", to="p2.accessories")
    g.end_turn(1, 3)
    assert g.rules() == []


def _lethal(left: int, taken: int, favor: int | None = None) -> Game:
    """Velya (Health `left`) takes Shem's undefended Heirloom Bow (Attack 5) and loses `taken`;
    Shem gains `favor` (default: `taken`)."""
    g = Game()
    g.health(3, left - 20)
    since = g.mark()
    g.income(1)
    g.step(1, (3, 2), (4, 3))
    g.declare("attack", 1, target=3, card="Heirloom Bow")
    g.play(1)
    g.health(3, -taken, by=1)
    g.favor(1, taken if favor is None else favor)
    g.phase("End of turn")
    g.since = since  # flags count from the attack on
    return g


def test_damage_lethal_overkill_legal() -> None:
    # Health stops at 0 (MAN-HEALTH-RANGE): a 5-point blow on 2 Health takes 2, not a slip;
    # its Successful Damage is still attack - defense, 5, and so is the Favor (p. 13)
    g = _lethal(2, 2, favor=5)
    assert g.rules() == [], g.describe()
    assert _lethal(2, 2).rules() == ["MAN-FAVOR-FOR-DAMAGE"]  # the Health lost is not it


def test_damage_short_of_lethal_fires() -> None:
    # nearest illegal case: the same 2 taken from 3 Health, so the blow was not lethal
    g = _lethal(3, 2)
    assert g.rules() == ["MAN-DAMAGE"], g.describe()
