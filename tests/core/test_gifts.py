"""A hidden card given to a seat another peer plays: a gift (consume of the given cards only,
fresh handles owned by the receiver, card and salt sent privately), then the receiver's
re-handle of its zone, so the giver can no longer follow the card."""
from __future__ import annotations

from typing import Any

import msgpack
import pytest

from table.core import actions as act
from table.core.replica import Replica
from table.core.views import known_card
from tests.core.tables import assert_cards_conserved, peers, sync_all

TOTAL = 3 * 8 + 4  # three decks of 8 and the market's 4 public cards


def _wire(rs: list[Replica]) -> list[tuple[int, int, dict[str, Any]]]:
    """A fake private channel: seat n's secrets go to replica n only. Returns what was sent."""
    sent: list[tuple[int, int, dict[str, Any]]] = []
    for n, r in enumerate(rs, start=1):
        def out(seat: int, payload: dict[str, Any], n: int = n) -> None:
            sent.append((n, seat, payload))
            rs[seat - 1].receive_private(payload)
        r.private_out = out
    return sent


def _hashes_equal(rs: list[Replica]) -> None:
    assert len({r.public_state_hash() for r in rs}) == 1


def test_a_card_given_into_another_players_hand() -> None:
    alice, bob, carol = rs = peers(3)
    sent = _wire(rs)
    act.draw(alice, "p1.deck", "p1.hand", 3, seat=1)
    sync_all(rs)
    given = alice.state.objs["p1.hand"].children[0]
    name = alice.knowledge.card_of(given)
    assert name is not None
    op = act.move(alice, given, "p2.hand", seat=1)
    assert op.kind == "consume" and op.args["why"] == "gift"
    assert op.args["in"] == [given] and op.args["owner"] == 2
    assert alice.timeline.record_of(op.ref).void is None
    # the secret went to Bob's seat only, before Bob has the op: he waits for it
    assert [(frm, to) for frm, to, _ in sent] == [(1, 2)]
    assert act.settle_gifts(bob) == [] and len(bob.pending_gifts) == 1
    sync_all(rs)
    [rehandle] = act.settle_gifts(bob)
    assert rehandle.args["why"] == "receive" and rehandle.seat == 2
    assert bob.pending_gifts == []
    sync_all(rs)
    _hashes_equal(rs)
    for r in rs:
        assert_cards_conserved(r, TOTAL)
    hand = bob.state.objs["p2.hand"].children
    assert len(hand) == 1
    # Bob's software knows the card; Alice's can no longer follow it; Carol's never could
    assert known_card(bob.state, bob.knowledge, bob.state.objs[hand[0]], 2) == name
    assert alice.knowledge.card_of(hand[0]) is None
    assert carol.knowledge.card_of(hand[0]) is None
    assert not any(card == name for card, _ in carol.knowledge.cards.values())
    ops_bytes = b"".join(msgpack.packb(r.ops_missing_for({}), use_bin_type=True) for r in rs)
    assert name.encode() not in ops_bytes
    assert len(alice.state.objs["p1.hand"].children) == 2


def test_a_gift_onto_another_players_deck_and_a_draw_into_their_hand() -> None:
    alice, bob, _carol = rs = peers(3)
    _wire(rs)
    act.draw(alice, "p1.deck", "p1.hand", 1, seat=1)
    given = alice.state.objs["p1.hand"].children[0]
    name = alice.knowledge.card_of(given)
    act.move(alice, given, "p2.deck", seat=1)  # on top of Bob's deck
    act.draw(alice, "p1.deck", "p2.hand", 2, seat=1)  # as when Alice's peer performs a request
    sync_all(rs)
    issued = act.settle_gifts(bob)
    assert len(issued) == 2
    sync_all(rs)
    _hashes_equal(rs)
    for r in rs:
        assert_cards_conserved(r, TOTAL)
    deck = bob.state.objs["p2.deck"].children
    assert len(deck) == 9 and bob.knowledge.card_of(deck[-1]) == name  # still on top
    assert alice.knowledge.card_of(deck[-1]) is None
    hand = bob.state.objs["p2.hand"].children
    assert len(hand) == 2 and all(bob.knowledge.card_of(h) for h in hand)
    assert not any(alice.knowledge.card_of(h) for h in hand)


def test_a_void_gift_is_dropped_and_hot_seat_is_unchanged() -> None:
    alice, bob, _carol = rs = peers(3)
    _wire(rs)
    act.draw(alice, "p1.deck", "p1.hand", 1, seat=1)
    sync_all(rs)
    bob.receive_private({"cards": {}, "gift": {"to": "p2.hand", "op": ["nobody", 1],
                                               "handles": ["hzz"]}})
    assert act.settle_gifts(bob) == [] and len(bob.pending_gifts) == 1  # still waiting
    bob.receive_private({"cards": {}, "gift": {"to": "p1.hand", "op": ["peer1", 1],
                                               "handles": []}})
    act.settle_gifts(bob)  # not Bob's zone: dropped
    assert len(bob.pending_gifts) == 1
    # one peer playing both seats re-handles the receiving zone itself, as before
    hot = peers(1)[0]
    act.create(hot, "p2.hand", "zone", owner=2, props={"visibility": "owner"})
    hot.issue("seat", {"seat": 2, "name": "P2"})
    act.draw(hot, "p1.deck", "p1.hand", 1, seat=1)
    op = act.move(hot, hot.state.objs["p1.hand"].children[0], "p2.hand", seat=1)
    assert op.args["why"] == "move"


def test_without_a_private_link_a_gift_is_refused() -> None:
    alice, _bob = peers(2)
    act.draw(alice, "p1.deck", "p1.hand", 1, seat=1)
    with pytest.raises(act.ActionError, match="private link"):
        act.move(alice, alice.state.objs["p1.hand"].children[0], "p2.hand", seat=1)


def test_the_log_says_who_gave_what_to_whom() -> None:
    from table.core.render import Renderer

    alice, bob, carol = rs = peers(3)
    _wire(rs)
    act.draw(alice, "p1.deck", "p1.hand", 1, seat=1)
    act.move(alice, alice.state.objs["p1.hand"].children[0], "p2.hand", seat=1)
    sync_all(rs)
    act.settle_gifts(bob)
    sync_all(rs)
    renderer = Renderer(carol.state, carol.knowledge, 3)
    text = "\n".join(renderer.line(rec) for rec in carol.records())
    assert "gave a card from" in text and "took the gift into" in text
