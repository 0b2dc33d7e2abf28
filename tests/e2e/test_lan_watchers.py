"""Watchers and joint draws at a LAN table, end to end: `sandtable host/join` processes on 127.0.0.1.

Three players (Mantle of the Keeper) and two watchers: an honest `join --watch`, and a modified
client whose table does not refuse its ops (tests/e2e/rogue_watcher.py). The players play in
rounds with a pause between them; at every pause the watchers' tables match every player's
public view (the same ops, the same public state hash), from the setup to the end. The honest
watcher's move is refused by its own table; the rogue's goes out and is void on every peer,
and every peer reports it. When the game ends (an `end` op), each player's peer sends its
secrets to the watchers: the watcher's log then holds every op and every secret `log merge`
of the players' logs gives. The players' rolls and hidden-pile shuffles are drawn jointly, and
`sandtable check --audit` passes on every peer's log, the watchers' too.
"""
from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.e2e.test_lan_play import LOOPBACK, ROOT, Proc

pytestmark = pytest.mark.processes

ROGUE = Path(__file__).with_name("rogue_watcher.py")
GAME, PLAYERS, ROUNDS = "mantle-of-the-keeper", 3, 4
PAUSE = 1.0  # seconds between the players' rounds: the table settles in each pause


class RogueProc(Proc):
    """The same command, run by a client without the local refusal (tests/e2e/rogue_watcher.py)."""

    def __init__(self, *args: str) -> None:  # not super().__init__: it runs `-m table.app.cli`
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        self.proc = subprocess.Popen([sys.executable, str(ROGUE), *args], stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, env=env, cwd=str(ROOT))
        self.lines: list[str] = []
        self.errors: list[str] = []
        threading.Thread(target=self._pump, args=(self.proc.stdout, self.lines), daemon=True).start()
        threading.Thread(target=self._pump, args=(self.proc.stderr, self.errors), daemon=True).start()


def _write(path: Path, lines: list[dict]) -> Path:
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    return path


def _player_script(path: Path, seat: int, end: bool) -> Path:
    lines: list[dict] = []
    for i in range(ROUNDS):
        lines += [
            {"after": PAUSE, "op": "draw", "from": f"p{seat}.deck", "to": f"p{seat}.hand"},
            {"op": "move", "card": f"p{seat}.hand:top", "to": f"p{seat}.discard", "face_up": True},
            {"op": "draw", "from": f"p{seat}.deck", "to": f"p{seat}.hand"},
            {"op": "roll", "sides": 6},  # drawn jointly with the other players
            {"op": "chat", "text": f"seat {seat} round {i}"},
        ]
        if i == 1:  # a hidden pile shuffled from a jointly drawn seed
            lines.append({"op": "shuffle", "pile": f"p{seat}.deck"})
    if end:  # after the watchers' attempts
        lines.append({"after": 2 * PAUSE, "op": "end", "winners": [seat], "how": "victory"})
    return _write(path, lines)


def _watcher_script(path: Path) -> Path:
    return _write(path, [
        {"after": 2 * PAUSE, "op": "chat", "text": "watching"},
        {"op": "note", "text": "the opening looks slow"},
        {"op": "move", "card": "p1.discard:top", "to": "p2.discard"},
    ])


def _agreements(peers: list[Proc], until_done: list[Proc], timeout: float) -> list[tuple[int, str]]:
    """Every state (op count, public hash) on which all `peers` agreed at one moment, polled
    while the `until_done` peers play their scripts."""
    seen: list[tuple[int, str]] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        states = {p.status() for p in peers}
        if len(states) == 1 and None not in states:
            state = states.pop()
            if not seen or seen[-1] != state:
                seen.append(state)  # type: ignore[arg-type]
        if all(any(ln.startswith("SCRIPT DONE") for ln in p.lines) for p in until_done):
            break
        time.sleep(0.05)
    return seen


def _settled(peers: list[Proc], timeout: float) -> tuple[int, str]:
    """The state every peer holds once nothing moves for half a second (the records travel
    right after the end op)."""
    settled, deadline = None, time.monotonic() + timeout
    while time.monotonic() < deadline:
        states = {p.status() for p in peers}
        state = states.pop() if len(states) == 1 else None
        if state is not None and state == settled:
            return state  # type: ignore[return-value]
        settled = state
        time.sleep(0.5)
    raise AssertionError(f"peers did not converge: {[p.status() for p in peers]}")


def test_watchers_follow_the_table_and_get_the_complete_record(tmp_path: Path) -> None:
    from table.core.replica import Replica

    common = ["--headless", "--interfaces", LOOPBACK, "--no-announce", "--fast", "--status"]
    host = Proc("host", *common, "--game", GAME, "--table", "w " + secrets.token_hex(3),
                "--seats", str(PLAYERS), "--seat", "1", "--log", str(tmp_path / "p1.log"),
                "--script", str(_player_script(tmp_path / "s1", 1, end=True)))
    peers = [host]
    try:
        port = int(host.wait_line("TABLE", 20)[2])
        where = ["--connect", f"{LOOPBACK}:{port}"]
        watcher = Proc("join", *common, *where, "--watch", "--log", str(tmp_path / "w.log"),
                       "--script", str(_watcher_script(tmp_path / "ws")))
        rogue = RogueProc("join", *common, *where, "--watch", "--log", str(tmp_path / "r.log"),
                          "--script", str(_watcher_script(tmp_path / "rs")))
        peers += [watcher, rogue]
        watcher.wait_line("TABLE", 20)
        rogue.wait_line("TABLE", 20)
        players = [host]
        for seat in range(2, PLAYERS + 1):
            players.append(Proc("join", *common, *where, "--seat", str(seat), "--log",
                                str(tmp_path / f"p{seat}.log"), "--script",
                                str(_player_script(tmp_path / f"s{seat}", seat, end=False))))
        peers += players[1:]
        for p in players[1:]:
            p.wait_line("SEATED", 30)

        # throughout the game: at every pause all peers, watchers too, hold the same table
        agreed = _agreements(peers, players, 90)
        for p in peers:
            p.wait_line("SCRIPT DONE", 30)
        count, digest = _settled(peers, 40)
        during = [s for s in agreed if s[0] < count]
        assert len(during) >= ROUNDS, agreed  # the setup and the rounds' pauses, at least
        assert len({c for c, _h in during}) == len(during)  # each a later point in the game

        rogue_id = rogue.wait_line("TABLE", 1)[3]
        for p in peers:
            code, last = p.terminate()
            assert code == 0, p.errors[-10:]
            assert last == digest, (p.lines[-6:], p.errors[-6:])
            assert not [e for e in p.errors if "DIVERGENCE" in e or "Traceback" in e], p.errors

        # the honest watcher's own table refused its move; the rogue's went out, was void on
        # every peer (its own too) and every other peer reported it
        assert any(line == "SCRIPT DONE 1" for line in watcher.lines), watcher.lines[-5:]
        assert any("watches the table" in e for e in watcher.errors), watcher.errors
        for p in peers:
            if p is not rogue:
                assert any(f"peer {rogue_id}: a watcher cannot move" in e for e in p.errors), \
                    p.errors
        names = [f"p{s}" for s in range(1, PLAYERS + 1)]
        replicas = {name: Replica.from_log(tmp_path / f"{name}.log") for name in [*names, "w", "r"]}
        assert {r.public_state_hash() for r in replicas.values()} == {digest}
        for r in replicas.values():
            rogue_ops = [rec for rec in r.records() if rec.op.author == rogue_id
                         and rec.op.kind == "move"]
            assert len(rogue_ops) == 1 and rogue_ops[0].void is not None
        assert replicas["p1"].state.result["winners"] == [1]

        # the watcher's log: what `log merge` of the players' logs gives (every op, every secret)
        from table.core.merge import merge_logs

        merge_logs([tmp_path / f"{name}.log" for name in names], tmp_path / "merged.log")
        merged = Replica.from_log(tmp_path / "merged.log")
        mine = replicas["w"]
        assert {op.ref for op in mine.store.all_ops()} == {op.ref for op in merged.store.all_ops()}
        hidden = {h for op in merged.store.all_ops() if op.kind == "consume"
                  for h, _c in op.args["out"]} | {op.args["id"] for op in merged.store.all_ops()
                                                  if op.kind == "create" and op.args.get("commitment")}
        assert hidden and set(merged.knowledge.cards) == hidden
        assert {h: mine.knowledge.cards[h] for h in hidden if h in mine.knowledge.cards} == \
            merged.knowledge.cards
        assert mine.knowledge.decks == merged.knowledge.decks

        # the rolls and shuffles were drawn jointly, and every peer's log audits clean
        joint = [op for op in merged.store.all_ops() if op.args.get("fair") is not None]
        assert len([op for op in joint if op.kind == "roll"]) == PLAYERS * ROUNDS
        # each seat's deck: shuffled jointly at its setup, and once in play
        assert len([op for op in joint if op.kind == "consume"]) == 2 * PLAYERS
        assert not [op for op in merged.store.all_ops() if op.kind == "consume"
                    and op.args.get("why") == "shuffle" and op.args.get("fair") is None]
        # (the watcher's through the CLI, the others' here: the same audit, one process fewer)
        audit = subprocess.run([sys.executable, "-m", "table.app.cli", "check", "--audit",
                                str(tmp_path / "w.log")], capture_output=True, text=True,
                               cwd=str(ROOT), env=dict(os.environ, PYTHONPATH=str(ROOT)))
        assert audit.returncode == 0, (audit.stdout, audit.stderr)
        from table.core.audit import audit_log

        for name in [*names, "r"]:
            result = audit_log(tmp_path / f"{name}.log")
            assert not result.failures and not result.unverifiable, (name, result.summary())
        # the report marks the session's randomness as audited (the setup's shuffles too); a
        # hot-seat session as local
        from table.core.rng import Rng
        from table.games import find_module
        from table.games.setup import new_table
        from table.report.session import read_session
        from table.report.tables import session_rows

        hot = tmp_path / "hot.log"
        new_table(find_module("gauntlet"), 2, log_path=hot, rng=Rng(3)).close()
        watched, local = read_session(tmp_path / "w.log"), read_session(hot)
        assert (watched.randomness, local.randomness) == ("audited", "local")
        assert [r["randomness"] for r in session_rows([watched, local])] == \
            ["audited", "local"]
    finally:
        for p in peers:
            p.kill()
