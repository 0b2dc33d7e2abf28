"""A small built-in sample game: a table to try the window (and test it) without any module.

Built only with core actions, the way game setup builds a real table, so it exercises the same
props (zone_kind, visibility, seat, grid) the scene reads.
"""
from __future__ import annotations

from pathlib import Path

from table.core import actions
from table.core.replica import Replica
from table.core.rng import Rng

from .catalog import BackStyle, CardFace, Catalog

SAMPLE_ID = "sample"
_FACTIONS = {"Ember": "#c0392b", "Tide": "#2471a3", "Grove": "#229954", "Neutral": "#7f8c8d"}
_CARDS = [
    ("ember-imp", "Ember Imp", "Champion", "Ember", 1, (("Power", "2"), ("Guard", "1")),
     "When Ember Imp enters play, deal 1 damage to target Champion."),
    ("flame-herald", "Flame Herald", "Champion", "Ember", 3, (("Power", "3"), ("Guard", "2")),
     "Can attack the turn it is played."),
    ("wildfire", "Wildfire", "Ritual", "Ember", 2, (), "Each Champion takes 1 damage. Expel 1."),
    ("tide-caller", "Tide Caller", "Champion", "Tide", 2, (("Power", "1"), ("Guard", "3")),
     "Engage: draw a card, then discard a card."),
    ("undertow", "Undertow", "Interrupt", "Tide", 1, (), "Counter target Ritual."),
    ("deep-oracle", "Deep Oracle", "Champion", "Tide", 4, (("Power", "2"), ("Guard", "4")),
     "At your Dawn, look at the top 3 cards of your deck and put them back in any order."),
    ("grove-warden", "Grove Warden", "Champion", "Grove", 2, (("Power", "2"), ("Guard", "2")),
     "Your other Champions get +0/+1."),
    ("bramble-wall", "Bramble Wall", "Relic", "Grove", 1, (), "Your Rites get +1 Ward."),
    ("seed-of-ages", "Seed of Ages", "Ritual", "Grove", 3, (), "Gain 2 Favor. Draw a card."),
    ("wandering-sage", "Wandering Sage", "Champion", "Neutral", 1, (("Power", "1"), ("Guard", "1")),
     "Unique."),
    ("old-coin", "Old Coin", "Relic", "Neutral", 0, (), "Engage: gain 1 Favor."),
    ("truce", "Truce", "Pact", "Neutral", 2, (), "Neither player may attack the other until "
     "the end of your next Dawn."),
]


def sample_catalog() -> Catalog:
    faces = {cid: CardFace(cid, name, type_, f"{type_} · {group}", str(cost), stats, text,
                           ("Unique",) if "Unique" in text else (), _FACTIONS[group], "", group)
             for cid, name, type_, group, cost, stats, text in _CARDS}
    return Catalog(SAMPLE_ID, "Sample game", faces, BackStyle("#3b2a5a", "SANDTABLE"),
                   {1: "North", 2: "East", 3: "South", 4: "West"},
                   {1: "#e53935", 2: "#1e88e5", 3: "#43a047", 4: "#fdd835"})


def sample_table(seats: int = 2, *, log_path: str | Path | None = None, seed: int = 7,
                 hand: int = 5, deck: int = 20) -> Replica:
    """A hot-seat replica with every seat claimed by this peer and the sample setup done."""
    r = Replica(rng=Rng(seed), log_path=log_path, game=SAMPLE_ID,
                header_extra={"seats": seats})
    cat = sample_catalog()
    r.issue("hello", {"name": "Dealer"})
    ids = [c[0] for c in _CARDS]
    for s in range(1, seats + 1):
        r.issue("seat", {"seat": s, "name": cat.seat_names.get(s, f"Seat {s}"),
                         "colour": cat.seat_colours.get(s, "")})
    for s in range(1, seats + 1):
        zones = [("hand", "Hand", "owner", "zone", "zone"), ("deck", "Deck", "hidden", "pile", "pile"),
                 ("discard", "Discard", "public", "pile", "pile"),
                 ("play", "Play area", "public", "zone", "zone")]
        for key, name, vis, kind, zk in zones:
            actions.create(r, f"p{s}.{key}", kind, owner=s, seat=s,
                           props={"name": name, "visibility": vis, "zone_kind": zk, "seat": s})
        actions.create(r, f"p{s}.favor", "counter", owner=s, seat=s, counters={"value": s - 1},
                       props={"name": "Favor", "min": 0, "max": 6, "seat": s})
        actions.create(r, f"p{s}.step", "counter", owner=s, seat=s, counters={"value": 0},
                       props={"name": "Step", "min": 0, "max": 5, "seat": s})
        cards = [ids[(s * 5 + i * 7) % len(ids)] for i in range(deck)]
        actions.new_cards(r, f"p{s}.deck", cards, seat=s)
        actions.shuffle(r, f"p{s}.deck", seat=s)
        if hand:
            actions.draw(r, f"p{s}.deck", f"p{s}.hand", hand, seat=s)
    actions.create(r, "arena", "board", props={"name": "Arena", "grid": [8, 4],
                                                "zone_kind": "grid", "visibility": "public"})
    for s in range(1, seats + 1):
        actions.create(r, f"p{s}.pawn", "token", owner=s, to="arena", pos=[s, 1 + s % 3],
                       props={"name": f"{cat.seat_names.get(s, s)} pawn", "shape": "disc"})
    actions.create(r, "hazard", "token", to="arena", pos=[5, 2],
                   props={"name": "Hazard", "colour": "#ff6f00", "shape": "triangle",
                          "label": "!"})
    actions.create(r, "market", "pile", props={"name": "Market", "visibility": "public",
                                                "zone_kind": "pile"})
    r.issue("create", {"id": "m-coin", "kind": "card", "to": "market", "card": "old-coin"})
    actions.create(r, "d6", "die", props={"name": "Die", "sides": 6})
    actions.mark(r, "turn", for_seat=1, seat=1)
    actions.mark(r, "phase", value="Dawn", seat=1)
    return r
