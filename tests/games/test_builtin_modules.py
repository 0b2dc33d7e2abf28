"""The three built-in modules load, their starter decks are legal, and expansion for every
legal seat count matches the rulebooks."""
from __future__ import annotations

from collections import Counter as Tally

import pytest

from table.games import (
    CreateDeck,
    Draw,
    FirstPlayer,
    GameModule,
    Place,
    PlaceTile,
    SetCounter,
    SetFace,
    Shuffle,
    builtin_modules,
    deck_problems,
    find_module,
    load_deck,
)

IDS = ["dead-to-rites", "gauntlet", "mantle-of-the-keeper"]


@pytest.fixture(scope="module")
def modules() -> dict[str, GameModule]:
    return {m.id: m for m in builtin_modules()}


def test_all_three_load(modules):
    assert sorted(modules) == IDS
    for m in modules.values():
        assert len(m.content_hash) == 64
        assert m.starter_decks
        assert find_module(m.id).content_hash == m.content_hash


@pytest.mark.parametrize("module_id", IDS)
def test_starter_decks_validate_clean(modules, module_id):
    m = modules[module_id]
    for name, deck in m.starter_decks.items():
        assert deck_problems(m, deck) == [], name


def test_every_group_has_a_starter_deck(modules):
    for m in modules.values():
        assert {m.deck_group(d) for d in m.starter_decks.values()} == set(m.groups)


def _decks(m: GameModule, seats: int):
    names = sorted(m.starter_decks)
    return {s: m.starter_decks[names[(s - 1) % len(names)]] for s in range(1, seats + 1)}


def _hand_sizes(steps):
    """Cards per zone after the create/draw steps (a simple simulation of the step data)."""
    sizes: Tally[str] = Tally()
    for st in steps:
        if isinstance(st, CreateDeck):
            sizes[st.zone] += sum(n for _, n in st.cards)
        elif isinstance(st, Draw):
            moved = min(st.count, sizes[st.from_zone])
            sizes[st.from_zone] -= moved
            sizes[st.to_zone] += moved
    return sizes


# --- Gauntlet ---------------------------------------------------------------------------

def test_gauntlet_board_and_setup(modules):
    m = modules["gauntlet"]
    assert (m.players.min, m.players.max) == (2, 2)
    (board,) = [b for b in m.boards_for(2) if b.id == "gauntlet"]
    assert [s.id for s in board.slots] == [f"gauntlet.P{i}" for i in range(8)]
    assert [s.seat for s in board.slots] == [1, 1, 1, 1, 2, 2, 2, 2]
    assert [s.id for s in board.slots if "territory" in s.tags] == \
        [f"gauntlet.P{i}" for i in range(1, 7)]
    zones = {z.id: z for z in m.zones_for(2)}
    assert zones["p1.hand"].visibility == "owner" and zones["p2.deck"].visibility == "hidden"
    assert zones["p1.discard"].kind == "pile" and zones["gauntlet.P4"].kind == "slot"
    decks = {1: m.deck("military"), 2: m.deck("diplomats")}
    steps = m.setup_for(2, decks)
    sizes = _hand_sizes(steps)
    assert sizes["p1.hand"] == sizes["p2.hand"] == 3
    assert sizes["p1.deck"] == sizes["p2.deck"] == 27
    assert all(sizes[f"gauntlet.P{i}"] == 1 for i in range(1, 7))
    assert sizes["p1.leader"] == sizes["p2.leader"] == 1
    places = {st.token: st.at for st in steps if isinstance(st, Place)}
    assert places == {"p1.token": "gauntlet.P0", "p2.token": "gauntlet.P7"}
    reveal = [st for st in steps if isinstance(st, SetFace)]
    assert reveal and reveal[0].face_up and len(reveal[0].zones) == 6
    counters = {st.counter: st.value for st in steps if isinstance(st, SetCounter)}
    assert counters == {"p1.command": 0, "p2.influence": 1, "p2.influence-staked": 0}
    c = {x.id: x for x in m.counters_for(2, decks)}
    assert (c["p1.command"].min, c["p1.command"].max) == (0, 2)
    assert (c["p2.influence"].max, c["p2.influence"].start) == (10, 1)
    assert isinstance(steps[-1], FirstPlayer) and steps[-1].reroll_ties
    assert m.rules["hand_limit"] == 3


def test_gauntlet_faction_components(modules):
    m = modules["gauntlet"]
    for faction_deck, expected in [
        ("mystics", {"p1.rites": 3}), ("financiers", {"deed-supply": 8}),
        ("diplomats", {"p1.proposals": 9})]:
        decks = {1: m.deck(faction_deck), 2: m.deck("military")}
        created: Tally[str] = Tally()
        for st in m.setup_for(2, decks):
            if type(st).__name__ == "CreateCards":
                created[st.zone] += sum(n for _, n in st.cards)
        for zone, n in expected.items():
            assert created[zone] == n, (faction_deck, zone)
    decks = {1: m.deck("mystics"), 2: m.deck("inquisition")}
    ids = {c.id: c for c in m.counters_for(2, decks)}
    assert set(ids) == {"p2.conviction"} and ids["p2.conviction"].max == 4
    assert "p1.rite-begun" in {t.id for t in m.tokens_for(2, decks)}
    rites = [m.cards[c] for c in ("rite-of-echoes", "rite-of-blood", "rite-of-crossing")]
    assert all(r.side_b and not r.sample for r in rites)
    assert len([c for c in m.cards.values() if c.type == "Leader"]) == 12


# --- Mantle of the Keeper ---------------------------------------------------------------

@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_mantle_expansion(modules, seats):
    m = modules["mantle-of-the-keeper"]
    decks = _decks(m, seats)
    steps = m.setup_for(seats, decks)
    sizes = _hand_sizes(steps)
    expected = {3: [5, 5, 6], 4: [5, 5, 6, 6]}.get(seats, [5] * seats)
    assert [sizes[f"p{s}.hand"] for s in range(1, seats + 1)] == expected
    assert all(sizes[f"p{s}.deck"] == 20 - expected[s - 1] for s in range(1, seats + 1))
    counters = {c.id: c for c in m.counters_for(seats, decks)}
    assert all(counters[f"p{s}.health"].start == 20 for s in range(1, seats + 1))
    favor = [counters[f"p{s}.favor"].start for s in range(1, seats + 1)]
    assert favor == ([0, 0, 0, 1] if seats == 4 else [0] * seats)
    tokens = Tally(t.kind for t in m.tokens_for(seats, decks))
    assert tokens["hazard"] == 15 and tokens["cube"] == 5 * seats
    assert tokens["standee"] == seats
    khaya = any(d.headers["chosen"] == "Khaya the Artificer" for d in decks.values())
    assert tokens["turret"] == (3 if khaya else 0)
    cubes = {st.token: st.at for st in steps if isinstance(st, Place) and "cube" in st.token}
    assert cubes["p1.cube-1"] == "p1.mat.health" and cubes["p1.cube-3"] == "p1.mat.ability-1"


def test_mantle_grid_and_obstructions(modules):
    m = modules["mantle-of-the-keeper"]
    arena = next(b for b in m.boards_for(4) if b.id == "arena")
    assert arena.grid is not None
    assert (arena.grid.cols, arena.grid.rows, arena.grid.tile_size) == (10, 10, 5)
    assert [(t.id, t.x, t.y) for t in arena.grid.tile_slots] == [
        ("arena.t1", 0, 0), ("arena.t2", 5, 0), ("arena.t3", 0, 5), ("arena.t4", 5, 5)]
    assert len(m.tiles) == 6 and all(set(t.sides) == {"A", "B"} for t in m.tiles)
    layout = [(st.slot, st.tile, st.side, st.rotation)
              for st in m.setup_for(4) if isinstance(st, PlaceTile)]
    assert len(layout) == 4
    cells = m.obstructions("arena", layout)
    # rym-1 A: (1,1),(3,3); rym-2 A: (4,0),(1,2),(2,2); rym-3 A: (0,2),(1,3); rym-4 A: (3,1),(2,2)
    assert cells == {(1, 1), (3, 3), (9, 0), (6, 2), (7, 2), (0, 7), (1, 8), (8, 6), (7, 7)}
    turned = m.obstructions("arena", [("arena.t2", "rym-1", "A", 90)])
    assert turned == {(8, 1), (6, 3)}
    mats = [b for b in m.boards_for(3) if b.kind == "mat"]
    assert [b.id for b in mats] == ["p1.mat", "p2.mat", "p3.mat"]
    assert mats[0].sides == ("Character Stat", "Tracker")
    assert m.card("Velya the Assassin").number("range") == 2
    assert m.card("Heirloom Bow").number("attack") == 5
    assert m.card("Tome of Defense").number("defense") == 5
    assert m.card("Mechanical Armor").number("defense") == 4


# --- Dead to Rites ----------------------------------------------------------------------

def test_dead_to_rites_expansion(modules):
    m = modules["dead-to-rites"]
    decks = {1: m.deck("hollow-market"), 2: m.deck("grave-choir"), 3: m.deck("oathbound"),
             4: m.deck("last-vigil")}
    steps = m.setup_for(4, decks)
    sizes = _hand_sizes(steps)
    assert all(sizes[f"p{s}.hand"] == 6 and sizes[f"p{s}.deck"] == 34 for s in range(1, 5))
    assert all(sizes[f"p{s}.rites"] == 5 for s in range(1, 5))
    rites = next(st for st in steps if isinstance(st, CreateDeck) and st.zone == "p1.rites")
    assert [m.cards[c].number("step") for c, _ in rites.cards] == [5, 4, 3, 2, 1]
    counters = {c.id: c for c in m.counters_for(4, decks)}
    assert [counters[f"p{s}.favor"].start for s in range(1, 5)] == [0, 0, 1, 2]
    assert [counters[f"p{s}.favor"].max for s in range(1, 5)] == [7, 6, 6, 6]
    for s in range(1, 5):
        step = counters[f"p{s}.step"]
        assert (step.min, step.max, step.start, step.board) == (0, 5, 0, "altar-mat")
    assert {"p3.bonds", "p4.requiem"} <= set(counters) and "p1.secrets" not in counters
    zones = {z.id: z for z in m.zones_for(4)}
    assert zones["altar"].board == zones["defense-pool"].board == "altar-mat"
    assert not zones["defense-pool"].face_up
    assert any(isinstance(st, Shuffle) for st in steps)
    first = next(st for st in steps if isinstance(st, FirstPlayer))
    assert first.method == "random" and first.assigns_seats
    assert m.card("Grave Choir").number("blocked_draw") == 3
    assert m.card("Flame Herald").flag("haste")
    assert m.card("Bastion Golem").flag("cant_attack")
    with pytest.raises(ValueError, match="players, not 3"):
        m.setup_for(3)


def test_expansion_for_every_legal_seat_count(modules):
    for m in modules.values():
        for n in range(m.players.min, m.players.max + 1):
            ids = [z.id for z in m.zones_for(n)] + [c.id for c in m.counters_for(n)] + \
                [t.id for t in m.tokens_for(n)] + [d.id for d in m.dice_for(n)]
            assert len(ids) == len(set(ids))
            assert not any("{seat}" in i for i in ids)
            for st in m.setup_for(n):
                assert "{seat}" not in repr(st)


def test_load_deck_from_text(modules):
    m = modules["dead-to-rites"]
    text = (m.path / "decks" / "oathbound.txt").read_text()
    deck = load_deck(m, text)
    assert deck.headers["crown"] == "Oathbound" and deck.count() == 40
    assert load_deck(m, m.path / "decks" / "oathbound.txt").sections == deck.sections
