"""`log import` fails, with file:line and nothing written, where it used to succeed silently."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from assist.runner import assist_declarations
from table.app.cli import main
from table.core.replica import Replica
from table.games.scenario import ScenarioError, build_log

HEADER = {"table": {"game": "gauntlet", "seats": 2, "seed": 3}}


def _import(tmp_path: Path, *lines: dict, allow_void: bool = False, header=HEADER) -> Path:
    src = tmp_path / "ops.jsonl"
    src.write_text("\n".join(json.dumps(x) for x in (header, *lines)) + "\n", encoding="utf-8")
    out = tmp_path / "out.sandlog"
    build_log(src, out, declarations=assist_declarations, allow_void=allow_void)
    return out


def _fails(tmp_path: Path, line: dict, message: str) -> None:
    with pytest.raises(ScenarioError) as err:
        _import(tmp_path, {"seat": 1, "op": "note", "text": "first"}, line)
    assert f"ops.jsonl:3: {message}" in str(err.value), str(err.value)
    assert not (tmp_path / "out.sandlog").exists()  # nothing written
    assert not (tmp_path / "out.sandlog.partial").exists()


def test_misspelt_step_is_refused_with_a_suggestion(tmp_path):
    _fails(tmp_path, {"seat": 1, "op": "mark", "what": "phase", "value": "Action before"},
           "mark: Gauntlet has no phase 'Action before' (did you mean \"Action (before)\"?)")


def test_misspelt_declaration_is_refused(tmp_path):
    _fails(tmp_path, {"seat": 1, "op": "mark", "what": "declare", "value": "battle-opn"},
           "mark: Gauntlet's assist knows no declaration 'battle-opn' (did you mean "
           "\"battle-open\"?)")


def test_turn_marker_without_for_seat_is_refused(tmp_path):
    _fails(tmp_path, {"seat": 1, "op": "mark", "what": "turn"},
           'a turn marker names the new active seat: "for_seat": N')


def test_unknown_zone_and_card_names_are_refused(tmp_path):
    _fails(tmp_path, {"seat": 1, "op": "draw", "from": "p1.dek", "to": "p1.hand"},
           "'from': no object 'p1.dek' on the table (did you mean \"p1.deck\"?)")
    _fails(tmp_path, {"seat": 1, "op": "move", "card": "p1.hand:Scoot", "to": "p1.discard"},
           "no card 'Scoot' in Gauntlet (did you mean \"Scout\"?)")


def test_a_void_op_is_refused_unless_allowed(tmp_path):
    undo = {"seat": 1, "op": "undo", "target": ["nobody", 3]}
    _fails(tmp_path, undo, "this undo would do nothing (void: ")
    out = _import(tmp_path, undo, allow_void=True)
    assert Replica.from_log(out).records()[-1].void is not None


def test_cli_import_exits_non_zero(tmp_path, capsys):
    src = tmp_path / "ops.jsonl"
    src.write_text(json.dumps(HEADER) + '\n{"seat": 1, "op": "mark", "what": "turn"}\n',
                   encoding="utf-8")
    assert main(["log", "import", str(src), "--out", str(tmp_path / "x.sandlog")]) == 1
    assert f"{src}:2: a turn marker" in capsys.readouterr().err
    assert not (tmp_path / "x.sandlog").exists()


def test_card_counters_take_a_selector(tmp_path):
    header = {"table": {"position": {"position": {"game": "dead-to-rites", "seats": 4},
                                     "zones": {"p1.play": ["Brand Guard"]}}}}
    out = _import(tmp_path, {"seat": 1, "op": "counter", "id": "p1.play:Brand Guard",
                             "key": "damage", "add": 2}, header=header)
    replica = Replica.from_log(out)
    guard = replica.state.objs[replica.state.objs["p1.play"].children[0]]
    assert guard.counters["damage"] == 2


def test_after_paces_the_ops_times(tmp_path):
    header = {"table": {**HEADER["table"], "start": "2026-11-30T19:00:00Z"}}
    out = _import(tmp_path, {"seat": 1, "op": "note", "text": "a", "after": 60},
                  {"seat": 2, "op": "note", "text": "b", "after": 3840}, header=header)
    ops = [r.op for r in Replica.from_log(out).records()]
    assert ops[-1].time - ops[0].time == pytest.approx(3900)
    assert ops[-1].time - ops[-2].time == pytest.approx(3840)
    with pytest.raises(ScenarioError, match="'after' is the seconds"):
        _import(tmp_path, {"seat": 1, "op": "note", "text": "a", "after": -1})


def test_player_names_and_inline_deck_lists(tmp_path):
    deck = (Path(__file__).parents[2] / "assets/gauntlet/decks/military.txt").read_text()
    header = {"table": {**HEADER["table"], "players": {"1": "Ada", "2": "Bram"},
                        "decks": {"1": deck, "2": "inquisition"}}}
    replica = Replica.from_log(_import(tmp_path, header=header))
    assert replica.state.seats[1].name == "Ada" and replica.state.seats[2].name == "Bram"
    assert replica.header_extra["decks"] == {"1": "Military Starter",
                                             "2": "Inquisition Starter"}
    bad = {"table": {**HEADER["table"], "decks": {"1": "no-such-deck"}}}
    with pytest.raises(ScenarioError, match="deck for seat 1: 'no-such-deck' is neither a file"):
        _import(tmp_path, header=bad)


def test_a_card_counter_the_module_does_not_declare_is_refused(tmp_path):
    header = {"table": {"position": {"position": {"game": "dead-to-rites", "seats": 4},
                                     "zones": {"p1.play": ["Brand Guard"]}}}}
    with pytest.raises(ScenarioError) as err:
        _import(tmp_path, {"seat": 1, "op": "counter", "id": "p1.play:Brand Guard",
                           "key": "damge", "add": 1}, header=header)
    assert "ops.jsonl:2: counter: Dead to Rites declares no card counter 'damge' (did you " \
           "mean \"damage\"?)" in str(err.value)
