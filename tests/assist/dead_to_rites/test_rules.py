"""Each implemented rule: a test where it fires and a test of the nearest legal play.

Most cases slip a move into the scripted legal game (script.py) at a named point; setup, Pact
and Crowning cases use small tables of their own.
"""
from __future__ import annotations

from collections.abc import Callable

import pytest

from assist.testing import AssistTable

from .script import Game

Step = Callable[[Game], None]


def do(*entries: dict) -> Step:  # type: ignore[type-arg]
    return lambda g: g.t.do(*entries)


def undo(seat: int) -> dict:  # type: ignore[type-arg]
    return {"seat": seat, "op": "undo"}


def skip(name: str) -> Step:
    return lambda g: g.skip.add(name)


def seq(*steps: Step) -> Step:
    def run(g: Game) -> None:
        for s in steps:
            s(g)
    return run


def declare(seat: int, name: str, **fields: object) -> Step:
    def run(g: Game) -> None:
        values = {k: (getattr(g, v[1:]) if isinstance(v, str) and v.startswith("@") else v)
                  for k, v in fields.items()}
        g.declare(seat, name, **values)
    return run


def counter(seat: int, obj: str, key: str = "value", **kw: int) -> Step:
    def run(g: Game) -> None:
        target = getattr(g, obj[1:]) if obj.startswith("@") else obj
        g.t.do({"seat": seat, "op": "counter", "id": target, "key": key, **kw})
    return run


def rotate(seat: int, obj: str, degrees: int) -> Step:
    return lambda g: g.rotate(seat, getattr(g, obj[1:]), degrees)


def move(seat: int, card: str, to: str, **kw: object) -> Step:
    def run(g: Game) -> None:
        entry = {"seat": seat, "op": "move", "to": to, **kw}
        if card.startswith("@"):
            entry["id"] = getattr(g, card[1:])
        else:
            entry["card"] = card
        g.t.do(entry)
    return run


def create(seat: int, card: str, zone: str, obj_id: str, **kw: object) -> Step:
    return do({"seat": seat, "op": "create", "id": obj_id, "kind": "card", "to": zone,
               "card": card, "owner": seat, **kw})


def noop(g: Game) -> None:
    pass


def _counter_herald(g: Game) -> None:
    g.declare(2, "counter", card=g.t.find("p1.play", "Flame Herald"))


P = lambda name: {"seat": 1, "op": "mark", "what": "phase", "value": name}  # noqa: E731

# (rule, hook point, illegal, nearest legal play)
GAME_CASES: list[tuple[str, str, Step, Step]] = [
    ("DTR-FAVOR-CAP", "main1", do({"seat": 1, "op": "counter", "id": "p1.favor", "value": 7},
                                  undo(1)),
     do({"seat": 1, "op": "counter", "id": "p1.favor", "value": 6}, undo(1))),
    ("DTR-FAVOR-OVERCAP-LOST", "main1",
     do({"seat": 1, "op": "counter", "id": "p1.favor", "value": 5},
        {"seat": 1, "op": "counter", "id": "p1.favor", "add": 2}, undo(1), undo(1)),
     do({"seat": 1, "op": "counter", "id": "p1.favor", "value": 4},
        {"seat": 1, "op": "counter", "id": "p1.favor", "add": 2}, undo(1), undo(1))),
    ("DTR-FAVOR-NONNEG", "main1", do({"seat": 1, "op": "counter", "id": "p1.favor", "add": -1},
                                     undo(1)),
     do({"seat": 1, "op": "counter", "id": "p1.favor", "add": 1},
        {"seat": 1, "op": "counter", "id": "p1.favor", "add": -1})),
    ("DTR-FAVOR-REFILL-OWN-TURN", "main1",
     do({"seat": 2, "op": "counter", "id": "p2.favor", "add": 1}, undo(2)),
     do({"seat": 1, "op": "counter", "id": "p1.favor", "add": 1}, undo(1))),
    ("DTR-OWN-COUNTERS", "main1", do({"seat": 1, "op": "counter", "id": "p2.step", "add": 0}),
     do({"seat": 2, "op": "counter", "id": "p2.step", "add": 0})),
    ("DTR-DAWN-READY", "dawn9", skip("ready9"), noop),
    ("DTR-READY-ONLY-AT-DAWN", "fought5", seq(rotate(1, "@brand", 0), rotate(1, "@brand", 90)),
     noop),
    ("DTR-DAWN-INCOME", "dawn1", skip("draw1"), noop),
    ("DTR-ENGAGE-CAUSE", "main1", seq(rotate(1, "@brand", 90), do(undo(1))),
     seq(declare(1, "engage", card="@brand"), rotate(1, "@brand", 90), do(undo(1)))),
    ("DTR-DAMAGE-CLEAR-DUSK", "dusk5", counter(1, "@brand", "damage", add=1),
     seq(counter(1, "@brand", "damage", add=1), counter(1, "@brand", "damage", value=0))),
    ("DTR-POISON-PERSIST", "dawn1-late", seq(counter(1, "@brand", "poison-damage", add=1),
                                             counter(1, "@brand", "poison-damage", add=-1)),
     counter(1, "@brand", "poison-damage", add=1)),
    ("DTR-ATTACK-IN-COMBAT", "main5", declare(1, "attack", attacker="@brand", target="@dirge"),
     noop),
    ("DTR-DECLARE-ALL-AT-ONCE", "fought5",
     declare(1, "attack", attacker="@cutpurse", target="@ember"), noop),
    ("DTR-ATTACKER-READY", "main5", seq(declare(1, "engage", card="@brand"),
                                        rotate(1, "@brand", 90)),
     noop),
    ("DTR-ATTACK-ONCE", "declared5", declare(1, "attack", attacker="@brand", target="@dirge"),
     noop),
    ("DTR-ATTACKER-ENGAGES", "declared5", skip("engage5"), noop),
    ("DTR-NEW-CHAMPION-NO-ATTACK", "declared5",
     declare(1, "attack", attacker="@cutpurse", target="@dirge"), noop),
    ("DTR-CANT-ATTACK-NAMED", "declared5", seq(
        declare(1, "attack", attacker="golem", target="@dirge")), noop),
    ("DTR-TARGET-OPPONENT-CHAMPION", "main5", seq(
        lambda g: g.skip.add("x"), declare(1, "note", x=1)), noop),  # replaced below
    ("DTR-NO-PLAYER-ATTACKS", "main5", noop, noop),  # replaced below
    ("DTR-COMBAT-DAMAGE", "fought5", counter(1, "@dirge", "damage", add=1), noop),
    ("DTR-NO-DEFENDERS", "fought5", seq(counter(1, "@ember", "damage", add=1),
                                        counter(1, "@ember", "damage", value=0)), noop),
    ("DTR-STRIKE-BACK", "fought5", declare(2, "strike-back", target="@dirge", attacker="@brand"),
     noop),
    ("DTR-DESTROY-AT-GUARD", "fought5", counter(2, "@brand", "damage", add=1), noop),
    ("DTR-DESTROY-DEST", "fought5", seq(counter(2, "@dirge", "damage", value=0),
                                        move(1, "@dirge", "p1.discard")), noop),
    ("DTR-ACE-UNIQUE", "end", seq(create(1, "ember-court-ace", "p1.play", "ace1"),
                                  create(1, "ember-court-ace", "p1.play", "ace2")),
     seq(create(1, "ember-court-ace", "p1.play", "ace1"),
         create(3, "ember-court-ace", "p3.play", "ace2"))),
    ("DTR-CHAMPION-ENTERS-READY", "end", create(1, "cutpurse", "p1.play", "c9", rot=90),
     create(1, "cutpurse", "p1.play", "c9")),
    ("DTR-RITE-NEXT", "main1", seq(move(1, "p1.rites:#0", "altar"), do(undo(1))),
     seq(move(1, "p1.rites:top", "altar"), do(undo(1)))),
    ("DTR-RITE-COST", "main1", skip("pay-rite3"), noop),  # nothing paid for the Rite
    ("DTR-RITE-ACTIVE-PLAYER", "main1", seq(move(2, "p2.rites:top", "altar"), do(undo(2))),
     seq(move(1, "p1.rites:top", "altar"), do(undo(1)))),
    ("DTR-ALTAR-ONE", "rite3", seq(move(4, "p4.rites:top", "altar"), do(undo(4))), noop),
    ("DTR-POOL-OPPONENTS-ONLY", "rite3", move(3, "p3.hand:Broker Guard", "defense-pool"), noop),
    ("DTR-POOL-ORDER", "rite3", move(2, "p2.hand:Iron Wall", "defense-pool"), noop),
    ("DTR-POOL-FACEDOWN", "rite3", move(4, "p4.hand:Vigil Colossus", "defense-pool",
                                        face_up=True), noop),
    ("DTR-WARD-READY-CHAMPIONS", "rite3", declare(3, "ward", ward=3),
     declare(3, "ward", ward=4)),
    ("DTR-POOL-FLIP-RESULT", "rite3", seq(create(3, "bastion-golem", "p3.play", "g1"),
                                          create(3, "bastion-golem", "p3.play", "g2")), noop),
    ("DTR-POOL-DISCARD", "rite3", seq(move(4, "p4.hand:Vigil Colossus", "defense-pool"),
                                      move(4, "defense-pool:top", "p4.hand")), noop),
    ("DTR-BLOCKED-RETURN", "rite3", noop, noop),  # replaced below
    ("DTR-BLOCKED-FAVOR", "blocked3", counter(3, "p3.favor", add=1), noop),
    ("DTR-BLOCKED-DRAW", "blocked3", lambda g: g.draw(3), noop),
    ("DTR-RESOLVED-COMPLETED", "end", move(1, "p1.rites:top", "p2.completed"),
     seq(move(1, "p1.rites:top", "p1.completed"), counter(1, "p1.step", add=1))),
    ("DTR-STEP-EQUALS-COMPLETED", "resolved4", counter(4, "p4.step", add=1), noop),
    ("DTR-STEP5-WIN", "end", do({"seat": 4, "op": "mark", "what": "winner", "for_seat": 4}),
     noop),
    ("DTR-PATH-LIMIT", "end", seq(*[move(1, "p1.rites:top", "p1.completed")] * 4),
     seq(*[move(1, "p1.rites:top", "p1.completed")] * 3)),
    ("DTR-COUNTER", "end", seq(counter(1, "p1.favor", add=1), counter(1, "p1.favor", add=-3),
                               move(1, "p1.hand:Flame Herald", "p1.play", face_up=True),
                               _counter_herald,
                               move(1, "p1.play:Flame Herald", "p1.discard"),
                               counter(1, "p1.favor", add=1), do(P("Combat"))),
     seq(counter(1, "p1.favor", add=1), counter(1, "p1.favor", add=-3),
         move(1, "p1.hand:Flame Herald", "p1.play", face_up=True),
         _counter_herald,
         move(1, "p1.play:Flame Herald", "p1.discard"), do(P("Combat")))),
    ("DTR-EXPEL", "end", seq(declare(1, "expel", count=2),
                             do({"seat": 1, "op": "draw", "from": "p1.deck", "to": "p1.discard"}),
                             do(P("Combat"))),
     seq(declare(1, "expel", count=2),
         do({"seat": 1, "op": "draw", "from": "p1.deck", "to": "p1.discard", "count": 2}),
         do(P("Combat")))),
    ("DTR-OFFTURN-INTERRUPTS-ONLY", "main1", move(2, "p2.hand:Mourner Guard", "p2.play",
                                                  face_up=True),
     seq(declare(2, "card-effect", card="Iron Wall"),  # played for free: seat 2 has no Favor
         move(2, "p2.hand:Iron Wall", "p2.play", face_up=True),
         move(2, "p2.play:Iron Wall", "p2.discard"))),
    ("DTR-MULLIGAN", "main1", declare(1, "mulligan"), noop),
    ("DTR-FIRST-PLAYER", "end", do({"seat": 3, "op": "mark", "what": "turn", "for_seat": 3}),
     do({"seat": 2, "op": "mark", "what": "turn", "for_seat": 2})),
]

_BY_RULE = {c[0]: c for c in GAME_CASES}
_BY_RULE["DTR-CANT-ATTACK-NAMED"] = (
    "DTR-CANT-ATTACK-NAMED", "declared5",
    declare(1, "attack", attacker="golem", target="@dirge"), noop)
_BY_RULE["DTR-TARGET-OPPONENT-CHAMPION"] = (
    "DTR-TARGET-OPPONENT-CHAMPION", "declared5",
    declare(1, "attack", attacker="@cutpurse", target="@brand"), noop)
_BY_RULE["DTR-NO-PLAYER-ATTACKS"] = (
    "DTR-NO-PLAYER-ATTACKS", "declared5", declare(1, "attack", attacker="@cutpurse",
                                                  target="p2"), noop)
_BY_RULE["DTR-BLOCKED-RETURN"] = (
    "DTR-BLOCKED-RETURN", "blocked3", seq(counter(3, "p3.favor", add=-2),
                                          move(3, "p3.rites:top", "altar"),
                                          move(3, "altar:top", "p3.discard")), noop)
GAME_CASES = list(_BY_RULE.values())


def _golem(g: Game) -> None:  # a Bastion Golem in play since turn 1 (for CANT-ATTACK)
    create(1, "bastion-golem", "p1.play", "golem")(g)


def play(hooks: dict[str, Step]) -> AssistTable:
    game = Game(hooks)
    return game.play_all()


@pytest.mark.parametrize(("rule", "point", "illegal", "legal"), GAME_CASES, ids=[c[0] for c in GAME_CASES])
def test_fires(rule: str, point: str, illegal: Step, legal: Step) -> None:
    hooks = {point: illegal}
    if rule == "DTR-CANT-ATTACK-NAMED":
        hooks["main1"] = _golem
    t = play(hooks)
    assert rule in t.rules(), t.describe()


@pytest.mark.parametrize(("rule", "point", "illegal", "legal"), GAME_CASES, ids=[c[0] for c in GAME_CASES])
def test_nearest_legal_play_does_not_fire(rule: str, point: str, illegal: Step,
                                          legal: Step) -> None:
    hooks = {point: legal}
    if rule == "DTR-CANT-ATTACK-NAMED":
        hooks["main1"] = _golem
    t = play(hooks)
    assert t.rules() == [], t.describe()
