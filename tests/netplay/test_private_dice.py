"""Private dice flagged as they arrive (netplay.draws.private_dice), with no sockets: another
player's draw made alone while linked here and caught up is flagged, logged and fails the
audit; one from before the link, at a table allowing local draws, or a watcher's is not."""
from __future__ import annotations

from netplay.draws.private_dice import PrivateDiceWatch
from table.core import actions as act
from table.core.audit import audit_replica
from table.core.ops import Op
from table.core.replica import Replica


def _pair(tmp_path, *, linked=True, caught_up=True, local_draws=False, watch=False):
    me = Replica("t", "a" * 16, log_path=tmp_path / "me.log")
    other = Replica("t", "b" * 16)
    state = {"linked": linked, "caught_up": caught_up}
    PrivateDiceWatch(me, lambda: [other.peer_id] if state["linked"] else [],
                     lambda _peer: state["caught_up"])
    fields = {"game": "g", "seats": 2, **({"local_draws": True} if local_draws else {})}
    for op in (me.issue("hello", {}), me.issue("mark", {"what": "setup", "value": "table",
                                                         "fields": fields})):
        other.receive_many([op])
    me.receive_many([other.issue("hello", {"watch": True} if watch else {})])
    return me, other, state


def test_a_lone_roll_of_a_linked_player_is_flagged_logged_and_fails_the_audit(tmp_path):
    me, other, _ = _pair(tmp_path)
    roll = other.issue("roll", {"sides": 6, "values": [6]}, seat=2)
    me.receive_many([roll])
    assert roll.ref in me.flags
    assert any(f"peer {other.peer_id} (seat 2) rolled d6 as [6] alone" in r for r in me.reports)
    [failure] = audit_replica(me).failures
    assert failure.seat == 2 and failure.author == other.peer_id
    me.close()
    again = Replica.from_log(tmp_path / "me.log")  # the flag is in the log
    assert again.flags == me.flags and audit_replica(again).status == "failed"


def _hostile_roll(r: Replica) -> Op:
    """A roll from a hostile watcher's client: its own table would refuse it (`issue` does), so
    it stamps the op itself; every peer voids it."""
    return Op(r.peer_id, r.store.delivered(r.peer_id) + 1, r.store.max_lamport + 1, "roll",
              {"sides": 6, "values": [2]}, {}, 0.0, None)


def test_draws_from_before_the_link_or_allowed_or_a_watchers_are_not_flagged(tmp_path):
    for i, options in enumerate(({"caught_up": False}, {"linked": False},
                                 {"local_draws": True}, {"watch": True})):
        path = tmp_path / str(i)
        path.mkdir()
        me, other, state = _pair(path, **options)
        shuffle = _hostile_roll(other) if options.get("watch") \
            else other.issue("roll", {"sides": 6, "values": [2]})
        me.receive_many([shuffle])
        assert not me.flags, options
        # judged once: the same op re-applied later (a rollback) is not flagged either
        state.update(linked=True, caught_up=True)
        early = me.issue("note", {"text": "sorts before"})
        me._fold([early])  # noqa: SLF001 - a rollback's re-apply, forced: no public way to cause one
        assert not me.flags, options


def test_a_restarted_peer_does_not_judge_the_draws_its_log_already_holds(tmp_path):
    me, other, _ = _pair(tmp_path, caught_up=False)
    me.receive_many([other.issue("roll", {"sides": 6, "values": [3]})])
    me.close()
    again = Replica.from_log(tmp_path / "me.log", reopen=True)
    PrivateDiceWatch(again, lambda: [other.peer_id], lambda _peer: True)
    again.refold()  # every record applied again
    assert not again.flags
    act.roll(again, sides=6)  # this peer's own roll is never judged here
    assert not again.flags
