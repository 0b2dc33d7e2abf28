"""Hidden information never leaves its owner's software until revealed."""
from __future__ import annotations

from pathlib import Path

import msgpack

from table.core import actions as act
from table.core.replica import Replica
from table.core.views import known_card, view_of
from tests.core.tables import peers, sync_all


def _outgoing_bytes(r: Replica) -> bytes:
    """Everything this peer's software would send to others: every op it holds, as on the wire."""
    return msgpack.packb(r.ops_missing_for({}), use_bin_type=True)


def _log_bytes_for_others(path: Path) -> bytes:
    """A peer's log minus its private records: what catch-up from this log can hand out."""
    from table.core.logfile import read_log

    contents = read_log(path)
    public = [rec if isinstance(rec, list) else rec.get("op") for rec in contents.records]
    return msgpack.packb(public, use_bin_type=True)


def test_no_hidden_card_definition_reaches_other_peers(tmp_path: Path) -> None:
    a = Replica("tbl", "peer-a", log_path=tmp_path / "a.sandlog")
    b = Replica("tbl", "peer-b")
    for seat, r in ((1, a), (2, b)):
        r.issue("seat", {"seat": seat, "name": f"P{seat}"})
    sync_all([a, b])
    act.create(a, "p1.deck", "pile", owner=1, props={"visibility": "hidden"}, seat=1)
    act.create(a, "p1.hand", "zone", owner=1, props={"visibility": "owner"}, seat=1)
    act.create(a, "play", "zone", props={"visibility": "public"}, seat=1)
    secret_names = [f"zz-secret-card-{i:02d}" for i in range(12)]
    act.new_cards(a, "p1.deck", secret_names, seat=1)
    act.shuffle(a, "p1.deck", seat=1)
    act.draw(a, "p1.deck", "p1.hand", 4, seat=1)
    hand = a.state.objs["p1.hand"].children
    act.move(a, hand[0], "play", seat=1)                 # played face down: still hidden
    act.show(a, hand[1], to_seat=1, seat=1)              # a private peek at one's own card
    act.move(a, hand[2], "p1.deck", at="bottom", seat=1)  # back under the deck: re-handled
    act.shuffle(a, "p1.deck", seat=1)
    sync_all([a, b])
    a.close()

    sent = _outgoing_bytes(a) + _log_bytes_for_others(tmp_path / "a.sandlog")
    for name in secret_names:
        assert name.encode() not in sent, f"{name} leaked"
    # the other peer's view knows nothing, but counts match
    view_b = view_of(b.state, b.knowledge, 2)
    assert len(view_b["p1.hand"].children) == len(a.state.objs["p1.hand"].children)
    assert all(view_b[c].card is None for c in view_b["p1.hand"].children)
    # the owner sees its hand but not its own deck order
    assert all(known_card(a.state, a.knowledge, a.state.objs[c], 1)
               for c in a.state.objs["p1.hand"].children)
    assert not any(known_card(a.state, a.knowledge, a.state.objs[c], 1)
                   for c in a.state.objs["p1.deck"].children)


def test_a_revealed_card_is_public_and_only_that_one() -> None:
    a, b = peers(2)
    act.draw(a, "p1.deck", "p1.hand", 3, seat=1)
    hand = list(a.state.objs["p1.hand"].children)
    revealed = a.knowledge.card_of(hand[0])
    act.move(a, hand[0], "play", face_up=True, seat=1)
    sync_all([a, b])
    sent = _outgoing_bytes(a)
    assert revealed is not None and revealed.encode() in sent
    for other in hand[1:]:
        name = a.knowledge.card_of(other)
        assert name is not None
        if name != revealed:
            assert name.encode() not in sent
    assert b.state.objs[hand[0]].card == revealed


def test_re_handling_breaks_the_link_between_old_and_new_handles() -> None:
    (a,) = peers(1)
    act.draw(a, "p1.deck", "p1.hand", 2, seat=1)
    before = set(a.state.objs["p1.hand"].children)
    act.move(a, "pub0", "p1.hand", seat=1)  # a public card enters the hand: the whole hand moves
    after = set(a.state.objs["p1.hand"].children)
    assert not before & after
    assert len(after) == 3
