"""The commit-reveal round among 6 simulated peers, in memory (no sockets): an honest roll, a
peer that never reveals, one whose reveal does not match its commitment, one that never
commits, shuffle shares going to the pile's owner only, and the ops the rounds produce."""
from __future__ import annotations

from typing import Any

import pytest

from netplay.draws.commit_reveal import FairReveal, FairRounds, FairStart, Named
from netplay.draws.reach import Reach
from netplay.draws.witness import DrawWitness
from table.bench.fair_sim import FakeClock, MemoryNet
from table.core import fair
from table.core.fair_ops import fair_roll
from table.core.replica import Replica

PEERS = [f"peer{n}" for n in range(1, 7)]


def _net(**options: Any) -> MemoryNet:
    return MemoryNet(PEERS, **options)


def _witnessed(net: MemoryNet, peer: str) -> Replica:
    """``peer``'s replica, whose witness judges the draws that arrive by what its rounds saw."""
    replica = Replica("tbl", peer)
    DrawWitness(replica, net.rounds[peer], Reach(lambda: 0, lambda _peer: 0))
    return replica


def test_an_honest_roll_among_six_peers_completes_without_waiting() -> None:
    net = _net()
    rid = net.start("peer3", "roll", meta={"sides": 6})
    [done] = net.drawn["peer3"]
    assert done.use == "roll" and done.meta == {"sides": 6} and net.named == []
    draw = done.draw
    assert draw.round == rid and set(draw.shares) == set(PEERS) and draw.missing == []
    assert fair.shares_problem(rid, draw.commits, draw.shares) is None
    # nobody waited for a timeout: the round ended on the messages alone
    assert isinstance(net.clock, FakeClock) and net.clock.now == 0.0
    # every participant saw every commitment before any reveal was sent
    order = [t for _, _, t in net.sent]
    assert order.index("fair_reveal") > max(i for i, t in enumerate(order) if t == "fair_commit")
    assert all(not r.rounds or list(r.rounds) == [rid] for r in net.rounds.values())


def test_a_peer_that_never_reveals_is_named_and_the_roll_uses_the_others() -> None:
    net = _net()
    net.drop = lambda sender, to, msg: sender == "peer5" and msg["t"] == "fair_reveal"
    net.start("peer1", "roll")
    assert net.drawn["peer1"] == []  # waiting for peer5's share
    net.advance(3.5)  # past the reveal timeout
    [done] = net.drawn["peer1"]
    assert done.draw.missing == ["peer5"] and "peer5" not in done.draw.shares
    assert len(done.draw.shares) == 5
    [(who, named)] = net.named
    assert who == "peer1" and named.peer == "peer5" and "did not reveal" in named.reason


def test_a_reveal_that_does_not_match_its_commitment_is_named_and_left_out() -> None:
    net = _net()

    def lie(sender: str, to: str, msg: dict[str, Any]) -> dict[str, Any]:
        if sender == "peer2" and msg["t"] == "fair_reveal":
            return {**msg, "s": "00" * 32}
        return msg
    net.tamper = lie
    net.start("peer4", "roll")
    [done] = net.drawn["peer4"]  # no wait: a bad share is as final as a good one
    assert done.draw.missing == ["peer2"] and "peer2" in done.draw.commits
    named = [(who, n.peer, n.reason) for who, n in net.named]
    assert ("peer4", "peer2", "revealed a share that does not match its commitment") in named


def test_a_peer_that_never_commits_is_left_out_when_the_initiator_fixes_the_set() -> None:
    net = _net()
    net.drop = lambda sender, to, msg: sender == "peer6" and msg["t"] == "fair_commit"
    rid = net.start("peer1", "roll")
    assert net.drawn["peer1"] == []
    net.advance(3.1)  # the commit timeout: the initiator fixes the set, the others reveal
    [done] = net.drawn["peer1"]
    assert done.draw.round == rid and "peer6" not in done.draw.commits
    assert len(done.draw.shares) == 5 and done.draw.missing == []
    assert any(n.peer == "peer6" and "did not commit" in n.reason for _, n in net.named)


def test_a_peer_that_leaves_before_committing_leaves_a_degraded_draw_of_everyone_else() -> None:
    """peer6 leaves while the others commit: the initiator tells the set (fair_open), every
    remaining peer reveals at once, and the draw names peer6 as left; nobody waits for a
    timeout and no honest peer is named."""
    net = _net()
    net.drop = lambda sender, to, msg: sender == "peer6"  # it never gets its commitment out
    rid = net.start("peer1", "roll")
    net.leave("peer6")
    [done] = net.drawn["peer1"]
    assert done.draw.round == rid and set(done.draw.shares) == set(PEERS) - {"peer6"}
    assert done.draw.absent == ["peer6"] and done.draw.left == ["peer6"]
    assert done.draw.missing == [] and net.clock.now == 0.0  # no timeout waited for
    assert fair.left_out(done.draw.roll_record()) == {"peer6": "left"}
    assert [n.peer for _, n in net.named] == []


def test_a_peer_that_leaves_after_committing_to_some_does_not_stall_the_others() -> None:
    """peer5's commitment reaches the initiator only, then it leaves: the others, who lack it,
    reveal on the initiator's fair_open (without it they would wait for peer5 for ever and be
    named for not revealing), and the draw names peer5 as left."""
    net = _net()
    net.drop = lambda sender, to, msg: sender == "peer5" and not (
        to == "peer1" and msg["t"] == "fair_commit")
    rid = net.start("peer1", "roll")
    assert net.drawn["peer1"] == []  # peer1 waits for every share, peer5's among them
    assert all(net.rounds[p].took_part[rid].revealed_at is not None
               for p in PEERS if p not in ("peer1", "peer5"))  # nobody else waits for peer5
    net.leave("peer5")
    [done] = net.drawn["peer1"]
    assert set(done.draw.shares) == set(PEERS) - {"peer5"}
    assert done.draw.missing == ["peer5"] and done.draw.left == ["peer5"]
    named = [(who, n.peer, n.reason) for who, n in net.named]
    assert named == [("peer1", "peer5", "left before revealing its share")]
    assert net.clock.now == 0.0


def test_shuffle_shares_go_to_the_piles_owner_only() -> None:
    net = _net()
    rid = net.start("peer2", "shuffle", meta={"pile": "p2.deck"})
    reveals = [(frm, to) for frm, to, t in net.sent if t == "fair_reveal"]
    assert sorted(reveals) == sorted((p, "peer2") for p in PEERS if p != "peer2")
    [done] = net.drawn["peer2"]
    assert done.draw.shuffle_record()["round"] == rid and "shares" not in \
        done.draw.shuffle_record()
    for peer in PEERS:
        if peer != "peer2":  # each remembers its share, to publish at the end of the game
            assert fair.share_matches(rid, peer, net.rounds[peer].my_shares[rid],
                                      done.draw.commits[peer])


def test_the_roll_op_is_checked_by_every_peer_and_a_forged_one_names_its_author() -> None:
    net = _net()
    replicas = {p: _witnessed(net, p) for p in PEERS}
    net.start("peer1", "roll")
    [done] = net.drawn["peer1"]
    op = fair_roll(replicas["peer1"], done.draw, sides=6, count=3, why="attack")
    assert op.args["values"] == fair.dice(done.draw.seed(), 6, 3)
    # every die one pip off: a forgery whatever the shares gave (all sixes could be the truth)
    forged = replicas["peer1"].issue("roll", {**op.args, "values": [
        v % 6 + 1 for v in op.args["values"]]})
    for peer in PEERS[1:]:
        replicas[peer].receive_many([op.to_wire(), forged.to_wire()], "peer1")
        first, second = replicas[peer].records()
        assert first.void is None and second.void is not None
        assert any(m.startswith("peer peer1: joint roll does not match its shares")
                   for m in replicas[peer].reports)
        # what it saw is what the op records; the forgery reused the round: flagged too
        assert op.ref not in replicas[peer].flags and forged.ref in replicas[peer].flags


def test_a_participant_names_an_initiator_that_drops_its_share_or_never_uses_the_round() -> None:
    net = _net()
    net.start("peer1", "roll")
    [done] = net.drawn["peer1"]
    slighted = fair.JointDraw(done.draw.round, done.draw.commits,
                              {p: s for p, s in done.draw.shares.items() if p != "peer3"},
                              ["peer3"])
    op = fair_roll(Replica("tbl", "peer1"), slighted, sides=6)
    witness = _witnessed(net, "peer3")
    witness.receive_many([op])
    assert any(r.startswith("peer peer1: left this peer's share out") for r in witness.reports)
    assert not witness.flags  # it may have come late: a degraded draw, said so, not a forgery
    # a round whose result the initiator throws away: every participant names it later
    net2 = _net()
    net2.start("peer2", "roll")
    net2.advance(30)
    assert {who for who, n in net2.named if n.peer == "peer2" and "never used" in n.reason} == \
        set(PEERS) - {"peer2"}


def test_a_lone_peer_cannot_start_a_joint_draw() -> None:
    with pytest.raises(ValueError, match="another peer"):
        FairRounds("me").start("roll", ["me"])


def test_malformed_messages_are_named_or_ignored() -> None:
    rounds = FairRounds("me")
    [named] = rounds.on_message("x", FairStart("x.r1", "roll", ["x", "me"], "zz"))
    assert isinstance(named, Named) and named.peer == "x" and "malformed" in named.reason
    # a round id that is not its sender's own is not taken: nobody can hijack another's round
    assert rounds.on_message("x", FairStart("y.r2", "roll", ["x", "me"], "ab" * 32)) == []
    assert rounds.rounds == {}
    assert rounds.on_message("x", FairReveal("nope", "00")) == []


@pytest.mark.socket
@pytest.mark.processes  # the first import of zeroconf's ifaddr runs `ldconfig -p`
def test_the_benchmark_runs_and_ends_with_json(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from table.app.cli import main

    assert main(["bench", "fair", "--rolls", "6"]) == 0
    last = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert last["peers"] == 6 and last["roll_loopback"]["p50_ms"] > 0
    assert last["shuffle60_op"]["p50_ms"] > 0
