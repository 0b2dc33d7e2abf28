"""The report counts flags by the rule value in force at each op: a Dead to Rites draft that
raises favor_cap to 7 has no over-cap flags for legal gains to 7, read on a machine where the
draft was never cached; the installed module's cap of 6 still flags the same play."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

from table.core import actions as act
from table.core.replica import Replica
from table.core.rng import Rng
from table.games import find_module, load_deck, load_module
from table.games.setup import new_table
from table.report.session import read_session

REPO = Path(__file__).resolve().parents[2]


def _play_to_seven(module, log: Path) -> None:  # type: ignore[no-untyped-def]
    ember = load_deck(module, (Path(module.path) / "decks" / "ember-court.txt").read_text())
    r: Replica = new_table(module, 4, {s: ember for s in range(1, 5)}, rng=Rng(5), log_path=log)
    for seat in (1, 2, 3, 4, 1):
        if seat != r.state.turn["seat"]:
            act.mark(r, "turn", for_seat=seat, seat=seat)
        act.mark(r, "phase", value="Dawn", seat=seat)
        if r.state.objs[f"p{seat}.favor"].counters.get("value", 0) < 7:
            act.counter(r, f"p{seat}.favor", add=1, seat=seat)
        act.draw(r, f"p{seat}.deck", f"p{seat}.hand", 1, seat=seat)
    act.counter(r, "p1.favor", value=6, seat=1)
    act.counter(r, "p1.favor", add=1, seat=1)  # 6 -> 7 on seat 1's own turn
    act.end_game(r, [1], "time", seat=1)
    r.close()


def test_a_raised_cap_in_a_draft_is_the_cap_the_report_counts_by(tmp_path: Path,
                                                                  monkeypatch) -> None:  # type: ignore[no-untyped-def]
    root = tmp_path / "draft" / "dead-to-rites"
    shutil.copytree(REPO / "assets" / "dead-to-rites", root)
    toml = root / "game.toml"
    text = re.sub(r"(?m)^favor_cap = 6\b", "favor_cap = 7", toml.read_text(encoding="utf-8"))
    toml.write_text(text.replace('version = "', 'version = "cap7-', 1), encoding="utf-8")
    _play_to_seven(load_module(root), tmp_path / "draft.sandlog")
    _play_to_seven(find_module("dead-to-rites"), tmp_path / "installed.sandlog")
    shutil.rmtree(tmp_path / "draft")
    monkeypatch.setenv("SANDTABLE_HOME", str(tmp_path / "fresh-home"))
    draft = read_session(tmp_path / "draft.sandlog")
    installed = read_session(tmp_path / "installed.sandlog")
    cap = {"DTR-FAVOR-CAP", "DTR-FAVOR-OVERCAP-LOST"}
    assert not cap & set(draft.flags), draft.flags
    assert sum(installed.flags.get(rule, 0) for rule in cap) == 1, installed.flags
