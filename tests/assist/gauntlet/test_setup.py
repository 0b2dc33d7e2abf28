"""Deck construction and setup rules: each fires on a bad deck or setup, not on a good one."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from assist.gauntlet import plugin
from assist.runner import AssistRunner
from table.core import actions as act
from table.core.jsonform import perform
from table.core.replica import Replica
from table.core.rng import Rng
from table.games import load_deck
from table.games.setup import lay_out, run_steps
from table.games.steps import Draw

from .gau_kit import MODULE, deck

Tamper = Callable[[Replica], None]


def _namer(card_id: str) -> str:
    card = MODULE.cards.get(card_id)
    return card.name if card else card_id


def do(r: Replica, **entry: Any) -> None:
    perform(r, entry, _namer)


def set_up(d1: Any = None, d2: Any = None, *, tamper: Tamper | None = None,
           early: Tamper | None = None) -> list[str]:
    """Rule ids raised by a seeded hot-seat setup; `early` runs right after the first
    Territory is dealt, `tamper` just before the setup-complete marker."""
    decks = {1: d1 or deck("military"), 2: d2 or deck("diplomats")}
    r = Replica("test", "hotseat", rng=Rng(7), game=MODULE.id, game_hash=MODULE.content_hash)
    runner = AssistRunner.for_replica(r, MODULE, plugin, seat=-1)
    r.issue("hello", {"name": "hot-seat"})
    for seat in MODULE.seats_for(2):
        r.issue("seat", {"seat": seat.number, "name": seat.name, "colour": seat.colour})
    lay_out(r, MODULE, 2, decks)
    steps = list(MODULE.setup_for(2, decks))
    cut = next(i for i, s in enumerate(steps) if isinstance(s, Draw)
               and s.to_zone.startswith("gauntlet.")) + 1
    run_steps(r, steps[:cut])
    if early:
        early(r)
    run_steps(r, steps[cut:])
    if tamper:
        tamper(r)
    act.mark(r, "setup", value="complete")
    return [f.rule for f in runner.flags()]


def text_deck(main: str, terr: str = "1 Iron Pass\n1 Watchtower Hill\n1 The Colosseum",
              leader: str = "General", faction: str = "Military") -> Any:
    return load_deck(MODULE, f"faction: {faction}\nleader: {leader}\n[territories]\n{terr}\n"
                              f"[main]\n{main}\n")


def flip_deck(r: Replica) -> None:
    do(r, seat=1, op="flip", card="p1.deck:#0", face_up=True)


def early_reveal(r: Replica) -> None:
    do(r, seat=1, op="flip", card="gauntlet.P1:#0", face_up=True)


def move_token(r: Replica) -> None:
    do(r, seat=1, op="move", id="p1.token", to="gauntlet.P1")


def extra_card(r: Replica) -> None:
    do(r, seat=1, op="draw", **{"from": "p1.deck", "to": "p1.hand"})


def wrong_first(r: Replica) -> None:
    act.mark(r, "turn", for_seat=2)


def command_1(r: Replica) -> None:
    do(r, seat=1, op="counter", id="p1.command", value=1)


def turn_facing(r: Replica) -> None:
    do(r, seat=1, op="rotate", card="gauntlet.P1:#0", degrees=180)


def drop_proposal(r: Replica) -> None:
    do(r, seat=2, op="delete", id=r.state.objs["p2.proposals"].children[0])


def replace_token(r: Replica) -> None:
    do(r, seat=1, op="move", id="p1.token", to="supply")
    do(r, seat=1, op="move", id="p1.token", to="gauntlet.P0")


CASES: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    ("GAU-DECK-MIN-SIZE", {"d1": text_deck("29 Militia")}, {"d1": text_deck("30 Militia")}),
    ("GAU-DECK-MAX-VALUE", {"d1": text_deck("31 Vanguard")}, {"d1": text_deck("30 Vanguard")}),
    ("GAU-DECK-FACTION", {"d1": text_deck("29 Militia\n1 Envoy")},
     {"d1": text_deck("29 Militia\n1 Vanguard")}),
    ("GAU-DECK-UNIQUE", {"d1": text_deck("28 Militia\n2 Iron Legion")},
     {"d1": text_deck("29 Militia\n1 Iron Legion")}),
    ("GAU-DECK-LEADER", {"d1": text_deck("30 Militia", leader="Ambassador")},
     {"d1": text_deck("30 Militia", leader="Commandant")}),
    ("GAU-TERR-THREE-DIFFERENT", {"d1": text_deck("30 Militia", terr="2 Iron Pass\n1 Old Bridge")},
     {"d1": text_deck("30 Militia", terr="1 Iron Pass\n1 Salt Marsh\n1 Old Bridge")}),
    ("GAU-TERR-ONE-ARENA",
     {"d1": text_deck("30 Militia", terr="1 The Colosseum\n1 Blood Pit\n1 Iron Pass")},
     {"d1": text_deck("30 Militia", terr="1 The Colosseum\n1 Old Bridge\n1 Iron Pass")}),
    ("GAU-SETUP-DRAWPILE", {"tamper": flip_deck}, {}),
    ("GAU-SETUP-TERR-SECRET", {"early": early_reveal}, {}),
    ("GAU-SETUP-TERR-FACING", {"tamper": turn_facing}, {}),
    ("GAU-SETUP-TOKENS", {"tamper": move_token}, {}),
    ("GAU-SETUP-HAND-3", {"tamper": extra_card}, {}),
    ("GAU-SETUP-FIRST-PLAYER", {"tamper": wrong_first}, {}),
    ("GAU-SETUP-FACTION-START", {"tamper": command_1}, {}),
    ("GAU-SUPP-PRESENT", {"tamper": drop_proposal}, {}),
    ("GAU-SETUP-ORDER", {"tamper": replace_token}, {}),
]


@pytest.mark.parametrize(("rule", "bad", "good"), CASES, ids=[c[0] for c in CASES])
def test_setup_rule_fires(rule: str, bad: dict[str, Any], good: dict[str, Any]) -> None:
    assert rule in set_up(**bad)


@pytest.mark.parametrize(("rule", "bad", "good"), CASES, ids=[c[0] for c in CASES])
def test_setup_rule_nearest_legal(rule: str, bad: dict[str, Any], good: dict[str, Any]) -> None:
    assert set_up(**good) == []


def test_every_starter_deck_pairing_sets_up_clean() -> None:
    names = sorted(MODULE.starter_decks)
    for a in names:
        for b in names:
            assert set_up(deck(a), deck(b)) == [], (a, b)


def test_a_subscriber_hears_each_change_of_the_flags_until_it_unsubscribes() -> None:
    """The runner's one way to listen (subscribe, as the replica's): a flag raised reaches every
    subscriber once; after unsubscribing, nothing more arrives."""
    r = Replica("test", "hotseat", rng=Rng(7), game=MODULE.id, game_hash=MODULE.content_hash)
    runner = AssistRunner.for_replica(r, MODULE, plugin, seat=-1)
    heard: list[int] = []
    stop = runner.subscribe(lambda: heard.append(runner.version))
    r.issue("hello", {"name": "hot-seat"})
    for seat in MODULE.seats_for(2):
        r.issue("seat", {"seat": seat.number, "name": seat.name, "colour": seat.colour})
    lay_out(r, MODULE, 2, {1: text_deck("29 Militia"), 2: deck("diplomats")})
    run_steps(r, list(MODULE.setup_for(2, {1: text_deck("29 Militia"), 2: deck("diplomats")})))
    act.mark(r, "setup", value="complete")
    assert "GAU-DECK-MIN-SIZE" in [f.rule for f in runner.flags()]
    assert heard and heard[-1] == runner.version
    stop()
    before = len(heard)
    act.mark(r, "setup", value="complete")
    assert len(heard) == before
