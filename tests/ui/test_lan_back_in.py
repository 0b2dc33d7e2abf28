"""Back in after a close, and the end seen by every seat: two real Sandtable programs on one
computer (127.0.0.1 only, zeroconf on 127.0.0.1), each driven through its windows with real
clicks and keys (tests/ui/app_driver.py: QTest events sent to the widgets on screen).

One table for the whole module (the programs are slow to set up; the tests run in order):
Ada hosts "Friday" from the Host dialog, Bob joins it from the Join dialog; both draw.
* Bob closes his window and quits; Ada plays on; Bob starts the program again: it is Bob's
  (his name, not Ada's), its start screen offers "Rejoin “Friday” as Bob" (never Ada's place,
  open in her window), and ONE click later he holds seat 2 again, as the same peer, with every
  op in both logs and one state hash.
* Ada's program is killed (SIGKILL) and started again: ONE click on "Rejoin “Friday” as Ada"
  and both are linked again, one state hash; Ada's Peers panel lists Bob once.
* Bob quits and Ada's program is killed: nobody is at the table. Ada's start screen offers
  "Reopen “Friday” as Ada" (nobody answers), which opens it alone; Bob's then offers "Rejoin"
  (Ada announces it): one click, both back, one state hash.
* Ada ends the game: both windows show "Bob won" with Replay, Report and New game; Bob's
  Replay opens the replay; back on his start screen the game is under Replay, not offered to
  rejoin.
"""
from __future__ import annotations

import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.socket, pytest.mark.processes]

ROOT = Path(__file__).resolve().parents[2]
DRIVER = Path(__file__).with_name("app_driver.py")
TABLE = "Friday"
BOUND = 60.0  # seconds anything may take on a loaded machine before the test gives up


class AppProcess:
    """One Sandtable program (app_driver.py) and the hand that drives it."""

    def __init__(self, env: dict[str, str], label: str, logs: Path) -> None:
        self.label = label
        self.stderr = logs / f"{label}-stderr.txt"
        with self.stderr.open("wb") as err:
            self.proc = subprocess.Popen([sys.executable, str(DRIVER)], env=env, cwd=ROOT,
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=err, text=True, bufsize=1)
        self.answers: queue.Queue[dict[str, Any]] = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def ready(self) -> AppProcess:
        """Once its start screen is shown."""
        self.ask_wait(lambda: "start" in [n for n, _t in self.ask("shown")], "its start screen")
        return self

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if line.startswith("{"):
                self.answers.put(json.loads(line))

    def ask(self, do: str, **args: Any) -> Any:
        self.next_id += 1
        ident = self.next_id
        assert self.proc.stdin is not None and self.proc.poll() is None, self.explain("exited")
        self.proc.stdin.write(json.dumps({"id": ident, "do": do, **args}) + "\n")
        self.proc.stdin.flush()
        end = time.monotonic() + BOUND
        while time.monotonic() < end:
            try:
                answer = self.answers.get(timeout=0.5)
            except queue.Empty:
                if self.proc.poll() is not None:
                    raise AssertionError(self.explain(f"exited during {do}")) from None
                continue
            if answer.get("id") == ident:
                if not answer["ok"]:
                    raise LookupError(answer["error"])
                return answer["value"]
        raise AssertionError(self.explain(f"no answer to {do}"))

    def ask_wait(self, test: Callable[[], Any], what: str, timeout: float = BOUND) -> Any:
        """Poll `test` (which asks the program) until it holds; a LookupError (the window is
        not there yet) counts as not yet."""
        end = time.monotonic() + timeout
        last: Any = None
        while time.monotonic() < end:
            try:
                last = test()
                if last:
                    return last
            except LookupError as err:
                last = err
            if self.proc.poll() is not None:
                raise AssertionError(self.explain(f"exited waiting for {what}"))
            time.sleep(0.1)
        raise AssertionError(self.explain(f"timed out waiting for {what} (last: {last!r})"))

    def window(self, title: str) -> dict[str, Any]:
        return self.ask_wait(lambda: self.ask("table", window=title), f"the window {title!r}")

    def table(self) -> dict[str, Any]:
        return self.ask("table", window=f"^{TABLE} — ")  # type: ignore[no-any-return]

    def explain(self, what: str) -> str:
        text = self.stderr.read_text(errors="replace") if self.stderr.exists() else ""
        return f"{self.label}: {what}; its stderr:\n" + "\n".join(text.splitlines()[-30:])

    def quit(self) -> None:
        """Close every window it shows (a table's closing shows the start screen: that too),
        as the player would: the program ends."""
        end = time.monotonic() + BOUND
        while self.proc.poll() is None and time.monotonic() < end:
            try:
                for name, _title in self.ask("shown")[:1]:
                    self.ask("close", window=name or "^" + re.escape(_title) + "$")
            except (LookupError, AssertionError):  # it ended meanwhile
                pass
            time.sleep(0.1)
        self.proc.wait(15)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)


def _ops(log: str) -> set[tuple[str, int]]:
    """(author, number) of every op in a log, read from disk (an op with this peer's secrets
    beside it is a map holding the op)."""
    from table.core.logfile import LogReader

    wires = [rec.get("op") if isinstance(rec, dict) else rec for rec in LogReader(log).records()]
    return {(w[0], w[1]) for w in wires if isinstance(w, list)}


class Table:
    """Ada's and Bob's programs at the table "Friday"."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.env = {**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen",
                    "SANDTABLE_HOME": str(tmp / "home"), "SANDTABLE_LAN_INTERFACES": "127.0.0.1",
                    "SANDTABLE_RELAY": "off"}
        self.apps: list[AppProcess] = []
        self.launches = 0

    def launch(self, label: str, ready: bool = True) -> AppProcess:
        self.launches += 1
        app = AppProcess(self.env, f"{self.launches}-{label}", self.tmp)
        self.apps.append(app)
        return app.ready() if ready else app

    def same(self, a: AppProcess, b: AppProcess, what: str) -> tuple[dict[str, Any], ...]:
        """Both windows' tables once they agree: one public state hash, and every op in both
        logs on disk (the table may still be busy, e.g. the first player's roll)."""
        def agree() -> tuple[dict[str, Any], ...] | None:
            x, y = a.table(), b.table()
            if x["hash"] != y["hash"] or x["ops"] != y["ops"]:
                return None
            ops = _ops(x["log"])
            return (x, y) if len(ops) == x["ops"] and ops == _ops(y["log"]) else None
        return a.ask_wait(agree, what)  # type: ignore[no-any-return]

    def close(self) -> None:
        for app in self.apps:
            app.stop()


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    t = Table(tmp_path_factory.mktemp("back-in"))
    try:
        t.ada, t.bob = t.launch("ada", False), t.launch("bob", False)  # type: ignore[attr-defined]
        t.ada.ready(), t.bob.ready()  # type: ignore[attr-defined]  # started side by side
        _host(t.ada)  # type: ignore[attr-defined]
        _join(t.bob)  # type: ignore[attr-defined]
        t.same(t.ada, t.bob, "the table set up on both")  # type: ignore[attr-defined]
        for app in (t.ada, t.bob):  # type: ignore[attr-defined]
            app.ask("key", window=f"^{TABLE} — ", key="D")  # a card drawn
        yield t
    finally:
        t.close()


def _host(ada: AppProcess) -> None:
    ada.ask("type", window="start", target="name", text="Ada")
    ada.ask("click", window="start", target="host")
    ada.ask_wait(lambda: ada.ask("dialog", window="lan-host"), "the Host dialog")
    ada.ask("choose", window="lan-host", target="game", text="Gauntlet")
    ada.ask("type", window="lan-host", target="table_name", text=TABLE)
    ada.ask("click", window="lan-host", target="host_button")
    ada.window(f"^{TABLE} — ")


def _join(bob: AppProcess) -> None:
    bob.ask("type", window="start", target="name", text="Bob")
    bob.ask("click", window="start", target="join")
    bob.ask_wait(lambda: bob.ask("dialog", window="lan-join")["tables"] == [TABLE],
                 "the Join dialog to list the table")
    bob.ask("pick", window="lan-join", target="tables", text=TABLE)
    bob.ask("click", window="lan-join", target="go")  # Connect
    bob.ask_wait(lambda: bob.ask("dialog", window="lan-join")["go"] == "Take the seat",
                 "the seat step")
    bob.ask("click", window="lan-join", target="go")
    bob.window(f"^{TABLE} — ")


def _offer(app: AppProcess, log: str, label: str) -> dict[str, Any]:
    def offered() -> dict[str, Any] | None:
        start = app.ask("start")
        return start if start["offers"].get(log) == [label, True] else None
    return app.ask_wait(offered, f"the start screen to offer {label!r}")  # type: ignore[no-any-return]


def test_a_player_who_closed_is_back_in_one_click(table: Table) -> None:
    ada, bob = table.ada, table.bob  # type: ignore[attr-defined]
    before = bob.table()
    assert before["seats"] == [2]
    bob.ask("click", window=f"^{TABLE} — ", target="Start screen")  # leaves the table
    bob.ask_wait(lambda: "start" in [n for n, _t in bob.ask("shown")], "Bob's start screen")
    bob.quit()
    ada.ask_wait(lambda: any(p[0] == "Bob" and p[2] in ("gone", "reconnecting")
                             for p in ada.table()["peers"]), "Bob away at Ada's")
    ada.ask("key", window=f"^{TABLE} — ", key="D")  # played while Bob is away

    bob = table.bob = table.launch("bob-again")  # type: ignore[attr-defined]
    start = _offer(bob, before["log"], f"Rejoin “{TABLE}” as Bob")
    assert start["name"] == "Bob"  # this program is Bob's, as before
    assert ada.table()["log"] not in start["offers"]  # Ada's place: open in her window
    # A look through the Join dialog first: his seat is his to take back, not taken.
    bob.ask("click", window="start", target="join")
    bob.ask_wait(lambda: bob.ask("dialog", window="lan-join")["tables"] == [f"{TABLE} (yours)"],
                 "the Join dialog to list the table as his")
    bob.ask("pick", window="lan-join", target="tables", text=TABLE)
    bob.ask("click", window="lan-join", target="go")  # Connect
    seat = bob.ask_wait(lambda: bob.ask("dialog", window="lan-join")["seat"], "the seat step")
    assert seat == "Seat 2: yours as Bob, take it back"
    assert bob.ask("dialog", window="lan-join")["go"] == "Take your seat back"
    bob.ask("click", window="lan-join", target="Cancel")  # not now: the dialog leaves
    bob.ask("click", window="start", target=f"Rejoin “{TABLE}” as Bob")  # the one click
    back = bob.window(f"^{TABLE} — ")
    assert back["seats"] == [2] and back["peer"] == before["peer"]
    a, _b = table.same(ada, bob, "one state hash, every op in both logs")
    assert a["ops"] > before["ops"]  # Ada's draw while he was away reached him
    peers = ada.ask_wait(lambda: [p for p in ada.table()["peers"] if p[0] == "Bob"]
                         if ["Bob", [2], "gone"] not in ada.table()["peers"] else None,
                         "Bob back at Ada's")
    assert len(peers) == 1, peers  # listed once, never "Bob — gone" twice


def test_the_host_killed_and_started_again_is_back_in_one_click(table: Table) -> None:
    ada, bob = table.ada, table.bob  # type: ignore[attr-defined]
    before = ada.table()
    ada.stop()  # SIGKILL: no goodbye, nothing saved on the way out
    bob.ask_wait(lambda: any(p[0] == "Ada" and p[2] == "reconnecting"
                             for p in bob.table()["peers"]), "Ada reconnecting at Bob's")
    ada = table.ada = table.launch("ada-again")  # type: ignore[attr-defined]
    start = _offer(ada, before["log"], f"Rejoin “{TABLE}” as Ada")
    assert start["name"] == "Ada"
    assert bob.table()["log"] not in start["offers"]  # Bob's place: open in his window
    ada.ask("click", window="start", target=f"Rejoin “{TABLE}” as Ada")  # the one click
    back = ada.window(f"^{TABLE} — ")
    assert back["seats"] == [1] and back["peer"] == before["peer"]
    ada.ask("key", window=f"^{TABLE} — ", key="D")
    table.same(ada, bob, "one state hash after the host's return, every op in both logs")
    ada.ask_wait(lambda: ["Bob", [2], "connected"] in ada.table()["peers"]
                 or ["Bob", [2], "back"] in ada.table()["peers"], "Bob linked at Ada's")


def test_everyone_gone_the_table_is_reopened_and_found_again(table: Table) -> None:
    """Bob quits, Ada's program is killed: nobody is at the table. Ada's start screen offers to
    reopen it (nobody answers), Bob's then to rejoin it (Ada announces it): both back."""
    ada, bob = table.ada, table.bob  # type: ignore[attr-defined]
    logs = ada.table()["log"], bob.table()["log"]
    bob.quit()
    ada.stop()
    ada = table.ada = table.launch("ada-alone")  # type: ignore[attr-defined]
    _offer(ada, logs[0], f"Reopen “{TABLE}” as Ada")
    ada.ask("click", window="start", target=f"Reopen “{TABLE}” as Ada")
    ada.ask_wait(lambda: ada.ask("dialog", window="lan-rejoin")["go"] == "Reopen", "Reopen")
    ada.ask("click", window="lan-rejoin", target="go")
    ada.window(f"^{TABLE} — ")
    bob = table.bob = table.launch("bob-back")  # type: ignore[attr-defined]
    _offer(bob, logs[1], f"Rejoin “{TABLE}” as Bob")
    bob.ask("click", window="start", target=f"Rejoin “{TABLE}” as Bob")
    back = bob.window(f"^{TABLE} — ")
    assert back["seats"] == [2]
    table.same(ada, bob, "one state hash after both came back, every op in both logs")


def test_every_seat_sees_the_end(table: Table) -> None:
    ada, bob = table.ada, table.bob  # type: ignore[attr-defined]
    window = f"^{TABLE} — "
    ada.ask("click", window=window, target="End the game…")
    ada.ask_wait(lambda: ada.ask("dialog", window="end-game-dialog"), "the End dialog")
    ada.ask("click", window="end-game-dialog", target="winners.2")  # Bob won
    ada.ask("click", window="end-game-dialog", target="OK")
    for app in (ada, bob):
        end = app.ask_wait(lambda app=app: app.table()["end"], f"{app.label}: the end shown")
        assert "The game is over" in end and "Bob won" in end, end
    bob.ask("click", window=window, target="Replay")
    replay = bob.ask_wait(lambda: [t for _n, t in bob.ask("shown") if "— replay —" in t],
                          "the replay window")[0]
    log = bob.table()["log"]
    assert Path(log).name in replay
    bob.ask("close", window=replay.replace("(", r"\(").replace(")", r"\)"))
    bob.ask("click", window=window, target="Start screen")
    start = bob.ask_wait(lambda: bob.ask("start"), "Bob's start screen")
    assert start["replay"] and "Bob won" in start["replay_note"], start
    assert log not in start["offers"] and not start["resume"], start
    places = json.loads((table.tmp / "home" / "lan-tables.json").read_text())
    assert [p["ended"] for p in places if p["log"] == log] == ["Bob won (by victory)"]
