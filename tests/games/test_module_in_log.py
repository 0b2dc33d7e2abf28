"""The module (draft) and each seat's deck travel in the log: every reader of a log reads it
under the draft it was played with, even where that draft was never installed."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zlib
from pathlib import Path

import msgpack
import pytest

from table.core import actions as act
from table.core.logfile import LogReader
from table.core.merge import merge_logs
from table.core.replica import Replica
from table.core.rng import Rng
from table.core.seek import fork_table
from table.games import find_module, load_deck, load_module
from table.games.archive import ArchiveError, read_folder, unpack
from table.games.registry import ModuleNotFound
from table.games.setup import new_table
from table.games.store import ModuleStore, module_for
from table.report.session import read_session

REPO = Path(__file__).resolve().parents[2]


def _draft(tmp_path: Path, hand_limit: int, name: str = "draft") -> Path:
    """A copy of Gauntlet with another hand limit, outside every asset folder."""
    root = tmp_path / name / "gauntlet"
    shutil.copytree(REPO / "assets" / "gauntlet", root)
    toml = root / "game.toml"
    text = toml.read_text(encoding="utf-8")
    text, n = re.subn(r"(?m)^hand_limit = \d+$", f"hand_limit = {hand_limit}", text)
    assert n == 1
    toml.write_text(text.replace('version = "', 'version = "draft-', 1), encoding="utf-8")
    return root


def _play_a_fat_turn(r: Replica) -> None:
    """The active seat draws up to 6 cards in hand and passes the turn (3 is the printed
    limit)."""
    seat = r.state.turn["seat"]
    hand = r.state.objs[f"p{seat}.hand"]
    while len(hand.children) < 6:
        act.draw(r, f"p{seat}.deck", f"p{seat}.hand", 1, seat=seat)
    act.mark(r, "turn", for_seat=3 - seat, seat=seat)


def _sandtable(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, SANDTABLE_HOME=str(home), QT_QPA_PLATFORM="offscreen")
    return subprocess.run([sys.executable, "-m", "table.app.cli", *args], capture_output=True,
                          text=True, env=env, cwd=REPO, timeout=120)


def test_a_new_table_records_its_module_and_decks(tmp_path: Path) -> None:
    module = find_module("gauntlet")
    r = new_table(module, 2, log_path=tmp_path / "t.sandlog", rng=Rng(3))
    r.close()
    assert r.state.module == {"hash": module.content_hash, "game": "gauntlet",
                              "version": module.version, "name": module.name}
    assert set(r.state.decks) == {1, 2}
    assert r.state.decks[1]["fields"]["faction"] and r.state.decks[1]["fields"]["leader"]
    again = Replica.from_log(tmp_path / "t.sandlog")
    assert again.state.module == r.state.module and again.state.decks == r.state.decks
    assert again.knowledge.decks[1] == module.starter_decks[sorted(module.starter_decks)[0]].text
    archive = unpack(again.blobs[module.content_hash], module.content_hash)
    assert archive.text["game.toml"] == (module.path / "game.toml").read_bytes()
    assert again.public_state_hash() == r.public_state_hash()


@pytest.mark.processes
def test_check_reads_the_draft_from_the_log_where_it_was_never_installed(tmp_path: Path) -> None:
    draft = load_module(_draft(tmp_path, hand_limit=7))
    log = tmp_path / "draft.sandlog"
    r = new_table(draft, 2, log_path=log, rng=Rng(5))
    _play_a_fat_turn(r)
    r.close()
    shutil.rmtree(tmp_path / "draft")  # the draft exists nowhere now but in the log
    fresh = tmp_path / "fresh-home"
    done = _sandtable("check", str(log), "--json", home=fresh)
    assert done.returncode == 0, done.stderr
    rules = [json.loads(line)["rule"] for line in done.stdout.splitlines()]
    assert "GAU-HAND-LIMIT" not in rules  # 6 cards are legal under the draft's limit of 7
    assert f"module: {draft.name} {draft.version} ({draft.content_hash[:12]})" in done.stderr
    # the same turn under the installed rules (limit 3) is flagged
    installed = new_table(find_module("gauntlet"), 2, log_path=tmp_path / "i.sandlog",
                          rng=Rng(5))
    _play_a_fat_turn(installed)
    installed.close()
    done = _sandtable("check", str(tmp_path / "i.sandlog"), "--json", home=fresh)
    assert "GAU-HAND-LIMIT" in [json.loads(ln)["rule"] for ln in done.stdout.splitlines()]
    # the draft was cached by hash when the log was first read
    assert (fresh / "modules" / draft.content_hash / "archive").is_file()


def test_report_judges_each_draft_by_its_own_rules(tmp_path: Path) -> None:
    logs = []
    for limit in (6, 7):
        draft = load_module(_draft(tmp_path, hand_limit=limit, name=f"d{limit}"))
        log = tmp_path / f"d{limit}.sandlog"
        r = new_table(draft, 2, log_path=log, rng=Rng(limit))
        _play_a_fat_turn(r)
        r.close()
        logs.append((log, draft))
    for log, draft in logs:
        session = read_session(log, plugins=None)
        assert session.game_hash == draft.content_hash
        assert session.version == draft.version
        assert "GAU-HAND-LIMIT" not in session.flags


def test_a_renamed_custom_deck_keeps_its_declared_headers(tmp_path: Path) -> None:
    module = find_module("gauntlet")
    text = (module.path / "decks" / "diplomats.txt").read_text(encoding="utf-8")
    text = text.replace("name: Diplomats Starter", "name: Sunday Night Special")
    text = text.replace("leader: Ambassador", "leader: " + _other_leader(module, "Ambassador"))
    deck = load_deck(module, text)
    log = tmp_path / "custom.sandlog"
    new_table(module, 2, {1: deck}, log_path=log, rng=Rng(1)).close()
    session = read_session(log)
    seat = session.seats[0]
    assert seat.deck == "Sunday Night Special"
    assert seat.attrs["faction"] == "Diplomats"
    assert seat.attrs["leader"] == deck.headers["leader"] != "Ambassador"
    assert seat.group == "Diplomats"  # the charts group by the module's declared header


def _other_leader(module, not_this: str) -> str:  # type: ignore[no-untyped-def]
    leaders = sorted(c.name for c in module.cards.values()
                     if c.type == "Leader" and c.name != not_this)
    return leaders[0]


def test_a_log_from_before_recorded_modules_reads_under_the_installed_one(tmp_path: Path) -> None:
    module = find_module("gauntlet")
    r = Replica("t", "p", log_path=tmp_path / "old.sandlog", game="gauntlet",
                game_hash="0" * 64)
    r.issue("hello", {"name": "x"})
    r.close()
    resolved = module_for(Replica.from_log(tmp_path / "old.sandlog"))
    assert resolved.module.content_hash == module.content_hash
    assert "predates recorded modules" in resolved.note


def test_a_damaged_archive_in_a_log_is_never_used(tmp_path: Path) -> None:
    draft = load_module(_draft(tmp_path, hand_limit=9))
    r = new_table(draft, 2, rng=Rng(2))
    data = bytearray(r.blobs[draft.content_hash])
    data[len(data) // 2] ^= 0xFF
    r.blobs[draft.content_hash] = bytes(data)
    store = ModuleStore(tmp_path / "cache")
    shutil.rmtree(tmp_path / "draft")
    resolved = store.resolve("gauntlet", draft.content_hash, r.blobs)
    assert resolved.source == "installed (fallback)" and "not available here" in resolved.note
    assert not store.has(draft.content_hash)
    with pytest.raises(ModuleNotFound):
        store.resolve("no-such-game", draft.content_hash, r.blobs)


def test_an_archive_that_is_not_what_it_claims_is_refused(tmp_path: Path) -> None:
    archive = read_folder(REPO / "assets" / "gauntlet")
    with pytest.raises(ArchiveError, match="hashes to"):
        unpack(archive.pack(), "f" * 64)
    evil = zlib.compress(msgpack.packb({"text": {"game.toml": b"", "../x.txt": b"a"},
                                        "art": {}}, use_bin_type=True))
    with pytest.raises(ArchiveError, match="leaves the module folder"):
        unpack(evil)
    with pytest.raises(ArchiveError, match="damaged"):
        unpack(b"not an archive")


def test_merge_and_fork_keep_the_module_and_the_decks(tmp_path: Path) -> None:
    draft = load_module(_draft(tmp_path, hand_limit=8))
    log = tmp_path / "a.sandlog"
    r = new_table(draft, 2, log_path=log, rng=Rng(4))
    r.close()
    merged = tmp_path / "m.sandlog"
    merge_logs([log], merged)
    m = Replica.from_log(merged)
    assert m.state.module["hash"] == draft.content_hash and draft.content_hash in m.blobs
    assert set(m.knowledge.decks) == {1, 2}
    fork = fork_table(Replica.from_log(log), len(r.records()), tmp_path / "f.sandlog")
    fork.close()
    f = Replica.from_log(tmp_path / "f.sandlog")
    assert draft.content_hash in f.blobs and set(f.knowledge.decks) == {1, 2}
    shutil.rmtree(tmp_path / "draft")
    store = ModuleStore(tmp_path / "cache2")
    assert store.resolve("gauntlet", draft.content_hash, f.blobs).source == "log"
    assert LogReader(tmp_path / "f.sandlog").header["game"] == "gauntlet"
