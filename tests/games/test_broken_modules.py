"""Break copies of a module in many ways; every problem is reported at once, with file:line."""
from __future__ import annotations

from pathlib import Path

import pytest

from table.games import ModuleError, load_module, validate_path


def edit(path: Path, old: str, new: str, count: int = 1) -> None:
    text = path.read_text()
    assert text.count(old) >= 1, old
    path.write_text(text.replace(old, new, count))


def line_of(path: Path, needle: str, nth: int = 1) -> int:
    seen = 0
    for n, line in enumerate(path.read_text().splitlines(), start=1):
        if needle in line:
            seen += 1
            if seen == nth:
                return n
    raise AssertionError(f"{needle!r} not in {path}")


def test_a_dozen_breakages_reported_together(copy_module):
    root = copy_module("gauntlet")
    toml, csv, decks = root / "game.toml", root / "cards.csv", root / "decks"

    # game.toml
    edit(toml, 'name = "Hand"\n', 'name = "Hand"\ncolur = "red"\n')               # unknown key
    edit(toml, "max = 2\nstart = 0\nwhen = { faction = \"Military\" }",
         "max = \"two\"\nstart = 0\nwhen = { faction = \"Military\" }")          # bad type
    edit(toml, "min = 0\nmax = 4\n", "min = 5\nmax = 4\n")                       # min > max
    edit(toml, 'zone = "p{seat}.proposals"', 'zone = "p{seat}.proposal"')        # missing zone
    edit(toml, 'do = "shuffle"', 'do = "shufle"')                                # unknown step
    edit(toml, 'id = "p{seat}.graveyard"\nname = "Graveyard"\nkind = "pile"\n',
         'id = "p{seat}.graveyard"\nname = "Graveyard"\n')                       # missing field
    # cards.csv
    text = csv.read_text()
    csv.write_text(text + "scout,Scout Again,Unit,Neutral,1,false,false,false,false,,,,,,,,,,,true,\n"
                   "broken,Broken,Unit,Neutral\n"
                   "bad-value,Bad Value,Unit,Neutral,two,false,false,false,false,,,,,,,,,,,true,\n"
                   "odd-type,Odd Type,Spell,Neutral,1,false,false,false,false,,,,,,,,,,,true,\n")
    # deck lists
    edit(decks / "military.txt", "[main]\n", "[main]\n2 Iron Wall\n")           # missing card
    edit(decks / "diplomats.txt", "3 Scout\n", "0 Scout\n")                      # bad count
    edit(decks / "financiers.txt", "3 Scout\n", "")                              # too small
    edit(decks / "mystics.txt", "1 Whispering Wood", "1 Blood Pit")              # two Arenas
    edit(decks / "intelligence.txt", "leader: Ranger\n", "leader: Ranger\ncolour: red\n")

    with pytest.raises(ModuleError) as err:
        load_module(root)
    got = [str(p) for p in err.value.problems]

    g, c = "gauntlet/game.toml", "gauntlet/cards.csv"
    graveyard = line_of(toml, 'id = "p{seat}.graveyard"') - 1  # its [[zones]] header
    two = line_of(toml, 'max = "two"')
    shufle = line_of(toml, 'do = "shufle"')
    proposal = line_of(toml, 'p{seat}.proposal"')
    n_csv = len(text.splitlines())
    expected = [
        f"{g}:{line_of(toml, 'colur')}: unknown key 'colur' in [[zones]] 'p{{seat}}.hand' "
        "(expected one of: board, face, id, keeper, kind, name, tags, visibility, when)",
        f"{g}:{graveyard}: missing required key 'kind' in "
        "[[zones]] 'p{seat}.graveyard'",
        f"{g}:{two}: 'max' in [[counters]] 'p{{seat}}.command' must be "
        "an integer, not string",
        f"{g}:{line_of(toml, 'min = 5')}: counter 'p{{seat}}.conviction': min 5 is greater than "
        "max 4",
        f"{g}:{shufle}: 'do' in [[setup]] step 2 must be one of "
        "create_deck, create_cards, shuffle, draw, set_counter, set_counters, place, place_tile, "
        "set_side, reveal, hide, rotate, first_player, prompt, not 'shufle'",
        f"{c}:{n_csv + 1}: duplicate card id 'scout' (first on line {line_of(csv, 'scout,Scout,')})",
        f"{c}:{n_csv + 2}: row has 4 fields but the header has 21",
        f"{c}:{n_csv + 3}: card 'bad-value': 'value' must be a whole number, not 'two'",
        f"{c}:{n_csv + 4}: card 'odd-type': unknown type 'Spell' (declare it in [card_types])",
        f"{g}:{proposal}: setup step 14 (create_cards): no zone "
        "'p1.proposal'",
        f"{g}:{proposal}: setup step 14 (create_cards): no zone "
        "'p2.proposal'",
        f"gauntlet/decks/diplomats.txt:{line_of(decks / 'diplomats.txt', '0 Scout')}: bad count 0 "
        "for 'Scout' (it must be 1 or more)",
        f"gauntlet/decks/financiers.txt:{line_of(decks / 'financiers.txt', '3 Militia')}: the deck "
        "has 27 cards; it needs at least 30",
        f"gauntlet/decks/intelligence.txt:{line_of(decks / 'intelligence.txt', 'colour: red')}: "
        "unknown header 'colour' (this game's deck lists have: name, faction, leader)",
        f"gauntlet/decks/military.txt:{line_of(decks / 'military.txt', 'Iron Wall')}: no card "
        "named 'Iron Wall' in gauntlet/cards.csv",
        f"gauntlet/decks/mystics.txt:{line_of(decks / 'mystics.txt', 'The Colosseum')}: [territories] "
        "has 2 Arena cards; at most 1 allowed",
    ]
    assert sorted(got) == sorted(expected)
    # validate_path reports the same problems without raising
    assert sorted(str(p) for p in validate_path(root)) == sorted(expected)


def test_bad_toml_syntax(copy_module):
    root = copy_module("mantle-of-the-keeper")
    toml = root / "game.toml"
    edit(toml, 'name = "Arena"', 'name = "Arena')
    problems = validate_path(root)
    bad = line_of(toml, 'name = "Arena')
    assert [str(p) for p in problems] == [
        f"mantle-of-the-keeper/game.toml:{bad}: TOML syntax error: "
        "Illegal character '\\n'"]


def test_mantle_breakages(copy_module):
    root = copy_module("mantle-of-the-keeper")
    toml = root / "game.toml"
    edit(toml, 'A = [".....", ".#...", ".....", "...#.", "....."]',
         'A = [".....", ".#...", ".....", "...X.", "....."]')                   # bad tile row
    edit(toml, 'slot = "arena.t4"', 'slot = "arena.t5"')                        # missing slot
    edit(toml, "start = 20\n", "start = 25\n")                                   # start > max
    edit(toml, "count_by_seat_count = { 3 = [5, 5, 6], 4 = [5, 5, 6, 6] }",
         "count_by_seat_count = { 3 = [5, 5], 4 = [5, 5, 6, 6] }")              # wrong length
    edit(root / "decks" / "ranger.txt", "3 Quick Shot", "3 Desert Blade")       # other Chosen
    problems = sorted(str(p) for p in validate_path(root))
    g = "mantle-of-the-keeper/game.toml"
    assert problems == sorted([
        f"{g}:{line_of(toml, '...X.')}: row 4 of side 'A' of tile 'rym-1' must be 5 characters "
        "of '.' (open) and '#' (obstruction)",
        f"{g}:{line_of(toml, 'arena.t5')}: setup step 15 (place_tile): no tile slot 'arena.t5'",
        f"{g}:{line_of(toml, 'start = 25')}: counter 'p{{seat}}.health': start 25 is outside "
        "0..20",
        f"{g}:{line_of(toml, 'count_by_seat_count')}: 'count_by_seat_count.3' must be an array "
        "of 3 values",
        f"mantle-of-the-keeper/decks/ranger.txt:{line_of(root / 'decks' / 'ranger.txt', 'Desert')}"
        ": Desert Blade is a Grae the Nomad card; this deck may use only Shem the Ranger cards",
    ])


def test_dead_to_rites_deck_rules(copy_module):
    root = copy_module("dead-to-rites")
    deck = root / "decks" / "hollow-market.txt"
    edit(deck, "3 Iron Wall", "4 Iron Wall")                                     # 4 copies, 41
    edit(deck, "1 hollow-market-rite-5", "1 grave-choir-rite-5")                 # other Crown
    problems = [str(p) for p in validate_path(deck)]
    f = "dead-to-rites/decks/hollow-market.txt"
    assert sorted(problems) == sorted([
        f"{f}:{line_of(deck, 'Coin Adept')}: the deck has 41 cards; it must have exactly 40",
        f"{f}:{line_of(deck, '4 Iron Wall')}: 4 copies of Iron Wall; at most 3 allowed",
        f"{f}:{line_of(deck, 'grave-choir-rite-5')}: Grave Choir Rite 5 is a Grave Choir card; "
        "this deck may use only Hollow Market cards",
    ])
    # a deck list outside the module, checked against an explicit module
    other = root.parent / "loose.txt"
    other.write_text("crown: Hollow Market\n[main]\n40 Iron Wall\n")
    loose = [str(p) for p in validate_path(other, module=root)]
    assert any("40 copies of Iron Wall; at most 3 allowed" in p for p in loose)
    assert any("[rites] has 0 cards; it must have exactly 5" in p for p in loose)
    assert validate_path(root.parent / "nothing.txt")[0].message == "no such file or folder"


def test_content_hash_ignores_line_endings_and_order(copy_module, tmp_path):
    root = copy_module("gauntlet")
    before = load_module(root).content_hash
    for f in [root / "game.toml", root / "cards.csv", *sorted((root / "decks").glob("*.txt"))]:
        f.write_bytes(f.read_bytes().replace(b"\n", b"\r\n"))
    assert load_module(root).content_hash == before
    edit(root / "decks" / "military.txt", "name: Military Starter", "name: Military Starter 2")
    assert load_module(root).content_hash != before


def test_problem_format():
    from table.games import Problem
    assert str(Problem("g/game.toml", 12, "bad")) == "g/game.toml:12: bad"
    assert str(Problem("g/cards.csv", 0, "missing cards.csv")) == "g/cards.csv: missing cards.csv"


def test_env_var_assets_folder_wins(copy_module, monkeypatch):
    from table.games import find_module
    root = copy_module("gauntlet")
    edit(root / "game.toml", 'name = "Gauntlet"', 'name = "Gauntlet (local copy)"')
    monkeypatch.setenv("SANDTABLE_ASSETS", str(root.parent))
    assert find_module("gauntlet").name == "Gauntlet (local copy)"
    assert find_module("dead-to-rites").path.parent.name == "assets"
