"""A draft travels with its LAN table: only the host has the draft's folder, each peer runs in
its own process with an empty data directory, and the draft is edited while they play.

The joiners receive the draft from the host; an edit of its hand limit reaches every peer as a
module op; a broken edit (a bad CSV row) is reported with file:line and changes nothing; every
log hashes the same and, read on a machine where the draft never existed, is judged op by op
under the version in effect (a 4-card hand is flagged before the change and not after).
"""
from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .test_lan_play import LOOPBACK, ROOT, Proc, _same_status

pytestmark = pytest.mark.processes

COMMON = ["--headless", "--interfaces", LOOPBACK, "--no-announce", "--fast", "--status"]


def _draft(tmp_path: Path) -> Path:
    folder = tmp_path / "designer" / "gauntlet"
    shutil.copytree(ROOT / "assets" / "gauntlet", folder)
    toml = folder / "game.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('version = "', 'version = "d1-', 1),
                    encoding="utf-8")
    return folder


def _script(path: Path, lines: list[dict[str, object]]) -> Path:
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    return path


def _turns() -> list[dict[str, object]]:
    """Seat 1's turn ends (whatever its hand holds then), seat 2's begins."""
    return [{"after": 0.1, "op": "mark", "what": "turn", "for_seat": 1},
            {"after": 0.1, "op": "mark", "what": "turn", "for_seat": 2}]


def _peer(home: Path, *args: str) -> Proc:
    os.environ["SANDTABLE_HOME"] = str(home)  # Proc copies the environment when it starts
    try:
        return Proc(*args)
    finally:
        del os.environ["SANDTABLE_HOME"]


def _settled(peers: list[Proc]) -> tuple[int, str]:
    """The peers' common status once nothing has moved for half a second."""
    settled, deadline = None, time.monotonic() + 40
    while time.monotonic() < deadline:
        state = _same_status(peers, 30)
        if state == settled:
            return state
        settled = state
        time.sleep(0.5)
    raise AssertionError("the table never settled")


def _said(proc: Proc, pred, timeout: float = 20) -> None:  # type: ignore[no-untyped-def]
    """Wait for a line on the peer's stderr."""
    deadline = time.monotonic() + timeout
    while not any(pred(line) for line in list(proc.errors)):
        assert time.monotonic() < deadline, proc.errors[-8:]
        time.sleep(0.05)


def _check(log: Path, home: Path) -> tuple[list[int], str]:
    env = dict(os.environ, SANDTABLE_HOME=str(home), PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "table.app.cli", "check", str(log), "--json"],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    flags = [json.loads(line) for line in done.stdout.splitlines()]
    return [f["op"] for f in flags if f["rule"] == "GAU-HAND-LIMIT"], done.stderr


def test_a_draft_reaches_every_peer_and_changes_while_they_play(tmp_path: Path) -> None:
    from table.core.replica import Replica

    folder = _draft(tmp_path)
    name = "draft " + secrets.token_hex(3)
    host = _peer(tmp_path / "home-h", "host", "--module", str(folder), "--table", name,
                 "--seat", "1", "--log", str(tmp_path / "h.log"), *COMMON, "--script",
                 str(_script(tmp_path / "s1",
                             [{"after": 0.5, "op": "draw", "from": "p1.deck", "to": "p1.hand"},
                              *_turns()])))
    peers = [host]
    try:
        port = host.wait_line("TABLE", 30)[2]
        joiner = _peer(tmp_path / "home-a", "join", "--connect", f"{LOOPBACK}:{port}",
                       "--seat", "2", "--log", str(tmp_path / "a.log"), *COMMON)
        peers.append(joiner)
        joiner.wait_line("SEATED", 40)
        host.wait_line("SCRIPT DONE", 40)
        _said(joiner, lambda e: e.startswith("module: received the table's module Gauntlet d1-"))
        before = _same_status(peers, 30)

        # the designer edits the draft: a hand limit of 4 and a card's text
        toml = folder / "game.toml"
        text = re.sub(r"(?m)^hand_limit = 3$", "hand_limit = 4", toml.read_text("utf-8"))
        toml.write_text(text.replace('version = "d1-', 'version = "d2-', 1), encoding="utf-8")
        cards = folder / "cards.csv"
        cards.write_text(cards.read_text("utf-8").replace("Forward. Again.", "Forward. Always."),
                         encoding="utf-8")
        host.wait_line("STATUS", 30, lambda parts: int(parts[1]) > before[0])
        after_edit = _same_status(peers, 30)
        _said(host, lambda e: "module: updated to Gauntlet d2-" in e and "hand_limit 3 -> 4" in e)

        # a late joiner with no seat ends another of seat 1's turns, now under the new limit
        late = _peer(tmp_path / "home-b", "join", "--connect", f"{LOOPBACK}:{port}",
                     "--log", str(tmp_path / "b.log"), *COMMON,
                     "--script", str(_script(tmp_path / "s3", _turns())))
        peers.append(late)
        late.wait_line("SCRIPT DONE", 40)
        played = _settled(peers)
        assert played[0] > after_edit[0]

        # a broken edit: reported with file:line on the host, nothing changes anywhere
        with open(cards, "a", encoding="utf-8") as f:
            f.write('broken-card,"unterminated\n')
        _said(host, lambda e: "the draft has errors" in e)
        _said(host, lambda e: re.search(r"cards\.csv:\d+", e) is not None)
        time.sleep(0.5)  # a change would have travelled by now
        assert _same_status(peers, 10) == played

        digests = {p.terminate()[1] for p in peers}
        assert digests == {played[1]}
    finally:
        for p in peers:
            p.kill()

    # every log, read where the draft never existed: the module comes from the log itself
    shutil.rmtree(tmp_path / "designer")
    for log in ("h.log", "a.log", "b.log"):
        replica = Replica.from_log(tmp_path / log)
        assert replica.public_state_hash() == played[1]
        changes = [i for i, rec in enumerate(replica.records(), start=1)
                   if rec.op.kind == "module" and rec.op.args.get("changes")]
        assert len(changes) == 1
        flagged, stderr = _check(tmp_path / log, tmp_path / f"fresh-{log}")
        # seat 1 ends turns holding 4 cards before the change and after it: only the first
        # are over the limit of the version in effect
        assert flagged and max(flagged) < changes[0], (log, flagged, changes)
        assert any(rec.op.kind == "mark" and rec.op.args.get("what") == "turn"
                   for rec in replica.records()[changes[0]:])
        assert "module: Gauntlet d1-" in stderr
        assert f"module: changed at op {changes[0]} to Gauntlet d2-" in stderr
