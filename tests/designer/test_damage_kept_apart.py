"""Damage never invents a slip: flags on ops read past a lost record are counted apart (not in
the report's totals), a damaged stretch is one note however long, a damaged header costs no
session, and a log judged by another module than its own says so and is not filed under its
draft.

The logs are legal corpus sessions (table.bench.legal_corpus) whose true flags are known: a
Gauntlet session with one planted hand-limit slip, and a Dead to Rites session with none.
"""
from __future__ import annotations

import csv
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import msgpack
import pytest

from table.bench.legal_corpus import Plan, play
from table.games import find_module, load_module
from table.report.build import build_report
from table.report.session import Session, read_session
from tests.designer.test_damaged_logs import damaged, frames

REPO = Path(__file__).resolve().parents[2]


def _op_seq(data: bytes, index: int) -> int | None:
    offset, size = frames(data)[index]
    record = msgpack.unpackb(data[offset + 8:offset + size])
    wire = record.get("op") if isinstance(record, dict) else record
    return wire[1] if isinstance(wire, list) else None


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("kept-apart")
    slipped = next(t for seed in range(40) for t in [
        play(find_module("gauntlet"), 2, seed, folder / f"g{seed}.sandlog", Plan(slip_rate=1.0))]
        if t.slipped)
    legal = play(find_module("dead-to-rites"), 4, 5, folder / "dtr.sandlog", Plan().legal())
    return {"gauntlet": slipped.path, "dtr": legal.path}


def _flagged_seqs(path: Path) -> list[int]:
    """The op numbers the assist flags in an intact log (one author: seq orders the file)."""
    from assist.runner import AssistRunner, load_plugin
    from table.core.replica import Replica
    from table.games.store import module_for

    replica = Replica.from_log(path)
    module = module_for(replica).module
    runner = AssistRunner.for_replica(replica, module, load_plugin(module.id), seat=-1)
    return [e.ref[1] for e in runner.entries(include_acked=True, include_undone=True)]


def _frame_of_seq(data: bytes, seq: int) -> int:
    return next(i for i in range(1, len(frames(data))) if _op_seq(data, i) == seq)


def _totals(sessions: list[Session]) -> tuple[Counter[str], Counter[str]]:
    real: Counter[str] = Counter()
    salvaged: Counter[str] = Counter()
    for s in sessions:
        real.update(s.flags)
        salvaged.update(s.salvaged_flags)
    return real, salvaged


def _page_total(html: str) -> int:
    match = re.search(r"<b>(\d+)</b><span>flags raised</span>", html)
    assert match, "the page shows the flags raised"
    return int(match.group(1))


def test_one_lost_record_after_the_true_flag_leaves_the_totals_exact(
        corpus: dict[str, Path], tmp_path: Path) -> None:
    path = corpus["gauntlet"]
    intact = read_session(path)
    assert intact.flags == Counter({"GAU-HAND-LIMIT": 1}) and not intact.salvaged_flags
    data = path.read_bytes()
    flagged = _flagged_seqs(path)
    lost = _frame_of_seq(data, max(flagged) + 3)
    bad, _ = damaged(path, tmp_path / "one-lost.sandlog", flip=[lost])
    report = build_report([bad], tmp_path / "r.html", jobs=1)
    [session] = report.sessions
    assert session.flags == intact.flags  # the one true flag, no invented one
    assert len(session.damage) == 1 and session.salvaged > 0
    assert _page_total(report.html) == 1
    assert "Salvaged flags" in report.html


def test_one_lost_record_in_the_setup_invents_nothing_in_the_totals(
        corpus: dict[str, Path], tmp_path: Path) -> None:
    """A record lost early: what the ops after it are flagged for is counted apart."""
    path = corpus["gauntlet"]
    intact = read_session(path)
    bad, _ = damaged(path, tmp_path / "setup-lost.sandlog", flip=[30])
    session = read_session(bad)
    assert session.salvaged_flags  # the lost op's doing shows up, apart
    assert all(session.flags[r] <= intact.flags[r] for r in session.flags)  # invents none
    assert sum(session.flags.values()) <= 1
    report = build_report([bad], tmp_path / "r.html", jobs=1)
    real, salvaged = _totals(report.sessions)
    assert _page_total(report.html) == sum(real.values())
    assert salvaged == session.salvaged_flags
    assert f"{sum(salvaged.values())} flag(s) on salvaged ops" in report.html


def test_five_lost_records_in_a_legal_log_raise_no_real_flag(corpus: dict[str, Path],
                                                             tmp_path: Path) -> None:
    path = corpus["dtr"]
    assert not read_session(path).flags  # a legal session
    count = len(frames(path.read_bytes()))
    hurt = [count * k // 7 for k in range(1, 6)]
    bad, _ = damaged(path, tmp_path / "five-lost.sandlog", flip=hurt)
    session = read_session(bad)
    assert not session.flags
    assert len(session.damage) == 5  # one note per damaged record, each its own stretch
    assert session.salvaged > 0


def test_a_zeroed_block_is_one_note(corpus: dict[str, Path], tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    from table.app.cli import main

    path = corpus["gauntlet"]
    data = bytearray(path.read_bytes())
    start = len(data) // 3
    data[start:start + 4096] = bytes(4096)
    bad = tmp_path / "zeroed.sandlog"
    bad.write_bytes(bytes(data))
    session = read_session(bad)
    assert len(session.damage) == 1
    lost = re.search(r"\((\d+) byte\(s\)\) lost", session.damage[0])
    assert lost and int(lost.group(1)) >= 4096, session.damage  # the block and what it cut
    assert all(session.flags[r] <= 1 for r in session.flags)
    assert main(["check", str(bad)]) == 0
    err = capsys.readouterr().err
    damage_lines = [line for line in err.splitlines() if "lost" in line and "byte" in line]
    assert len(damage_lines) == 1, damage_lines  # not one per zeroed byte
    assert len(err.splitlines()) < 12


def test_a_flipped_header_byte_keeps_the_session(corpus: dict[str, Path], tmp_path: Path
                                                  ) -> None:
    path = corpus["gauntlet"]
    intact = read_session(path)
    bad, _ = damaged(path, tmp_path / "header.sandlog", flip=[0])
    report = build_report([bad], tmp_path / "r.html", jobs=1)
    assert not report.skipped
    [session] = report.sessions
    assert session.header_recovered
    assert (session.game, session.game_hash, session.version) == \
        (intact.game, intact.game_hash, intact.version)
    assert (session.ops, session.turns, session.winners, session.how) == \
        (intact.ops, intact.turns, intact.winners, intact.how)
    assert session.flags == intact.flags and not session.salvaged_flags
    assert [s.group for s in session.seats] == [s.group for s in intact.seats]


def _sandtable(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, SANDTABLE_HOME=str(home), QT_QPA_PLATFORM="offscreen")
    return subprocess.run([sys.executable, "-m", "table.app.cli", *args], capture_output=True,
                          text=True, env=env, cwd=REPO, timeout=300)


def _without_blobs(src: Path, dst: Path) -> None:
    """`src` with its module archive records dropped (the draft is then nowhere in it)."""
    data = src.read_bytes()
    kept = [data[:8]]
    for offset, size in frames(data):
        record = msgpack.unpackb(data[offset + 8:offset + size])
        if not (isinstance(record, dict) and "blob" in record):
            kept.append(data[offset:offset + size])
    dst.write_bytes(b"".join(kept))


@pytest.mark.processes
def test_a_lost_module_archive_says_which_module_judged_it(tmp_path: Path) -> None:
    root = tmp_path / "draft" / "gauntlet"
    shutil.copytree(REPO / "assets" / "gauntlet", root)
    toml = root / "game.toml"
    text = toml.read_text(encoding="utf-8")
    text = re.sub(r"(?m)^hand_limit = \d+$", "hand_limit = 6", text)
    toml.write_text(text.replace('version = "', 'version = "draft-', 1), encoding="utf-8")
    draft = load_module(root)
    play(draft, 2, 3, tmp_path / "full.sandlog", Plan(slip_rate=0.0))
    shutil.rmtree(tmp_path / "draft")
    (tmp_path / "logs").mkdir()
    _without_blobs(tmp_path / "full.sandlog", tmp_path / "logs" / "lost.sandlog")
    home = tmp_path / "fresh-home"  # where the draft was never cached
    done = _sandtable("check", str(tmp_path / "logs" / "lost.sandlog"), home=home)
    assert done.returncode == 0, done.stderr
    installed = find_module("gauntlet")
    assert f"judged by {installed.name} {installed.version}" in done.stderr
    done = _sandtable("report", str(tmp_path / "logs"), "--out", str(tmp_path / "r.html"),
                      "--csv", str(tmp_path / "csv"), home=home)
    assert done.returncode == 0, done.stderr
    with open(tmp_path / "csv" / "sessions.csv", encoding="utf-8") as f:
        [row] = list(csv.DictReader(f))
    assert row["draft"].startswith("module not in the log")
    assert f"judged by {installed.name}" in row["draft"]
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "module not in the log" in html and f"v{draft.version} ·" not in html.split(
        "Sessions (")[0]
