"""The known traps of host-less sync, each one a rule in DESIGN.md."""
from __future__ import annotations

import pytest

from table.core import actions as act
from table.core import undoing
from table.core.actions import ActionError
from table.core.replica import Replica
from tests.core.tables import assert_cards_conserved, peers, sync, sync_all

TOTAL = 2 * 8 + 4  # two decks of 8 plus four public market cards


def test_two_peers_take_the_same_public_card_at_once() -> None:
    a, b = peers(2)
    act.move(a, "pub0", "p1.hand", seat=1)  # both grab market-0 into their hands, unaware
    act.move(b, "pub0", "p2.hand", seat=2)
    sync_all([a, b])
    assert a.public_state_hash() == b.public_state_hash()
    in_hands = len(a.state.objs["p1.hand"].children) + len(a.state.objs["p2.hand"].children)
    assert in_hands == 1  # exactly one of them got it, nobody got a copy
    assert_cards_conserved(a, TOTAL)
    voids = [r.void for r in a.records() if r.void]
    assert any("gone" in v or "no longer" in v for v in voids)


def test_shuffle_racing_a_take() -> None:
    a, b = peers(2)
    for card in ("pub0", "pub1", "pub2"):
        act.move(a, card, "discard", seat=1)
    sync_all([a, b])
    act.move(a, "pub2", "p1.deck", seat=1)  # peer 1 shuffles the discard into its deck...
    act.shuffle(a, "p1.deck", seat=1)
    act.move(b, "pub1", "play", seat=2)  # ...while peer 2 takes a card from that discard
    sync_all([a, b])
    assert a.public_state_hash() == b.public_state_hash()
    assert_cards_conserved(a, TOTAL)


def test_shuffle_of_a_pile_racing_a_take_of_its_card() -> None:
    a, b = peers(2)
    act.move(a, "pub0", "discard", seat=1)
    act.move(a, "pub1", "discard", seat=1)
    sync_all([a, b])
    discard = a.state.objs["discard"]
    act.rehandle_into(a, a.state.objs["p1.deck"], [a.state.objs[c] for c in discard.children],
                      seat=1, shuffle=True)
    act.move(b, "pub1", "play", seat=2)
    sync_all([a, b])
    assert a.public_state_hash() == b.public_state_hash()
    assert_cards_conserved(a, TOTAL)
    # whichever came first in canonical order won; the other is void
    assert sum(1 for r in a.records()[-2:] if r.void) == 1


def test_delete_racing_move() -> None:
    a, b = peers(2)
    a.issue("delete", {"id": "p2.token"}, seat=1)
    act.move(b, "p2.token", "market", seat=2)
    sync_all([a, b])
    assert a.public_state_hash() == b.public_state_hash()
    assert not a.state.objs["p2.token"].alive  # a move never revives a deleted object
    assert "p2.token" not in a.state.objs["market"].children


def test_move_onto_a_deleted_container_is_void_and_contents_survive() -> None:
    a, b = peers(2)
    act.move(a, "pub0", "discard", seat=1)
    sync_all([a, b])
    a.issue("delete", {"id": "discard"}, seat=1)
    act.move(b, "pub1", "discard", seat=2)
    sync_all([a, b])
    assert a.public_state_hash() == b.public_state_hash()
    assert not a.state.objs["discard"].alive
    assert a.state.objs["pub0"].container == "table"  # orphans land on the table
    assert a.state.objs["pub1"].container in ("market", "table")
    assert_cards_conserved(a, TOTAL)


def test_undo_racing_a_newer_move_by_another_peer_keeps_the_newer_move() -> None:
    for undo_first in (True, False):
        a, b = peers(2)
        act.move(a, "pub0", "play", seat=1)
        sync_all([a, b])
        act.move(b, "pub0", "discard", seat=2)  # newer move, by the other peer
        if not undo_first:
            sync(b, a)
            # a sees the newer move: the undo is refused before it is issued, naming it
            with pytest.raises(ActionError, match="P2 changed market-0 after moving market-0"):
                undoing.undo_last(a, seat=1)
        else:
            undoing.undo_last(a, seat=1)  # concurrent with b's move: the fold keeps b's
        sync_all([a, b])
        assert a.public_state_hash() == b.public_state_hash()
        assert a.state.objs["pub0"].container == "discard"


def test_undo_restores_only_what_is_still_current() -> None:
    (a,) = peers(1)
    act.counter(a, "favor", add=3, seat=1)
    act.move(a, "pub0", "play", seat=1)
    undoing.undo_last(a, seat=1)
    assert a.state.objs["pub0"].container == "market"
    undoing.undo_last(a, seat=1)
    assert a.state.objs["favor"].counters["value"] == 0


def test_move_delivered_before_its_create() -> None:
    a, b = peers(2)
    create = act.create(a, "die1", "die", props={"sides": 6})
    move = act.move(a, "die1", "market")
    assert b.receive(move.to_wire()) == []  # waits for its create
    assert b.state.get("die1") is None
    delivered = b.receive(create.to_wire())
    assert [op.ref for op in delivered] == [create.ref, move.ref]
    assert b.state.objs["die1"].container == "market"
    assert a.public_state_hash() == b.public_state_hash()


def test_late_op_rolls_back_and_reapplies() -> None:
    a, b, c = peers(3)
    early = act.counter(a, "favor", value=5, seat=1)  # concurrent with b's op below
    act.counter(b, "favor", add=1, seat=2)
    sync(b, c)
    sync(a, c)  # a's op sorts before b's: c rolls back b's add and re-applies it
    sync_all([a, b, c])
    hashes = {r.public_state_hash() for r in (a, b, c)}
    assert len(hashes) == 1
    expected = 6 if early.key < b.records()[-1].op.key else 5
    assert c.state.objs["favor"].counters["value"] == expected


def test_reveal_that_does_not_match_its_commitment_is_rejected_and_reported() -> None:
    a, b = peers(2)
    act.draw(a, "p1.deck", "p1.hand", 1, seat=1)
    sync_all([a, b])
    handle = a.state.objs["p1.hand"].children[0]
    a.issue("reveal", {"id": handle, "card": "forged-card", "salt": "00"}, seat=1)
    sync(a, b)
    assert b.state.objs[handle].card is None
    assert any("does not match its commitment" in msg for msg in b.reports)


def test_only_the_owner_touches_hidden_cards() -> None:
    a, b = peers(2)
    act.draw(a, "p1.deck", "p1.hand", 2, seat=1)
    sync_all([a, b])
    victim = a.state.objs["p1.hand"].children[0]
    b.issue("move", {"id": victim, "to": "play"}, seat=2)
    sync_all([a, b])
    assert a.state.objs[victim].container == "p1.hand"
    assert "only seat 1" in (a.records()[-1].void or "")


def test_counters_hold_raw_values() -> None:
    (a,) = peers(1)
    act.counter(a, "favor", add=-7, seat=1)
    assert a.state.objs["favor"].counters["value"] == -7  # never clamped


def test_same_sequence_number_with_other_content_is_refused() -> None:
    import pytest

    from table.core.errors import CausalityError

    a, b = peers(2)
    op = act.counter(a, "favor", add=1, seat=1)
    sync(a, b)
    forged = op._replace(args={"id": "favor", "add": 100}).to_wire()
    with pytest.raises(CausalityError):
        b.receive(forged)


def test_a_stamp_that_skips_ahead_is_refused() -> None:
    import pytest

    from table.core.errors import CausalityError

    a, b = peers(2)
    op = act.counter(a, "favor", add=1, seat=1)
    bad = op._replace(lamport=op.lamport + 1000).to_wire()
    with pytest.raises(CausalityError):
        b.receive(bad)
    assert isinstance(b, Replica)


def test_set_position_and_rotation_state_results() -> None:
    (a,) = peers(1)
    a.issue("set", {"id": "p1.token", "field": "pos", "value": [3, 4]}, seat=1)
    a.issue("set", {"id": "p1.token", "field": "rotation", "value": 450}, seat=1)
    token = a.state.objs["p1.token"]
    assert token.pos == (3, 4) and token.rotation == 90
    undoing.undo_last(a, seat=1)
    undoing.undo_last(a, seat=1)
    assert token.pos is None and token.rotation == 0


def test_refold_rebuilds_the_same_state_in_place() -> None:
    a, b = peers(2)
    act.draw(a, "p1.deck", "p1.hand", 2, seat=1)
    act.counter(b, "favor", add=2, seat=2)
    sync_all([a, b])
    state, expected = a.state, a.public_state_hash()
    a.state.objs["favor"].counters["value"] = 99  # a divergence, however it came about
    a.refold()
    assert a.state is state and a.public_state_hash() == expected


def test_move_all_shuffles_a_discard_pile_into_a_hidden_deck_in_one_op() -> None:
    (a,) = peers(1)
    for card in ("pub0", "pub1", "pub2"):
        act.move(a, card, "discard", seat=1)
    before = len(a.records())
    act.move_all(a, "discard", "p1.deck", shuffle=True, seat=1)
    assert len(a.records()) == before + 1 and a.records()[-1].op.args["why"] == "shuffle"
    assert a.state.objs["discard"].children == []
    assert_cards_conserved(a, 8 + 4)
