"""Turn order, phases, Income, actions, hand and discard, Favor and Health counters."""
from __future__ import annotations

from .kit import Game


def action_phase(seat: int = 1) -> Game:
    g = Game()
    g.income(seat)
    return g


def test_turn_order_fires() -> None:
    g = action_phase()
    g.end_turn(1, 3)
    assert g.rules() == ["MAN-TURN-ORDER"]


def test_turn_order_legal_skips_eliminated() -> None:
    g = action_phase()
    g.health(2, -20, by=1)
    g.do(seat=2, op="move", id="p2.standee", to="p2.accessories")
    g.end_turn(1, 3)
    assert "MAN-TURN-ORDER" not in g.rules() and "MAN-ELIMINATION" not in g.rules(), g.describe()


def test_phase_order_fires() -> None:
    g = action_phase()
    g.phase("Income")
    assert "MAN-PHASE-ORDER" in g.rules()


def test_phase_order_legal() -> None:
    g = action_phase()
    g.end_turn(1, 2)
    assert g.rules() == []


def test_income_fires() -> None:
    g = Game()
    g.phase("Income")
    g.favor(1, 1)
    g.draw(1, 2)
    g.phase("Action")
    assert g.rules() == ["MAN-INCOME"]


def test_income_legal() -> None:
    assert action_phase().rules() == []


def test_an_extra_income_draw_is_one_income_flag_not_also_an_action() -> None:
    g = Game()
    g.phase("Income")
    g.favor(1, 1)
    g.draw(1, 2)  # the slip: two cards at Income
    g.phase("Action")
    g.draw(1)
    g.draw(1)  # the turn's two actions, legal
    g.phase("End of turn")
    assert g.rules() == ["MAN-INCOME"], g.describe()


def test_an_extra_income_draw_drawn_card_by_card_is_one_flag() -> None:
    g = Game()
    g.phase("Income")
    g.favor(1, 1)
    g.draw(1)
    g.draw(1)
    g.phase("Action")
    g.draw(1)
    g.draw(1)
    g.phase("End of turn")
    assert g.rules() == ["MAN-INCOME"], g.describe()


def test_a_third_action_after_a_legal_income_is_still_flagged() -> None:
    g = action_phase()
    for _ in range(3):
        g.draw(1)
    assert g.rules() == ["MAN-ACTION-LIMIT"], g.describe()


def test_action_limit_fires() -> None:
    g = action_phase()
    g.draw(1)
    g.draw(1)
    g.draw(1)
    assert g.rules() == ["MAN-ACTION-LIMIT"]


def test_action_limit_legal_modifier_and_exchange_are_free() -> None:
    g = action_phase()
    g.draw(1)
    g.draw(1)
    g.play(1, "Hunter's Mark")
    g.declare("exchange", 1, kind="discard")
    g.play(1, "Heirloom Bow")
    g.favor(1, 1)
    g.phase("End of turn")
    assert g.rules() == [], g.describe()


def test_action_in_phase_fires() -> None:
    g = action_phase()
    g.phase("End of turn")
    g.draw(1)
    assert "MAN-ACTION-IN-PHASE" in g.rules()


def test_action_in_phase_fires_off_turn() -> None:
    g = action_phase()
    g.draw(2)
    assert g.rules() == ["MAN-ACTION-IN-PHASE"]


def test_action_in_phase_legal() -> None:
    g = action_phase()
    g.draw(1)
    assert g.rules() == []


def test_offensive_own_turn_fires() -> None:
    g = action_phase()
    g.declare("attack", 3, target=1)
    assert "MAN-OFFENSIVE-OWN-TURN" in g.rules()


def test_offensive_own_turn_legal() -> None:
    g = action_phase()
    g.step(1, (3, 2), (4, 3))
    g.declare("attack", 1, target=3)
    assert g.rules() == [], g.describe()


def test_played_to_discard_fires() -> None:
    g = action_phase()
    g.play(1, "Heirloom Bow", to="supply")
    assert g.rules() == ["MAN-PLAYED-TO-DISCARD"]


def test_played_to_discard_fires_back_to_hand() -> None:
    g = action_phase()
    g.play(1)
    g.do(seat=1, op="move", card="p1.discard:top", to="p1.hand")
    assert "MAN-PLAYED-TO-DISCARD" in g.rules()


def test_played_to_discard_legal() -> None:
    g = action_phase()
    g.play(1)
    assert g.rules() == []


def test_discard_public_fires() -> None:
    g = action_phase()
    g.play(1, face_up=False)
    assert g.rules() == ["MAN-DISCARD-PUBLIC"]


def test_reshuffle_fires() -> None:
    g = action_phase()
    g.play(1)
    g.do(seat=1, op="move", card="p1.discard:top", to="p1.deck")
    assert "MAN-RESHUFFLE" in g.rules()


def test_reshuffle_fires_empty_deck_at_turn_end() -> None:
    g = action_phase()
    for _ in range(14):
        g.do(seat=1, op="move", card="p1.deck:top", to="p1.discard", face_up=True)
    g.end_turn(1, 2)
    assert "MAN-RESHUFFLE" in g.rules()


def _emptied_deck() -> tuple[Game, int]:
    g = action_phase()
    for _ in range(14):
        g.do(seat=1, op="move", card="p1.deck:top", to="p1.discard", face_up=True)
    return g, g.t.checkpoint()


def test_a_refill_card_by_card_then_shuffled_is_the_refill() -> None:
    g, since = _emptied_deck()
    while g.t.replica.state.objs["p1.discard"].children:
        g.do(seat=1, op="move", card="p1.discard:top", to="p1.deck")
    g.do(seat=1, op="shuffle", pile="p1.deck")
    g.draw(1)
    assert "MAN-RESHUFFLE" not in g.rules(since), g.t.describe(since)


def test_a_refill_card_by_card_into_a_draw_pile_with_cards_fires() -> None:
    g = action_phase()
    since = g.t.checkpoint()
    g.play(1)
    g.play(1)
    g.do(seat=1, op="move", card="p1.discard:top", to="p1.deck")
    g.do(seat=1, op="move", card="p1.discard:top", to="p1.deck")
    assert g.rules(since).count("MAN-RESHUFFLE") == 2, g.t.describe(since)


def test_reshuffle_legal() -> None:
    g = action_phase()
    g.end_turn(1, 2)
    assert g.rules() == []


def test_hand_limit_fires() -> None:
    g = action_phase()
    g.draw(1)
    g.end_turn(1, 2)
    assert g.rules() == ["MAN-HAND-LIMIT"]


def test_hand_limit_at_the_last_turn_before_the_end_op() -> None:
    from table.core import actions as act

    for legal in (False, True):
        g = action_phase()
        g.draw(1)
        g.phase("End of turn")
        if legal:
            g.do(seat=1, op="move", card="p1.hand:#0", to="p1.discard", face_up=True)
            g.favor(1, 1)
        act.end_game(g.t.replica, [1], "time", seat=1)
        assert g.rules() == ([] if legal else ["MAN-HAND-LIMIT"]), g.describe()


def test_hand_limit_legal() -> None:
    g = action_phase()
    g.draw(1)
    g.phase("End of turn")
    g.play(1, "Hunter's Mark")
    g.favor(1, 1)
    g.turn(2)
    assert g.rules() == [], g.describe()


def test_hand_limit_favor_fires() -> None:
    g = action_phase()
    g.draw(1)
    g.phase("End of turn")
    g.play(1, "Hunter's Mark")
    g.turn(2)
    assert g.rules() == ["MAN-HAND-LIMIT-FAVOR"]


def test_eot_no_spend_fires() -> None:
    g = action_phase()
    g.phase("End of turn")
    g.favor(1, -1)
    assert g.rules() == ["MAN-EOT-NO-SPEND"]


def test_eot_no_spend_legal() -> None:
    g = action_phase()
    g.favor(1, -1)
    g.phase("End of turn")
    assert g.rules() == []


def test_favor_nonneg_fires() -> None:
    g = action_phase()
    g.favor(1, -2)
    assert g.rules() == ["MAN-FAVOR-NONNEG"]


def test_favor_spend_own_turn_fires() -> None:
    g = action_phase()
    g.favor(3, 2)
    g.favor(3, -1)
    assert g.rules() == ["MAN-FAVOR-SPEND-OWN-TURN"]


def test_favor_spend_own_turn_legal_with_card_effect() -> None:
    g = action_phase()
    g.favor(3, 2)
    g.declare("card-effect", 3, card="Evade")
    g.favor(3, -1)
    assert g.rules() == []


def test_health_range_fires() -> None:
    g = action_phase()
    g.health(1, 1)
    assert g.rules() == ["MAN-HEALTH-RANGE"]


def test_health_range_legal() -> None:
    g = action_phase()
    g.health(1, -1)
    assert g.rules() == []


def test_elimination_fires() -> None:
    g = action_phase()
    g.health(2, -20, by=1)
    g.end_turn(1, 2)
    assert g.rules().count("MAN-ELIMINATION") == 2  # still on the arena, and takes a turn


def test_game_end_fires_on_winner() -> None:
    g = action_phase()
    g.do(seat=1, op="mark", what="winner", for_seat=1)
    assert g.rules() == ["MAN-GAME-END"]


def test_game_end_fires_when_play_goes_on() -> None:
    g = action_phase()
    for seat in (2, 3):
        g.health(seat, -20, by=1)
        g.do(seat=seat, op="move", id=f"p{seat}.standee", to=f"p{seat}.accessories")
    g.end_turn(1, 1)
    assert "MAN-GAME-END" in g.rules()


def test_game_end_legal() -> None:
    g = action_phase()
    for seat in (2, 3):
        g.health(seat, -20, by=1)
        g.do(seat=seat, op="move", id=f"p{seat}.standee", to=f"p{seat}.accessories")
    g.do(seat=1, op="mark", what="winner", for_seat=1)
    assert g.rules() == []
