"""The report reads every session under the draft it was played with, on a machine where no
draft was ever cached: a draft changed during play is listed with the op where it changed, and
each op is judged by the version in effect at it."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

from table.core import actions as act
from table.core.replica import Replica
from table.core.rng import Rng
from table.games import load_module
from table.games.reload import apply_change, plan_change
from table.games.setup import new_table
from table.report.session import read_session
from table.report.tables import session_rows

REPO = Path(__file__).resolve().parents[2]


def _turn_with(r: Replica, cards: int) -> None:
    seat = r.state.turn["seat"]
    hand = r.state.objs[f"p{seat}.hand"]
    while len(hand.children) < cards:
        act.draw(r, f"p{seat}.deck", f"p{seat}.hand", 1, seat=seat)
    act.mark(r, "turn", for_seat=3 - seat, seat=seat)


def test_a_draft_changed_mid_game_is_judged_op_by_op(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    root = tmp_path / "draft" / "gauntlet"
    shutil.copytree(REPO / "assets" / "gauntlet", root)
    toml = root / "game.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('version = "', 'version = "d1-', 1),
                    encoding="utf-8")
    old = load_module(root)
    log = tmp_path / "t.sandlog"
    r = new_table(old, 2, log_path=log, rng=Rng(8))
    _turn_with(r, 4)  # over 3: flagged
    text = toml.read_text(encoding="utf-8")
    text = re.sub(r"(?m)^hand_limit = 3$", "hand_limit = 4", text)
    toml.write_text(text.replace('version = "d1-', 'version = "d2-', 1), encoding="utf-8")
    new = load_module(root)
    apply_change(r, plan_change(old, new, r))
    changed_at = next(i for i, rec in enumerate(r.records(), start=1)
                      if rec.op.kind == "module" and rec.op.args.get("changes"))
    _turn_with(r, 4)  # legal under the new draft
    r.close()
    shutil.rmtree(tmp_path / "draft")
    monkeypatch.setenv("SANDTABLE_HOME", str(tmp_path / "fresh-home"))
    session = read_session(log)
    assert session.flags["GAU-HAND-LIMIT"] == 1
    assert session.module_changes == [(changed_at, new.version, new.content_hash)]
    row = session_rows([session])[0]
    assert f"changed at op {changed_at} to v{new.version}" in row["draft"]
    assert row["draft"].startswith(f"v{old.version}")
