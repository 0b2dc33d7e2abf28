"""Requests on another seat's hidden pile follow the owner's policy (127.0.0.1 only)."""

import asyncio

import pytest
from netplay_testkit import LOOPBACK, run, wait_until

from netplay.session.consent import OwnerRequest, decide
from netplay.session.lan_session import SessionOptions
from table import lan


def test_policies_decide():
    req = OwnerRequest("a" * 16, "Bob", 1, {"op": "draw"})

    async def scenario():
        assert await decide("always", None, req) == (True, "accept")
        assert await decide("never", None, req) == (False, "never")
        assert await decide("ask", None, req) == (False, "nobody to ask")

        async def slow(_r):
            await asyncio.sleep(5)
            return "accept"

        assert await decide("ask", slow, req, timeout=0.1) == (False, "unanswered")

        async def always(_r):
            return "always"

        assert await decide("ask", always, req) == (True, "always")
    run(scenario())


@pytest.mark.socket
def test_an_owner_that_takes_no_requests_refuses_and_loses_nothing(tmp_path):
    async def scenario():
        module = lan.module_for("mantle-of-the-keeper")
        opts = dict(interfaces=[LOOPBACK], announce=False)
        owner = await lan.host(module, table_name="no", seats=2, log_path=tmp_path / "a.log",
                               options=SessionOptions(allow_requests="never", **opts))
        bob = await lan.join(log_path=tmp_path / "b.log", connect=f"{LOOPBACK}:{owner.session.port}",
                             options=SessionOptions(**opts))
        await asyncio.gather(lan.take_seat(owner, 1), lan.take_seat(bob, 2))
        assert await wait_until(lambda: lan.setup_complete(bob.replica), 20)
        size = len(owner.replica.state.objs["p1.deck"].children)
        ok, error = await bob.session.request({"op": "draw", "from": "p1.deck", "to": "p2.hand"}, 1)
        assert not ok and error == "the owner's table does not take requests"
        assert len(owner.replica.state.objs["p1.deck"].children) == size
        await bob.close()
        await owner.close()
    run(scenario(), 60)
