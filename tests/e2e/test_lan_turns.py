"""A turn passed at a LAN table, with `sandtable host/join` peers in separate processes on
127.0.0.1: the host ends its turn, the joiner's peer sets its own first phase; each op is in
its author's name and neither peer's assist flags anything."""
from __future__ import annotations

import json
import secrets
import time
from pathlib import Path

import pytest

from tests.e2e.test_lan_play import LOOPBACK, Proc, _same_status

pytestmark = pytest.mark.processes

POSITION = '''
[position]
game = "gauntlet"
seats = 2
seed = 11
setup = "complete"

[turn]
seat = 1
number = 1
phase = "Cleanup"

[seats.1]
player = "Hosty"
deck = "military"

[seats.2]
player = "Joiny"
deck = "diplomats"

[zones]
"p1.leader" = ["General"]
"p2.leader" = ["Ambassador"]
"gauntlet.P1" = [{ card = "Iron Pass", owner = 1 }]
"gauntlet.P2" = [{ card = "Watchtower Hill", owner = 1 }]
"gauntlet.P3" = [{ card = "The Colosseum", owner = 1 }]
"gauntlet.P4" = [{ card = "Old Bridge", owner = 2, rotation = 180 }]
"gauntlet.P5" = [{ card = "Salt Marsh", owner = 2, rotation = 180 }]
"gauntlet.P6" = [{ card = "Iron Pass", owner = 2, rotation = 180 }]
"p1.hand" = ["Scout", "Militia"]
"p2.hand" = ["Scout", "Scout", "Scout"]
"p1.deck" = { rest = true }
"p2.deck" = { rest = true }

[tokens]
"p1.token" = "gauntlet.P1"
"p2.token" = "gauntlet.P6"
'''


def _settled(peers: list[Proc], timeout: float) -> None:
    """Until every peer reports the same state and nothing moves for half a second."""
    settled, deadline = None, time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = _same_status(peers, timeout)
        if state == settled:
            return
        settled = state
        time.sleep(0.5)


def test_host_ends_its_turn_and_the_joiner_sets_its_first_phase_in_its_own_name(
        tmp_path: Path) -> None:
    from assist.runner import load_plugin, run_over
    from table.core.replica import Replica
    from table.games import find_module

    position = tmp_path / "cleanup.toml"
    position.write_text(POSITION)
    script = tmp_path / "host.jsonl"
    script.write_text(json.dumps({"op": "end_turn", "for_seat": 2, "first_phase": "Capture"})
                      + "\n")
    common = ["--headless", "--interfaces", LOOPBACK, "--no-announce", "--fast", "--status",
              "--position", str(position)]
    host = Proc("host", *common, "--game", "gauntlet", "--table", "t " + secrets.token_hex(3),
                "--seat", "1", "--log", str(tmp_path / "h.log"), "--script", str(script))
    try:
        port = int(host.wait_line("TABLE", 20)[2])
        joiner = Proc("join", *common, "--connect", f"{LOOPBACK}:{port}", "--seat", "2",
                      "--log", str(tmp_path / "j.log"))
        try:
            joiner.wait_line("SEATED", 30)
            host.wait_line("SCRIPT DONE", 40)
            _settled([host, joiner], 40)
        finally:
            joiner.terminate()
    finally:
        host.terminate()
    module, plugin = find_module("gauntlet"), load_plugin("gauntlet")
    peers = {}
    for name in ("h", "j"):
        replica = Replica.from_log(tmp_path / f"{name}.log")
        peers[name] = replica
        records = replica.records()
        at = [i for i, r in enumerate(records) if r.op.kind == "mark"
              and r.op.args.get("what") == "turn" and r.op.args.get("seat") == 2]
        assert len(at) == 1, name
        marks = [(r.op.args.get("what"), r.op.args.get("value")) for r in records[at[0] + 1:]
                 if r.op.kind == "mark"]
        assert marks == [("phase", "Capture")], name  # one first phase, and nothing else
        runner = run_over([r.op for r in records], module, plugin, knowledge=replica.knowledge)
        assert [f.rule for f in runner.flags()] == [], (name, runner.flags())
    host_id, joiner_id = peers["h"].peer_id, peers["j"].peer_id
    records = peers["h"].records()
    (turn_rec,) = [r for r in records if r.op.kind == "mark" and r.op.args.get("what") == "turn"
                   and r.op.args.get("seat") == 2]
    (first,) = [r for r in records if r.op.kind == "mark" and r.op.args.get("what") == "phase"
                and r.op.args.get("value") == "Capture"]
    # the turn marker is the ender's; the first phase the new seat's, from its own peer
    assert (turn_rec.op.author, turn_rec.op.seat) == (host_id, 1)
    assert turn_rec.op.args.get("fields") == {"first_phase": "Capture"}
    assert (first.op.author, first.op.seat) == (joiner_id, 2)
    assert peers["h"].state.phase == peers["j"].state.phase == "Capture"
    assert peers["h"].state.turn == peers["j"].state.turn
