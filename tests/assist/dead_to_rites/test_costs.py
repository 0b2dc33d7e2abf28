"""Paying Favor: DTR-PLAY-COST (a card played from hand) and DTR-RITE-COST (a Rite on the
Altar), each with the illegal play and the nearest legal one, on a small table of its own."""
from __future__ import annotations

from typing import Any

import pytest

from assist.dead_to_rites import plugin
from assist.testing import AssistTable


def table(favor: int = 2) -> AssistTable:
    """Seat 1's Main phase with `favor` Favor and an Ashen Colossus (cost 4) in hand."""
    t = AssistTable("dead-to-rites", plugin=plugin)
    t.phase("Main", seat=1)
    t.do({"seat": 1, "op": "create", "id": "colossus", "kind": "card", "to": "p1.hand",
          "card": "ember-court-ashen-colossus", "owner": 1},
         {"seat": 1, "op": "counter", "id": "p1.favor", "value": favor})
    return t


def pay(seat: int, amount: int) -> dict[str, Any]:
    return {"seat": seat, "op": "counter", "id": f"p{seat}.favor", "add": -amount}


def play(card: str = "p1.hand:Ashen Colossus", to: str = "p1.play") -> dict[str, Any]:
    return {"seat": 1, "op": "move", "card": card, "to": to, "face_up": True}


def phase(name: str) -> dict[str, Any]:
    return {"seat": 1, "op": "mark", "what": "phase", "value": name}


@pytest.mark.parametrize(("favor", "ops", "expected"), [
    (2, [play(), phase("Combat")], ["DTR-PLAY-COST"]),             # 2 Favor, nothing paid
    (2, [pay(1, 2), play(), phase("Combat")], ["DTR-PLAY-COST"]),  # paid 2 of 4
    (4, [pay(1, 4), play(), phase("Combat")], []),                 # paid before it enters play
    (4, [play(), pay(1, 4), phase("Combat")], []),                 # paid right after
    (5, [pay(1, 4), play(), pay(1, 1), phase("Combat")], []),      # a later change is not the price
], ids=["unpaid", "underpaid", "paid-before", "paid-after", "paid-then-other"])
def test_a_card_played_from_hand_costs_its_printed_favor(favor: int, ops: list[dict[str, Any]],
                                                         expected: list[str]) -> None:
    t = table(favor)
    since = t.checkpoint()
    t.do(*ops)
    assert t.rules(since) == expected, t.describe(since)


def test_the_flag_names_the_play_and_what_was_paid() -> None:
    t = table(favor=2)
    since = t.checkpoint()
    played = t.do(play())
    t.do(phase("Combat"))
    (entry,) = t.entries(since)
    assert entry.flag.severity == "error"
    assert entry.flag.message == "Player 1 played Ashen Colossus and paid 0 Favor; it costs 4."
    assert played is not None and entry.flag.ops[0] == played.ref  # the play, not the marker
    assert entry.ref == played.ref and entry.key == f"DTR-PLAY-COST@{played.ref[0]}:{played.ref[1]}"


def test_pay_play_pay_play_is_two_payments_not_one() -> None:
    t = table(favor=6)
    t.do({"seat": 1, "op": "create", "id": "wall", "kind": "card", "to": "p1.hand",
          "card": "iron-wall", "owner": 1})
    since = t.checkpoint()
    t.do(pay(1, 4), play(), pay(1, 2), play("p1.hand:Iron Wall", "p1.discard"), phase("Combat"))
    assert t.rules(since) == [], t.describe(since)
    t2 = table(favor=6)
    t2.do({"seat": 1, "op": "create", "id": "wall", "kind": "card", "to": "p1.hand",
           "card": "iron-wall", "owner": 1})
    since = t2.checkpoint()  # the Colossus unpaid: the 2 after it pay for the Iron Wall
    t2.do(play(), pay(1, 2), play("p1.hand:Iron Wall", "p1.discard"), phase("Combat"))
    assert t2.rules(since) == ["DTR-PLAY-COST"], t2.describe(since)
    assert "Ashen Colossus" in t2.flags(since)[0].message


@pytest.mark.parametrize(("card", "expected", "severity"), [
    ("Ashen Colossus", [], None),            # the effect names the card: played for free
    ("Scorched Ground", ["DTR-PLAY-COST"], "warning"),  # another effect: E* softened
])
def test_a_declared_card_effect_excuses_as_the_catalogue_says(card: str, expected: list[str],
                                                              severity: str | None) -> None:
    t = table(favor=2)
    since = t.checkpoint()
    t.declare("card-effect", seat=1, card=card)
    t.do(play(), phase("Combat"))
    assert t.rules(since) == expected, t.describe(since)
    if severity:
        assert t.flags(since)[0].severity == severity


def test_cards_committed_face_down_are_blocks_not_plays() -> None:
    t = table(favor=2)
    since = t.checkpoint()
    t.do({"seat": 1, "op": "move", "card": "p1.hand:Ashen Colossus", "to": "p1.discard",
          "face_up": False}, phase("Combat"))
    assert "DTR-PLAY-COST" not in t.rules(since)


# -- Rites --------------------------------------------------------------------------------------
def rite_table(favor: int) -> AssistTable:
    t = AssistTable("dead-to-rites", plugin=plugin)
    t.phase("Rite", seat=1)
    t.do({"seat": 1, "op": "counter", "id": "p1.favor", "value": favor})
    return t


def place() -> dict[str, Any]:
    return {"seat": 1, "op": "move", "card": "p1.rites:top", "to": "altar"}


@pytest.mark.parametrize(("favor", "ops", "expected"), [
    (1, [place(), {"seat": 2, "op": "mark", "what": "declare", "value": "pass"}],
     ["DTR-RITE-COST"]),                                     # 1 Favor, nothing paid
    (2, [pay(1, 1), place(), phase("Dusk")], ["DTR-RITE-COST"]),  # paid 1 of 2
    (2, [pay(1, 2), place(), phase("Dusk")], []),             # Step 1 costs 2
    (2, [place(), pay(1, 2), phase("Dusk")], []),             # paid right after placing
], ids=["nothing-paid", "underpaid", "paid", "paid-after"])
def test_a_rite_costs_its_printed_favor_even_when_nothing_was_paid(
        favor: int, ops: list[dict[str, Any]], expected: list[str]) -> None:
    t = rite_table(favor)
    since = t.checkpoint()
    t.do(*ops)
    assert t.rules(since) == expected, t.describe(since)


def test_threat_is_part_of_the_rite_cost_when_alone_in_the_lead() -> None:
    def lead(paid: int) -> list[str]:
        t = rite_table(6)
        t.do({"seat": 1, "op": "move", "card": "p1.rites:top", "to": "p1.completed"},
             {"seat": 1, "op": "counter", "id": "p1.step", "add": 1})
        since = t.checkpoint()
        t.do(pay(1, paid), place(), phase("Dusk"))  # Step 2 costs 3, +1 alone in the lead
        return t.rules(since)

    assert lead(4) == []
    assert lead(3) == ["DTR-RITE-COST"]
