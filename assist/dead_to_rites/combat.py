"""Combat, readiness and declarations (attack, strike back, engage, mulligan, Pacts, Ward)."""
from __future__ import annotations

from typing import Any

from assist.api import Flag, counter_delta
from table.games.model import Card

from . import ritual
from .reader import Dtr, resolve, z, zone_kind, zone_seat
from .rules import flag

DAMAGE_KEYS = ("damage", "poison-damage")


def check_declaration(d: Dtr) -> list[Flag]:
    name = d.ctx.op.args.get("value")
    if name == "attack":
        return check_attack(d)
    if name == "strike-back":
        return check_strike_back(d)
    if name == "mulligan":
        return check_mulligan(d)
    if name == "pact-offer":
        return check_pact_offer(d)
    if name == "pact-accept":
        return check_pact_accept(d)
    if name == "ward":
        return ritual.check_ward_declaration(d)
    return []


def attacks_this_turn(d: Dtr, stop: int) -> list[tuple[int, str | None, str | None]]:
    """(index, attacker, target) of this turn's attack declarations before `stop`."""
    start = d.history.current_turn_start()
    return [(i, resolve(d, d.field(r, "attacker")), resolve(d, d.field(r, "target")))
            for i, r in d.declarations("attack", start, stop)]


def damage_dealt(d: Dtr, start: int, stop: int) -> dict[str, int]:
    """Damage added to each card in [start, stop)."""
    out: dict[str, int] = {}
    for _i, rec in d.range(start, stop):
        op = rec.op
        if op.kind == "counter" and op.args.get("key") in DAMAGE_KEYS:
            delta = counter_delta(rec, op.args["id"], op.args["key"])
            if delta > 0:
                out[op.args["id"]] = out.get(op.args["id"], 0) + delta
    return out


def _attack_said(d: Dtr, attacker: str | None, target: str | None, raw_target: Any) -> str:
    """The attack as it was declared: "Ember's Brand Guard attacked Choir's Dirge Adept"."""
    aimed = d.whose(target) if target else repr(raw_target) if raw_target is not None \
        else "nothing"
    return f"{d.who(d.ctx.seat)} declared {d.whose(attacker) if attacker else 'an attack'} " \
           f"attacking {aimed}"


def check_attack(d: Dtr) -> list[Flag]:
    ctx = d.ctx
    rec = ctx.record
    out: list[Flag] = []
    raw_attacker, raw_target = d.field(rec, "attacker"), d.field(rec, "target")
    attacker, target = resolve(d, raw_attacker), resolve(d, raw_target)
    objs = tuple(o for o in (attacker, target) if o)
    said = _attack_said(d, attacker, target, raw_target)
    if ctx.seat != d.active or not d.phase_named(d.view.phase, "combat"):
        out.append(flag(ctx, "DTR-ATTACK-IN-COMBAT", f"{said} during "
                        f"{d.view.phase or 'no phase'} of {d.who(d.active)}'s turn; only the "
                        "active player attacks, in their Combat phase.", objects=objs))
    earlier = attacks_this_turn(d, ctx.index)
    turn_start = ctx.history.current_turn_start()
    if earlier:
        dealt = damage_dealt(d, earlier[0][0], ctx.index)
        struck = d.declarations("strike-back", turn_start, ctx.index)
        if dealt or struck:
            out.append(flag(ctx, "DTR-DECLARE-ALL-AT-ONCE", f"{said} after the fights began "
                            "resolving; declare all attacks at once.", objects=objs))
    out += _target_flags(d, attacker, target, raw_target, objs)
    if attacker is None:
        return out
    card = d.card(attacker)
    if card is None or card.type != "Champion" or zone_kind(d.view.zone_of(attacker)) != "play":
        out.append(flag(ctx, "DTR-ATTACKER-READY", f"{said}, and {d.name(attacker)} is not a "
                        "Champion in play; only ready Champions attack.", objects=objs))
        return out
    if not d.ready(attacker):
        out.append(flag(ctx, "DTR-ATTACKER-READY", f"{said}, and {card.name} is engaged; "
                        "engaged Champions can't attack.", objects=objs))
    if any(a == attacker for _i, a, _t in earlier):
        out.append(flag(ctx, "DTR-ATTACK-ONCE", f"{said}, and {card.name} already attacked "
                        "this turn; a Champion attacks once per turn.", objects=objs))
    if card.flag("cant_attack"):
        out.append(flag(ctx, "DTR-CANT-ATTACK-NAMED", f"{said}; {card.name} can't attack (it "
                        "still strikes back).", objects=objs))
    elif not card.flag("haste") and entered_play_since(d, attacker, turn_start):
        out.append(flag(ctx, "DTR-NEW-CHAMPION-NO-ATTACK", f"{said}, and {card.name} came into "
                        "play this turn; new Champions can't attack unless the card says so.",
                        objects=objs))
    return out


def _target_flags(d: Dtr, attacker: str | None, target: str | None, raw_target: Any,
                  objs: tuple[str, ...]) -> list[Flag]:
    """The target is an opponent's Champion in play (never a player)."""
    ctx, rec = d.ctx, d.ctx.record
    said = _attack_said(d, attacker, target, raw_target)
    if target is None:
        if d.seat_field(rec, "target") is not None or (
                isinstance(raw_target, str) and d.view.exists(raw_target)):
            seat = d.seat_field(rec, "target")
            aimed = d.who(seat) if seat is not None else d.place(str(raw_target))
            return [flag(ctx, "DTR-NO-PLAYER-ATTACKS", f"{d.who(ctx.seat)} declared "
                         f"{d.whose(attacker) if attacker else 'an attack'} attacking {aimed}: "
                         "Champions only fight Champions; there are no attacks on players.",
                         objects=objs)]
        return [flag(ctx, "DTR-TARGET-OPPONENT-CHAMPION", f"{said}, which is not a Champion "
                     "on the table.", objects=objs)]
    tcard = d.card(target)
    tzone = d.view.zone_of(target)
    tseat = zone_seat(tzone)
    if tcard is None or tcard.type != "Champion" or zone_kind(tzone) != "play":
        return [flag(ctx, "DTR-TARGET-OPPONENT-CHAMPION", f"{said}, which is not a Champion "
                     "in play; attacks target an opponent's Champion.", objects=objs)]
    if tseat == d.active or (attacker and tseat == zone_seat(d.view.zone_of(attacker))):
        return [flag(ctx, "DTR-TARGET-OPPONENT-CHAMPION", f"{said}: the attacker's own "
                     "player controls it; attacks target an opponent's Champion.",
                     objects=objs)]
    return []


def entered_play_since(d: Dtr, obj_id: str, start: int) -> bool:
    for _i, rec in d.range(start, d.ctx.index):
        if rec.op.kind in ("move", "create") and rec.op.args.get("id") == obj_id:
            for entry in rec.journal.entries:
                if entry[0] == "ins" and entry[3] == obj_id and zone_kind(entry[1].id) == "play":
                    return True
    return False


def check_strike_back(d: Dtr) -> list[Flag]:
    ctx = d.ctx
    rec = ctx.record
    target, attacker = resolve(d, d.field(rec, "target")), resolve(d, d.field(rec, "attacker"))
    objs = tuple(o for o in (target, attacker) if o)
    attacks = attacks_this_turn(d, ctx.index)
    attackers = {a for _i, a, t in attacks if t == target}
    said = f"{d.who(ctx.seat)} declared {d.whose(target)} striking back at {d.whose(attacker)}"
    if not attackers:
        return [flag(ctx, "DTR-STRIKE-BACK", f"{said}, but {d.name(target) if target else 'it'} "
                     "was not attacked this turn, so it has no strike back.", objects=objs)]
    if attacker not in attackers:
        return [flag(ctx, "DTR-STRIKE-BACK", f"{said}, which did not attack it; a target strikes "
                     f"back at one of its own attackers ({d.owned(sorted(a for a in attackers if a))}).",
                     objects=objs)]
    start = ctx.history.current_turn_start()
    if any(resolve(d, d.field(r, "target")) == target
           for _i, r in d.declarations("strike-back", start, ctx.index)):
        return [flag(ctx, "DTR-STRIKE-BACK", f"{said}, and it already struck back this turn; "
                     "every target strikes back once.", objects=objs)]
    return []


def check_mulligan(d: Dtr) -> list[Flag]:
    ctx = d.ctx
    seat = ctx.seat
    allowed = int(d.p("mulligans", 1))
    setup = ctx.history.first_mark("setup", "complete")
    setup_at = ctx.history.index_of(setup) if setup is not None else 0
    started = d.mark_before(ctx.index, ("phase", "step"))
    earlier = [r for _i, r in d.declarations("mulligan", 0, ctx.index) if d.seat_of(r) == seat]
    if started is not None and started > (setup_at or 0):
        return [flag(ctx, "DTR-MULLIGAN", f"{d.who(seat)} mulliganed after play began; the "
                     "mulligan is only at the start of the game.", objects=(z(seat or 0, "hand"),))]
    if len(earlier) >= allowed:
        return [flag(ctx, "DTR-MULLIGAN", f"{d.who(seat)} mulliganed more than {allowed} time(s).",
                     objects=(z(seat or 0, "hand"),))]
    return []


def check_pact_offer(d: Dtr) -> list[Flag]:
    ctx = d.ctx
    rec = ctx.record
    to = d.field(rec, "to")
    seat = d.seat_field(rec, "to")
    if seat is None or seat == ctx.seat or seat not in d.seats() or isinstance(to, list):
        pact = resolve(d, d.field(rec, "pact"))
        aimed = d.who(seat) if seat is not None and seat in d.seats() else repr(to)
        return [flag(ctx, "DTR-PACT-SINGLE", f"{d.who(ctx.seat)} offered "
                     f"{d.name(pact) if pact else 'a Pact'} to {aimed}; a Pact is offered to "
                     "exactly one other player.", objects=(pact,) if pact else ())]
    return []


def check_pact_accept(d: Dtr) -> list[Flag]:
    ctx = d.ctx
    pact = resolve(d, d.field(ctx.record, "pact"))
    if pact is None:
        return [flag(ctx, "DTR-PACT-ACCEPTED-ZONE", "The accepted Pact is not on the table; it "
                     "lies face up between the two players (the offerer's Pacts zone).")]
    owner = d.view.owner_of(pact)
    if d.view.zone_of(pact) != z(owner or 0, "pacts") or not d.view.is_up(pact):
        return [flag(ctx, "DTR-PACT-ACCEPTED-ZONE", f"{d.who(ctx.seat)} accepted "
                     f"{d.whose(pact)}, which is not face up in {d.place(z(owner or 0, 'pacts'))}"
                     "; an accepted Pact lies face up between you.", objects=(pact,))]
    return []


# -- state changes on Champions --------------------------------------------------------------
def check_rotation(d: Dtr) -> list[Flag]:
    ctx = d.ctx
    out: list[Flag] = []
    for entry in ctx.record.journal.entries:
        if entry[0] != "f" or entry[2] != "rotation":
            continue
        obj_id, old = entry[1].id, entry[3] % 360
        new = d.view.rotation(obj_id) % 360
        zone = d.view.zone_of(obj_id)
        if zone_kind(zone) != "play" or not d.is_type(obj_id, "Champion") or (old == 0) == (new == 0):
            continue
        seat = zone_seat(zone)
        if new == 0:
            if not (d.phase_named(d.view.phase, "dawn") and d.active == seat):
                out.append(flag(ctx, "DTR-READY-ONLY-AT-DAWN", f"{d.whose(obj_id)} was readied "
                                f"outside {d.who(seat)}'s Dawn; Champions ready at their "
                                "controller's Dawn.",
                                objects=(obj_id,)))
            continue
        start = ctx.history.current_turn_start()
        declared = any(a == obj_id for _i, a, _t in attacks_this_turn(d, ctx.index)) or any(
            resolve(d, d.field(r, "card")) == obj_id
            for _i, r in d.declarations("engage", start, ctx.index))
        if not declared and not ctx.excused:
            out.append(flag(ctx, "DTR-ENGAGE-CAUSE", f"{d.whose(obj_id)} was engaged without an "
                            "attack or an \"Engage:\" ability being declared.", objects=(obj_id,)))
    return out


def check_damage_counter(d: Dtr, obj_id: str, key: str) -> list[Flag]:
    ctx = d.ctx
    if key not in DAMAGE_KEYS:
        return []
    delta = counter_delta(ctx.record, obj_id, key)
    zone = d.view.zone_of(obj_id)
    out: list[Flag] = []
    if key == "poison-damage" and delta < 0 and zone_kind(zone) == "play":
        out.append(flag(ctx, "DTR-POISON-PERSIST", f"Poison damage was removed from "
                        f"{d.whose(obj_id)} while it is in play; it stays until the Champion "
                        "leaves play.",
                        objects=(obj_id,)))
    if delta > 0 and d.phase_named(d.view.phase, "combat"):
        attacks = attacks_this_turn(d, ctx.index)
        involved = {a for _i, a, _t in attacks} | {t for _i, _a, t in attacks}
        if attacks and obj_id not in involved:
            out.append(flag(ctx, "DTR-NO-DEFENDERS", f"{d.whose(obj_id)} took combat damage but "
                            "neither attacked nor was attacked; no Champion steps in.",
                            objects=(obj_id,)))
    return out


def check_enters_play(d: Dtr, obj_id: str, card: Card, zone: str) -> list[Flag]:
    ctx = d.ctx
    out: list[Flag] = []
    if not d.ready(obj_id):
        out.append(flag(ctx, "DTR-CHAMPION-ENTERS-READY", f"{d.whose(obj_id)} came into play "
                        "engaged; new Champions enter ready.", objects=(obj_id,)))
    if card.flag("ace"):
        twins = [c for c in d.view.child_ids(zone, "card")
                 if c != obj_id and (twin := d.card(c)) is not None and twin.name == card.name]
        if twins:
            out.append(flag(ctx, "DTR-ACE-UNIQUE", f"{d.who(zone_seat(zone))} already controls "
                            f"{card.name}; you can't control two Aces with the same name.",
                            objects=(obj_id, *twins)))
    return out
