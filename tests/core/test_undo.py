"""Undo and redo in the core: one step back per undo, redo brings it back, a card played from a
hidden zone goes back re-hidden on every peer, and nothing void is ever issued."""
from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from table.core import actions as act
from table.core import undoing
from table.core.actions import ActionError
from table.core.views import view_object
from tests.core.tables import assert_cards_conserved, peers, sync_all

EXAMPLES = int(os.environ.get("SANDTABLE_PROPERTY_EXAMPLES", "30"))


def test_each_undo_takes_back_the_next_older_action_and_redo_brings_them_back() -> None:
    (a,) = peers(1)
    favor = a.state.objs["favor"]
    for _ in range(6):
        act.counter(a, "favor", add=1, seat=1)
    act.flip(a, "pub0", False, seat=1)
    act.move(a, "pub1", "play", seat=1)
    for expected in (None, None, 5, 4, 3, 2, 1, 0):
        undoing.undo_last(a, seat=1)
        if expected is not None:
            assert favor.counters["value"] == expected
    assert a.state.objs["pub1"].container == "market" and a.state.objs["pub0"].face_up
    # older still: its deck, dealt face down (no setup marker here to stop at)
    with pytest.raises(ActionError, match="hidden pile cannot be undone"):
        undoing.undo_last(a, seat=1)
    for expected in (1, 2, 3):
        undoing.redo_last(a, seat=1)
        assert favor.counters["value"] == expected
    act.counter(a, "favor", add=10, seat=1)  # a new action: nothing left to redo
    with pytest.raises(ActionError, match="Nothing to redo"):
        undoing.redo_last(a, seat=1)
    undoing.undo_last(a, seat=1)
    undoing.undo_last(a, seat=1)  # the redone +1 goes again
    assert favor.counters["value"] == 2
    assert all(r.void is None for r in a.records())


def test_a_card_played_from_a_hand_goes_back_hidden_for_every_peer() -> None:
    a, b = peers(2)
    act.draw(a, "p1.deck", "p1.hand", 3, seat=1)
    hand = a.state.cards_in("p1.hand")
    names = sorted(a.knowledge.card_of(c) or "" for c in hand)
    act.move(a, hand[0], "play", face_up=True, seat=1)
    sync_all([a, b])
    played = a.state.objs[hand[0]]
    assert b.state.objs[played.id].card is not None  # everyone saw it
    undo = undoing.undo_last(a, seat=1)
    sync_all([a, b])
    assert len(undo.args["out"]) == 3 and undo.args["target"][1] == a.records()[-2].op.seq
    for r in (a, b):
        assert r.state.cards_in("play") == [] or played.id not in r.state.cards_in("play")
        assert [c for c in r.state.cards_in("play") if r.state.objs[c].kind == "card"] == []
        now = r.state.cards_in("p1.hand")
        assert len(now) == 3 and hand[0] not in now
        assert not r.state.objs[hand[0]].alive and r.state.objs[hand[0]].card  # seen, gone
        # seat 2's view names none of the hand's cards, not even the one it saw
        assert [view_object(r.state, r.knowledge, r.state.objs[c], 2).card for c in now] == \
            [None] * 3
    assert sorted(a.knowledge.card_of(c) or "" for c in a.state.cards_in("p1.hand")) == names
    assert all(b.knowledge.card_of(c) is None for c in b.state.cards_in("p1.hand"))
    assert a.public_state_hash() == b.public_state_hash()
    assert_cards_conserved(a, 4 + 2 * 8)
    with pytest.raises(ActionError, match="new handle; play it again"):
        undoing.redo_last(a, seat=1)


def test_only_the_hands_owner_can_re_hide_a_card_in_it() -> None:
    a, b = peers(2)
    act.draw(a, "p1.deck", "p1.hand", 2, seat=1)
    card = a.state.cards_in("p1.hand")[0]
    act.move(a, card, "play", face_up=True, seat=1)
    undo = undoing.undo_last(a, seat=1)
    forged = b.issue("undo", {"target": undo.args["target"], "out": undo.args["out"]}, seat=2)
    sync_all([a, b])
    assert b.timeline.record_of(forged.ref).void is not None  # type: ignore[union-attr]


def test_what_cannot_be_undone_is_refused_with_its_reason_and_nothing_is_issued() -> None:
    a, b = peers(2)
    for kind, do in (("draw", lambda: act.draw(a, "p1.deck", "p1.hand", 1, seat=1)),
                     ("shuffle", lambda: act.shuffle(a, "p1.deck", seat=1)),
                     ("roll", lambda: act.roll(a, sides=6, seat=1))):
        do()
        count = len(a.records())
        with pytest.raises(ActionError, match=f"A {kind} cannot be undone: "):
            undoing.undo_last(a, seat=1)
        assert len(a.records()) == count
    act.move(a, "pub0", "play", seat=1)
    sync_all([a, b])
    act.move(b, "pub0", "discard", seat=2)
    sync_all([a, b])
    count = len(a.records())
    with pytest.raises(ActionError, match=r"P2 has changed that piece since \(#\d+\)"):
        undoing.undo_last(a, seat=1)
    assert len(a.records()) == count


@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(["plus", "set", "flip", "move", "token", "undo", "redo"]),
                min_size=1, max_size=30), st.randoms(use_true_random=False))
def test_no_undo_or_redo_is_ever_void_and_redo_restores_the_table(steps, rnd) -> None:  # type: ignore[no-untyped-def]
    (a,) = peers(1)
    for step in steps:
        before = a.public_state_hash()
        try:
            if step == "plus":
                act.counter(a, "favor", add=rnd.choice((-1, 1, 2)), seat=1)
            elif step == "set":
                act.counter(a, "favor", value=rnd.randint(0, 3), seat=1)
            elif step == "flip":
                act.flip(a, f"pub{rnd.randint(0, 3)}", seat=1)
            elif step == "move":
                act.move(a, f"pub{rnd.randint(0, 3)}", rnd.choice(["play", "discard", "market"]),
                         seat=1)
            elif step == "token":
                act.move(a, "p1.token", rnd.choice(["play", "discard"]),
                         pos=[rnd.randint(0, 5), 1], seat=1)
            elif step == "undo":
                op = undoing.undo_last(a, seat=1)
                assert a.public_state_hash() != before
                undoing.redo_last(a, seat=1)  # and back: the very same table
                assert a.public_state_hash() == before, (steps, op)
                undoing.undo_last(a, seat=1)
            elif step == "redo":
                undoing.redo_last(a, seat=1)
        except ActionError:
            assert a.public_state_hash() == before  # refused: nothing changed
    assert all(r.void is None for r in a.records())


def _top_card_played_then_undone(forge: bool):  # type: ignore[no-untyped-def]
    from table.core.actions import _commit_outputs

    (a,) = peers(1)
    top = a.state.cards_in("p1.deck")[-1]
    act.move(a, top, "play", face_up=True, seat=1)  # turned up off the deck onto the table
    if not forge:
        undoing.undo_last(a, seat=1)
        return a
    names = [a.knowledge.card_of(c) for c in a.state.cards_in("p1.deck")]
    names = [a.state.objs[top].card, *names]  # back at the bottom instead of on top: restacked
    out, private = _commit_outputs(a, names)  # type: ignore[arg-type]
    a.issue("undo", {"target": list(a.records()[-1].op.ref), "out": out}, seat=1,
            private=private)
    return a


def test_the_audit_checks_that_an_undo_puts_a_card_back_where_it_was_in_a_deck() -> None:
    from table.core.audit import audit_replica

    honest = _top_card_played_then_undone(forge=False)
    assert honest.records()[-1].op.args.get("out")
    deck = honest.state.cards_in("p1.deck")
    assert len(deck) == 8 and honest.knowledge.card_of(deck[-1]) == "secret-1-7"  # on top again
    audit = audit_replica(honest)
    assert audit.failures == [] and audit.draws == 1
    forged = _top_card_played_then_undone(forge=True)
    assert forged.records()[-1].void is None  # the fold cannot tell: the audit can
    (finding,) = audit_replica(forged).failures
    assert "an undo re-hiding a card in p1.deck changed the order" in finding.message
