"""Small tables for core tests: seats, hands, decks, public zones, counters and tokens."""
from __future__ import annotations

from table.core import actions as act
from table.core.replica import Replica
from table.core.rng import Rng

PUBLIC_ZONES = ["play", "discard", "market"]


def base_ops(seats: int, deck: list[str] | None = None) -> Replica:
    """A replica (author 'setup') that lays out zones for `seats` seats; its ops seed the peers."""
    r = Replica("tbl", "setup", rng=Rng(99))
    for zone in PUBLIC_ZONES:
        act.create(r, zone, "zone", props={"name": zone, "visibility": "public"})
    act.create(r, "favor", "counter", props={"name": "Favor"}, counters={"value": 0})
    for n in range(1, seats + 1):
        act.create(r, f"p{n}.hand", "zone", owner=n, props={"name": f"P{n} hand",
                                                             "visibility": "owner"})
        act.create(r, f"p{n}.deck", "pile", owner=n, props={"name": f"P{n} deck",
                                                            "visibility": "hidden"})
        act.create(r, f"p{n}.token", "token", owner=n, to="play", props={"name": f"P{n} token"})
    for i in range(4):
        act.create(r, f"pub{i}", "card", to="market", card=f"market-{i}")
    return r


def peers(seats: int, deck_size: int = 8) -> list[Replica]:
    """One replica per seat, all caught up with the setup, each with its own hidden deck."""
    setup = base_ops(seats)
    out = []
    for n in range(1, seats + 1):
        r = Replica("tbl", f"peer{n}", rng=Rng(n))
        r.receive_many(setup.ops_missing_for({}))
        r.issue("seat", {"seat": n, "name": f"P{n}"})
        out.append(r)
    for n, r in enumerate(out, start=1):
        act.new_cards(r, f"p{n}.deck", [f"secret-{n}-{i}" for i in range(deck_size)], seat=n)
    sync_all(out)
    return out


def sync(src: Replica, dst: Replica) -> None:
    dst.receive_many(src.ops_missing_for(dst.version_vector()))


def sync_all(replicas: list[Replica]) -> None:
    for _ in range(2):
        for a in replicas:
            for b in replicas:
                if a is not b:
                    sync(a, b)


def live_cards(r: Replica) -> list[str]:
    return [o.id for o in r.state.objs.values() if o.alive and o.kind == "card"]


def assert_cards_conserved(r: Replica, expected_total: int) -> None:
    """Every card exists exactly once: live, in exactly one live container's children."""
    cards = live_cards(r)
    assert len(cards) == expected_total
    seen: dict[str, int] = {}
    for obj in r.state.objs.values():
        if obj.alive:
            for child in obj.children:
                seen[child] = seen.get(child, 0) + 1
    for card in cards:
        assert seen.get(card) == 1, f"card {card} appears {seen.get(card)} times"
        assert r.state.objs[card].container is not None
        assert r.state.objs[r.state.objs[card].container].alive
    dead_listed = [c for c in seen if not r.state.objs[c].alive]
    assert not dead_listed, f"dead objects still listed: {dead_listed}"
