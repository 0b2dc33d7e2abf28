"""Records too big for one message are split within the limits the receiver decodes with,
and merge back into the same record (netplay.protocol.splitting)."""
from __future__ import annotations

import pytest

from netplay.protocol.splitting import PUBLICATION_MAPS, RECORD_MAPS, split_maps
from netplay.protocol.wire import DEFAULT_LIMITS, WireLimits, pack, unpack
from table.core.fair import absorb_secrets
from table.core.knowledge import Knowledge


def _publication(cards: int, rounds: int) -> dict:
    return {"cards": {f"h{i:05d}": [f"card-{i % 60}", f"{i:032x}"] for i in range(cards)},
            "fair": {"rounds": {f"r{i}": {"pile": "p1.deck", "shares": {"a": "ab" * 16},
                                          "order": [f"card-{j}" for j in range(60)]}
                                for i in range(rounds)},
                     "piles": {"p1.deck": [f"card-{j}" for j in range(60)]}},
            "by": "a" * 16}


def test_a_long_games_publication_is_split_within_the_limits_and_merges_back():
    body = _publication(cards=1770, rounds=41)  # the size a 40-shuffle session reaches
    parts = split_maps(body, PUBLICATION_MAPS)
    assert len(parts) > 1
    merged = Knowledge()
    for part in parts:
        raw = pack({"t": "fair_pub", "body": part})
        assert len(raw) <= DEFAULT_LIMITS.max_frame // 4
        decoded = unpack(raw, DEFAULT_LIMITS)  # the receiver's own limits: no ValueError
        merged.absorb({"cards": decoded["body"]["cards"], "fair": decoded["body"]["fair"]})
        assert decoded["body"]["by"] == body["by"]
    assert {h: list(v) for h, v in merged.cards.items()} == body["cards"]
    fair: dict = {}
    absorb_secrets(fair, body["fair"])
    assert merged.fair == fair


def test_bytes_split_too_and_a_small_record_goes_whole():
    small = _publication(cards=10, rounds=2)
    assert split_maps(small, PUBLICATION_MAPS) == [small]
    tight = WireLimits(max_frame=64 * 1024)
    parts = split_maps(_publication(cards=900, rounds=200), RECORD_MAPS, tight)
    assert all(len(pack(p)) <= tight.max_frame // 4 for p in parts)
    assert sum(len(p["fair"]["rounds"]) for p in parts) == 200
    assert sum(len(p["cards"]) for p in parts) == 900


@pytest.mark.socket
def test_the_largest_records_travel_over_a_real_link_without_a_drop():
    """A 200-card hidden deck made in one op (a position's largest record), and the secrets
    of a long game (8,000 card secrets: 200 cards re-handled 40 times) sent as `fair_pub`
    parts, go over a real link on 127.0.0.1: the link stays, every part arrives whole."""
    import asyncio

    from netplay_testkit import LOOPBACK, ReplicaPeer, run, start_meshes, stop_all, wait_until

    import netplay.session.lan_session  # noqa: F401 - registers every message type (fair_pub)
    from netplay.draws.commit_reveal import FairPublication
    from netplay.mesh.events import MessageReceived
    from table.core import actions as act

    async def scenario() -> None:
        meshes = await start_meshes(2)
        a, b = (ReplicaPeer(m) for m in meshes)
        await a.mesh.connect(LOOPBACK, b.mesh.port)
        assert await wait_until(lambda: a.total() == 2 and b.total() == 2, 5)
        a.replica.issue("seat", {"seat": 1})
        act.create(a.replica, "p1.deck", "pile", owner=1, props={"visibility": "hidden"})
        op = act.new_cards(a.replica, "p1.deck", [f"card-{i}" for i in range(200)], seat=1)
        for seq in range(3, op.seq + 1):
            a.repl.publish(a.replica.store.get(a.mesh.peer_id, seq).to_wire())
        assert await wait_until(lambda: b.vv() == a.vv(), 10)
        assert len(b.replica.state.objs["p1.deck"].children) == 200
        got: list[FairPublication] = []
        b.mesh.events.subscribe(lambda e: isinstance(e, MessageReceived)
                                and isinstance(e.message, FairPublication)
                                and got.append(e.message))
        body = _publication(cards=8000, rounds=40)
        assert len(body["cards"]) > DEFAULT_LIMITS.max_map_len  # whole, it would drop the link
        parts = split_maps(body, PUBLICATION_MAPS)
        for part in parts:
            assert a.mesh.send(b.mesh.peer_id, {"t": "fair_pub", "body": part})
        assert await wait_until(lambda: len(got) == len(parts), 20)
        assert sum(len(m.body["cards"]) for m in got) == 8000
        await asyncio.sleep(0.3)
        assert a.mesh.peers() == [b.mesh.peer_id] and b.mesh.peers() == [a.mesh.peer_id]
        print(f"200-card op and {len(parts)} parts of an 8,000-secret record: link kept")
        for peer in (a, b):
            await peer.repl.stop()
        await stop_all(meshes)
    run(scenario(), 60)
