"""Setup checks (re-marking setup complete after a change), Pacts and Crowning on small tables."""
from __future__ import annotations

from pathlib import Path

import pytest

from assist.dead_to_rites import plugin
from assist.testing import AssistTable
from table.games import find_module

STARTER = (Path(find_module("dead-to-rites").path) / "decks" / "ember-court.txt").read_text()


def table(**kw: object) -> AssistTable:
    return AssistTable("dead-to-rites", plugin=plugin, **kw)  # type: ignore[arg-type]


def setup_rules(t: AssistTable) -> list[str]:
    since = t.checkpoint()
    t.mark("setup", "complete")
    return t.rules(since)


def deck(old: str, new: str) -> str:
    assert old in STARTER
    return STARTER.replace(old, new)


def test_setup_as_dealt_raises_nothing() -> None:
    t = table()
    assert t.setup_flags() == [] and setup_rules(t) == []


@pytest.mark.parametrize(("rule", "illegal", "legal"), [
    ("DTR-DECK-SIZE", deck("1 The Ash Queen\n", ""), STARTER),
    ("DTR-DECK-COPIES", deck("3 Cinder Adept\n3 Brand Guard", "4 Cinder Adept\n2 Brand Guard"),
     deck("3 Cinder Adept\n3 Brand Guard", "3 Cinder Adept\n3 Brand Guard")),
    ("DTR-DECK-FACTION", deck("3 Iron Wall", "3 Debt Ward"), deck("3 Iron Wall", "3 Castle Guard")),
])
def test_deck_rules(rule: str, illegal: str, legal: str) -> None:
    assert rule in [f.rule for f in table(decks={1: illegal}).setup_flags()]
    assert table(decks={1: legal}).setup_flags() == []


@pytest.mark.parametrize(("rule", "tweak", "legal"), [
    ("DTR-PLAYERS-4", {"seat": 4, "op": "seat", "release": True}, None),
    ("DTR-RITES-SEPARATE", {"seat": 1, "op": "move", "card": "p1.rites:top", "to": "p1.rites",
                            "at": 0}, None),
    ("DTR-CROWN-COMPONENTS", {"seat": 1, "op": "delete", "id": "p1.wildfire"}, None),
    ("DTR-SETUP-STEP0", {"seat": 1, "op": "counter", "id": "p1.step", "value": 1},
     {"seat": 1, "op": "counter", "id": "p1.step", "value": 0}),
    ("DTR-SETUP-DRAW6", {"seat": 1, "op": "draw", "from": "p1.deck", "to": "p1.hand"}, None),
    ("DTR-START-FAVOR", {"seat": 2, "op": "counter", "id": "p2.favor", "value": 1},
     {"seat": 2, "op": "counter", "id": "p2.favor", "value": 0}),
    ("DTR-BLOCK-VALUES", {"seat": 1, "op": "create", "id": "odd", "kind": "card",
                          "to": "p1.discard", "card": "grave-choir", "owner": 1}, None),
])
def test_setup_rules(rule: str, tweak: dict, legal: dict | None) -> None:  # type: ignore[type-arg]
    t = table()
    if tweak["op"] == "seat":
        t.replica.issue("seat", {"seat": tweak["seat"], "release": True})
    else:
        t.do(tweak)
    assert rule in setup_rules(t), t.describe(0)
    t = table()
    if legal is not None:
        t.do(legal)
    assert setup_rules(t) == [], t.describe(0)


def test_mulligan_before_play_is_legal() -> None:
    t = table()
    t.declare("mulligan", seat=2)
    assert t.rules() == []
    t.declare("mulligan", seat=2)
    assert t.rules() == ["DTR-MULLIGAN"]


def test_rite_into_hand_fires() -> None:
    t = table()
    t.do({"seat": 1, "op": "move", "card": "p1.rites:top", "to": "p1.hand"})
    assert t.rules() == ["DTR-RITES-SEPARATE"]


# -- Pacts ------------------------------------------------------------------------------------
def pact_table() -> tuple[AssistTable, str]:
    t = table()
    t.phase("Dawn", seat=1)
    t.do({"seat": 1, "op": "counter", "id": "p1.favor", "add": 2},
         {"seat": 1, "op": "draw", "from": "p1.deck", "to": "p1.hand"})  # Pact of the Smolder
    t.phase("Main", seat=1)
    t.do({"seat": 1, "op": "counter", "id": "p1.favor", "add": -1},
         {"seat": 1, "op": "move", "card": "p1.hand:Pact of the Smolder", "to": "p1.pacts",
          "face_up": True})
    return t, t.find("p1.pacts", "Pact of the Smolder")


def test_pact_offer_to_one_other_player() -> None:
    t, pact = pact_table()
    t.declare("pact-offer", seat=1, pact=pact, to=1)
    assert t.rules() == ["DTR-PACT-SINGLE"]
    t, pact = pact_table()
    t.declare("pact-offer", seat=1, pact=pact, to=2)
    assert t.rules() == []


def test_pact_accepted_lies_between_players() -> None:
    t, pact = pact_table()
    t.do({"seat": 1, "op": "move", "id": pact, "to": "p1.play"})
    t.declare("pact-accept", seat=2, pact=pact)
    assert "DTR-PACT-ACCEPTED-ZONE" in t.rules()
    t, pact = pact_table()
    t.declare("pact-offer", seat=1, pact=pact, to=2)
    t.declare("pact-accept", seat=2, pact=pact)
    assert t.rules() == []


def _next_dawn(t: AssistTable, discard_pact: str | None) -> None:
    for seat in (2, 3, 4):
        t.turn(seat)
        t.phase("Dawn", seat=seat)
        t.do({"seat": seat, "op": "counter", "id": f"p{seat}.favor", "add": 2},
             {"seat": seat, "op": "draw", "from": f"p{seat}.deck", "to": f"p{seat}.hand"})
        t.phase("Dusk", seat=seat)
    t.turn(1)
    t.phase("Dawn", seat=1)
    t.do({"seat": 1, "op": "counter", "id": "p1.favor", "add": 2},
         {"seat": 1, "op": "draw", "from": "p1.deck", "to": "p1.hand"})
    if discard_pact:
        t.do({"seat": 1, "op": "move", "id": discard_pact, "to": "p1.discard"})
    t.phase("Main", seat=1)


def test_pact_expires_at_offerers_next_dawn() -> None:
    t, pact = pact_table()
    t.declare("pact-offer", seat=1, pact=pact, to=2)
    t.declare("pact-accept", seat=2, pact=pact)
    t.phase("Dusk", seat=1)
    _next_dawn(t, None)
    assert t.rules() == ["DTR-PACT-EXPIRY"], t.describe()
    t, pact = pact_table()
    t.declare("pact-offer", seat=1, pact=pact, to=2)
    t.declare("pact-accept", seat=2, pact=pact)
    t.phase("Dusk", seat=1)
    _next_dawn(t, pact)
    assert t.rules() == [], t.describe()


def test_pact_decline_returns_to_hand() -> None:
    t, pact = pact_table()
    t.declare("pact-offer", seat=1, pact=pact, to=2)
    t.declare("pact-decline", seat=2, pact=pact)
    t.do({"seat": 1, "op": "move", "id": pact, "to": "p1.discard"})
    t.phase("Combat", seat=1)
    assert t.rules() == ["DTR-PACT-DECLINE"]
    t, pact = pact_table()
    t.declare("pact-offer", seat=1, pact=pact, to=2)
    t.declare("pact-decline", seat=2, pact=pact)
    t.do({"seat": 1, "op": "move", "id": pact, "to": "p1.hand"},
         {"seat": 1, "op": "counter", "id": "p1.favor", "add": 1})
    t.phase("Combat", seat=1)
    assert t.rules() == [], t.describe()


@pytest.mark.parametrize(("draws", "expected"), [(2, []), (1, ["DTR-PACT-BREAK"])])
def test_pact_break(draws: int, expected: list[str]) -> None:
    t, pact = pact_table()
    t.declare("pact-offer", seat=1, pact=pact, to=2)
    t.declare("pact-accept", seat=2, pact=pact)
    t.declare("pact-break", seat=2, pact=pact, breaker=2)
    t.do({"seat": 1, "op": "draw", "from": "p1.deck", "to": "p1.hand", "count": draws},
         {"seat": 1, "op": "move", "id": pact, "to": "p1.discard"})
    t.phase("Combat", seat=1)
    assert t.rules() == expected, t.describe()


# -- Crowning ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("skip_seat", "expected"), [(None, []), (3, ["DTR-CROWNING"])])
def test_crowning(skip_seat: int | None, expected: list[str]) -> None:
    t = table()
    t.phase("Rite", seat=1)
    for _ in range(3):  # a Path through Steps 1-3
        t.do({"seat": 1, "op": "move", "card": "p1.rites:top", "to": "p1.completed"})
    t.do({"seat": 1, "op": "counter", "id": "p1.step", "add": 3},
         {"seat": 1, "op": "counter", "id": "p1.favor", "value": 6},
         {"seat": 1, "op": "counter", "id": "p1.favor", "add": -6})  # cost 5 + 1 Threat
    rite = t.find("p1.rites", "Ember Court Rite 4")
    t.do({"seat": 1, "op": "move", "id": rite, "to": "altar"})
    for seat in (2, 3, 4):
        if seat != skip_seat:
            t.do({"seat": seat, "op": "draw", "from": f"p{seat}.deck", "to": f"p{seat}.hand"})
        t.declare("pass", seat=seat)
    t.do({"seat": 1, "op": "move", "id": rite, "to": "p1.completed"},
         {"seat": 1, "op": "counter", "id": "p1.step", "add": 1})
    assert t.rules() == expected, t.describe()
