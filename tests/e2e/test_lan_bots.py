"""A LAN table with bot seats plays to its end, each bot in its own headless peer; the bot's peer
holds no secret of another seat: every card identity its peer received privately before the
game's end (when players may publish their secrets) is of its own seat's cards."""
from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = [pytest.mark.socket, pytest.mark.processes]

BASE = [sys.executable, "-m", "table.app.cli"]
COMMON = ["--headless", "--interfaces", "127.0.0.1", "--no-announce", "--fast"]


def _port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_bots_play_a_lan_table_to_its_end_holding_only_their_seat(tmp_path: Path) -> None:
    port = _port()
    host = subprocess.Popen([*BASE, "host", *COMMON, "--game", "gauntlet", "--table", "bots",
                             "--seat", "1", "--bot", "gauntlet-heuristic", "--port", str(port),
                             "--log", str(tmp_path / "host.sandlog")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert host.stdout is not None
        assert host.stdout.readline().startswith("TABLE ")
        join = subprocess.run([*BASE, "join", *COMMON, "--connect", f"127.0.0.1:{port}",
                               "--seat", "2", "--bot", "gauntlet-random",
                               "--log", str(tmp_path / "bot.sandlog")],
                              capture_output=True, text=True, timeout=240)
        assert "BOT DONE ended" in join.stdout, join.stderr[-2000:]
        deadline = time.monotonic() + 60
        while host.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)
    finally:
        host.terminate()
        host.wait(timeout=30)
    _assert_own_secrets_only(tmp_path / "bot.sandlog", seat=2)


def _assert_own_secrets_only(path: Path, seat: int) -> None:
    from table.core.logfile import read_log
    from table.core.replica import Replica

    replica = Replica.from_log(path)
    state = replica.state
    ends = [rec.op for rec in replica.records() if rec.op.kind == "end"]
    assert ends and ends[-1].args["how"] == "victory"
    private = 0
    for record in read_log(path).records:
        if isinstance(record, list):
            if record[3] == "end":
                break  # the game is over: the players may publish their secrets now
            continue
        if "op" in record and record["op"][3] == "end":
            break
        payload = record.get("private") or record.get("secret") or {}
        for handle in (payload.get("cards") or {}) if isinstance(payload, dict) else {}:
            private += 1
            obj = state.objs.get(handle)
            assert obj is not None and obj.owner == seat, (handle, obj and obj.owner)
    assert private > 50
    replica.close()


def test_a_bot_taken_out_of_its_seat_gives_it_up(tmp_path: Path) -> None:
    """What "Remove the bot" does at a LAN table (table/app/lan_bots.py): the bot's peer is
    stopped (SIGTERM), gives its seat up and leaves; the host's table has the seat free."""
    import asyncio

    from netplay.session.lan_session import SessionOptions
    from table import lan
    from table.lan.table import until_changed

    async def scenario() -> None:
        opts = SessionOptions(interfaces=["127.0.0.1"], announce=False, player_name="Ada")
        t = await lan.host(lan.module_for("dead-to-rites"), table_name="b", seats=4,
                           log_path=tmp_path / "host.sandlog", options=opts)
        bot = None
        try:
            await lan.take_seat(t, 1, name="Ada")
            bot = await asyncio.create_subprocess_exec(
                *BASE, "join", *COMMON, "--connect", f"127.0.0.1:{t.session.port}", "--seat",
                "2", "--bot", "dead-to-rites-random", "--log", str(tmp_path / "bot.sandlog"),
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
            r = t.replica
            assert await until_changed(r, lambda: 2 in r.state.seats, timeout=20)  # (3, 4 free)
            bot.terminate()
            out, err = await asyncio.wait_for(bot.communicate(), 20)
            assert bot.returncode == 0 and b"BOT DONE stopped" in out, err[-2000:]
            assert await until_changed(r, lambda: 2 not in r.state.seats, timeout=10)  # free
        finally:
            if bot is not None and bot.returncode is None:
                bot.kill()
            await t.close()

    asyncio.run(scenario())

