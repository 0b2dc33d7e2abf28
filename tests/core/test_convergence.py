"""Property: any causal delivery order, with rollbacks, gives every peer the batch fold's state.

Up to 6 authors act concurrently on their own replicas (moves, sets, counters, creates, deletes,
consumes, shuffles, reveals, undo) while ops are delivered between peers in random subsets and
orders. Once everyone has everything: equal state hashes, equal to the canonical batch fold, every
card exists exactly once, and replaying a peer's log gives its live state.
"""
from __future__ import annotations

import contextlib
import os
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from table.core import actions as act
from table.core import undoing
from table.core.actions import ActionError
from table.core.replica import Replica
from table.core.rng import Rng
from table.core.statehash import public_state_hash
from table.core.timeline import Timeline
from tests.core.tables import PUBLIC_ZONES, assert_cards_conserved, base_ops, sync_all

DECK = 6
EXAMPLES = int(os.environ.get("SANDTABLE_PROPERTY_EXAMPLES", "30"))  # raise it for a soak


def _peers(seats: int, log_dir: Path) -> list[Replica]:
    setup = base_ops(seats)
    out = []
    for n in range(1, seats + 1):
        r = Replica("tbl", f"peer{n}", rng=Rng(n), log_path=log_dir / f"peer{n}.sandlog")
        r.receive_many(setup.ops_missing_for({}))
        r.issue("seat", {"seat": n, "name": f"P{n}"})
        act.new_cards(r, f"p{n}.deck", [f"secret-{n}-{i}" for i in range(DECK)], seat=n)
        out.append(r)
    return out


def _act(r: Replica, seat: int, data: st.DataObject) -> None:
    state = r.state
    public_cards = [c for z in PUBLIC_ZONES if state.live(z) for c in state.objs[z].children
                    if state.objs[c].kind == "card"]
    hand = state.objs[f"p{seat}.hand"].children
    zones = [z for z in PUBLIC_ZONES if state.live(z)]
    choice = data.draw(st.sampled_from([
        "move", "draw", "play", "take", "shuffle", "counter", "set", "token", "delete", "undo",
        "redo", "rotate_token", "reveal_in_place", "set_pos", "reshuffle"]))
    pick = lambda items: data.draw(st.sampled_from(items))  # noqa: E731
    if choice == "move" and public_cards and zones:
        act.move(r, pick(public_cards), pick(zones),
                 at=data.draw(st.sampled_from([None, "top", "bottom", 0, 1])), seat=seat)
    elif choice == "draw" and state.objs[f"p{seat}.deck"].children:
        act.draw(r, f"p{seat}.deck", f"p{seat}.hand", data.draw(st.integers(1, 2)), seat=seat)
    elif choice == "play" and hand and zones:
        act.move(r, pick(hand), pick(zones), face_up=data.draw(st.booleans()), seat=seat)
    elif choice == "take" and public_cards:
        act.move(r, pick(public_cards), f"p{seat}.hand", seat=seat)
    elif choice == "shuffle" and state.objs[f"p{seat}.deck"].children:
        act.shuffle(r, f"p{seat}.deck", seat=seat)
    elif choice == "counter":
        if data.draw(st.booleans()):
            act.counter(r, "favor", add=data.draw(st.integers(-3, 3)), seat=seat)
        else:
            act.counter(r, "favor", value=data.draw(st.integers(0, 9)), seat=seat)
    elif choice == "set" and public_cards:
        act.flip(r, pick(public_cards), data.draw(st.booleans()), seat=seat)
    elif choice == "token" and zones:
        token = f"t{seat}-{len(r.records())}"
        act.create(r, token, "token", to=pick(zones), owner=seat)
    elif choice == "delete":
        tokens = [o.id for o in state.objs.values() if o.alive and o.kind == "token"]
        if tokens:
            r.issue("delete", {"id": pick(tokens)}, seat=seat)
    elif choice == "undo":
        undoing.undo_last(r, seat=seat)
    elif choice == "redo":
        undoing.redo_last(r, seat=seat)
    elif choice == "rotate_token":
        tokens = [o.id for o in state.objs.values() if o.alive and o.kind == "token"]
        if tokens and zones:
            act.move(r, pick(tokens), pick(zones), pos=[data.draw(st.integers(0, 9)), 1],
                     seat=seat)
    elif choice == "reshuffle" and zones:  # a public zone's cards shuffled into one's deck
        act.move_all(r, pick(zones), f"p{seat}.deck", shuffle=True, seat=seat)
    elif choice == "set_pos":
        tokens = [o.id for o in state.objs.values() if o.alive and o.kind == "token"]
        if tokens:
            r.issue("set", {"id": pick(tokens), "field": "pos",
                            "value": [data.draw(st.integers(0, 9)), 2]}, seat=seat)
    elif choice == "reveal_in_place":
        face_down_own = [c for z in zones for c in state.objs[z].children
                         if state.objs[c].is_secret and state.objs[c].owner == seat]
        if face_down_own:
            act.reveal(r, pick(face_down_own), face_up=True, seat=seat)


def _deliver(src: Replica, dst: Replica, data: st.DataObject) -> None:
    missing = src.ops_missing_for(dst.version_vector())
    if not missing:
        return
    chosen = data.draw(st.lists(st.sampled_from(range(len(missing))), max_size=len(missing),
                                unique=True))
    batch = data.draw(st.booleans())
    ops = [missing[i] for i in chosen]
    if batch:
        dst.receive_many(ops)
    else:
        for op in ops:
            dst.receive(op)


@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                 HealthCheck.data_too_large])
@given(data=st.data(), seats=st.integers(2, 6))
def test_any_causal_delivery_order_converges(tmp_path_factory, data: st.DataObject,  # type: ignore[no-untyped-def]
                                             seats: int) -> None:
    log_dir = tmp_path_factory.mktemp("logs")
    replicas = _peers(seats, log_dir)
    for _ in range(data.draw(st.integers(10, 40))):
        if data.draw(st.integers(0, 2)) == 0:
            src, dst = data.draw(st.permutations(replicas))[:2]
            _deliver(src, dst, data)
        else:
            seat = data.draw(st.integers(1, seats))
            # the peer may try something it cannot do (yet); a person would see why
            with contextlib.suppress(ActionError):
                _act(replicas[seat - 1], seat, data)
    sync_all(replicas)
    hashes = {r.public_state_hash() for r in replicas}
    assert len(hashes) == 1
    assert all(not any(r.store.pending.values()) for r in replicas)

    batch = Timeline()
    batch.insert_many(sorted(replicas[0].store.all_ops(), key=lambda o: o.key))
    assert public_state_hash(batch.state) == replicas[0].public_state_hash()
    for r in replicas:
        assert_cards_conserved(r, seats * DECK + 4)
    # every card identity exists exactly once, across everything every peer knows
    known: dict[str, str] = {}
    for r in replicas:
        known.update({h: card for h, (card, _salt) in r.knowledge.cards.items()})
    state = replicas[0].state
    identities = sorted(state.objs[c].card or known[c] for c in state.objs
                        if state.objs[c].alive and state.objs[c].kind == "card")
    expected = sorted([f"secret-{n}-{i}" for n in range(1, seats + 1) for i in range(DECK)]
                      + [f"market-{i}" for i in range(4)])
    assert identities == expected
    for r in replicas:
        r.close()
        replayed = Replica.from_log(log_dir / f"{r.peer_id}.sandlog")
        assert replayed.public_state_hash() == r.public_state_hash()
        assert replayed.knowledge.cards == r.knowledge.cards
