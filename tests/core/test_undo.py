"""Undo and redo in the core: one step back per undo, redo brings it back; a draw goes back on top
of its pile re-hidden and comes again; a card played from a hidden zone goes back re-hidden on
every peer and comes again as the same card; what cannot be taken back is said before anything
is issued, and passing it undoes what came before; nothing void is ever issued."""
from __future__ import annotations

import os
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from table.core import actions as act
from table.core import undoing
from table.core.actions import ActionError
from table.core.render import Renderer
from table.core.replica import Replica
from table.core.views import view_object
from tests.core.tables import assert_cards_conserved, peers, sync, sync_all

EXAMPLES = int(os.environ.get("SANDTABLE_PROPERTY_EXAMPLES", "30"))
TOTAL = 2 * 8 + 4  # two decks of 8 and the market's 4 public cards


def _names(r: Replica, zone: str) -> list[str | None]:
    return [r.knowledge.card_of(c) or r.state.objs[c].card for c in r.state.cards_in(zone)]


def _seen_by(r: Replica, zone: str, seat: int) -> list[str | None]:
    state = r.state
    return [view_object(state, r.knowledge, state.objs[c], seat).card
            for c in state.cards_in(zone)]


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
    # older still: its deck, dealt face down (no setup marker here to stop at): it stays
    with pytest.raises(undoing.CannotTakeBack, match="The new cards in your P1 deck stay"):
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


def test_an_undone_draw_is_back_on_top_in_order_and_the_other_peer_names_no_card() -> None:
    a, b = peers(2)
    deck = _names(a, "p1.deck")
    old_deck = a.state.cards_in("p1.deck")
    act.draw(a, "p1.deck", "p1.hand", 3, seat=1)
    sync_all([a, b])
    drawn = a.state.cards_in("p1.hand")
    undo = undoing.undo_last(a, seat=1)
    sync_all([a, b])
    assert (undo.author, undo.seat) == (a.peer_id, 1)  # the drawer's own op
    assert _names(a, "p1.deck") == deck  # the three on top again, in the order they came off
    assert a.state.cards_in("p1.hand") == []
    fresh = a.state.cards_in("p1.deck")
    assert not set(fresh) & (set(old_deck) | set(drawn))  # every card of the pile re-hidden
    for r in (a, b):
        assert_cards_conserved(r, TOTAL)
    assert a.public_state_hash() == b.public_state_hash()
    # the other peer's software: a count and fresh handles, no card named anywhere
    assert _seen_by(b, "p1.deck", 2) == [None] * 8
    assert all(b.knowledge.card_of(c) is None for c in [*fresh, *drawn, *old_deck])
    assert all(b.state.objs[c].card is None for c in [*fresh, *drawn])
    lines = [Renderer(b.state, b.knowledge, 2).line(rec) for rec in b.records()[-2:]]
    assert lines[0].startswith("P1 drew 3 card(s)") and "secret" not in " ".join(lines)
    assert "went back, hidden again" in lines[1]
    # the log keeps that the drawer saw them: the drawn cards' secrets stay in a's record
    assert sorted(a.knowledge.card_of(c) or "" for c in drawn) == sorted(deck[-3:])
    # and the draw comes again: the same three cards, in the hand
    undoing.redo_last(a, seat=1)
    sync_all([a, b])
    assert sorted(_names(a, "p1.hand")) == sorted(deck[-3:]) and _names(a, "p1.deck") == deck[:5]
    assert _seen_by(b, "p1.hand", 2) == [None] * 3
    assert a.public_state_hash() == b.public_state_hash()
    assert all(r.void is None for r in [*a.records(), *b.records()])


def test_a_card_played_from_a_hand_goes_back_hidden_and_comes_again_as_the_same_card() -> None:
    a, b = peers(2)
    act.draw(a, "p1.deck", "p1.hand", 3, seat=1)
    hand = a.state.cards_in("p1.hand")
    names = sorted(_names(a, "p1.hand"))  # type: ignore[type-var]
    act.move(a, hand[0], "play", face_up=True, seat=1)
    act.rotate(a, hand[0], 90, seat=1)
    sync_all([a, b])
    played = a.state.objs[hand[0]]
    assert b.state.objs[played.id].card is not None  # everyone saw it
    undoing.undo_last(a, seat=1)  # the turn
    undo = undoing.undo_last(a, seat=1)  # the play
    sync_all([a, b])
    assert len(undo.args["out"]) == 3 and undo.args["in"] == [played.id]
    for r in (a, b):
        assert [c for c in r.state.cards_in("play") if r.state.objs[c].kind == "card"] == []
        now = r.state.cards_in("p1.hand")
        assert len(now) == 3 and hand[0] not in now
        assert not r.state.objs[hand[0]].alive and r.state.objs[hand[0]].card  # seen, gone
        assert _seen_by(r, "p1.hand", 2) == [None] * 3  # not even the card it saw
    assert sorted(_names(a, "p1.hand")) == names  # type: ignore[type-var]
    assert a.public_state_hash() == b.public_state_hash()
    redo = undoing.redo_last(a, seat=1)  # the play again: the same card, its handle back
    undoing.redo_last(a, seat=1)  # and the turn
    sync_all([a, b])
    assert redo.args["reveal"][0][0] == played.card  # shown to be that card as it leaves
    for r in (a, b):
        back = r.state.objs[played.id]
        assert back.alive and back.container == "play" and back.rotation == 90 and back.face_up
        assert len(r.state.cards_in("p1.hand")) == 2
        assert_cards_conserved(r, TOTAL)
    assert a.public_state_hash() == b.public_state_hash()
    assert all(r.void is None for r in a.records())


def test_only_the_hands_owner_can_take_a_card_back_into_it() -> None:
    a, b = peers(2)
    act.draw(a, "p1.deck", "p1.hand", 2, seat=1)
    card = a.state.cards_in("p1.hand")[0]
    act.move(a, card, "play", face_up=True, seat=1)
    undo = undoing.undo_last(a, seat=1)
    forged = b.issue("undo", {"target": undo.args["target"], "in": undo.args["in"],
                              "out": undo.args["out"]}, seat=2)
    sync_all([a, b])
    assert b.timeline.record_of(forged.ref).void is not None  # type: ignore[union-attr]
    assert a.public_state_hash() == b.public_state_hash()


def test_a_card_taken_into_a_hand_comes_back_as_it_was_shown_to_be_that_card() -> None:
    a, b = peers(2)
    act.move(a, "pub2", "play", seat=1)
    act.rotate(a, "pub2", 90, seat=1)
    act.move(a, "pub2", "p1.hand", seat=1)  # a public card into the hand: re-hidden
    sync_all([a, b])
    assert not a.state.objs["pub2"].alive
    undo = undoing.undo_last(a, seat=1)
    sync_all([a, b])
    assert undo.args["reveal"] == [["market-2", a.knowledge.salt_of(undo.args["in"][0])]]
    for r in (a, b):
        pub = r.state.objs["pub2"]
        assert pub.alive and pub.container == "play" and pub.rotation == 90
        assert r.state.cards_in("p1.hand") == []
    undoing.undo_last(a, seat=1)  # and the turn before it, on the card under its own handle
    assert a.state.objs["pub2"].rotation == 0
    # a reveal naming another card is void: the fold checks the card leaving is that card
    (c,) = peers(1)
    act.draw(c, "p1.deck", "p1.hand", 1, seat=1)
    act.move(c, "pub2", "p1.hand", seat=1)
    hand = c.state.cards_in("p1.hand")
    other = next(h for h in hand if c.knowledge.card_of(h) != "market-2")
    forged = c.issue("undo", {"target": list(c.records()[-1].op.ref), "in": [other],
                              "reveal": [["market-2", c.knowledge.salt_of(other)]]}, seat=1)
    assert "does not match its commitment" in (c.timeline.record_of(forged.ref).void or "")  # type: ignore[union-attr]
    assert all(r.void is None for r in a.records())


_OP_NUMBERS = re.compile(r"#\d|\bop\b|handle|\(\d+, |'[0-9a-f]{8,}'")


@pytest.mark.parametrize("kind", ["roll", "shuffle", "reveal"])
def test_what_stays_is_said_before_anything_is_issued_and_never_blocks_the_action_before(
        kind: str) -> None:
    a, b = peers(2)
    act.counter(a, "favor", add=2, seat=1)
    act.draw(a, "p1.deck", "p1.hand", 2, seat=1)
    if kind == "roll":
        act.roll(a, sides=6, seat=1)
    elif kind == "shuffle":
        act.move(a, "pub0", "play", seat=1)
        act.shuffle(a, "p1.deck", seat=1)
    else:
        act.move(a, a.state.cards_in("p1.hand")[0], "play", face_up=False, seat=1)
        act.reveal(a, a.state.cards_in("play")[0], face_up=True, seat=1)
    sync_all([a, b])
    count, digest = len(a.records()), a.public_state_hash()
    with pytest.raises(undoing.CannotTakeBack) as stays:
        undoing.undo_last(a, seat=1, namer=str.upper)
    said = stays.value.message
    assert len(a.records()) == count and a.public_state_hash() == digest  # nothing issued
    assert {"roll": "The roll (", "shuffle": "The shuffle of your P1 deck stays",
            "reveal": "has been shown to everyone"}[kind] in said
    assert not _OP_NUMBERS.search(said + (stays.value.then or "")), said
    # the next undo goes past it to the independent action before it
    undoing.undo_last(a, seat=1, passing={stays.value.passed})
    if kind == "roll":
        assert a.state.cards_in("p1.hand") == [] and len(a.state.cards_in("p1.deck")) == 8
    elif kind == "shuffle":
        assert a.state.objs["pub0"].container == "market"
        # the draw came off a pile shuffled since: it cannot go back where it was; said so
        with pytest.raises(undoing.CannotTakeBack, match="has been shuffled since"):
            undoing.undo_last(a, seat=1, passing={stays.value.passed})
    else:  # the card shown to all goes back into the hand (seen, it stays seen in the log)
        assert [c for c in a.state.cards_in("play") if a.state.objs[c].kind == "card"] == []
        assert len(a.state.cards_in("p1.hand")) == 2
    sync_all([a, b])
    assert a.public_state_hash() == b.public_state_hash()
    assert all(r.void is None for r in a.records())


def test_another_players_newer_move_is_named_in_words_and_passed_over() -> None:
    a, b = peers(2)
    act.counter(a, "favor", add=1, seat=1)
    act.move(a, "pub0", "play", seat=1)
    sync_all([a, b])
    act.move(b, "pub0", "discard", seat=2)
    sync_all([a, b])
    count = len(a.records())
    with pytest.raises(undoing.CannotTakeBack) as stays:
        undoing.undo_last(a, seat=1)
    assert str(stays.value).startswith("P2 changed market-0 after moving market-0 to the play")
    assert stays.value.then == "the change to Favor (+1)" and len(a.records()) == count
    assert not _OP_NUMBERS.search(str(stays.value))
    undoing.undo_last(a, seat=1, passing={stays.value.passed})
    assert a.state.objs["favor"].counters["value"] == 0
    assert a.state.objs["pub0"].container == "discard"  # the newer move stands


@pytest.mark.parametrize("undo_first", [False, True])
def test_an_undo_racing_another_peers_move_of_its_card_is_harmless_and_says_so(
        undo_first: bool) -> None:
    """At a LAN table: a takes back a card it played while b, not yet knowing, moves that card
    to the discard pile. Whichever comes first in canonical order holds; the other is void,
    with its reason, and nothing is lost or doubled."""
    a, b = peers(2)
    act.draw(a, "p1.deck", "p1.hand", 2, seat=1)
    played = a.state.cards_in("p1.hand")[0]
    act.move(a, played, "play", face_up=True, seat=1)
    sync_all([a, b])
    if undo_first:
        b.issue("note", {"text": "thinking"}, seat=2)  # b's move stamps after a's undo
    else:
        a.issue("note", {"text": "thinking"}, seat=1)  # a's undo stamps after b's move
    move = act.move(b, played, "discard", seat=2)
    undo = undoing.undo_last(a, seat=1)
    sync(b, a)
    sync(a, b)
    for r in (a, b):
        assert_cards_conserved(r, TOTAL)
        void_undo, void_move = (r.timeline.record_of(o.ref).void for o in (undo, move))  # type: ignore[union-attr]
        if undo_first:
            assert void_undo is None and "is gone" in (void_move or "")
            assert len(r.state.cards_in("p1.hand")) == 2
        else:
            assert void_move is None and "no longer in 'play'" in (void_undo or "")
            assert "moved on since" in (void_undo or "")
            assert r.state.objs[played].container == "discard"
            assert len(r.state.cards_in("p1.hand")) == 1
    assert a.public_state_hash() == b.public_state_hash()
    if not undo_first:  # the undo did nothing: the next one says why, in words
        with pytest.raises(undoing.CannotTakeBack, match="has been moved from the play since"):
            undoing.undo_last(a, seat=1)


def test_a_gift_stays_with_its_receiver_and_a_concurrent_gift_onto_the_deck_survives() -> None:
    a, b = peers(2)
    for r in (a, b):  # the private link: a seat's secrets reach that seat's peer
        r.private_out = lambda seat, payload, rs=(a, b): rs[seat - 1].receive_private(payload)
    act.draw(a, "p1.deck", "p1.hand", 2, seat=1)
    act.draw(b, "p2.deck", "p2.hand", 1, seat=2)
    sync_all([a, b])
    # b gives a card onto a's deck while a takes back its draw: both hold
    act.move(b, b.state.cards_in("p2.hand")[0], "p1.deck", seat=2)
    undoing.undo_last(a, seat=1)
    sync_all([a, b])
    act.settle_gifts(a)
    sync_all([a, b])
    for r in (a, b):
        assert len(r.state.cards_in("p1.deck")) == 9 and r.state.cards_in("p1.hand") == []
        assert_cards_conserved(r, TOTAL)
    assert a.public_state_hash() == b.public_state_hash()
    # b cannot take back its gift: a's peer alone may touch a's deck; said in words
    with pytest.raises(undoing.CannotTakeBack, match="only P1 can hand it back"):
        undoing.undo_last(b, seat=2)
    # a's software renewed its deck by itself when the gift came: not a move to take back
    assert a.records()[-1].op.args.get("why") == "receive"
    with pytest.raises(undoing.CannotTakeBack, match="The new cards in your P1 deck stay"):
        undoing.undo_last(a, seat=1)


def test_an_older_logs_undo_of_a_card_played_from_a_hand_can_be_redone() -> None:
    """Before undo named the cards (`in`), it restored the move and re-hid the hand with `out`
    alone; such an undo, read from an older log, is redone as the card itself."""
    from table.core.actions import _commit_outputs

    (a,) = peers(1)
    act.draw(a, "p1.deck", "p1.hand", 3, seat=1)
    hand = a.state.cards_in("p1.hand")
    move = act.move(a, hand[0], "play", face_up=True, pos=[2, 3], seat=1)
    back_in = [*_names(a, "p1.hand"), a.state.objs[hand[0]].card]
    out, private = _commit_outputs(a, a.rng.shuffled(back_in))  # type: ignore[arg-type]
    a.issue("undo", {"target": list(move.ref), "out": out}, seat=1, private=private)
    assert a.records()[-1].void is None and len(a.state.cards_in("p1.hand")) == 3
    undoing.redo_last(a, seat=1)
    back = a.state.objs[hand[0]]
    assert back.alive and back.container == "play" and back.face_up and back.pos == (2, 3)
    assert len(a.state.cards_in("p1.hand")) == 2 and a.records()[-1].void is None
    assert_cards_conserved(a, 8 + 4)


@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(["plus", "set", "flip", "move", "token", "draw", "play",
                                 "take", "undo", "redo"]), min_size=1, max_size=30),
       st.randoms(use_true_random=False))
def test_no_undo_or_redo_is_ever_void_and_redo_restores_the_table(steps, rnd) -> None:  # type: ignore[no-untyped-def]
    (a,) = peers(1)
    for step in steps:
        before = a.public_state_hash()
        hand = a.state.cards_in("p1.hand")
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
            elif step == "draw":
                act.draw(a, "p1.deck", "p1.hand", rnd.randint(1, 2), seat=1)
            elif step == "play" and hand:
                act.move(a, rnd.choice(hand), "play", face_up=rnd.random() < 0.5, seat=1)
            elif step == "take":
                act.move(a, f"pub{rnd.randint(0, 3)}", "p1.hand", seat=1)
            elif step == "undo":
                undoing.undo_last(a, seat=1)
                assert a.public_state_hash() != before
                undoing.redo_last(a, seat=1)  # and back: the same table, handles aside
                undoing.undo_last(a, seat=1)
            elif step == "redo":
                undoing.redo_last(a, seat=1)
        except ActionError:
            assert a.public_state_hash() == before  # refused: nothing changed
        assert_cards_conserved(a, 8 + 4)
    assert all(r.void is None for r in a.records())


def _top_card_played_then_undone(forge: bool):  # type: ignore[no-untyped-def]
    from table.core.actions import _commit_outputs

    (a,) = peers(1)
    act.draw(a, "p1.deck", "p1.hand", 2, seat=1)
    if not forge:
        undoing.undo_last(a, seat=1)
        return a
    names = [a.knowledge.card_of(c) for c in a.state.cards_in("p1.hand")]
    hand = a.state.cards_in("p1.hand")
    deck = [a.knowledge.card_of(c) for c in a.state.cards_in("p1.deck")]
    out, private = _commit_outputs(a, [*names, *deck])  # type: ignore[list-item]
    a.issue("undo", {"target": list(a.records()[-1].op.ref), "in": hand, "out": out},
            seat=1, private=private)  # back at the bottom instead of on top: restacked
    return a


def test_the_audit_checks_that_an_undone_draw_goes_back_where_it_was_in_the_deck() -> None:
    from table.core.audit import audit_replica

    honest = _top_card_played_then_undone(forge=False)
    deck = honest.state.cards_in("p1.deck")
    assert len(deck) == 8 and honest.knowledge.card_of(deck[-1]) == "secret-1-7"  # on top again
    audit = audit_replica(honest)
    assert audit.failures == [] and audit.draws == 2
    forged = _top_card_played_then_undone(forge=True)
    assert forged.records()[-1].void is None  # the fold cannot tell: the audit can
    (finding,) = audit_replica(forged).failures
    assert "an undo re-hiding cards in p1.deck changed the order" in finding.message


def test_a_draw_whose_card_left_the_hand_says_so_in_words() -> None:
    (a,) = peers(1)
    act.draw(a, "p1.deck", "p1.hand", 1, seat=1)
    play = act.move(a, a.state.cards_in("p1.hand")[0], "play", face_up=False, seat=1)
    count = len(a.records())
    with pytest.raises(undoing.CannotTakeBack) as stays:  # the play left in place, passed
        undoing.undo_last(a, seat=1, passing={play.ref})
    assert str(stays.value) == "The card is not in your P1 hand any more"
    assert len(a.records()) == count


def test_a_redone_delete_takes_the_object_off_the_table_again() -> None:
    (a,) = peers(1)
    token = a.state.objs["p1.token"]
    zone = token.container
    assert zone is not None
    a.issue("delete", {"id": "p1.token"}, seat=1)
    undoing.undo_last(a, seat=1)
    assert token.alive and "p1.token" in a.state.objs[zone].children
    undoing.redo_last(a, seat=1)
    assert not token.alive and "p1.token" not in a.state.objs[zone].children
