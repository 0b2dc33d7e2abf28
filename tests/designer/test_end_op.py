"""The end-of-game op: the JSON form (scripts, headless peers), its checks, its text, undo; the
report reads it, and a session without it is unfinished. Op text names public cards."""
from __future__ import annotations

from pathlib import Path

import pytest

from table.core import actions as act
from table.core import jsonform, undoing
from table.core.render import Renderer
from table.core.replica import Replica
from table.core.views import ALL


def table(path: Path | None = None) -> Replica:
    r = Replica("t", "p", log_path=path)
    r.issue("seat", {"seat": 1, "name": "Ann"})
    r.issue("seat", {"seat": 2, "name": "Bob"})
    return r


def text(r: Replica, seat: int = ALL) -> str:
    return Renderer(r.state, r.knowledge, seat).line(r.records()[-1])


def test_json_form_end_op_and_its_text() -> None:
    r = table()
    jsonform.perform(r, {"seat": 1, "op": "end", "winners": [2], "how": "victory",
                         "condition": "Ran the Gauntlet", "scores": {"1": 3, "2": 5}})
    assert r.records()[-1].void is None
    assert r.state.result is not None and r.state.result["winners"] == [2]
    assert text(r) == "Ann ended the game: Bob won (victory: Ran the Gauntlet); scores Ann 3, Bob 5"


@pytest.mark.parametrize(("args", "why"), [
    ({"winners": [3], "how": "victory"}, "not a seat"),
    ({"winners": [1], "how": "knockout"}, "'how'"),
    ({"winners": [], "how": "victory"}, "names its winner"),
    ({"winners": [1], "how": "time", "scores": {"9": 1}}, "score"),
    ({"winners": [1], "how": "time", "standings": [1, 1]}, "standings"),
])
def test_a_bad_result_is_void_with_a_reason(args, why) -> None:  # type: ignore[no-untyped-def]
    r = table()
    r.issue("end", args, seat=1)
    assert r.records()[-1].void is not None and why in r.records()[-1].void
    assert r.state.result is None


def test_a_later_end_corrects_and_undo_restores() -> None:
    r = table()
    act.end_game(r, [1], "victory", seat=1)
    act.end_game(r, [2], "concession", seat=2, text="Ann conceded")
    assert r.state.result["winners"] == [2] and "Ann conceded" in text(r)
    undoing.undo_last(r, seat=2)
    assert r.state.result["winners"] == [1]
    act.end_game(r, [], "draw", seat=1)
    assert text(r) == "Ann ended the game (draw), no winner"


def test_report_reads_the_result_and_calls_a_session_without_one_unfinished(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from table.games import find_module
    from table.games.setup import new_table
    from table.report.session import read_session

    module = find_module("dead-to-rites")
    ended = new_table(module, 4, log_path=tmp_path / "ended.sandlog")
    act.end_game(ended, [3], "victory", condition="Step 5 Rite resolved", seat=3)
    ended.close()
    session = read_session(tmp_path / "ended.sandlog", assist=False)
    assert session.winners == {3} and session.condition == "Step 5 Rite resolved"
    assert not any("unfinished" in m for m in session.incomplete)
    open_ = new_table(module, 4, log_path=tmp_path / "open.sandlog")
    open_.close()
    session = read_session(tmp_path / "open.sandlog", assist=False)
    assert not session.finished and not session.winners
    assert any(m.startswith("unfinished") for m in session.incomplete)


def test_counter_and_declaration_text_name_public_cards_only() -> None:
    r = table()
    r.issue("create", {"id": "play", "kind": "zone", "to": "table"}, seat=1)
    r.issue("create", {"id": "c1", "kind": "card", "to": "play", "card": "iron-wall",
                       "face_up": True}, seat=1)
    r.issue("counter", {"id": "c1", "key": "damage", "add": 1}, seat=2)
    assert text(r, 2) == "Bob changed iron-wall damage by +1 (0 → 1)"
    act.mark(r, "declare", value="attack", fields={"card": "c1", "target": 2}, seat=1)
    assert text(r, 2) == "Ann declared attack (card=iron-wall, target=2)"


def test_the_assist_reads_an_end_op_as_the_game_being_over() -> None:
    from assist.api import History
    from assist.testing import AssistTable

    t = AssistTable("dead-to-rites", 4)
    records = t.replica.records()
    assert History(records, len(records) - 1).last_mark("winner") is None
    act.end_game(t.replica, [2], "concession", seat=1)
    records = t.replica.records()
    found = History(records, len(records) - 1).last_mark("winner")
    assert found is not None and found.op.kind == "end"
    assert t.rules() == []  # recording the result raises nothing ...
    assert t.runner.enabled and not t.runner.notices  # ... and no plugin trips on the op


def test_a_headless_script_ends_the_game(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """`host/join --headless --script`: the script's lines go through the same path as here."""
    import asyncio
    import json
    from types import SimpleNamespace

    from table.app.commands.headless_peer import _play_script

    r = table()
    script = tmp_path / "end.jsonl"
    script.write_text(json.dumps({"op": "end", "winners": [1], "how": "time",
                                  "standings": [1, 2], "text": "90 minutes"}) + "\n")
    failures = asyncio.run(_play_script(SimpleNamespace(replica=r), script, 2))
    assert failures == 0
    assert r.state.result["how"] == "time" and r.state.result["standings"] == [1, 2]
    assert r.records()[-1].op.seat == 2  # the peer's own seat
    assert text(r) == "Bob ended the game: Ann won (time); standings 1. Ann, 2. Bob — 90 minutes"
