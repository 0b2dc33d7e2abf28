"""`sandtable check --audit`: an honest LAN session (three replicas exchanging ops, joint rolls
and shuffles drawn by netplay.draws.commit_reveal in memory, the end-of-game publication, `log merge`) audits
clean; a peer whose software ignores the joint seed for a shuffle or a die, lies about the
order it shuffled, or draws from the middle of its deck is caught with the op named."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from table.app.cli import main
from table.bench.fair_sim import MemoryNet
from table.core import actions as act
from table.core import commit, fair
from table.core.audit import audit_log, audit_summary
from table.core.fair_ops import fair_roll, fair_shuffle, publish, receive_publication
from table.core.merge import merge_logs
from table.core.ops import Op
from table.core.replica import Replica
from table.core.rng import Rng
from table.games.registry import find_module
from table.games.setup import new_table
from tests.core.tables import base_ops, sync_all

PEERS = ["peer1", "peer2", "peer3"]
Cheat = Callable[["Session"], Any]


class Session:
    """Three peers, one seat each, a hidden 12-card deck each; joint draws in memory."""

    def __init__(self, folder: Path) -> None:
        setup = base_ops(3)
        self.replicas: list[Replica] = []
        for n, peer in enumerate(PEERS, start=1):
            r = Replica("tbl", peer, rng=Rng(n), log_path=folder / f"{peer}.sandlog")
            r.receive_many(setup.ops_missing_for({}))
            r.issue("seat", {"seat": n, "name": f"P{n}"})
            self.replicas.append(r)
        for n, r in enumerate(self.replicas, start=1):
            act.new_cards(r, f"p{n}.deck", [f"card-{n}-{i:02d}" for i in range(12)], seat=n)
        self.net = MemoryNet(PEERS)
        self.folder = folder
        self.sync()

    def sync(self) -> None:
        sync_all(self.replicas)

    def draw(self, initiator: int, use: str) -> fair.JointDraw:
        self.net.start(PEERS[initiator - 1], use)
        return self.net.drawn[PEERS[initiator - 1]].pop().draw

    def shuffle(self, n: int) -> None:
        fair_shuffle(self.replicas[n - 1], f"p{n}.deck", self.draw(n, "shuffle"), seat=n)
        self.sync()

    def roll(self, n: int) -> None:
        fair_roll(self.replicas[n - 1], self.draw(n, "roll"), sides=6, count=2, seat=n)
        self.sync()

    def play(self, cheat: Cheat | None = None) -> Path:
        for n in (1, 2, 3):
            self.shuffle(n)
        for n in (1, 2, 3):
            act.draw(self.replicas[n - 1], f"p{n}.deck", f"p{n}.hand", 3, seat=n)
        self.sync()
        self.roll(1)
        self.roll(3)
        if cheat is not None:
            cheat(self)
            self.sync()
        act.move_all(self.replicas[0], "p1.hand", "p1.deck", seat=1)  # cards back on the deck
        self.shuffle(1)
        act.draw(self.replicas[0], "p1.deck", "p1.hand", 2, seat=1)
        hand = list(self.replicas[2].state.objs["p3.hand"].children)  # "shuffle your hand in"
        fair_shuffle(self.replicas[2], "p3.deck", self.draw(3, "shuffle"), incoming=hand, seat=3)
        self.sync()
        assert self.replicas[0].state.objs["p3.hand"].children == []
        return self.finish()

    def finish(self, tamper: Callable[[str, dict[str, Any]], None] | None = None) -> Path:
        bodies = [(r.peer_id, publish(r, self.net.rounds[r.peer_id].my_shares))
                  for r in self.replicas]
        for sender, body in bodies:
            if tamper is not None:
                tamper(sender, body)
        for r in self.replicas:
            for sender, body in bodies:
                if sender != r.peer_id:
                    assert receive_publication(r, body, sender) == []
            r.close()
        merged = self.folder / "merged.sandlog"
        merge_logs([self.folder / f"{p}.sandlog" for p in PEERS], merged)
        return merged


def test_an_honest_session_audits_clean(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    merged = Session(tmp_path).play()
    assert main(["check", "--audit", str(merged)]) == 0
    out = capsys.readouterr().out
    assert "audit: 2 rolls, 5 shuffles verified; 0 local" in out and "FAILED" not in out
    assert audit_summary(merged) == "audited"
    # each peer's own log holds everything after the publication: it audits clean alone
    for peer in PEERS:
        result = audit_log(tmp_path / f"{peer}.sandlog")
        assert result.failures == [] and result.unverifiable == []
        assert (result.rolls, result.shuffles) == (2, 5) and result.draws >= 4


def test_without_the_publication_the_shuffles_cannot_be_verified(tmp_path: Path) -> None:
    session = Session(tmp_path)
    session.shuffle(2)
    session.roll(2)
    for r in session.replicas:
        r.close()
    result = audit_log(tmp_path / "peer1.sandlog")
    assert result.rolls == 1 and result.failures == []
    assert [f.number for f in result.unverifiable] and result.status == "unverifiable"
    assert main(["check", "--audit", str(tmp_path / "peer1.sandlog")]) == 2


def _stacked_shuffle(s: Session) -> Op:
    """Peer 2's software runs the round, records it, and ignores the seed: the deck sorted
    (the op fair_shuffle makes, with the order the cheater likes; written out, as a compiled
    core's calls cannot be patched)."""
    r, draw = s.replicas[1], s.draw(2, "shuffle")
    before = [r.knowledge.card_of(h) or "" for h in r.state.objs["p2.deck"].children]
    return _shuffle_of_p2_deck(r, draw, sorted(before, reverse=True), before)


def _shuffle_of_p2_deck(r: Replica, draw: fair.JointDraw, dealt: list[str],
                        order: list[str]) -> Op:
    """Peer 2's fair shuffle of its deck as its software issues it, with the cards `dealt` in
    this order and `order` recorded as the pre-shuffle order: whatever the cheater likes."""
    inputs = list(r.state.objs["p2.deck"].children)
    out, private = _committed(r, dealt)
    private["fair"] = {"rounds": {draw.round: {"pile": "p2.deck", "shares": dict(draw.shares),
                                               "order": order}}}
    return r.issue("consume", {"in": inputs, "expect": ["p2.deck"] * len(inputs),
                               "to": "p2.deck", "at": "bottom", "out": out, "owner": 2,
                               "why": "shuffle", "fair": draw.shuffle_record()},
                   seat=2, private=private)


def _committed(r: Replica, cards: list[str]) -> tuple[list[list[str]], dict[str, Any]]:
    """A consume's outputs as any peer's software commits them (a handle and a salted commitment
    per card; the secrets go in the op's private part): the cheater writes its own."""
    out: list[list[str]] = []
    secrets: dict[str, list[str]] = {}
    for card in cards:
        handle, salt = "h" + r.rng.token(8), r.rng.token(16)
        out.append([handle, commit.commitment(handle, card, salt)])
        secrets[handle] = [card, salt]
    return out, {"cards": secrets}


def _lying_order(s: Session) -> Op:
    """Peer 2 stacks its deck and claims a pre-shuffle order that the seed maps onto it."""
    r, draw = s.replicas[1], s.draw(2, "shuffle")
    pile = r.state.objs["p2.deck"]
    inputs = list(pile.children)
    stacked = sorted(r.knowledge.card_of(h) or "" for h in inputs)
    perm = fair.permutation(draw.seed(), len(inputs))
    claimed = [""] * len(inputs)
    for k, source in enumerate(perm):
        claimed[source] = stacked[k]
    return _shuffle_of_p2_deck(r, draw, stacked, claimed)


def _loaded_die(s: Session) -> Op:
    """Peer 3's software runs the round but states the faces it likes: double six, or double
    five when the seed really gave double six (else, once in 36 runs, it would not be lying)."""
    draw = s.draw(3, "roll")
    liked = [6, 6] if fair.dice(draw.seed(), 6, 2) != [6, 6] else [5, 5]
    return s.replicas[2].issue("roll", {"sides": 6, "values": liked,
                                        "fair": draw.roll_record()}, seat=3)


def _bottom_draw(s: Session) -> Op:
    """Peer 2 'draws' the bottom card of its deck."""
    r = s.replicas[1]
    bottom = r.state.objs[r.state.objs["p2.deck"].children[0]]
    return act.rehandle_into(r, r.state.objs["p2.hand"], [bottom], seat=2, why="draw")


def _restacked(s: Session) -> Op:
    """Peer 2 re-handles its deck in another order without calling it a shuffle."""
    r = s.replicas[1]
    pile = r.state.objs["p2.deck"]
    inputs = list(pile.children)
    names = sorted(r.knowledge.card_of(h) or "" for h in inputs)
    out, private = _committed(r, names)
    return r.issue("consume", {"in": inputs, "expect": ["p2.deck"] * len(inputs),
                               "to": "p2.deck", "at": "bottom", "out": out, "owner": 2,
                               "why": "receive"}, seat=2, private=private)


@pytest.mark.parametrize(("cheat", "author", "what"), [
    (_stacked_shuffle, "peer2", "the joint seed puts"),
    (_lying_order, "peer2", "pre-shuffle order says"),
    (_loaded_die, "peer3", "are not the faces its shares give"),
    (_bottom_draw, "peer2", "a draw from p2.deck took cards that were not on top"),
    (_restacked, "peer2", "a re-handle of p2.deck changed the order of its cards"),
])
def test_a_peer_that_ignores_the_joint_seed_is_caught_with_the_op_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], cheat: Cheat, author: str,
        what: str) -> None:
    cheats: list[Op] = []
    merged = Session(tmp_path).play(lambda s: cheats.append(cheat(s)))
    assert main(["check", "--audit", str(merged)]) == 1
    out = capsys.readouterr().out
    [failure] = [line for line in out.splitlines() if line.startswith("FAILED")]
    [op] = cheats
    assert op.author == author
    records = Replica.from_log(merged).records()
    number = next(i for i, rec in enumerate(records, start=1) if rec.op.ref == op.ref)
    assert failure.startswith(f"FAILED op {number} (author {author}, seat {op.seat}): ")
    assert what in failure
    assert audit_summary(merged) == "failed"


def test_a_published_deck_order_that_is_not_the_piles_is_caught(tmp_path: Path) -> None:
    session = Session(tmp_path)
    session.shuffle(2)

    def reorder(sender: str, body: dict[str, Any]) -> None:
        if sender == "peer2":
            body["fair"]["piles"]["p2.deck"].reverse()
    result = audit_log(session.finish(reorder))
    [failure] = result.failures
    assert failure.number == 0 and failure.author == "peer2" and failure.seat == 2
    assert "the published order of p2.deck" in failure.message


def test_hot_seat_randomness_is_marked_local(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "hot.sandlog"
    replica = new_table(find_module("mantle-of-the-keeper"), 2, rng=Rng(4), log_path=log)
    act.roll(replica, sides=6, seat=1)
    replica.close()
    rolls = [rec.op for rec in replica.records() if rec.op.kind == "roll"]
    assert rolls and all(op.args.get("local") is True for op in rolls)
    assert main(["check", "--audit", str(log)]) == 0
    out = capsys.readouterr().out
    assert "audit: 0 rolls, 0 shuffles verified;" in out and "local" in out
    assert audit_summary(log) == "local"


def test_a_file_that_is_not_a_log_gets_a_clear_error(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    junk = tmp_path / "notes.txt"
    junk.write_text("not a log")
    assert main(["check", "--audit", str(junk)]) == 1
    assert f"{junk}: not a Sandtable log" in capsys.readouterr().err


def test_a_shuffle_that_went_on_without_a_silent_peer_reads_as_degraded(tmp_path: Path) -> None:
    """Its shares check out, yet it is not joint with every peer: said so in the log and in
    the audit, naming the seat left out, and never counted as verified joint."""
    session = Session(tmp_path)
    net = session.net
    net.drop = lambda sender, to, msg: sender == "peer3" and msg["t"] == "fair_reveal"
    net.start("peer1", "shuffle")
    net.advance(3.5)  # past the reveal timeout
    [done] = net.drawn["peer1"]
    assert done.draw.missing == ["peer3"]
    op = fair_shuffle(session.replicas[0], "p1.deck", done.draw, seat=1)
    assert op.args["fair"]["missing"] == ["peer3"]
    session.sync()
    assert log_text(session.replicas[1], op).endswith(
        "(joint except seat 3, who did not reveal in time)")
    result = audit_log(session.finish())
    assert result.failures == [] and result.unverifiable == [] and result.shuffles == 0
    [degraded] = result.degraded
    assert degraded.message == "joint except seat 3, who did not reveal in time"
    assert degraded.seat == 1 and result.status == "degraded"
    assert "1 degraded (joint, a peer left out)" in result.summary()


def log_text(replica: Replica, op: Op) -> str:
    from table.core.render import Renderer

    record = replica.timeline.record_of(op.ref)
    assert record is not None
    return Renderer(replica.state, replica.knowledge, 2).line(record)
