"""The app's memory of LAN tables and its player profiles, across programs of one computer.

* Each running program holds its own profile (the lowest free): a second program is profile 2
  with settings of its own; a killed program's profile is free again at once (the lock goes
  with it), so the program started next takes it back, name and all.
* A remembered place is offered while its game goes on and no running program has it open:
  not while another program (profile) plays it, again once that program is killed; never once
  the game ended.
* The Peers panel lists a peer that left without ever sitting down (a look from the Join
  dialog) no more, so a player who came back is listed once.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HOLD = """
import sys
from table.ui import profiles
from table.ui.settings import Settings
slot = profiles.claim()
s = Settings.load()
if sys.argv[1]:
    s.name = sys.argv[1]
    s.save()
if sys.argv[2]:  # this program opens a LAN table: remembered, open in this profile
    from table.ui.lan import memory
    memory.remember(memory.RememberedTable(sys.argv[2], "t1", "Friday", s.name, seats=[2]))
print(slot, Settings.load().name, flush=True)
sys.stdin.read()
"""


class Program:
    """A program that claims its profile and holds it until killed."""

    def __init__(self, name: str = "", table_log: str = "") -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        self.proc = subprocess.Popen([sys.executable, "-c", HOLD, name, table_log], env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        slot, _, self.name = self.proc.stdout.readline().strip().partition(" ")
        self.slot = int(slot)

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait(10)


@pytest.mark.processes
def test_two_programs_are_two_players_and_a_killed_ones_place_comes_back(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from table.ui.lan import memory
    from table.ui.profiles import running

    log = tmp_path / "friday.sandlog"
    log.write_bytes(b"")
    ada = Program("Ada")
    bob = Program("Bob", str(log))
    try:
        assert (ada.slot, ada.name, bob.slot, bob.name) == (1, "Ada", 2, "Bob")
        assert [p.open_in for p in memory.load()] == [2]
        assert running(2) and memory.offers(set()) == []  # open in Bob's window
        bob.kill()  # SIGKILL: no goodbye
        assert not running(2)
        assert [p.table for p in memory.offers(set())] == ["Friday"]
        again = Program()  # the next program started: Bob's profile, Bob's name
        assert (again.slot, again.name) == (2, "Bob")
        again.kill()
        memory.ended(str(log), "Bob won")
        assert memory.offers(set()) == [] and memory.load()[0].ended == "Bob won"
    finally:
        ada.kill()
        bob.kill()


def test_a_damaged_memory_is_an_empty_one(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from table.ui.lan import memory

    memory.memory_path().parent.mkdir(parents=True, exist_ok=True)
    memory.memory_path().write_text("{not json")
    assert memory.load() == []
    memory.remember(memory.RememberedTable(str(tmp_path / "x.sandlog"), "t", "T", "Ada"))
    assert [p.name for p in memory.load()] == ["Ada"]


@pytest.mark.processes  # the network stack's import looks up a library (ldconfig)
def test_the_peers_panel_does_not_list_a_look_that_left() -> None:
    from netplay.session.events import PeerInfo
    from table.app.lan_wiring import peer_rows

    rows = peer_rows([PeerInfo("a", "Ada", (1,), "me"), PeerInfo("b", "Bob", (2,), "gone"),
                      PeerInfo("c", "Bob", (), "gone"), PeerInfo("d", "Cy", (), "gone", "", True),
                      PeerInfo("e", "Dee", (), "connected")])
    assert [(r.name, r.status) for r in rows] == [("Ada", "me"), ("Bob", "gone"),
                                                   ("Cy", "gone"), ("Dee", "connected")]
