"""Another player's draws judged as they arrive (netplay.draws.witness), with no sockets: a draw
made alone, or a "joint" one without this player, while its author could reach this player
(a link whose first vv shows the op came after it, from the author's first op, caught_up or
not; or an op that depends on one of this player's made since) is flagged, logged and fails the
audit; so is one that records a commitment in this player's name that it never made. A draw
from before the link, at a table allowing local draws, a watcher's, or one of a round this
player took part in as it saw it, is not."""
from __future__ import annotations

from netplay.draws.commit_reveal import FairRounds
from netplay.draws.reach import Reach
from netplay.draws.witness import DrawWitness
from table.core import actions as act
from table.core import fair
from table.core.audit import audit_replica
from table.core.ops import Op
from table.core.replica import Replica

ME, OTHER = "a" * 16, "b" * 16


class Clock:
    now = 100.0

    def __call__(self) -> float:
        return self.now


def _pair(tmp_path, *, local_draws=False, watch=False):
    me = Replica("t", ME, log_path=tmp_path / "me.log")
    other = Replica("t", OTHER)
    fields = {"game": "g", "seats": 2, **({"local_draws": True} if local_draws else {})}
    for op in (me.issue("hello", {}), me.issue("mark", {"what": "setup", "value": "table",
                                                         "fields": fields})):
        other.receive_many([op])
    me.receive_many([other.issue("hello", {"watch": True} if watch else {})])
    clock = Clock()
    reach = Reach(lambda: me.store.delivered(ME), me.store.delivered, clock)
    witness = DrawWitness(me, FairRounds(ME, clock=clock), reach, clock=clock)
    return me, other, reach, witness, clock


def _linked(reach: Reach, witness: DrawWitness, own_ops_before: int | None) -> None:
    """OTHER linked here; its first vv (None: it sends none, its ops come first)."""
    reach.link_opened(OTHER)
    reach.update([OTHER])
    if own_ops_before is None:
        reach.ops_first(OTHER)
    else:
        reach.first_vv(OTHER, own_ops_before)
    witness.link_settled(OTHER)


def test_a_lone_roll_of_a_linked_player_is_flagged_logged_and_fails_the_audit(tmp_path):
    me, other, reach, witness, _ = _pair(tmp_path)
    _linked(reach, witness, other.store.delivered(OTHER))
    roll = other.issue("roll", {"sides": 6, "values": [6]}, seat=2)
    me.receive_many([roll])
    assert roll.ref in me.flags
    assert any(f"peer {OTHER} (seat 2) rolled d6 as [6] alone" in r for r in me.reports)
    [failure] = audit_replica(me).failures
    assert failure.seat == 2 and failure.author == OTHER
    me.close()
    again = Replica.from_log(tmp_path / "me.log")  # the flag is in the log
    assert again.flags == me.flags and audit_replica(again).status == "failed"


def test_a_peer_that_sends_its_ops_before_any_vv_is_judged_from_its_first_op(tmp_path):
    """No caught_up, no vv: its ops are judged from what this peer held of it at the link."""
    me, other, reach, witness, _ = _pair(tmp_path)
    reach.link_opened(OTHER)
    reach.update([OTHER])
    roll = other.issue("roll", {"sides": 6, "values": [6]}, seat=2)
    me.receive_many([roll])
    assert not me.flags  # waits for the link to say which of its ops came before it
    reach.ops_first(OTHER)
    witness.link_settled(OTHER)
    assert roll.ref in me.flags


def test_draws_from_before_the_link_or_allowed_or_a_watchers_are_not_flagged(tmp_path):
    for i, options in enumerate(({}, {"local_draws": True}, {"watch": True})):
        path = tmp_path / str(i)
        path.mkdir()
        me, other, reach, witness, _ = _pair(path, **options)
        early = _hostile_roll(other) if options.get("watch") \
            else other.issue("roll", {"sides": 6, "values": [2]})
        _linked(reach, witness, other.store.delivered(OTHER))  # it rolled before the link
        me.receive_many([early])
        later = _hostile_roll(other) if options.get("watch") \
            else other.issue("roll", {"sides": 6, "values": [3]})
        me.receive_many([later])
        assert not me.flags if options else list(me.flags) == [later.ref], options


def _hostile_roll(r: Replica) -> Op:
    """A roll from a hostile watcher's client: its own table would refuse it (`issue` does), so
    it stamps the op itself; every peer voids it."""
    return Op(r.peer_id, r.store.delivered(r.peer_id) + 1, r.store.max_lamport + 1, "roll",
              {"sides": 6, "values": [2]}, {}, 0.0, None)


def _joint(other: Replica, commits: dict[str, str], missing: list[str], n: int) -> Op:
    """A "joint" roll ``other`` makes up: its own share, the commitments it names."""
    rid = f"{OTHER}.feedface{n:08x}"
    share = fair.new_share()
    commits = {OTHER: fair.share_commit(rid, OTHER, share), **commits}
    shares = {OTHER: share, **{p: "cd" * 32 for p in commits if p != OTHER and p not in missing}}
    commits.update({p: fair.share_commit(rid, p, "cd" * 32) for p in shares if p != OTHER})
    draw = fair.JointDraw(rid, commits, shares, missing)
    return other.issue("roll", {"sides": 6, "values": fair.dice(draw.seed(), 6, 1),
                                "fair": draw.roll_record()}, seat=2)


def test_a_joint_roll_without_this_player_or_with_a_forged_commitment_is_flagged(tmp_path):
    me, other, reach, witness, clock = _pair(tmp_path)
    clock.now += 8  # this peer has been up a while: it remembers every round it was in
    _linked(reach, witness, other.store.delivered(OTHER))
    third = "c" * 16
    alone = _joint(other, {}, [], 1)  # a "joint" record of its author alone: private dice
    early = _joint(other, {third: ""}, [], 2)  # with a third peer, not this one
    forged = _joint(other, {ME: "ab" * 32}, [ME], 3)  # "missing", a made-up commitment
    me.receive_many([alone, early, forged])
    assert "alone while linked" in me.flags[alone.ref]
    assert early.ref not in me.flags  # within a round's span of the link: it may predate it
    assert "a commitment in player" in me.flags[forged.ref]
    clock.now += 8
    later = _joint(other, {third: ""}, [], 4)
    me.receive_many([later])
    assert "made a joint draw without player" in me.flags[later.ref]
    assert [f.number for f in audit_replica(me).failures] == [4, 6, 7]


def test_an_op_that_depends_on_this_players_later_op_was_made_while_it_could_reach_it(
        tmp_path):
    """No link of its own (a common peer carries both ways): the causal rule dates it."""
    me, other, reach, _witness, _ = _pair(tmp_path)
    reach.update([OTHER])  # reachable through a common peer
    mine = act.roll(me, sides=6)  # after it became reachable
    assert mine is not None
    other.receive_many([mine])
    roll = other.issue("roll", {"sides": 6, "values": [5]}, seat=2)
    me.receive_many([roll])
    assert roll.ref in me.flags


def test_a_restarted_peer_does_not_judge_the_draws_its_log_already_holds(tmp_path):
    me, other, _reach, _witness, _ = _pair(tmp_path)
    me.receive_many([other.issue("roll", {"sides": 6, "values": [3]})])
    me.close()
    again = Replica.from_log(tmp_path / "me.log", reopen=True)
    reach = Reach(lambda: again.store.delivered(ME), again.store.delivered)
    DrawWitness(again, FairRounds(ME), reach)
    reach.link_opened(OTHER)
    reach.update([OTHER])
    reach.first_vv(OTHER, 0)
    again.refold()  # every record applied again
    assert not again.flags
    act.roll(again, sides=6)  # this peer's own roll is never judged here
    assert not again.flags
