"""A legal four-turn game with attacks raises nothing; the same game with illegal moves slipped
in raises exactly those."""
from __future__ import annotations

from .kit import Game


def play_game(illegal: bool) -> Game:
    g = Game()
    # Turn 1: Shem (seat 1) moves 2, attacks Velya, draws.
    g.income(1)
    g.step(1, (3, 2), (4, 3))
    g.attack(1, 3, damage=4, defend="Dagger")
    g.draw(1)
    if illegal:
        g.draw(1)  # a third action                                    -> MAN-ACTION-LIMIT
    g.phase("End of turn")
    if illegal:
        g.play(1, "Hunter's Mark")  # discards down to 6 for 1 Favor
        g.favor(1, 1)
        g.declare("attack", 1, target=3)  # attack in End-of-Turn     -> MAN-OFFENSIVE-OWN-TURN
    g.turn(2)
    # Turn 2: Khaya (seat 2) exchanges a card for Favor and draws.
    g.income(2)
    if illegal:
        g.favor(2, -5)  # Favor below 0                                -> MAN-FAVOR-NONNEG
        g.favor(2, 5)
        g.health(2, 1)  # Health 21                                    -> MAN-HEALTH-RANGE
        g.health(2, -1)
        g.put("p3.standee", (2, 7), seat=2)  # Khaya moves Velya      -> MAN-MOVE-OWN-ONLY
    g.declare("exchange", 2, kind="discard")
    g.play(2, face_up=not illegal)  # face down in the discard        -> MAN-DISCARD-PUBLIC
    g.favor(2, 1)
    g.draw(2)
    g.phase("End of turn")
    if illegal:
        g.phase("Action")  # back to an earlier phase                  -> MAN-PHASE-ORDER
        g.phase("End of turn")
    g.turn(3)
    # Turn 3: Velya (seat 3) steps onto a Tremor, attacks Shem twice.
    g.income(3)
    if illegal:
        g.declare("attack", 3, target=1)  # Shem is 4 away, Range 2    -> MAN-RANGE
        g.step(3, (2, 6))
    g.step(3, (3, 5), (4, 4))
    if not illegal:
        g.health(3, -1)  # the Tremor's damage (omitted)               -> MAN-TREMOR-ENTER
    g.attack(3, 1, damage=3)
    g.attack(3, 1, damage=3)
    g.phase("End of turn")
    if illegal:
        g.favor(3, -1)  # spending in End-of-Turn                      -> MAN-EOT-NO-SPEND
    g.turn(1)
    # Turn 4: Shem attacks Khaya, who fully defends.
    g.income(1)
    if illegal:
        g.step(1, (5, 3), (5, 2), (5, 3), (4, 3))  # 4 spaces, budget 3 -> MAN-MOVE-BUDGET
        g.declare("exchange", 1, kind="draw")
        g.favor(1, -2)
        g.draw(1)  # keeps 7 cards                                    -> MAN-HAND-LIMIT
        g.attack(1, 2, defend="Tome of Defense")
    else:
        g.attack(1, 2, defend="Tome of Defense")
    g.phase("End of turn")
    g.turn(3 if illegal else 2)  # skips Khaya                        -> MAN-TURN-ORDER
    return g


def test_legal_game_raises_nothing() -> None:
    g = play_game(False)
    assert g.rules() == [], g.describe()
    assert g.t.setup_flags() == []


def test_illegal_moves_raise_exactly_those() -> None:
    g = play_game(True)
    assert sorted(g.rules()) == sorted([
        "MAN-ACTION-LIMIT", "MAN-OFFENSIVE-OWN-TURN", "MAN-FAVOR-NONNEG", "MAN-HEALTH-RANGE",
        "MAN-MOVE-OWN-ONLY", "MAN-DISCARD-PUBLIC", "MAN-PHASE-ORDER", "MAN-TREMOR-ENTER",
        "MAN-RANGE", "MAN-EOT-NO-SPEND", "MAN-MOVE-BUDGET", "MAN-HAND-LIMIT",
        "MAN-TURN-ORDER"]), g.describe()
