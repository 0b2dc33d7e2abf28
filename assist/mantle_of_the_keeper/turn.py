"""Turn order, phases, actions, cards in hand and discard, Favor and Health counters."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .common import Out, card_of_obj, living_seats, param, seat_name, walk_turn
from .facts import ACTION, END, INCOME, Facts, counter_delta, drawn, moved, norm_phase, phase_index, what
from .moves import tremor_stay

if TYPE_CHECKING:
    from assist.api import OpContext


def _seat_of_counter(obj_id: str, suffix: str) -> int | None:
    if obj_id.startswith("p") and obj_id.endswith(suffix):
        head = obj_id[1:-len(suffix)]
        return int(head) if head.isdigit() else None
    return None


# -- counters ---------------------------------------------------------------------------------
def on_counter(ctx: OpContext, f: Facts, out: Out) -> None:
    obj_id = ctx.op.args.get("id", "")
    seat = _seat_of_counter(obj_id, ".favor")
    if seat is not None:
        value = ctx.view.counter(obj_id) or 0
        delta = counter_delta(ctx.record, obj_id)
        if value < 0:
            out.add("MAN-FAVOR-NONNEG", f"{seat_name(ctx, seat)}'s Favor is now {value}: Favor "
                    f"never goes below 0, and you can spend only what you have.", [obj_id])
        if delta < 0 and f.in_play:
            active = f.active
            if seat == active and f.phase == END:
                out.add("MAN-EOT-NO-SPEND", f"{seat_name(ctx, seat)} spent {-delta} Favor in the "
                        f"End-of-Turn phase: Favor may not be spent after it starts.", [obj_id])
            elif seat != active and not ctx.excused:
                out.add("MAN-FAVOR-SPEND-OWN-TURN", f"{seat_name(ctx, seat)} spent {-delta} Favor "
                        f"on {seat_name(ctx, active)}'s turn: Favor is spent on your own turn "
                        f"(unless a Favor Ability says otherwise).", [obj_id])
        return
    seat = _seat_of_counter(obj_id, ".health")
    if seat is not None:
        value = ctx.view.counter(obj_id) or 0
        top = param(ctx.game, "health_max", param(ctx.game, "health_start", 20))
        if value > top or value < 0:
            out.add("MAN-HEALTH-RANGE", f"{seat_name(ctx, seat)}'s Chosen Health is {value}: it "
                    f"stays between 0 and {top}.", [obj_id])


# -- cards --------------------------------------------------------------------------------------
def on_consume(ctx: OpContext, f: Facts, out: Out) -> None:
    args = ctx.op.args
    to = args.get("to", "")
    expect = args.get("expect") or []
    seat = _seat_of_counter(to, ".hand")
    if seat is not None:
        from_discard = sum(1 for w in expect if isinstance(w, str) and w.endswith(".discard"))
        if from_discard and f.in_play:
            out.add("MAN-PLAYED-TO-DISCARD", f"{seat_name(ctx, seat)} took {from_discard} card(s) "
                    f"from a Discard Pile back into their hand: played cards stay in the "
                    f"Discard Pile.", [to])
        n = drawn(ctx.record, seat)
        if n and f.in_play:
            _on_draw(ctx, f, out, seat, n)
        return
    seat = _seat_of_counter(to, ".deck")
    if seat is not None and f.in_play:
        deck = f"p{seat}.deck"
        from_discard = any(isinstance(w, str) and w.endswith(".discard") for w in expect)
        # a refill card by card: the cards already moved over in this refill are not "kept"
        kept = sum(1 for w in expect if w == deck) - _refilled_so_far(ctx, deck)
        if from_discard and kept > 0:
            out.add("MAN-RESHUFFLE", f"{seat_name(ctx, seat)} shuffled the Discard Pile into a "
                    f"Draw Pile that still had {kept} card(s): reshuffle only once it is empty.",
                    [deck])


def _refilled_so_far(ctx: OpContext, deck: str) -> int:
    """Cards the discard-to-deck moves right before this op put into `deck`."""
    records, n = ctx.history.records, 0
    for i in range(ctx.index - 1, -1, -1):
        rec = records[i]
        if rec.void is not None or rec.op.kind in ("note", "chat", "ack"):
            continue
        expect = rec.op.args.get("expect") or [] if rec.op.kind == "consume" else []
        moved = sum(1 for w in expect if isinstance(w, str) and w.endswith(".discard"))
        if rec.op.args.get("to") != deck or not moved:
            return n
        n += moved
    return n


def _on_draw(ctx: OpContext, f: Facts, out: Out, seat: int, n: int) -> None:
    active, phase = f.active, f.phase
    if seat != active:
        if not ctx.excused:
            out.add("MAN-ACTION-IN-PHASE", f"{seat_name(ctx, seat)} drew {n} card(s) on "
                    f"{seat_name(ctx, active)}'s turn: draws happen in your own Action Phase.",
                    [f"p{seat}.hand"])
        return
    if phase == END:
        out.add("MAN-ACTION-IN-PHASE", f"{seat_name(ctx, seat)} drew {n} card(s) in the "
                f"End-of-Turn phase: drawing is an action of the Action Phase.",
                [f"p{seat}.hand"])
        return
    _check_actions(ctx, f, out, seat)


def _check_actions(ctx: OpContext, f: Facts, out: Out, seat: int) -> None:
    walk = walk_turn(f, seat)
    limit = param(ctx.game, "actions_per_turn", 2)
    if ctx.index in walk.actions and len(walk.actions) > limit:
        out.add("MAN-ACTION-LIMIT", f"{seat_name(ctx, seat)} has taken {len(walk.actions)} "
                f"actions this turn (draw or play a card): the limit is {limit}. Defending, "
                f"Modifiers, movement, Favor Abilities and Favor Exchanges are free.",
                [f"p{seat}.hand"])


def on_card_move(ctx: OpContext, f: Facts, out: Out) -> None:
    m = moved(ctx.record)
    if m is None:
        return
    obj, src, dest = m
    view = ctx.view
    o = view.obj(obj)
    if o is None or o.kind != "card":
        return
    if dest.endswith(".discard") and (not o.face_up or view.card_of(obj) is None):
        out.add("MAN-DISCARD-PUBLIC", "A card went face down into a Discard Pile: Discard "
                "Piles are face up and public.", [obj, dest])
    if not f.in_play or src is None:
        return
    seat = _seat_of_counter(src, ".hand")
    if seat is not None:
        if dest != f"p{seat}.discard":
            out.add("MAN-PLAYED-TO-DISCARD", f"{seat_name(ctx, seat)} put a card from their hand "
                    f"in {view.prop(dest, 'name', dest)}: a played or discarded card goes face "
                    f"up to its owner's Discard Pile.", [obj, dest])
        if seat == f.active:
            card = card_of_obj(ctx, obj, ctx.op.args)
            phase = f.phase
            if phase == INCOME:
                walk = walk_turn(f, seat)
                if any(p.index == ctx.index and p.action for p in walk.plays):
                    out.add("MAN-ACTION-IN-PHASE", f"{seat_name(ctx, seat)} played "
                            f"{card.name if card else 'a card'} in the Income phase: cards are "
                            f"played in the Action Phase.", [obj])
            elif phase in (ACTION, None):
                _check_actions(ctx, f, out, seat)
        return
    seat = _seat_of_counter(src, ".discard")
    if seat is not None and not dest.endswith(".discard"):
        out.add("MAN-PLAYED-TO-DISCARD", f"A card left {seat_name(ctx, seat)}'s Discard Pile for "
                f"{view.prop(dest, 'name', dest)}: played cards stay in the Discard Pile.",
                [obj, dest])


# -- phases and turns ---------------------------------------------------------------------------
def on_phase(ctx: OpContext, f: Facts, out: Out) -> None:
    new = norm_phase(ctx.op.args.get("value"))
    prev_i = f.previous_phase_mark()
    if prev_i is None:
        return
    prev_rec = f.h.records[prev_i]
    prev = norm_phase(prev_rec.op.args.get("value")) if what(prev_rec) in ("phase", "step") \
        else None
    if prev is not None and phase_index(new) >= 0 and phase_index(new) < phase_index(prev):
        out.add("MAN-PHASE-ORDER", f"{seat_name(ctx, ctx.seat)} went back from "
                f"{prev_rec.op.args.get('value')} to {ctx.op.args.get('value')}: once a phase is "
                "declared finished you may not return to it.")
    if prev == INCOME:
        income_span(ctx, f, out, prev_i)


def income_span(ctx: OpContext, f: Facts, out: Out, start: int) -> None:
    """The Income phase that began at `start`, judged as it closes."""
    seat = f.h.seat_of(f.h.records[start]) if f.active is None else f.active
    if seat is None:
        return
    draws = favor = 0
    for i in range(start, f.now):
        rec = f.h.records[i]
        draws += drawn(rec, seat)
        favor += counter_delta(rec, f"p{seat}.favor")
    want_draw = param(ctx.game, "income_draw", 1)
    want_favor = param(ctx.game, "income_favor", 1)
    if draws != want_draw or favor != want_favor:
        out.add("MAN-INCOME", f"{seat_name(ctx, seat)}'s Income: drew {draws} card(s) and gained "
                f"{favor} Favor; Income is exactly {want_favor} Favor and {want_draw} card.",
                [f"p{seat}.favor", f"p{seat}.hand"])


def on_turn(ctx: OpContext, f: Facts, out: Out) -> None:
    closed = f.closed_turn()
    new = ctx.op.args.get("seat")
    view = ctx.view
    if closed is None:
        return
    start, stop, prev = closed
    if prev is None:
        return
    # the phase in force when the turn ended: its newest phase marker's (stop = index - 1)
    for i in f.h.mark_indices():
        if i > stop:
            continue
        if i < start:
            break
        rec = f.h.records[i]
        if what(rec) in ("phase", "step"):
            if norm_phase(rec.op.args.get("value")) == INCOME:
                income_span(ctx, f, out, i)
            break
    _check_end_of_turn(ctx, f, out, start, stop, prev)
    deck, discard = f"p{prev}.deck", f"p{prev}.discard"
    if view.count(deck) == 0 and view.count(discard) > 0:
        out.add("MAN-RESHUFFLE", f"{seat_name(ctx, prev)}'s Draw Pile is empty: shuffle the "
                f"Discard Pile to form a new face-down Draw Pile.", [deck, discard])
    _check_next_turn(ctx, out, prev, new)


def _check_end_of_turn(ctx: OpContext, f: Facts, out: Out, start: int, stop: int,
                       prev: int) -> None:
    """The hand limit at End-of-Turn, and the Favor its discards earn."""
    view = ctx.view
    hand = view.count(f"p{prev}.hand")
    limit = param(ctx.game, "hand_limit", 6)
    if hand > limit:
        out.add("MAN-HAND-LIMIT", f"{seat_name(ctx, prev)} ended their turn with {hand} cards: "
                f"discard down to {limit} in the End-of-Turn phase.", [f"p{prev}.hand"])
    discards = favor = 0
    hand_id, favor_id = f"p{prev}.hand", f"p{prev}.favor"
    records, phase = f.h.records, None
    for i in range(start, stop + 1):
        rec = records[i]
        kind = rec.op.kind
        if kind == "mark":
            w = what(rec)
            if w == "turn":
                phase = None
            elif w in ("phase", "step"):
                phase = norm_phase(rec.op.args.get("value"))
        elif phase == END:
            if kind == "move":
                m = moved(rec)
                if m is not None and m[1] == hand_id:
                    discards += 1
            elif kind == "counter":
                favor += counter_delta(rec, favor_id)
    per = param(ctx.game, "favor_per_hand_limit_discard", 1)
    if discards and favor != discards * per:
        out.add("MAN-HAND-LIMIT-FAVOR", f"{seat_name(ctx, prev)} discarded {discards} card(s) at "
                f"End-of-Turn and gained {favor} Favor: it is {per} Favor per card discarded.",
                [f"p{prev}.favor"])


def _check_next_turn(ctx: OpContext, out: Out, prev: int, new: Any) -> None:
    """The next turn goes clockwise to a living player; the eliminated leave the board."""
    view = ctx.view
    living = living_seats(ctx)
    if isinstance(new, int) and new not in living:
        out.add("MAN-ELIMINATION", f"{seat_name(ctx, new)} has 0 Health and is eliminated: "
                f"they take no more turns.", [f"p{new}.health"])
    elif isinstance(new, int) and len(living) > 1:
        order = sorted(view.seats)
        if prev in order:
            at = order.index(prev)
            expected = next((s for s in order[at + 1:] + order[:at + 1] if s in living), None)
            if expected is not None and new != expected:
                out.add("MAN-TURN-ORDER", f"After {seat_name(ctx, prev)} it is "
                        f"{seat_name(ctx, expected)}'s turn, not {seat_name(ctx, new)}'s: turns "
                        f"go clockwise, skipping eliminated players.")
    if len(living) <= 1 and len(view.seats) > 1:
        out.add("MAN-GAME-END", "Only one Chosen remains: the game is over and that player "
                "takes up the Mantle; no more turns are played.")
    for seat in sorted(view.seats):
        if seat in living:
            continue
        standee = view.obj(f"p{seat}.standee")
        if standee is not None and standee.container == "arena":
            out.add("MAN-ELIMINATION", f"{seat_name(ctx, seat)} is at 0 Health but their "
                    f"standee is still on the arena: an eliminated Chosen leaves the board.",
                    [f"p{seat}.standee"])
        for turret in view.child_ids("arena", "token"):
            if turret.startswith(f"p{seat}.turret"):
                out.add("MAN-TURRET-REMOVE", f"{seat_name(ctx, seat)} (the Artificer) is "
                        f"eliminated: remove all Arcane Turrets from play.", [turret])


def on_game_end(ctx: OpContext, f: Facts, out: Out) -> None:
    """The game's recorded result ends the turn it falls in: an End-of-Turn phase that kept
    too many cards is the same slip as when the turn passes."""
    close_turn(ctx, f, out)


def close_turn(ctx: OpContext, f: Facts, out: Out) -> None:
    """The turn ends where it stands (the `end` op, or the end of the input, `f.now`): the
    phase it is in closes, and in End-of-Turn the turn's end is judged as when it passes (the
    hand limit, the Favor for its discards, the empty Draw Pile, a Tremor stayed on)."""
    seat = f.active
    if seat is None or not f.in_play:
        return
    start = f.previous_phase_mark()
    phase = f.phase_at(f.now - 1)
    if start is not None and phase == INCOME:
        income_span(ctx, f, out, start)
    if phase != END:
        return
    stop = f.now - 1
    _check_end_of_turn(ctx, f, out, f.turn_start, stop, seat)
    deck, discard = f"p{seat}.deck", f"p{seat}.discard"
    if ctx.view.count(deck) == 0 and ctx.view.count(discard) > 0:
        out.add("MAN-RESHUFFLE", f"{seat_name(ctx, seat)}'s Draw Pile is empty: shuffle the "
                f"Discard Pile to form a new face-down Draw Pile.", [deck, discard])
    tremor_stay(ctx, f, out, f.turn_start, stop, seat)


def on_winner(ctx: OpContext, f: Facts, out: Out) -> None:
    winner = ctx.op.args.get("seat")
    if winner is None:
        value = ctx.op.args.get("value")
        winner = value if isinstance(value, int) else None
    living = living_seats(ctx)
    if winner is None:
        return
    if len(living) > 1:
        out.add("MAN-GAME-END", f"{seat_name(ctx, winner)} was declared the winner while "
                f"{len(living)} Chosen remain: the last Chosen standing wins.")
    elif living and winner not in living:
        out.add("MAN-GAME-END", f"{seat_name(ctx, winner)} was declared the winner but "
                f"{seat_name(ctx, living[0])}'s Chosen is the last one standing.")
    elif not living:
        favor = {s: ctx.view.counter(f"p{s}.favor") or 0 for s in ctx.view.seats}
        best = max(favor.values(), default=0)
        if favor.get(winner, 0) < best:
            out.add("MAN-GAME-END", f"All Chosen are eliminated: the tiebreaker goes to the most "
                    f"Favor ({best}), not to {seat_name(ctx, winner)}.")
