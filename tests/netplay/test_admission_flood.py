"""Admission a flood cannot fill (real sockets, loopback only, in the test's own namespace):
idle connections from 100 and from 1,000 loopback addresses (127.0.0.2 on), each reopened as
soon as it is closed, by a flooder in its own process, while a first-time joiner joins and
takes a seat. The joiner is seated; how long it took is printed (the acceptance figures are
5 s with 100 addresses and 15 s with 1,000), never asserted, only bounded by a generous
timeout. The sans-IO rules themselves are tested in test_admission.py.
"""
from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

import pytest
from netplay_testkit import FAST_MESH, LOOPBACK, run, wait_until

from netplay.session.lan_session import SessionOptions
from table import lan

pytestmark = [pytest.mark.socket, pytest.mark.processes]
HERE = Path(__file__).resolve().parent


@pytest.mark.parametrize(("addresses", "bound"), [(0, 60.0), (100, 60.0), (1000, 90.0)])
def test_a_joiner_is_seated_through_a_flood_of_idle_connections(tmp_path, addresses, bound):
    async def scenario() -> float:
        options = lambda: SessionOptions(interfaces=[LOOPBACK], announce=False,  # noqa: E731
                                         passphrase="pw", mesh=FAST_MESH)
        host = await lan.host(lan.module_for("gauntlet"), table_name="flood", seats=2,
                              log_path=tmp_path / "h.log", options=options())
        await lan.take_seat(host, 1)
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(HERE), str(HERE.parents[1])]))
        flood = await asyncio.create_subprocess_exec(
            sys.executable, str(HERE / "idle_flood.py"), "--port", str(host.session.port),
            "--addresses", str(addresses), stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, env=env)
        assert flood.stdin is not None and flood.stdout is not None
        try:
            assert (await asyncio.wait_for(flood.stdout.readline(), 30)).strip() == b"FLOODING"
            admission = host.session.mesh.admission
            held = admission.pending  # the flood's idle connections, as the join begins
            t0 = time.monotonic()
            joiner = await lan.join(log_path=tmp_path / "j.log",
                                    connect=f"{LOOPBACK}:{host.session.port}",
                                    options=options(), timeout=bound)
            joined = time.monotonic() - t0
            await lan.take_seat(joiner, 2)
            assert await wait_until(lambda: 2 in host.replica.state.seats
                                    and 2 in joiner.replica.state.seats, bound)
            seated = time.monotonic() - t0
            evicted = admission.evicted
        finally:
            flood.stdin.close()
            out = (await asyncio.wait_for(flood.stdout.read(), 30)).decode().split()
            await flood.wait()
        print(f"{addresses} addresses: joiner in the table in {joined:.2f} s, seated in "
              f"{seated:.2f} s; {held} idle "
              f"connections held as it began; the host closed {evicted} of them for "
              f"newcomers; the flood reopened {out[-1] if out else '?'}")
        # the flood was there (more than the old 64 handshake slots, up to the idle pool)
        assert held >= min(addresses, admission.limits.idle) // 2
        await joiner.close()
        await host.close()
        return seated

    run(scenario(), bound + 60)


def test_a_joiner_in_its_own_process_is_seated_while_the_flood_overflows_the_idle_pool(
        tmp_path):
    """More idle connections than the pool holds (1,000 addresses against a pool cut to 256):
    every newcomer closes the longest-waiting silent one, so the flood churns; a joiner
    (`sandtable join` in its own process, as on another machine) still gets in, since its
    hello arrives with its connection. Its time is printed; the bound is generous."""
    from dataclasses import replace

    from netplay.mesh.admission import AdmissionLimits
    from tests.e2e.test_lan_play import Proc

    async def scenario() -> None:
        mesh = replace(FAST_MESH, admission=AdmissionLimits(idle=256))
        host = await lan.host(lan.module_for("gauntlet"), table_name="flood", seats=2,
                              log_path=tmp_path / "h.log",
                              options=SessionOptions(interfaces=[LOOPBACK], announce=False,
                                                     passphrase="pw", mesh=mesh))
        await lan.take_seat(host, 1)
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(HERE), str(HERE.parents[1])]))
        flood = await asyncio.create_subprocess_exec(
            sys.executable, str(HERE / "idle_flood.py"), "--port", str(host.session.port),
            "--addresses", "1000", stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, env=env)
        assert flood.stdin is not None and flood.stdout is not None
        joiner = None
        try:
            assert (await asyncio.wait_for(flood.stdout.readline(), 30)).strip() == b"FLOODING"
            admission = host.session.mesh.admission
            assert await wait_until(lambda: admission.evicted > 0, 10)  # it overflows
            t0 = time.monotonic()
            joiner = Proc("join", "--headless", "--connect", f"{LOOPBACK}:{host.session.port}",
                          "--seat", "2", "--passphrase", "pw", "--interfaces", LOOPBACK,
                          "--fast", "--no-announce", "--timeout", "60",
                          "--log", str(tmp_path / "j.log"))
            loop = asyncio.get_running_loop()
            await loop.run_in_executor(None, joiner.wait_line, "SEATED", 90)
            seated = time.monotonic() - t0  # from the process's start: it imports first
            assert await wait_until(lambda: 2 in host.replica.state.seats, 30)
            print(f"pool 256, 1000 addresses: the joiner process was seated {seated:.2f} s "
                  f"after it started; {admission.evicted} idle connections closed for "
                  f"newcomers so far")
        finally:
            if joiner is not None:
                joiner.kill()
            flood.stdin.close()
            await asyncio.wait_for(flood.stdout.read(), 30)
            await flood.wait()
            await host.close()

    run(scenario(), 180)
