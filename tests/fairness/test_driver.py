"""FairDriver: three replicas with their drivers, messages and ops passed in memory, as a LAN
session would pass them: joint rolls and shuffles issued, checked by the others, a peer that
stops answering named, a lone peer rolling locally, and the publication making every log
auditable."""
from __future__ import annotations

from collections import deque
from pathlib import Path

import msgpack

from netplay.draws.round_driver import ROUTED, FairDriver
from netplay.protocol.messages import Message, decode_message, encode_message
from table.bench.fair_sim import FakeClock
from table.core import actions as act
from table.core.audit import audit_log
from table.core.replica import Replica
from table.core.rng import Rng
from tests.core.tables import base_ops, sync_all

PEERS = ["peer1", "peer2", "peer3"]


class Table:
    def __init__(self, folder: Path) -> None:
        setup = base_ops(3)
        self.clock = FakeClock()
        self.queue: deque[tuple[str, str, Message]] = deque()
        self.silent: set[str] = set()  # peers whose messages are lost
        self.replicas, self.drivers = [], []
        for n, peer in enumerate(PEERS, start=1):
            r = Replica("tbl", peer, rng=Rng(n), log_path=folder / f"{peer}.sandlog")
            r.receive_many(setup.ops_missing_for({}))
            r.issue("seat", {"seat": n})
            self.replicas.append(r)
            self.drivers.append(FairDriver(r, self._sender(peer), clock=self.clock))
        for n, r in enumerate(self.replicas, start=1):
            act.new_cards(r, f"p{n}.deck", [f"c{n}-{i}" for i in range(10)], seat=n)
        self.pump()

    def _sender(self, peer: str):  # type: ignore[no-untyped-def]
        def send(to: str, msg: Message) -> None:
            wire = msgpack.unpackb(msgpack.packb(encode_message(msg), use_bin_type=True))
            self.queue.append((peer, to, decode_message(wire)))
        return send

    def pump(self) -> None:
        while True:
            while self.queue:
                sender, to, msg = self.queue.popleft()
                assert isinstance(msg, ROUTED)
                if sender not in self.silent:
                    self.drivers[PEERS.index(to)].on_message(sender, msg)
            before = [r.version_vector() for r in self.replicas]
            sync_all(self.replicas)
            if not self.queue and before == [r.version_vector() for r in self.replicas]:
                return

    def wait(self, seconds: float) -> None:
        self.clock.now += seconds
        for driver in self.drivers:
            driver.tick()
        self.pump()


def test_joint_rolls_and_shuffles_through_the_driver_audit_clean(tmp_path: Path) -> None:
    t = Table(tmp_path)
    d1, d2, _d3 = t.drivers
    assert d1.roll(PEERS, sides=20, count=2, why="attack", seat=1) is None  # not yet: a round
    assert d2.shuffle(PEERS, "p2.deck", seat=2) is None
    t.pump()
    [roll], [shuffle] = d1.issued, d2.issued
    assert roll.kind == "roll" and len(roll.args["fair"]["shares"]) == 3
    assert shuffle.args["fair"]["commits"].keys() == set(PEERS)
    act.draw(t.replicas[1], "p2.deck", "p2.hand", 2, seat=2)
    hand = list(t.replicas[1].state.objs["p2.hand"].children)
    d2.shuffle(PEERS, "p2.deck", seat=2, incoming=hand)
    t.pump()
    assert len(d2.issued) == 2 and t.replicas[0].state.objs["p2.hand"].children == []
    for r in t.replicas:
        assert r.reports == [] and r.records()[-1].void is None
    for d in t.drivers:
        d.publish(PEERS)
    t.pump()
    for r in t.replicas:
        r.close()
        result = audit_log(tmp_path / f"{r.peer_id}.sandlog")
        assert result.failures == [] and result.unverifiable == [], result
        assert (result.rolls, result.shuffles, result.local) == (1, 2, 0)


def test_a_peer_that_stops_answering_is_named_and_the_roll_goes_on(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.silent.add("peer3")
    t.drivers[0].roll(PEERS, seat=1)
    t.pump()
    assert t.drivers[0].issued == []
    t.wait(3.5)  # nobody committed for peer3: the set is fixed without it
    [roll] = t.drivers[0].issued
    assert set(roll.args["fair"]["commits"]) == {"peer1", "peer2"}
    assert any("peer peer3: did not commit in time" in m for m in t.replicas[0].reports)


def test_a_lone_peer_rolls_and_shuffles_locally(tmp_path: Path) -> None:
    t = Table(tmp_path)
    op = t.drivers[0].roll(["peer1"], sides=6, seat=1)
    assert op is not None and op.args["local"] is True and "fair" not in op.args
    op = t.drivers[0].shuffle([], "p1.deck", seat=1)
    assert op is not None and op.args["why"] == "shuffle" and "fair" not in op.args


def test_leaving_abandons_the_rounds_still_open_and_issues_nothing_after(tmp_path: Path) -> None:
    """A session closes its driver before replication stops: a round finished after that
    (the last commitments arriving, a link closing as the mesh stops) would issue its op into
    the leaver's log only. It is abandoned; the others drop it when the initiator's link goes."""
    t = Table(tmp_path)
    d1, d2, d3 = t.drivers
    before = t.replicas[0].version_vector()
    d1.roll(PEERS, sides=6, why="last roll")
    for _ in range(2):  # the round's start reaches the others; their commitments are queued
        sender, to, msg = t.queue.popleft()
        t.drivers[PEERS.index(to)].on_message(sender, msg)
    assert t.queue
    d1.close()
    t.pump()
    d1.peer_gone("peer2")
    t.wait(5)
    assert d1.issued == [] and t.replicas[0].version_vector() == before
    assert not d1.rounds.rounds
    for driver in (d2, d3):
        driver.peer_gone("peer1")
    t.wait(20)
    assert all(r.version_vector() == before for r in t.replicas)
    assert not any("never used" in m for r in t.replicas for m in r.reports)


def test_a_waiter_on_the_rounds_is_told_once_the_last_open_round_is_issued(tmp_path: Path) -> None:
    """A headless peer says it is done once its joint rounds are issued: the driver tells a
    waiter when none is open, not before, and tells a waiter that comes when none is open at
    once."""
    t = Table(tmp_path)
    d1 = t.drivers[0]
    told: list[int] = []
    d1.roll(PEERS, sides=6, why="first")
    d1.roll(PEERS, sides=6, why="second")
    assert d1.open_rounds == 2
    d1.when_settled(lambda: told.append(len(d1.issued)))
    assert told == []
    t.pump()
    assert told == [2] and d1.open_rounds == 0
    d1.when_settled(lambda: told.append(-1))
    assert told == [2, -1]
