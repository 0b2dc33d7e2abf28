"""Checks fired by declarations (mark what="declare")."""
from __future__ import annotations

from assist.api import Flag

from .battle_totals import battle_total, revealed
from .faction_powers import FACTION_POWERS, Handler
from .facts import Battle, Decl, Facts
from .marks import AO_AFTER, AO_BEFORE, AO_USES, PREDICE, PREDICE_ORDERS
from .rules import add


def check_declare(f: Facts, out: list[Flag]) -> None:
    d = next((x for x in reversed(f.decls) if x.index == f.h.index), None)
    if d is None:
        return
    name = d.name
    if name in AO_USES:
        _ao_use(f, out, d)
    handler = _HANDLERS.get(name)
    if handler is not None:
        handler(f, out, d)
    if name in PREDICE or (name == "order" and d.fields.get("order") in PREDICE_ORDERS):
        _predice(f, out, d)


# -- Action Opportunity -----------------------------------------------------------------------
def _ao_use(f: Facts, out: list[Flag], d: Decl) -> None:
    if d.name == "purge" and d.fields.get("final_judgment"):
        return
    step = f.step
    if d.name == "action-card" and (d.seat != f.active or step not in (AO_BEFORE, AO_AFTER)):
        add(out, f, "GAU-ACTION-TIMING", f"{f.who(d.seat)} played a card for its Action effect "
            f"outside its own Action Opportunity.")
        return
    earlier = [x for x in f.decl(*AO_USES, before=d.index, seat=d.seat)
               if not (x.name == "purge" and x.fields.get("final_judgment"))]
    allowed = int(f.p("actions_per_turn", 1))
    if len(earlier) >= allowed:
        if step == AO_AFTER and any(f.step_at(x.index) == AO_BEFORE for x in earlier):
            add(out, f, "GAU-AO-AFTER-ONLY-IF-UNUSED", f"{f.who(d.seat)} already used its Action "
                f"Opportunity before movement; nothing may use it after movement ({d.name}).")
        else:
            add(out, f, "GAU-ACTION-ONE-PER-TURN", f"{f.who(d.seat)} uses the Action Opportunity "
                f"again this turn ({d.name}); the limit is {allowed}.")


def _after_only(rule: str, what: str) -> Handler:
    def check(f: Facts, out: list[Flag], d: Decl) -> None:
        if f.step != AO_AFTER or d.seat != f.active:
            add(out, f, rule, f"{what} happens only in the active player's Action Opportunity "
                f"after movement.")
    return check


def _deed(f: Facts, out: list[Flag], d: Decl) -> None:
    if f.step != AO_AFTER or d.seat != f.active:
        add(out, f, "GAU-FIN-DEED-TIMING", "Deeds are bought only in the Financier's Action "
            "Opportunity after movement.")
    seat = d.seat
    pos = f.parse_pos(d.fields.get("position"))
    if seat is None or pos is None:
        return
    hostile = d.name == "hostile-takeover"
    cost = _deed_cost(f, seat, pos, bool(d.fields.get("buyout")), hostile)
    collateral = d.fields.get("collateral")
    paid = d.fields.get("paid")
    if collateral:
        if f.leader(seat) != "banker" or f.decl("deed-buy", before=d.index, seat=seat) \
                or f.active != seat:
            add(out, f, "GAU-FIN-LINE-OF-CREDIT", "Line of Credit is the Banker's, for its "
                "first Deed purchase on its own turn.")
            return
        card = f.game.card(str(collateral)) or f.card(str(collateral))
        worth = card.number("value") if card is not None else 0
        cost -= min(worth, cost // 2)
    if isinstance(paid, int) and paid != cost:
        rule = "GAU-FIN-LINE-OF-CREDIT" if collateral else "GAU-FIN-DEED-COST"
        add(out, f, rule, f"This Deed costs {cost} Capital; {paid} was paid.")


def _deed_cost(f: Facts, seat: int, pos: int, buyout: bool, hostile: bool) -> int:
    cap = int(f.p("deed_cost_cap", 6))
    owned = f.v.count(f"p{seat}.deeds")
    if hostile:
        mod = 0
    elif f.controller(pos) == seat:
        mod = -1
    elif f.token_pos(seat) == pos:
        mod = 0
    else:
        mod = 1
    premium = min(f.v.count(f"p{f.other(seat)}.deeds"), cap) if buyout else 0
    return max(1, min(owned + 1, cap) + mod + premium)


def _hostile(f: Facts, out: list[Flag], d: Decl) -> None:
    seat = d.seat
    pos = f.parse_pos(d.fields.get("position"))
    ok = seat is not None and f.leader(seat) == "executive" and f.step == AO_AFTER and any(
        b.attacker == seat and (pos is None or b.pos == pos) for b in f.won_this_turn(seat))
    if ok and pos is not None and f.controller(pos) == seat:
        ok = False
    if not ok:
        add(out, f, "GAU-FIN-HOSTILE-TAKEOVER", "Hostile Takeover is the Executive's, in "
            "AO-after, after winning a battle this turn into an enemy-controlled Territory.")
        return
    _deed(f, out, d)


def _mission_complete(f: Facts, out: list[Flag], d: Decl) -> None:
    seat = d.seat
    slot = f"p{seat}.mission"
    records = f.h.records
    for i in range(f.h.current_turn_start(), f.h.index):
        rec = records[i]
        if rec.void is None and rec.op.kind == "consume" and rec.op.args.get("to") == slot:
            add(out, f, "GAU-INT-NOT-SAME-TURN", "A Mission cannot complete on the turn it "
                "was started.", f.v.child_ids(slot, "card"))
            return


def _specop_start(f: Facts, out: list[Flag], d: Decl) -> None:
    seat = d.seat
    if seat is None:
        return
    progress = f.v.counter(f"p{seat}.operation-progress") or 0
    opp = f.controlled(f.other(seat) or 0)
    busy = f.v.count(f"p{seat}.mission") > 0 or f.v.count(f"p{seat}.special-operation") > 1
    if f.step != AO_AFTER or progress <= opp or busy:
        add(out, f, "GAU-INT-SPECOP-START", f"A Special Operation starts only in AO-after, "
            f"with Operation Progress ({progress}) above the opponent's Territories ({opp}) "
            f"and no Active Mission.")


def _rite_begin(f: Facts, out: list[Flag], d: Decl) -> None:
    seat = d.seat
    if f.step != AO_AFTER or seat != f.active:
        add(out, f, "GAU-MYS-BEGIN-TIMING", "A Rite is begun only in the Mystic's Action "
            "Opportunity after movement.")
    marker = f"p{seat}.rite-begun"
    on = f.v.zone_of(marker)
    if on and f.card(on) is not None and f.v.prop(on, "side") != "Complete":
        add(out, f, "GAU-MYS-ONE-BEGUN", "Another Rite is already begun; only one Rite may be "
            "begun but incomplete at a time.", [on])
    rite = str(d.fields.get("rite", "")).lower()
    if "crossing" in rite and seat is not None:
        ok = any(b.attacker == seat and b.pos is not None and b.pos in f.lay.territory
                 and f.controller(b.pos) == f.other(seat) for b in f.won_this_turn(seat))
        if not ok:
            add(out, f, "GAU-MYS-CROSSING-BEGIN", "Rite of Crossing begins only after winning "
                "a battle this turn that moved the Mystic into a Territory the opponent "
                "controlled.")


def _purge(f: Facts, out: list[Flag], d: Decl) -> None:
    seat = d.seat
    if d.fields.get("final_judgment"):
        ok = seat is not None and f.leader(seat) == "grand-inquisitor" and bool(
            f.won_this_turn(seat)) and not any(
            x.fields.get("final_judgment") for x in f.decl("purge", before=d.index, seat=seat))
        if not ok:
            add(out, f, "GAU-INQ-FINAL-JUDGMENT", "Final Judgment is the Grand Inquisitor's, "
                "once per turn, right after winning a battle.")
        return
    if seat != f.active or f.step not in (AO_BEFORE, AO_AFTER):
        add(out, f, "GAU-INQ-PURGE-TIMING", "A Purge uses the Inquisition's own Action "
            "Opportunity (before or after movement).")


# -- battles ----------------------------------------------------------------------------------
def _battle_open(f: Facts, out: list[Flag], d: Decl) -> None:
    earlier = [b for b in f.battles if b.open_i < d.index]
    if earlier and earlier[-1].close_i is None:
        add(out, f, "GAU-ONE-BATTLE-AT-A-TIME", "A battle is begun while another is still "
            "unresolved.")
    b = f.battles[-1] if f.battles and f.battles[-1].open_i == d.index else None
    if b is None or b.attacker is None:
        return
    pos = b.pos if b.pos is not None else f.token_pos(b.defender)
    if pos is not None and f.token_pos(b.attacker) != pos:
        add(out, f, "GAU-ATTACKER-ENTERS", f"{f.who(b.attacker)} attacks, but its token is not "
            f"in the contested position yet.", [f"p{b.attacker}.token"])


def _winner(f: Facts, out: list[Flag], d: Decl) -> None:
    b = f.battle_at(d.index)
    if b is None or b.attacker is None or b.defender is None:
        return
    fl = d.fields
    w = fl.get("winner")
    at, dt = fl.get("attacker_total"), fl.get("defender_total")
    if isinstance(at, int) and isinstance(dt, int) and isinstance(w, int):
        pos = b.pos if b.pos is not None else f.token_pos(b.defender)
        dadv = b.last_stand or (pos is not None and f.controller(pos) == b.defender)
        if at == dt and not dadv:
            add(out, f, "GAU-TIE-REROLL", f"The totals are tied ({at}) and the defender has no "
                f"Defender's Advantage: both players reroll.")
        else:
            right = b.attacker if at > dt else b.defender
            if w != right:
                add(out, f, "GAU-WINNER", f"{f.who(right)} wins with totals {at} (attacker) to "
                    f"{dt} (defender), not {f.who(w)}.")
    _dice_keep(f, out, b, d)
    if b.last_stand and isinstance(dt, int) and isinstance(fl.get("defender_die"), int):
        _last_stand_total(f, out, b, d, dt, fl["defender_die"])


def _last_stand_total(f: Facts, out: list[Flag], b: Battle, d: Decl, dt: int, die: int) -> None:
    """The Last Stand defender's total, recomputed from its die, the cards it revealed for the
    battle and its spends, with the Last Stand's bonus (§8); where a card's effect cannot be
    told, at least the die and the bonus."""
    seat = b.defender
    if seat is None:
        return
    bonus = int(f.p("last_stand_bonus", 1))
    total = battle_total(f, b, seat, die, d.index)
    objects = [f"p{seat}.token", *revealed(f, seat)]
    if total.value is None:
        if dt < die + bonus:
            add(out, f, "GAU-LASTSTAND-BONUS", f"{f.who(seat)}'s Last Stand total was declared "
                f"{dt}, below its die {die} + {bonus} for the Last Stand.", objects)
    elif dt != total.value:
        add(out, f, "GAU-LASTSTAND-BONUS", f"{f.who(seat)}'s Last Stand total was declared "
            f"{dt}; its die {die} with {total.said()} makes {total.value}.", objects)


def _net(f: Facts, b: Battle, seat: int) -> int:
    net = 0
    for x in f.decl("net-advantage", since=b.open_i):
        if x.fields.get("seat", x.seat) == seat and isinstance(x.fields.get("net"), int):
            net = x.fields["net"]
    return net


def _dice_keep(f: Facts, out: list[Flag], b: Battle, d: Decl) -> None:
    rolls = f.rolls_between(b.open_i, d.index)
    for role, seat in (("attacker", b.attacker), ("defender", b.defender)):
        kept = d.fields.get(f"{role}_die")
        mine = [v for _, s, v in rolls if s == seat]
        if not isinstance(kept, int) or not mine or seat is None:
            continue
        values = mine[-1]
        net = _net(f, b, seat)
        right = max(values) if net > 0 else min(values) if net < 0 else values[0]
        if (kept != right and len(values) > 1) or kept not in values:
            add(out, f, "GAU-DICE-KEEP", f"{f.who(seat)} kept {kept} from {values}; with net "
                f"{'advantage' if net > 0 else 'disadvantage'} keep the "
                f"{'highest' if net > 0 else 'lowest'} ({right}).")


def _order(f: Facts, out: list[Flag], d: Decl) -> None:
    seat = d.seat
    order = str(d.fields.get("order", ""))
    lead = f.leader_card(seat) if seat is not None else None
    allowed = [str(o).split("(")[0].strip() for o in (lead.get("orders") if lead else ()) or ()]
    if seat is None or order not in allowed:
        add(out, f, "GAU-MIL-ORDERS-OWN-LEADER", f"{order or 'This Order'} is not an Order of "
            f"{f.who(seat)}'s Leader ({', '.join(allowed) or 'none'}).")
        return
    b = f.battle
    won = f.won_this_turn(seat)
    if order == "Rally" and (b is None or b.attacker != seat):
        add(out, f, "GAU-MIL-RALLY", "Rally applies only in a battle the General initiated.")
    elif order == "Entrench" and (b is None or b.attacker == seat or seat != b.defender):
        add(out, f, "GAU-MIL-ENTRENCH", "Entrench applies only in a battle the Commandant did "
            "not initiate.")
    elif order == "Rout" and not any(x.attacker == seat for x in won):
        add(out, f, "GAU-MIL-ROUT", "Rout follows only a battle the General initiated and won.")
    elif order == "Repel" and not any(x.defender == seat for x in won):
        add(out, f, "GAU-MIL-REPEL", "Repel follows only a battle the Commandant did not "
            "initiate and won.")
    elif order == "Fortify":
        pos = f.token_pos(seat)
        if not won or pos is None or pos not in f.lay.territory or f.controller(pos) == seat:
            add(out, f, "GAU-MIL-FORTIFY", "Fortify follows only a win while occupying an "
                "enemy-controlled Territory.")


def _predice(f: Facts, out: list[Flag], d: Decl) -> None:
    b = f.battle
    if b is None:
        return
    if f.rolls_between(b.open_i, d.index):
        add(out, f, "GAU-PREDICE-SPENDS", f"{d.fields.get('order') or d.name} must be used "
            f"before the battle dice are rolled.")
        return
    if d.seat == b.attacker:
        theirs = [x for x in f.decls if b.open_i < x.index < d.index and x.seat == b.defender
                  and (x.name in PREDICE or (x.name == "order" and x.fields.get("order")
                                             in PREDICE_ORDERS))]
        if theirs:
            add(out, f, "GAU-ATTACKER-FIRST", "In one timing window the attacker's effects "
                "come before the defender's.")


_HANDLERS: dict[str, Handler] = {
    "battle-open": _battle_open,
    "battle-winner": _winner,
    "deed-buy": _deed,
    "hostile-takeover": _hostile,
    "treasury": _after_only("GAU-FIN-TREASURY", "Placing a card in the Treasury"),
    "mission-start": _after_only("GAU-INT-MISSION-START", "Starting a Mission"),
    "mission-complete": _mission_complete,
    "special-op-start": _specop_start,
    "rite-begin": _rite_begin,
    "purge": _purge,
    "order": _order,
    **FACTION_POWERS,
}
