from __future__ import annotations

import msgpack

from table.core import actions as act
from table.core.snapshot import from_snapshot, to_snapshot
from table.core.statehash import public_state_hash
from tests.core.tables import peers


def test_snapshot_round_trip_keeps_the_public_state() -> None:
    (a,) = peers(1)
    act.draw(a, "p1.deck", "p1.hand", 2, seat=1)
    act.move(a, "pub0", "play", seat=1)
    act.counter(a, "favor", add=4, seat=1)
    packed = msgpack.packb(to_snapshot(a.state), use_bin_type=True)
    restored = from_snapshot(msgpack.unpackb(packed))
    assert public_state_hash(restored) == a.public_state_hash()
    # nothing private travels in a snapshot
    for handle, (card, salt) in a.knowledge.cards.items():
        assert card.encode() not in packed or a.state.objs[handle].card == card
        assert salt.encode() not in packed
