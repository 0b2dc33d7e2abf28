"""Deck construction and setup (run once, on the setup-complete marker)."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from assist.api import Flag
from table.core.timeline import Record

from .facts import Facts, moves_of
from .rules import add

SUPPLEMENTAL = ("Leader", "Proposal", "Rite", "Deed", "Reference")
TERRITORY = "Territory"


def check_setup(f: Facts) -> list[Flag]:
    out: list[Flag] = []
    for seat in sorted(f.v.seats):
        _deck(f, out, seat)
        _territories(f, out, seat)
        _zones(f, out, seat)
        _faction_start(f, out, seat)
    _history(f, out)
    return out


def _deck(f: Facts, out: list[Flag], seat: int) -> None:
    v, g = f.v, f.game
    rules = g.module.deck_rules.get("main")
    ids = v.child_ids(f"p{seat}.deck", "card") + v.child_ids(f"p{seat}.hand", "card")
    min_cards = rules.min_cards if rules and rules.min_cards is not None else 30
    if len(ids) < min_cards:
        add(out, f, "GAU-DECK-MIN-SIZE", f"{f.who(seat)}'s Playable Deck has {len(ids)} cards; "
            f"it needs at least {min_cards}.")
    cards = [g.card(v.card_of(i)) for i in ids]
    known = [c for c in cards if c is not None]
    if len(known) < len(ids):
        return  # identities hidden from this view: only the count is checkable
    field = rules.value_field if rules and rules.value_field else "value"
    max_value = rules.max_value if rules and rules.max_value is not None else 60
    total = sum(c.number(field) for c in known)
    if total > max_value:
        add(out, f, "GAU-DECK-MAX-VALUE", f"{f.who(seat)}'s Playable Deck is worth {total} "
            f"deckbuilding value; the maximum is {max_value}.")
    faction = f.faction(seat)
    neutral = g.module.neutral
    wrong = sorted({c.name for c in known if c.group not in (faction, neutral)})
    if faction and wrong:
        add(out, f, "GAU-DECK-FACTION", f"{f.who(seat)} plays {faction}, but its deck holds "
            f"{', '.join(wrong)} from another faction.")
    flag = rules.unique_flag if rules and rules.unique_flag else "unique"
    copies = Counter(c.name for c in known if c.flag(flag))
    dup = sorted(n for n, k in copies.items() if k > 1)
    if dup:
        add(out, f, "GAU-DECK-UNIQUE", f"{f.who(seat)}'s deck has more than one copy of the "
            f"Unique card(s) {', '.join(dup)}.")
    terr = sorted({c.name for c in known if c.type == TERRITORY})
    if terr:
        add(out, f, "GAU-TERR-NOT-IN-DECK", f"Territory card(s) {', '.join(terr)} are in seat "
            f"{seat}'s Playable Deck; Territories are never part of it.")
    supp = sorted({c.name for c in known if c.type in SUPPLEMENTAL})
    if supp:
        add(out, f, "GAU-SUPP-NOT-CARDS", f"Supplemental component(s) {', '.join(supp)} are "
            f"shuffled into {f.who(seat)}'s Playable Deck.")


def _territories(f: Facts, out: list[Flag], seat: int) -> None:
    v = f.v
    leaders = [f.game.card(v.card_of(i)) for i in v.child_ids(f"p{seat}.leader", "card")]
    faction = f.faction(seat)
    if len(leaders) != 1 or leaders[0] is None or leaders[0].type != "Leader" or (
            faction is not None and leaders[0].group != faction):
        has = ", ".join(c.name if c else "?" for c in leaders) or "none"
        add(out, f, "GAU-DECK-LEADER", f"{f.who(seat)} plays {faction or '?'} and needs exactly "
            f"one Leader of that faction (has: {has}).")
    placed: list[tuple[int, str]] = []
    for pos in f.lay.territory:
        for cid in v.child_ids(f.lay.slots[pos], "card"):
            if v.owner_of(cid) == seat:
                placed.append((pos, cid))
    loose = v.child_ids(f"p{seat}.territories", "card")
    cards = [f.card(c) for _, c in placed] + [f.card(c) for c in loose]
    names = [c.name for c in cards if c is not None]
    want = f.p("territories_per_player", 3)
    if len(cards) != want or len(set(names)) != len(names):
        add(out, f, "GAU-TERR-THREE-DIFFERENT", f"{f.who(seat)} needs exactly {want} Territories "
            f"with different titles (has: {', '.join(names) or len(cards)}).")
    deck_rules = f.game.module.deck_rules.get("territories")
    arena_max = deck_rules.max_flagged.get("arena", 1) if deck_rules else 1
    arenas = [c.name for c in cards if c is not None and c.flag("arena")]
    if len(arenas) > arena_max:
        add(out, f, "GAU-TERR-ONE-ARENA", f"{f.who(seat)} brings {len(arenas)} Arenas "
            f"({', '.join(arenas)}); at most {arena_max} is allowed.")
    side = f.lay.side.get(seat, frozenset())
    bad = [cid for pos, cid in placed if pos not in side
           or f.seat_facing(v.rotation(cid)) != seat] + loose
    if bad or len(placed) != len(side):
        add(out, f, "GAU-SETUP-TERR-FACING", f"{f.who(seat)}'s three Territories must lie at its "
            f"own end of the Gauntlet, facing it.", bad)


def _zones(f: Facts, out: list[Flag], seat: int) -> None:
    v = f.v
    deck = v.child_ids(f"p{seat}.deck", "card")
    up = [c for c in deck if v.is_up(c)]
    filled = [z for z in ("discard", "graveyard", "assets") if v.count(f"p{seat}.{z}")]
    if up or filled:
        what = ", ".join(([f"{len(up)} face-up Draw Pile card(s)"] if up else [])
                         + [f"a non-empty {z}" for z in filled])
        add(out, f, "GAU-SETUP-DRAWPILE", f"{f.who(seat)} starts with {what}: the Draw Pile is "
            f"face down and the other piles start empty.", up)
    token = f.token_pos(seat)
    if token != f.lay.off.get(seat):
        add(out, f, "GAU-SETUP-TOKENS", f"{f.who(seat)}'s Player Token must start immediately "
            f"before its own end of the Gauntlet.", [f"p{seat}.token"])
    hand = v.count(f"p{seat}.hand")
    want = f.p("opening_hand", 3)
    if hand != want:
        add(out, f, "GAU-SETUP-HAND-3", f"{f.who(seat)} starts with {hand} cards in hand; the "
            f"opening hand is {want}.")


def _faction_start(f: Facts, out: list[Flag], seat: int) -> None:
    v, faction = f.v, f.faction(seat)
    starts = {c.id.replace("{seat}", str(seat)): c.start for c in f.game.module.counters
              if "{seat}" in c.id}
    wrong = [cid for cid, start in starts.items() if v.exists(cid) and v.counter(cid) != start]
    missing: list[str] = []
    if faction == "Diplomats":
        props = v.child_ids(f"p{seat}.proposals", "card")
        wrong += [c for c in props if v.prop(c, "side", "Proposal") != "Proposal"]
        if len(props) != f.p("proposals", 9):
            missing.append(f"{f.p('proposals', 9)} Proposals")
    elif faction == "Financiers":
        wrong += v.child_ids(f"p{seat}.treasury", "card") + v.child_ids(f"p{seat}.deeds", "card")
        if v.count("deed-supply") + v.count(f"p{seat}.deeds") != f.p("deeds", 8):
            missing.append(f"{f.p('deeds', 8)} Deeds")
    elif faction == "Mystics":
        rites = v.child_ids(f"p{seat}.rites", "card")
        wrong += [c for c in rites if v.prop(c, "side", "Incomplete") != "Incomplete"]
        marker = f"p{seat}.rite-begun"
        if v.exists(marker) and v.zone_of(marker) in rites:
            wrong.append(marker)
        if len(rites) != f.p("rites_to_win", 3):
            missing.append(f"{f.p('rites_to_win', 3)} Rites")
    if faction is None:
        missing.append("a faction's trackers")
    if wrong:
        add(out, f, "GAU-SETUP-FACTION-START", f"{f.who(seat)} ({faction}) does not start at the "
            f"faction's set-up values.", wrong)
    if missing:
        add(out, f, "GAU-SUPP-PRESENT", f"{f.who(seat)} ({faction or 'no faction'}) is missing "
            f"{', '.join(missing)}.")


@dataclass
class _SetupTrace:
    """Where each seat's setup steps happened (record indices), read in one pass."""

    terr_slots: set[str]
    placed: set[str] = field(default_factory=set)
    early_reveal: list[str] = field(default_factory=list)
    first_roll_i: int | None = None
    token_at: dict[int, int] = field(default_factory=dict)  # seat -> its (last) Token placement
    first_token: dict[int, int] = field(default_factory=dict)  # seat -> its first placement
    reveal_at: dict[int, int] = field(default_factory=dict)  # seat -> last own-Territory reveal
    hand_at: dict[int, int] = field(default_factory=dict)  # seat -> its (last) opening draw
    first_hand: dict[int, int] = field(default_factory=dict)
    rolls: list[tuple[int, list[int]]] = field(default_factory=list)

    def follow_moves(self, f: Facts, rec: Record, i: int) -> None:
        """Territories placed, Player Tokens placed, opening hands drawn."""
        op, a = rec.op, rec.op.args
        for _, obj, frm, to in moves_of(rec, i):
            if to in self.terr_slots:
                self.placed.add(obj)
            if to in f.lay.slots and obj.endswith(".token"):
                owner = _token_seat(obj)
                if owner is not None:
                    self.token_at[owner] = i
                    self.first_token.setdefault(owner, i)
            if frm and to and frm.endswith(".deck") and to.endswith(".hand"):
                owner = _zone_seat(to)
                if owner is not None:
                    self.hand_at[owner] = i
        if op.kind == "consume" and str(a.get("to", "")).endswith(".hand") and any(
                str(e).endswith(".deck") for e in (a.get("expect") or [])):
            owner = _zone_seat(str(a["to"]))
            if owner is not None:
                self.hand_at[owner] = i
                self.first_hand.setdefault(owner, i)

    def out_of_order(self) -> bool:
        return any(self.reveal_at.get(s, -1) > first for s, first in self.first_token.items()) \
            or any(self.token_at.get(s, -1) > first for s, first in self.first_hand.items()) \
            or (self.first_roll_i is not None
                and max(self.hand_at.values(), default=-1) > self.first_roll_i)


def _history(f: Facts, out: list[Flag]) -> None:
    """One pass over the setup records: secret arrangement, step order, first player.

    The order (reveal, Leaders, Player Tokens, opening hands, first-player roll) is checked per
    seat, with the roll after everyone's hand: players at a table (or peers on a LAN) turn up
    their own Territories, place their own token and draw their own hand at their own pace.
    """
    records = f.h.records
    trace = _SetupTrace({f.lay.slots[p] for p in f.lay.territory})
    for i in range(f.h.index + 1):
        rec = records[i]
        if rec.void is not None:
            continue
        op = rec.op
        a = op.args
        if op.kind in ("move", "consume"):
            trace.follow_moves(f, rec, i)
        face_up = (op.kind == "set" and a.get("field") == "face_up" and a.get("value") is True) \
            or (op.kind == "reveal" and a.get("face_up"))
        if face_up and a.get("id") in trace.placed:
            owner = f.v.owner_of(str(a["id"]))
            if owner is not None:
                trace.reveal_at[owner] = i
            if len(trace.placed) < 2 * int(f.p("territories_per_player", 3)):
                trace.early_reveal.append(str(a["id"]))
        if op.kind == "roll" and "first" in str(a.get("why", "")):
            seat = f.h.seat_of(rec)
            if seat is not None:
                trace.rolls.append((seat, list(a["values"])))
            trace.first_roll_i = trace.first_roll_i if trace.first_roll_i is not None else i
    if trace.early_reveal:
        add(out, f, "GAU-SETUP-TERR-SECRET", "Territories were turned face up before all six "
            "were placed; reveal all six together.", trace.early_reveal)
    if trace.out_of_order():
        add(out, f, "GAU-SETUP-ORDER", "Setup steps were done out of order (reveal, Leaders, "
            "Player Tokens, opening hands, then the first-player roll).")
    _first_player(f, out, trace.rolls)


def _zone_seat(zone_id: str) -> int | None:
    """The seat of a per-seat zone id such as 'p2.hand'."""
    head = zone_id.split(".", 1)[0]
    return int(head[1:]) if head.startswith("p") and head[1:].isdigit() else None


_token_seat = _zone_seat  # 'p1.token' names its seat the same way


def _first_player(f: Facts, out: list[Flag], rolls: list[tuple[int, list[int]]]) -> None:
    first = f.v.turn[0]
    if not rolls or first is None:
        return
    last: dict[int, int] = {}
    for seat, values in rolls:
        last[seat] = sum(values)
    if len(last) < 2:
        return
    best = max(last.values())
    leaders = [s for s, v in last.items() if v == best]
    if len(leaders) > 1:
        add(out, f, "GAU-SETUP-FIRST-PLAYER", f"The first-player rolls tied at {best} and were "
            f"not rerolled.")
    elif leaders[0] != first:
        add(out, f, "GAU-SETUP-FIRST-PLAYER", f"{f.who(leaders[0])} rolled higher ({best}) but "
            f"{f.who(first)} took the first turn.")
