"""Positions: start a table from a named situation, save it back; name errors have a line."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from assist.runner import AssistRunner, load_plugin
from table.app.cli import main
from table.core.replica import Replica
from table.games.position import PositionError, read_position
from table.games.position_table import start_position
from table.games.position_writer import log_position
from table.games.scenario import build_log

DATA = Path(__file__).parent / "data"
GAMES = ["gauntlet", "mantle-of-the-keeper", "dead-to-rites"]


def _save(replica: Replica, position, seat: int = -1) -> str:
    return log_position(replica.records(), replica.state, replica.knowledge, position.module,
                        replica.header_extra, seat=seat)


@pytest.mark.parametrize("game", GAMES)
def test_round_trip_file_equal_and_tables_hash_the_same(game, tmp_path):
    source = DATA / f"{game}.toml"
    first = start_position(read_position(source), peer_id="hotseat", table_id="t")
    saved = _save(first, read_position(source))
    assert saved == source.read_text(encoding="utf-8")
    again_file = tmp_path / "again.toml"
    again_file.write_text(saved, encoding="utf-8")
    again = start_position(read_position(again_file), peer_id="hotseat", table_id="t")
    assert again.public_state_hash() == first.public_state_hash()
    # conservation: every named card of the position exists exactly once
    position = read_position(source)
    cards = [o for o in again.state.objs.values() if o.alive and o.kind == "card"]
    assert len(cards) == position.card_count()


def test_cli_new_from_position_then_save_gives_the_same_file(tmp_path):
    source = DATA / "gauntlet.toml"
    log = tmp_path / "g.sandlog"
    assert main(["new", "--position", str(source), "--out", str(log)]) == 0
    out = tmp_path / "saved.toml"
    assert main(["position", "save", str(log), "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == source.read_text(encoding="utf-8")
    replica = Replica.from_log(log)
    assert replica.state.turn == {"seat": 1, "number": 3}
    assert replica.state.phase == "Capture"
    assert replica.state.seats[1].name == "Ada"


def test_save_at_an_earlier_op_and_as_one_seat(tmp_path):
    log = tmp_path / "g.sandlog"
    assert main(["new", "--position", str(DATA / "gauntlet.toml"), "--out", str(log)]) == 0
    early = tmp_path / "early.toml"
    assert main(["position", "save", str(log), "--at", "4", "--out", str(early)]) == 0
    text = early.read_text(encoding="utf-8")
    assert "[zones]" not in text and 'setup = "pending"' in text
    mine = tmp_path / "seat1.toml"
    assert main(["position", "save", str(log), "--seat", "1", "--out", str(mine)]) == 0
    seat1 = mine.read_text(encoding="utf-8")
    assert '"p2.hand" = ["?", "?", "?"]' in seat1  # another player's hand: unknown
    assert '"p1.hand" = ["Militia", "Scout", "Shield Wall"]' in seat1
    with pytest.raises(PositionError) as err:
        read_position(mine)
    line = seat1.splitlines().index('"p2.hand" = ["?", "?", "?"]') + 1
    assert f"{mine}:{line}: an unknown card" in str(err.value)


def test_the_assist_judges_only_what_follows_the_position(tmp_path):
    text = (DATA / "gauntlet.toml").read_text(encoding="utf-8")
    # four cards in hand in Cleanup: illegal once the turn passes, not as a situation
    text = text.replace('phase = "Capture"', 'phase = "Cleanup"').replace(
        '"p1.hand" = ["Militia", "Scout", "Shield Wall"]',
        '"p1.hand" = ["Scout", "Militia", "Shield Wall", "Vanguard"]')
    path = tmp_path / "p.toml"
    path.write_text(text, encoding="utf-8")
    position = read_position(path)
    replica = start_position(position)
    runner = AssistRunner.for_replica(replica, position.module, load_plugin("gauntlet"), seat=-1)
    assert runner.entries(include_undone=True) == []
    from table.core import actions as act
    act.mark(replica, "turn", for_seat=2, seat=1)
    assert [e.flag.rule for e in runner.entries()] == ["GAU-HAND-LIMIT"]


def _problems(tmp_path, text: str) -> str:
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(PositionError) as err:
        read_position(path)
    return str(err.value)


BASE = """[position]
game = "gauntlet"
seats = 2

[turn]
seat = 1
phase = "Capture"

[seats.1]
deck = "military"

[zones]
"p1.hand" = ["Scout", "Militia"]
"gauntlet.P4" = [{ card = "Old Bridge", owner = 2, rotation = 180 }]

[counters]
"p1.command" = 1

[tokens]
"p1.token" = "gauntlet.P3"
"""


@pytest.mark.parametrize(("old", "new", "line", "message"), [
    ('"Militia"]', '"Milita"]', 13, "no card 'Milita' in Gauntlet (did you mean \"Militia\"?)"),
    ('"p1.hand" =', '"p1.hnd" =', 13, "no zone 'p1.hnd' at this table (did you mean \"p1.hand\"?)"),
    ('phase = "Capture"', 'phase = "Captur"', 7, "no phase 'Captur' (did you mean \"Capture\"?)"),
    ('"p1.command" = 1', '"p1.comand" = 1', 17, "no counter 'p1.comand'"),
    ('"p1.token" =', '"p1.tokn" =', 20, "no token 'p1.tokn'"),
    ('= "gauntlet.P3"', '= "gauntlet.P9"', 20, "no zone or board 'gauntlet.P9'"),
    ('deck = "military"', 'deck = "militray"', 10, "no deck list 'militray'"),
    ('rotation = 180', 'rotation = 45', 14, "rotation must be 0, 90, 180 or 270"),
    ('seats = 2', 'seats = 3', 3, "seats must be 2-2"),
    ('[turn]', '[turns]', 5, "unknown key 'turns' (did you mean \"turn\"?)"),
])
def test_every_name_error_names_file_and_line(tmp_path, old, new, line, message):
    assert old in BASE
    problems = _problems(tmp_path, BASE.replace(old, new))
    assert f"bad.toml:{line}: " in problems and message in problems, problems


def test_a_faction_zone_needs_that_faction(tmp_path):
    text = BASE.replace('"p1.command" = 1', '"p2.command" = 1')  # seat 2 plays Diplomats
    assert "bad.toml:17: no counter 'p2.command'" in _problems(tmp_path, text)


def test_position_inline_in_the_json_form_and_from_a_file(tmp_path):
    pos_file = tmp_path / "situation.toml"
    pos_file.write_text(BASE, encoding="utf-8")
    ops = tmp_path / "ops.jsonl"
    ops.write_text('{"table": {"position": "situation.toml"}}\n'
                   '{"seat": 1, "op": "mark", "what": "phase", "value": "Draw"}\n',
                   encoding="utf-8")
    assert build_log(ops, tmp_path / "a.sandlog") > 0
    inline = {"position": {"game": "gauntlet", "seats": 2}, "zones": {"p1.hand": ["Scot"]}}
    ops.write_text(json.dumps({"table": {"position": inline}}) + "\n", encoding="utf-8")
    from table.games.scenario import ScenarioError
    with pytest.raises(ScenarioError) as err:
        build_log(ops, tmp_path / "b.sandlog")
    assert "ops.jsonl:1: no card 'Scot'" in str(err.value)
    assert not (tmp_path / "b.sandlog").exists()


def test_a_draft_module_folder_is_used_when_the_position_names_one(tmp_path, copy_module):
    draft = copy_module("gauntlet")
    toml = draft / "game.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace(
        'phases = ["Capture", "Draw"', 'phases = ["Muster", "Capture", "Draw"'),
        encoding="utf-8")
    path = tmp_path / "p.toml"
    path.write_text(BASE.replace('seats = 2', 'seats = 2\nmodule = "gauntlet"').replace(
        'phase = "Capture"', 'phase = "Muster"'), encoding="utf-8")
    position = read_position(path)
    assert position.module.path == draft and position.phase == "Muster"


def test_a_pending_position_is_judged_as_setup_once_its_players_complete_it(tmp_path):
    text = (DATA / "gauntlet.toml").read_text(encoding="utf-8")
    text = text.replace('setup = "complete"', 'setup = "pending"')
    text = text[:text.index("[turn]")] + text[text.index("[seats.1]"):]  # no turn yet
    path = tmp_path / "pending.toml"
    path.write_text(text, encoding="utf-8")
    position = read_position(path)
    replica = start_position(position)
    assert not any(r.op.kind == "mark" and r.op.args.get("value") == "complete"
                   for r in replica.records())
    runner = AssistRunner.for_replica(replica, position.module, load_plugin("gauntlet"), seat=-1)
    assert runner.entries() == []
    from table.core import actions as act
    act.mark(replica, "setup", value="complete")  # the players finish the setup: judged now
    rules = {e.flag.rule for e in runner.entries()}
    assert "GAU-SETUP-TOKENS" in rules  # the tokens stand on the Gauntlet, not before its ends


def test_cards_on_the_table_itself_and_default_decks_round_trip(tmp_path):
    src = tmp_path / "root.toml"
    src.write_text('[position]\ngame = "gauntlet"\nseats = 2\n\n[zones]\n'
                   '"table" = ["Scout", { card = "Militia", face = "down", owner = 1 }]\n',
                   encoding="utf-8")
    first = start_position(read_position(src), peer_id="hotseat", table_id="t")
    saved = _save(first, read_position(src))
    assert 'table = ["Scout", { card = "Militia", face = "down", owner = 1 }]' in saved
    assert 'deck = "diplomats"' in saved  # the starter deck each seat got, by its file name
    again_file = tmp_path / "again.toml"
    again_file.write_text(saved, encoding="utf-8")
    again = start_position(read_position(again_file), peer_id="hotseat", table_id="t")
    assert _save(again, read_position(again_file)) == saved


def test_position_commands_report_bad_input(tmp_path, capsys):
    assert main(["position", "check", str(DATA / "gauntlet.toml")]) == 0
    assert "ok (Gauntlet, 2 seats" in capsys.readouterr().out
    bad = tmp_path / "bad.toml"
    bad.write_text('[position]\ngame = "gauntlet"\n[zones]\n"p1.hand" = ["Scoot"]\n')
    assert main(["position", "check", str(bad)]) == 1
    assert f"{bad}:4: no card 'Scoot'" in capsys.readouterr().err
    assert main(["new", "--position", str(bad), "--out", str(tmp_path / "x.sandlog")]) == 1
    assert not (tmp_path / "x.sandlog").exists()
    not_a_log = tmp_path / "n.sandlog"
    not_a_log.write_text("hello")
    assert main(["position", "save", str(not_a_log), "--out", str(tmp_path / "o.toml")]) == 1
    assert not (tmp_path / "o.toml").exists()
    log = tmp_path / "g.sandlog"
    assert main(["new", "--position", str(DATA / "gauntlet.toml"), "--out", str(log)]) == 0
    assert main(["position", "save", str(log), "--at", "9999", "--out", str(tmp_path / "o")]) == 1
    assert "--at must be 0-" in capsys.readouterr().err
