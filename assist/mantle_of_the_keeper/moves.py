"""Movement on the arena, board occupancy, Hazards and turret placement."""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from .board import ARENA, chosen_card, may_hold, seat_of_id
from .common import Out, param, piece, seat_name, walk_turn
from .facts import END, INCOME, Facts, counter_delta, fields, relocated
from .geometry import chebyshev

if TYPE_CHECKING:
    from assist.api import OpContext

    from .common import TurnWalk
    from .facts import Hop
    from .geometry import MoveModel


def _window_declarations(f: Facts, name: str) -> list[dict[str, Any]]:
    """Fields of `name` declarations made in the current turn."""
    out = []
    for rec in f.h.declarations(name, since=f.turn_start):
        out.append(fields(rec) | {"_seat": f.seat_of(rec)})
    return out


def on_standee(ctx: OpContext, f: Facts, out: Out, standee: str) -> None:
    if not f.in_play:
        return
    owner = seat_of_id(standee)
    mover = ctx.seat
    hops = f.hops(standee, ctx.index, ctx.index)
    if owner is None or not hops:
        return
    hop = hops[-1]
    if hop.before is None or hop.after is None:
        return  # placed on or taken off the arena: not a movement
    if mover != owner:
        _forced(ctx, f, out, owner, hop.before, hop.after)
        return
    phase = f.phase
    if owner != f.active or phase in (INCOME, END):
        when = "on another player's turn" if owner != f.active else f"in the {phase} phase"
        out.add("MAN-MOVE-IN-ACTION-PHASE", f"{seat_name(ctx, owner)} moved their Chosen {when}: "
                f"you move your Chosen during your own Action Phase.", [standee])
        return
    walk = walk_turn(f, owner)
    own = [h for h in f.hops(standee, f.turn_start)
           if h.before is not None and h.after is not None and f.seat_of(h.rec) == owner]
    if not own:
        return
    first = own[0].index
    if any(first < a < ctx.index for a in walk.actions):
        out.add("MAN-MOVE-NOT-SPLIT", f"{seat_name(ctx, owner)} moved again after taking an "
                f"action: movement may be before, after or between actions, but not split.",
                [standee])
        return
    _check_budget(ctx, f, out, owner, standee, own, walk)


def _check_budget(ctx: OpContext, f: Facts, out: Out, owner: int, standee: str,
                  own: list[Hop], walk: TurnWalk) -> None:
    """The turn's moves of a Chosen within its Movement (plus Favor spent and Surge); over it,
    the flag names what made it dear (Obstructions, opponents) when that is what did."""
    legs = [(h.before, h.after) for h in own if h.before is not None and h.after is not None]
    board = f.board()
    card = chosen_card(ctx.view, ctx.game, owner)
    if board is None or card is None:
        return
    base = card.number("movement")
    surge = param(ctx.game, "surge_bonus", 1) if legs[0][0] in board.cells_of("surge") else 0
    budget = base + walk.move_favor + surge
    model = board.move_model(owner, ctx.game)

    def total(m: MoveModel) -> int | None:
        cost = 0
        for start, goal in legs:
            c = m.cost(start, goal, limit=budget + 8)
            if c is None:
                return None
            cost += c
        return cost

    cost = total(model)
    if cost is not None and cost <= budget:
        return
    before = 0
    for start, goal in legs[:-1]:
        c = model.cost(start, goal, limit=budget + 8)
        before += c if c is not None else budget + 9
    if before > budget:
        return  # already flagged at the move that went over
    spent = f"{cost}" if cost is not None else "more than " + str(budget + 8)
    extra = f" + {walk.move_favor} Favor" if walk.move_favor else ""
    extra += f" + {surge} (Surge)" if surge else ""
    budget_text = f"Base Movement {base}{extra} = {budget}"
    no_obs = total(replace(model, obstruction_rules=False))
    if no_obs is not None and no_obs <= budget:
        out.add("MAN-MOVE-OBSTRUCTION-COST", f"{seat_name(ctx, owner)}'s move costs {spent} with "
                f"Obstructions and Breaches (2 to step out of one, +1 to squeeze between two "
                f"diagonal ones); the budget is {budget_text}.", [standee])
        return
    no_opp = total(replace(model, opponent_rules=False))
    if no_opp is not None and no_opp <= budget:
        out.add("MAN-MOVE-THROUGH-OPPONENT", f"{seat_name(ctx, owner)}'s move passes through an "
                f"opponent (2 movements each) and costs {spent}; the budget is {budget_text}.",
                [standee])
        return
    out.add("MAN-MOVE-BUDGET", f"{seat_name(ctx, owner)} moved {spent} spaces' worth; the budget "
            f"is {budget_text}. Spend 1 Favor per extra space (declare it).", [standee])


def _forced(ctx: OpContext, f: Facts, out: Out, owner: int, before: tuple[int, int],
            after: tuple[int, int]) -> None:
    standee = f"p{owner}.standee"
    forced = [d for d in _window_declarations(f, "forced-move") if d.get("target") in
              (owner, standee)]
    if forced:
        spaces = forced[-1].get("spaces")
        if isinstance(spaces, int) and chebyshev(before, after) > spaces:
            out.add("MAN-FORCED-MOVE-NO-FAVOR", f"{seat_name(ctx, ctx.seat)} moved "
                    f"{seat_name(ctx, owner)} {chebyshev(before, after)} spaces; the effect "
                    f"moves them {spaces}: Favor cannot push an opponent further.", [standee])
        return
    favor = [d for d in _window_declarations(f, "move-favor") if d.get("target") in
             (owner, standee)]
    if favor:
        out.add("MAN-FORCED-MOVE-NO-FAVOR", f"Favor was spent to move {seat_name(ctx, owner)}: "
                f"you may not move an opponent additional spaces with Favor.", [standee])
        return
    if not ctx.excused:
        out.add("MAN-MOVE-OWN-ONLY", f"{seat_name(ctx, ctx.seat)} moved "
                f"{seat_name(ctx, owner)}'s Chosen without a declared effect: only card effects "
                f"move another player's Chosen.", [standee])


def close_span(ctx: OpContext, f: Facts, out: Out, start: int) -> None:
    """At a phase or turn marker: where the characters that moved since `start` ended up."""
    stop = f.now - 1
    # only a standee or a piece on the arena that the span relocated can be flagged here:
    # most spans move none, and then neither the board nor any piece's trail is read
    touched = relocated(f.h.records, start, stop)
    if not any(o.endswith(".standee") for o in touched) and \
            touched.isdisjoint(ctx.view.child_ids(ARENA)):
        return
    board = f.board()
    if board is None:
        return
    moved: dict[str, int] = {}  # piece -> the index of its last move in the span
    tremors = board.cells_of("tremor")
    obstacles = board.obstacles
    for seat in sorted(board.standees) + [s for s in ctx.view.seats if s not in board.standees]:
        standee = f"p{seat}.standee"
        if standee not in touched:
            continue  # no trail in the span
        hops = [h for h in f.hops(standee, start, stop) if h.after is not None]
        if not hops:
            continue
        moved[standee] = hops[-1].index
        cell = board.standees.get(seat)
        if cell is not None and cell in obstacles:
            out.add("MAN-MOVE-END-OBSTRUCTION", f"{seat_name(ctx, seat)}'s Chosen ended its move "
                    f"on an Obstruction or Breach at {cell}: movement may not end there.",
                    [standee])
        for h in hops:
            if h.after in tremors and h.before != h.after:
                hurt = any(counter_delta(f.h.records[i], f"p{seat}.health") < 0
                           for i in range(h.index, stop + 1))
                if not hurt:
                    out.add("MAN-TREMOR-ENTER", f"{seat_name(ctx, seat)}'s Chosen moved onto a "
                            f"Tremor at {h.after} without taking its 1 damage.",
                            [standee, f"p{seat}.health"])
    for turret in board.turrets:
        hops = [h for h in f.hops(turret, start, stop) if h.after is not None] \
            if turret in touched else []
        if hops:
            moved[turret] = hops[-1].index
    if moved:
        where: dict[tuple[int, int], list[str]] = {}
        for seat, cell in board.standees.items():
            where.setdefault(cell, []).append(f"p{seat}.standee")
        for turret, cell in board.turrets.items():
            where.setdefault(cell, []).append(turret)
        for cell, ids in where.items():
            if len(ids) > 1 and moved.keys() & set(ids):
                out.add("MAN-ONE-PER-SPACE", f"{' and '.join(piece(ctx, i) for i in ids)} share "
                        f"the space {cell}: only one Chosen or turret may occupy a space.", ids)


def tremor_stay(ctx: OpContext, f: Facts, out: Out, start: int, stop: int, seat: int) -> None:
    """At the end of `seat`'s turn: still on the Tremor it was on when the turn began."""
    if not may_hold(ctx.view, "tremor"):
        return
    board = f.board()
    if board is None:
        return
    cell = board.standees.get(seat)
    if cell is None or cell not in board.cells_of("tremor"):
        return
    standee = f"p{seat}.standee"
    if f.hops(standee, start, stop):
        return
    hurt = any(counter_delta(f.h.records[i], f"p{seat}.health") < 0 for i in range(start, stop + 1))
    if not hurt:
        out.add("MAN-TREMOR-STAY", f"{seat_name(ctx, seat)}'s Chosen ended another turn on the "
                f"Tremor at {cell}: it takes 1 more damage.", [standee, f"p{seat}.health"])


def on_turret(ctx: OpContext, f: Facts, out: Out, turret: str) -> None:
    if ctx.op.args.get("to") != "arena":
        return
    board = f.board()
    if board is None or turret not in board.turrets:
        return
    owner = board.turret_owner.get(turret)
    artificer = str(ctx.game.param("turret_chosen", "Khaya the Artificer"))
    card = chosen_card(ctx.view, ctx.game, owner) if owner is not None else None
    if ctx.seat != owner or (card is not None and card.group != artificer):
        out.add("MAN-TURRET-OWNER", f"{seat_name(ctx, ctx.seat)} placed an Arcane Turret: "
                f"turrets are used only by {artificer}.", [turret])
    limit = param(ctx.game, "turret_limit", 2)
    if len(board.turrets) > limit:
        out.add("MAN-TURRET-LIMIT", f"{len(board.turrets)} Arcane Turrets are on the arena: the "
                f"limit is {limit}; destroy one before placing another.", [turret])
    cell = board.turrets[turret]
    others = [c for t, c in board.turrets.items() if t != turret] + list(board.standees.values())
    if cell in board.obstructions or board.hazard_at(cell) or cell in others:
        out.add("MAN-TURRET-PLACEMENT", f"An Arcane Turret was placed at {cell} on a Hazard, an "
                f"Obstruction or an occupied space.", [turret])


def on_breach_removed(ctx: OpContext, f: Facts, out: Out, breach: str) -> None:
    for d in _window_declarations(f, "attack"):
        if d.get("target") == breach:
            return
    out.add("MAN-BREACH", "A Breach was removed from the arena without being attacked: a "
            "Breach is destroyed only by 1 damage (declare the attack on it).", [breach])

