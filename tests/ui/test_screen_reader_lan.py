"""A screen reader at a LAN table: seat 1's window (its own process, as the app opens a hosted
table) read through AT-SPI by a client in another process, the system's Python with
python3-pyatspi, on a private D-Bus session with its accessibility bus; seat 2 a headless
`sandtable join` process playing two cards (one face up, one face down). 127.0.0.1 only.

The client reads every zone with its count and every card seat 1 may see by name and state
(the same lines the seat's outline gives from seat 1's own log), follows the focused piece as
real key events (xdotool) move it, hears seat 2's move announced, and finds no name of a card in
seat 2's hand, in a face-down pile or face down on the table, anywhere in the application.
"""
from __future__ import annotations

import secrets
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.ui.screen_kit import ROOT, Screen, have_atspi

pytestmark = [pytest.mark.xwindow, pytest.mark.processes, pytest.mark.socket,
              pytest.mark.skipif(not have_atspi(), reason="needs Xvfb, xdotool, dbus-daemon, "
                                 "at-spi2-core and the system's python3-pyatspi")]

SCRIPT = ('{"after": 0.4, "op": "move", "card": "p2.hand:top", "to": "p2.assets", '
          '"face_up": true}\n'
          '{"after": 0.3, "op": "move", "card": "p2.hand:top", "to": "p2.assets", '
          '"face_up": false}\n')


class _Names:
    def __init__(self, replica: Any, catalog: Any) -> None:
        self.replica, self.catalog = replica, catalog

    def seat_name(self, seat: int | None) -> str:
        held = self.replica.state.seats.get(seat) if seat is not None else None
        return held.name if held is not None and held.name else \
            self.catalog.seat_names.get(seat, f"Seat {seat}")


def _outline(log: Path, seat: int) -> tuple[Any, Any, list[Any]]:
    from table.core.replica import Replica
    from table.games import find_module
    from table.ui.catalog import Catalog
    from table.ui.seat_outline import outline

    replica = Replica.from_log(log)
    catalog = Catalog.from_module(find_module("gauntlet"))
    seats = sorted(replica.state.seats)
    order = seats[seats.index(seat):] + seats[:seats.index(seat)]
    return replica, catalog, outline(replica.state, replica.knowledge, seat,
                                     _Names(replica, catalog), order)


def _hidden_from_seat_1(p1: Any, p2: Any, catalog: Any) -> set[str]:
    """Names of the cards seat 1 may not know: seat 2's hand, every face-down pile (each
    owner's software knows its own), the cards face down on the table."""
    from table.core.objects import HIDDEN

    names = set()
    for replica in (p1, p2):
        state, knowledge = replica.state, replica.knowledge
        for obj in state.objs.values():
            if obj.kind != "card" or not obj.alive or obj.card is not None:
                continue
            parent = state.objs.get(obj.container or "")
            hidden = parent is not None and (parent.visibility == HIDDEN or (
                parent.id == "p2.hand") or not obj.face_up)
            card = knowledge.card_of(obj.id)
            if hidden and card is not None and not (replica is p1 and parent is not None
                                                    and parent.id == "p1.hand"):
                names.add(catalog.name_of(card))
    return names


def test_a_screen_reader_reads_seat_1s_window_of_a_lan_table(tmp_path: Path) -> None:
    screen = Screen(tmp_path / "screen", accessibility=True)
    table = "Reader " + secrets.token_hex(3)
    try:
        host = screen.start("seat1", [sys.executable, str(ROOT / "tests/ui/lan_window_peer.py"),
                                      "gauntlet", table, "1", "Ada"],
                            env={"SANDTABLE_HOME": str(tmp_path / "home1")})
        port = host.wait_for("seat 1's table", lambda x: x.startswith("TABLE"), 120).split()[1]
        p1_log = Path(host.wait_for("its log", lambda x: x.startswith("LOG"), 10).split(None, 1)[1])
        reader = screen.reader()
        script = tmp_path / "seat2.jsonl"
        script.write_text(SCRIPT)
        seat2 = screen.start("seat2", [sys.executable, "-m", "table.app.cli", "join", "--headless",
                                       "--connect", f"127.0.0.1:{port}", "--seat", "2", "--log",
                                       str(tmp_path / "p2.sandlog"), "--script", str(script),
                                       "--interfaces", "127.0.0.1", "--fast", "--name", "Bo"],
                             env={"SANDTABLE_HOME": str(tmp_path / "home2"),
                                  "PYTHONPATH": str(ROOT)})
        seat2.wait_for("seat 2's moves", lambda x: "SCRIPT DONE" in x, 90)
        reader.wait_for("seat 2's face-down move announced", lambda e: e["event"] == "announce"
                        and "Bo moved a card from Bo's Hand to Bo's Asset Bank face down"
                        in e["text"], 30)
        # the keys move on the table; the reader follows the focused piece
        screen.focus_window(table)
        screen.keys("Tab", "Right", "Right", delay_ms=150)
        reader.wait_for("the focus on the second card of the hand",
                        lambda e: e["event"] == "focus" and len(
                            [f for f in reader.lines if f["event"] == "focus"
                             and f["role"] == "table cell"]) >= 3, 20)
        reader.send("dump")
        dump = reader.wait_for("the accessible tree", lambda e: e["event"] == "dump", 60)
        screen.shot("seat1")
        announced = [e["text"] for e in reader.lines if e["event"] == "announce"]
        focused = [e["name"] for e in reader.lines
                   if e["event"] == "focus" and e["role"] == "table cell"]
        seat2.stop()
        host.stop()
    except AssertionError as err:
        raise AssertionError(f"{err}\nscreen: {screen.dir}{screen.stderr_tails()}") from err
    finally:
        screen.close()

    p1, catalog, zones = _outline(p1_log, 1)
    p2, _, _ = _outline(tmp_path / "p2.sandlog", 2)
    nodes = dump["nodes"]
    outline_at = [i for i, n in enumerate(nodes) if n[1] == "tree" and n[2] == "Table outline"]
    assert outline_at, "no accessible 'Table outline' tree"
    cells = [n[2] for n in nodes[outline_at[0] + 1:] if n[1] == "table cell"]
    # every zone with its count, every card seat 1 may see by name and state
    expected = [line.text for z in zones for line in (z, *z.pieces)]
    assert sorted(cells) == sorted(expected)
    hand = next(z for z in zones if z.id == "p1.hand")
    assert hand.text.startswith("Your Hand, 3 cards")
    assert all(p.known for p in hand.pieces)
    theirs = next(z for z in zones if z.id == "p2.hand")
    assert theirs.pieces and all(p.text == "card back" for p in theirs.pieces)
    assets = next(z for z in zones if z.id == "p2.assets")
    played = [p for p in assets.pieces if p.known]
    assert [p.text for p in assets.pieces if not p.known] == ["face-down card"]
    assert len(played) == 1 and played[0].text == f"{played[0].name}, face up"
    # the focus as the keys moved it: the hand, then its first two cards
    assert focused[-3:] == [hand.text, hand.pieces[0].text, hand.pieces[1].text]
    # seat 2's moves, announced
    assert f"Bo moved {played[0].name} from Bo's Hand to Bo's Asset Bank face up" in announced
    # nothing hidden from seat 1 reaches its accessible tree or what it hears
    seen = {p.name for z in zones for p in z.pieces if p.known} | {z.name for z in zones}
    hidden = {n for n in _hidden_from_seat_1(p1, p2, catalog)
              if not any(n in s for s in seen)}
    assert len(hidden) >= 5, hidden  # seat 2's hand, the draw piles, the face-down card
    texts = [n[2] for n in nodes] + [n[3] for n in nodes] + announced
    leaks = sorted({h for h in hidden for t in texts if h in t})
    assert not leaks, f"hidden card names read by the screen reader: {leaks}"
