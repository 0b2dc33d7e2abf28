"""A void op no honest peer sends carries a typed fault; an ordinary void (a race) does not."""

from table.core import actions as act
from table.core.errors import Fault
from tests.core.tables import peers, sync, sync_all


def test_a_bad_reveal_is_a_typed_fault_and_a_race_is_not():
    a, b = peers(2)
    act.draw(a, "p1.deck", "p1.hand", 1, seat=1)
    sync_all([a, b])
    handle = a.state.objs["p1.hand"].children[0]
    # a move of a card that is not there: void, as any lost race, and nobody is blamed
    a.issue("move", {"id": "no-such-card", "to": "p1.hand"}, seat=1)
    a.issue("reveal", {"id": handle, "card": "forged-card", "salt": "00"}, seat=1)
    sync(a, b)
    race, forged = b.records()[-2:]
    assert race.void is not None and race.fault is None
    assert forged.void is not None and forged.fault is Fault.BAD_REVEAL
    assert [m for m in b.reports if "peer" in m] == [f"peer {a.peer_id}: {forged.void}"]
