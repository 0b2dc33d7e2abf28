"""Every game's setup, performed on a real table at every legal seat count, against the rulebook."""
from __future__ import annotations

import pytest

from table.core.replica import Replica
from table.core.rng import Rng
from table.games import find_module
from table.games.setup import new_table


def _table(game: str, seats: int, seed: int = 1) -> Replica:
    return new_table(find_module(game), seats, rng=Rng(seed))


def _cards(r: Replica, zone: str) -> list[str]:
    return r.state.cards_in(zone)


def _value(r: Replica, counter: str) -> int:
    return r.state.objs[counter].counters["value"]


def _no_void(r: Replica) -> None:
    voids = [(rec.op.kind, rec.void) for rec in r.records() if rec.void]
    assert not voids, voids


def test_gauntlet_setup_matches_the_rulebook() -> None:
    r = _table("gauntlet", 2)
    _no_void(r)
    board = r.state.objs["gauntlet"]
    assert board.kind == "board"
    assert [f"gauntlet.P{i}" for i in range(8)] == board.props["slots"]  # 8 positions
    for seat, (token_at, territories, facing) in {1: ("gauntlet.P0", (1, 2, 3), 0),
                                                  2: ("gauntlet.P7", (4, 5, 6), 180)}.items():
        assert len(_cards(r, f"p{seat}.hand")) == 3  # opening hand
        assert len(_cards(r, f"p{seat}.deck")) == 27  # 30-card Playable Deck less the hand
        assert r.state.objs[f"p{seat}.token"].container == token_at  # before their end
        for p in territories:  # three Territories, revealed, facing their owner
            (card,) = _cards(r, f"gauntlet.P{p}")
            obj = r.state.objs[card]
            assert obj.face_up and obj.card is not None and obj.rotation == facing
            assert obj.owner == seat
        leader = _cards(r, f"p{seat}.leader")
        assert len(leader) == 1 and r.state.objs[leader[0]].face_up
    marks = [rec.op.args for rec in r.records() if rec.op.kind == "mark"]
    assert any(m["what"] == "turn" for m in marks)  # a first player was rolled for
    rolls = [rec.op for rec in r.records() if rec.op.kind == "roll"]
    assert rolls and all(op.args.get("why") == "first player" for op in rolls)
    assert marks[-1] == {"what": "setup", "value": "complete"}


def test_gauntlet_faction_setup_counters() -> None:
    r = _table("gauntlet", 2)
    decks = r.header_extra["decks"]
    for seat, deck in decks.items():
        if deck == "diplomats":
            assert _value(r, f"p{seat}.influence") == 1
            assert len(_cards(r, f"p{seat}.proposals")) == 9
        if deck == "financiers":
            assert _value(r, f"p{seat}.capital") == 0
            assert len(_cards(r, "deed-supply")) == 8


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_mantle_setup_matches_the_rulebook(seats: int) -> None:
    r = _table("mantle-of-the-keeper", seats)
    _no_void(r)
    arena = r.state.objs["arena"]
    assert arena.props["grid"] == [10, 10]  # four 5x5 Rym tiles in a 2x2 square
    assert len([c for c in arena.children if c.startswith("arena.t")]) == 4
    tiles = [o for o in r.state.objs.values() if o.alive and o.props.get("board_kind") == "tile"]
    assert len(tiles) == 4
    draws = {2: [5, 5], 3: [5, 5, 6], 4: [5, 5, 6, 6]}.get(seats, [5] * seats)
    for seat in range(1, seats + 1):
        assert len(_cards(r, f"p{seat}.hand")) == draws[seat - 1]
        assert len(_cards(r, f"p{seat}.deck")) == 20 - draws[seat - 1]
        assert _value(r, f"p{seat}.health") == 20
        expected_favor = 1 if (seats == 4 and seat == 4) else 0
        assert _value(r, f"p{seat}.favor") == expected_favor
        assert r.state.objs[f"p{seat}.mat"].props["side"] == "Tracker"
        assert len(_cards(r, f"p{seat}.mat.chosen")) == 1


def test_dead_to_rites_setup_matches_the_rulebook() -> None:
    r = _table("dead-to-rites", 4)
    _no_void(r)
    for seat, favor in zip(range(1, 5), (0, 0, 1, 2), strict=True):  # starting Favor by seat
        assert len(_cards(r, f"p{seat}.hand")) == 6
        assert len(_cards(r, f"p{seat}.deck")) == 34  # 40 less the opening hand
        assert _value(r, f"p{seat}.step") == 0
        assert _value(r, f"p{seat}.favor") == favor
        rites = _cards(r, f"p{seat}.rites")
        assert len(rites) == 5
        top = r.state.objs[rites[-1]]
        module = find_module("dead-to-rites")
        assert module.cards[top.card or ""].number("step") == 1  # Step 1 on top of the stack
        assert len(_cards(r, f"p{seat}.crown")) == 1
    assert r.state.turn["seat"] == 1
    assert "altar" in r.state.objs and "defense-pool" in r.state.objs


@pytest.mark.parametrize(("game", "seats"), [("gauntlet", 2), ("dead-to-rites", 4)]
                         + [("mantle-of-the-keeper", n) for n in range(2, 7)])
def test_every_card_exists_exactly_once_after_setup(game: str, seats: int) -> None:
    r = _table(game, seats, seed=seats)
    listed: dict[str, int] = {}
    for obj in r.state.objs.values():
        if obj.alive:
            for child in obj.children:
                listed[child] = listed.get(child, 0) + 1
    cards = [o.id for o in r.state.objs.values() if o.alive and o.kind == "card"]
    assert cards and all(listed.get(c) == 1 for c in cards)


@pytest.mark.parametrize("game", ["gauntlet", "mantle-of-the-keeper", "dead-to-rites"])
def test_setup_replays_from_its_log(tmp_path, game: str) -> None:  # type: ignore[no-untyped-def]
    module = find_module(game)
    r = new_table(module, module.players.min, rng=Rng(4), log_path=tmp_path / "t.sandlog")
    r.close()
    again = Replica.from_log(tmp_path / "t.sandlog")
    assert again.public_state_hash() == r.public_state_hash()
    assert again.game == game and again.game_hash == module.content_hash
