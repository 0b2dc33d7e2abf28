"""Checks fired by markers: turn and step changes, and the declarations."""
from __future__ import annotations

from assist.api import Flag

from .facts import Facts, moves_of
from .rules import add
from .wording import whose

CAPTURE, DRAW, AO_BEFORE, MOVEMENT, AO_AFTER, CLEANUP = range(6)
AO_USES = ("action-card", "asset-discard", "treasury", "deed-buy", "hostile-takeover", "market",
           "mission-start", "mission-complete", "mission-abort", "special-op-start",
           "special-op-complete", "rite-begin", "purge")
PREDICE = ("leverage", "subsidize", "transmutation")
PREDICE_ORDERS = ("Rally", "Entrench")


def check_mark(f: Facts, out: list[Flag]) -> None:
    a = f.ctx.op.args
    what = a.get("what")
    if what == "turn":
        _turn(f, out)
        _window_end(f, out)
    elif what in ("phase", "step"):
        _step(f, out)
        _window_end(f, out)
    elif what == "winner":
        _winner(f, out)


# -- turns ------------------------------------------------------------------------------------
def _previous_turn(f: Facts) -> tuple[int, int | None] | None:
    records = f.h.records
    for i in f.h.mark_indices():
        if i >= f.h.index:
            continue
        rec = records[i]
        if rec.void is None and rec.op.args.get("what") == "turn":
            return i, rec.op.args.get("seat")
    return None


def check_game_end(f: Facts, out: list[Flag]) -> None:
    """The game's recorded result (an `end` op) ends the turn it falls in: the step it falls in
    closes, and a Cleanup that kept too many cards is the same slip as when the turn passes."""
    close_turn(f, out)


def close_turn(f: Facts, out: list[Flag]) -> None:
    """The turn ends where it stands (the `end` op, or the end of the input): the step it is in
    closes as if the next step began, then the turn's own end (the hand limit, in Cleanup)."""
    seat = f.active
    name = f.steps[-1][1] if f.steps else None
    prev = f.step_no(name)
    if seat is not None and prev is not None:
        _leave_step(f, out, seat, prev, None)
    if seat is None or prev != CLEANUP:
        return
    _capital_limit(f, out)
    limit = f.p("hand_limit", 3)
    hand = f.v.count(f"p{seat}.hand")
    if hand > limit:
        add(out, f, "GAU-HAND-LIMIT", f"{f.who(seat)}'s Cleanup ended with {hand} cards in "
            f"hand; discard down to {limit} in Cleanup.", [f"p{seat}.hand"])


def settle(f: Facts, out: list[Flag]) -> None:
    """The input ended after the op being checked: the step and the turn it is in close (an
    `end` op already closed them)."""
    if f.ctx.op.kind == "end" or f.h.last_mark("winner") is not None:
        return
    close_turn(f, out)
    _window_end(f, out)


def _turn(f: Facts, out: list[Flag]) -> None:
    prev = _previous_turn(f)
    new = f.ctx.op.args.get("seat")
    if prev is None:
        return
    prev_i, prev_seat = prev
    if prev_seat == new:
        add(out, f, "GAU-TURN-ALTERNATE", f"{f.who(new)} takes a second turn in a row; turns "
            f"alternate.", [f"p{new}.token"])
    if prev_seat is None:
        return
    prevf = Facts(f.ctx, start=prev_i)
    limit = f.p("hand_limit", 3)
    hand = f.v.count(f"p{prev_seat}.hand")
    if hand > limit:
        add(out, f, "GAU-HAND-LIMIT", f"{f.who(prev_seat)} ended its turn with {hand} cards in "
            f"hand; discard down to {limit} in Cleanup.", [f"p{prev_seat}.hand"])
    _capital_limit(f, out)
    _game_over(f, out, prevf)


def _capital_limit(f: Facts, out: list[Flag]) -> None:
    """At the end of every turn, either player's: Capital within its limit."""
    for seat in (1, 2):
        if f.faction(seat) == "Financiers":
            cap = f.v.counter(f"p{seat}.capital") or 0
            limit_c = f.controlled(seat) + sum(f.value(c) for c in
                                               f.v.child_ids(f"p{seat}.treasury", "card"))
            if cap > limit_c:
                add(out, f, "GAU-FIN-CAPITAL-LIMIT", f"{f.who(seat)} kept {cap} Capital past "
                    f"the end of the turn; its limit is {limit_c}.", [f"p{seat}.capital"])


def _game_over(f: Facts, out: list[Flag], turn: Facts) -> None:
    """Win conditions met in the turn that just ended, with play going on."""
    if f.h.last_mark("winner") is not None:
        return
    for b in turn.battles:
        if b.last_stand and b.winner is not None and b.winner == b.attacker:
            add(out, f, "GAU-LASTSTAND-WIN", f"{f.who(b.attacker)} won the Last Stand and so ran "
                f"the Gauntlet: the game is over.")
    for seat in (1, 2):
        fac = f.faction(seat)
        if fac == "Mystics":
            done = sum(1 for c in f.v.child_ids(f"p{seat}.rites", "card")
                       if f.v.prop(c, "side") == "Complete")
            if done >= f.p("rites_to_win", 3):
                add(out, f, "GAU-MYS-RITUAL-WIN", f"{f.who(seat)} completed {done} Rites and won "
                    f"by Ritual: the game is over.")
        elif fac == "Financiers":
            owned = f.v.count(f"p{seat}.deeds")
            if owned and owned >= f.territories_in_gauntlet():
                add(out, f, "GAU-FIN-CONTROLLING-INTEREST", f"{f.who(seat)} owns every Deed and "
                    f"won by Controlling Interest: the game is over.")


def _winner(f: Facts, out: list[Flag]) -> None:
    seat = f.ctx.op.args.get("seat")
    fields = f.ctx.op.args.get("fields") or {}
    how = str(fields.get("how", ""))
    if not isinstance(seat, int):
        return
    fac = f.faction(seat)
    if how in ("peace-treaty", "treaty") or (not how and fac == "Diplomats" and not any(
            b.last_stand for b in f.battles)):
        n = _ratified(f, seat)
        if n < f.p("peace_treaty_ratified", 5):
            add(out, f, "GAU-DIP-PEACE-TREATY", f"{f.who(seat)} is declared the winner by Peace "
                f"Treaty with only {n} ratified Proposals.")
    elif how in ("gauntlet", "last-stand") and not any(
            b.last_stand and b.winner == seat == b.attacker for b in f.battles):
        add(out, f, "GAU-LASTSTAND-WIN", f"{f.who(seat)} is declared to have run the Gauntlet "
            f"without winning a Last Stand this turn.")


def _ratified(f: Facts, seat: int) -> int:
    return sum(1 for c in f.v.child_ids(f"p{seat}.proposals", "card")
               if f.v.prop(c, "side") == "Treaty Article")


# -- steps ------------------------------------------------------------------------------------
def _step(f: Facts, out: list[Flag]) -> None:
    new = f.step_no(f.ctx.op.args.get("value"))
    prior = [s for i, s in f.steps if i < f.h.index]
    prev = f.step_no(prior[-1]) if prior else None
    active = f.active
    if new is not None and prev is not None and new <= prev:
        add(out, f, "GAU-STEP-ORDER", f"{f.who(active)} moved to {f.ctx.op.args.get('value')} "
            f"after {prior[-1]}: steps run Capture, Draw, AO, Movement, AO, Cleanup, once each.")
    if active is None or new is None:
        return
    _leave_step(f, out, active, prev, new)


def _leave_step(f: Facts, out: list[Flag], active: int, prev: int | None,
                new: int | None) -> None:
    """What the step the active player leaves owes (`new`: the step they move to; None: the
    turn ends there, at the `end` op or the end of the input)."""
    past_capture = new is None or new > CAPTURE
    if past_capture and (prev is None or prev == CAPTURE):
        pos = f.token_pos(active)
        if pos is not None and pos in f.lay.territory and f.controller(pos) not in (active, None):
            terr = f.territory_at(pos)
            who = f.who(active)
            add(out, f, "GAU-CAPTURE-MANDATORY", f"{who} occupies {whose(f, terr)} (position "
                f"{pos}), which {who} does not control, and the Capture step ended without "
                f"capturing it (turning it to face {who}).", [terr or "", f"p{active}.token"])
    if (new is None or new >= DRAW) and (prev is None or prev < DRAW):
        _after_capture(f, out, active, going_on=new is not None)
    if prev == DRAW and (new is None or new > DRAW):
        _draw_count(f, out, active)


def _after_capture(f: Facts, out: list[Flag], active: int, going_on: bool = True) -> None:
    """After the Capture step: a Peace Treaty won (when play goes on to the Draw step without
    the win declared), a Financier's income."""
    fac = f.faction(active)
    if going_on and fac == "Diplomats" and _ratified(f, active) >= f.p("peace_treaty_ratified", 5) \
            and f.h.last_mark("winner") is None:
        add(out, f, "GAU-DIP-PEACE-TREATY", f"{f.who(active)} has {_ratified(f, active)} "
            f"ratified Proposals after its Capture step: it wins by Peace Treaty.",
            [f"p{active}.proposals"])
    if fac == "Financiers":
        start = f.h.current_turn_start()
        cid = f"p{active}.capital"
        before = f.counter_at(cid, start)
        now = f.v.counter(cid) or 0
        deeds = f.v.count(f"p{active}.deeds")
        if before is not None and now - before != deeds:
            add(out, f, "GAU-FIN-INCOME", f"{f.who(active)} owns {deeds} Deed(s) and gains "
                f"that much Capital after Capture; it gained {now - before}.", [cid])


def _draw_count(f: Facts, out: list[Flag], active: int) -> None:
    draw_i = next((i for i, s in reversed(f.steps) if i < f.stop
                   and f.step_no(s) == DRAW), None)
    if draw_i is None:
        return
    deck, hand = f"p{active}.deck", f"p{active}.hand"
    drawn = 0
    records = f.h.records
    for i in range(draw_i, f.stop):
        rec = records[i]
        if rec.void is None and rec.op.kind == "consume" and rec.op.args.get("to") == hand:
            drawn += sum(1 for _, _, frm, _ in moves_of(rec, i) if frm == deck)
    want = f.p("draw_per_turn", 1)
    empty = f.v.count(deck) == 0 and f.v.count(f"p{active}.discard") == 0
    if drawn != want and not (drawn < want and empty):
        add(out, f, "GAU-DRAW-ONE", f"{f.who(active)} drew {drawn} card(s) in the Draw step; "
            f"the rule is {want}.", [hand, deck])


def _window_end(f: Facts, out: list[Flag]) -> None:
    """Things that must be settled by the end of a timing window (the ops before `f.stop`)."""
    start = None
    records = f.h.records
    for i in f.h.mark_indices():
        if i >= f.stop:
            continue
        rec = records[i]
        if rec.void is None and rec.op.args.get("what") in ("turn", "phase", "step"):
            start = i
            break
    if start is None:
        return
    _overlay_facing(f, out, start)
    _shared_without_battle(f, out, start)
    _rite_interrupted(f, out, start)


def _overlay_facing(f: Facts, out: list[Flag], start: int) -> None:
    records = f.h.records
    rotated: dict[str, int] = {}  # object -> the last op that rotated it
    for i in range(start, f.stop):
        op = records[i].op
        if op.kind == "set" and op.args.get("field") == "rotation":
            rotated[str(op.args.get("id"))] = i
    if not rotated:
        return
    for pos in f.lay.territory:
        terr = f.territory_at(pos)
        if terr is None:
            continue
        overlays = f.overlays_at(pos)
        if terr in rotated or rotated.keys() & set(overlays):
            rot = f.v.rotation(terr)
            bad = [o for o in overlays if f.v.rotation(o) != rot]
            if bad:
                add(out, f, "GAU-OVERLAY-FACING", f"{', '.join(whose(f, o) for o in bad)} "
                    f"does not face the way {whose(f, terr)} (position {pos}) faces; an "
                    "Overlay rotates with its Territory.", [*bad, terr])


def _shared_without_battle(f: Facts, out: list[Flag], start: int) -> None:
    p1, p2 = f.token_pos(1), f.token_pos(2)
    if p1 is None or p1 != p2 or f.battle is not None:
        return
    records = f.h.records
    last_move = None
    for i in range(f.stop - 1, f.h.current_turn_start() - 1, -1):
        op = records[i].op
        if op.kind == "move" and str(op.args.get("id", "")).endswith(".token"):
            last_move = i
            break
    if last_move is None:
        return
    if any(b.open_i > last_move for b in f.battles):
        return
    mover = f.h.seat_of(records[last_move])
    add(out, f, "GAU-BATTLE-ON-ENTRY", f"{f.who(mover)} entered {f.who(f.other(mover))}'s "
        f"position ({p1}) but no battle was begun.", ["p1.token", "p2.token"])


def _rite_interrupted(f: Facts, out: list[Flag], start: int) -> None:
    for b in f.battles:
        if b.close_i is None or b.close_i < start or b.winner is None:
            continue
        loser = b.defender if b.winner == b.attacker else b.attacker
        if loser is None or f.faction(loser) != "Mystics":
            continue
        marker = f"p{loser}.rite-begun"
        rite = f.v.zone_of(marker)
        if rite is None:
            continue
        card = f.card(rite)
        if card is None or card.id not in ("rite-of-echoes", "rite-of-blood"):
            continue
        if f.v.prop(rite, "side") == "Complete":
            continue
        if f.decl("guardians", since=b.open_i, seat=loser):
            continue
        placed = _placed_after(f, marker, b.close_i)
        if not placed:
            add(out, f, "GAU-MYS-LOSS-INTERRUPTS", f"{f.who(loser)} lost a battle while "
                f"{card.name} was begun: the Rite is interrupted and resets.", [rite],
                at=b.close_i)


def _placed_after(f: Facts, obj: str, index: int) -> bool:
    records = f.h.records
    for i in range(index, f.stop):
        op = records[i].op
        if op.kind == "move" and op.args.get("id") == obj:
            return True
    return False
