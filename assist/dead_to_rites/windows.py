"""Checks that run when a timing window closes (a turn, phase or winner marker).

The window that closes is everything since the previous turn/phase marker: the Dawn's income
and readying, Combat's damage and strike backs, Dusk's clean-up, and the consequences of
declarations made in it (blocked Rites, Pacts, Counter, Expel). State invariants (destroyed at
Guard, step = Completed pile) are checked at every marker, so a player has the window to act
them out.
"""
from __future__ import annotations

from assist.api import Flag, journal_moves
from table.core.timeline import Record

from . import combat, ritual
from .reader import POOL, Dtr, resolve, z, zone_kind
from .rules import flag
from .window import Closing, closing, seat_zones


def check_window_end(d: Dtr) -> list[Flag]:
    what = d.ctx.op.args.get("what")
    w = closing(d)
    out = close_window(d, w)
    if what == "winner":
        out += check_winner(d)
    elif what == "turn":
        out += turn_passes(d, w.turn)
    return out


def check_game_end(d: Dtr) -> list[Flag]:
    """The game's recorded result (an `end` op) closes the window it falls in: the last Dusk
    is checked like every other."""
    return close_window(d)


def close_window(d: Dtr, w: Closing | None = None) -> list[Flag]:
    w = closing(d) if w is None else w
    if w.closed:
        return []  # a winner mark and then the end op (or a marker): one window, checked once
    start, phase, active = w.start, w.phase, w.active
    out: list[Flag] = []
    if active is not None and d.phase_named(phase, "dawn"):
        out += dawn_end(d, start, active)
    if active is not None and d.phase_named(phase, "combat"):
        out += combat_end(d)
    if d.phase_named(phase, "dusk"):
        out += dusk_end(d)
    out += invariants(d, w)
    out += declarations_end(d, w)
    return out


def dawn_end(d: Dtr, start: int, active: int) -> list[Flag]:
    ctx = d.ctx
    out: list[Flag] = []
    engaged = [c for c in d.champions(active) if not d.ready(c)]
    if engaged:
        out.append(flag(ctx, "DTR-DAWN-READY", f"Seat {active}'s Dawn ended with engaged "
                        f"Champions ({', '.join(d.name(c) for c in engaged)}); they ready at "
                        "your Dawn.", objects=tuple(engaged)))
    gained, _spent = d.favor_gain(active, start, ctx.index)
    drew = d.draws(active, start, ctx.index)
    missing = []
    if gained == 0 and d.favor(active) < d.favor_cap(active):
        missing.append("gain Favor")
    if drew == 0:
        missing.append("draw")
    if missing:
        out.append(flag(ctx, "DTR-DAWN-INCOME", f"Seat {active} did not {' or '.join(missing)} "
                        "at Dawn; every player gains Favor and draws at their Dawn.",
                        objects=(z(active, "favor"), z(active, "hand"))))
    for pact in d.view.child_ids(z(active, "pacts"), "card"):
        accepted = [i for i, r in d.declarations("pact-accept", 0, start)
                    if resolve(d, d.field(r, "pact")) == pact]
        if accepted:
            out.append(flag(ctx, "DTR-PACT-EXPIRY", f"{d.name(pact)} is still out after seat "
                            f"{active}'s next Dawn; it ends then and goes to their discard pile.",
                            objects=(pact,)))
    return out


def combat_end(d: Dtr) -> list[Flag]:
    ctx = d.ctx
    out: list[Flag] = []
    attacks = combat.attacks_this_turn(d, ctx.index)
    if not attacks:
        return out
    still = sorted({a for _i, a, _t in attacks if a and d.view.exists(a)
                    and zone_kind(d.view.zone_of(a)) == "play" and d.ready(a)})
    if still:
        out.append(flag(ctx, "DTR-ATTACKER-ENGAGES", f"Attackers left upright: "
                        f"{', '.join(d.name(a) for a in still)}; every attacker engages.",
                        objects=tuple(still)))
    dealt = combat.damage_dealt(d, attacks[0][0], ctx.index)
    targets: dict[str, list[str]] = {}
    for _i, a, t in attacks:
        if a and t:
            targets.setdefault(t, []).append(a)
    turn_start = ctx.history.current_turn_start()
    struck = {resolve(d, d.field(r, "target"))
              for _i, r in d.declarations("strike-back", turn_start, ctx.index)}
    for target, attackers in targets.items():
        cards = [d.card(a) for a in attackers]
        if all(c is not None for c in cards):
            power = sum(c.number("power") for c in cards if c is not None)
            if dealt.get(target, 0) != power:
                out.append(flag(ctx, "DTR-COMBAT-DAMAGE", f"{d.name(target)} took "
                                f"{dealt.get(target, 0)} damage; its attackers' total Power is "
                                f"{power}.", objects=(target, *attackers)))
        if target not in struck:
            out.append(flag(ctx, "DTR-STRIKE-BACK", f"{d.name(target)} did not strike back; every "
                            "target strikes back once, even if destroyed (declare it).",
                            objects=(target,)))
    return out


def dusk_end(d: Dtr) -> list[Flag]:
    view = d.view  # the damage first: the cheap test (most Champions have none at Dusk)
    damaged = [c for s in d.seats() for c in view.child_ids(z(s, "play"), "card")
               if (view.counter(c, "damage") or 0) > 0 and d.is_type(c, "Champion")]
    if not damaged:
        return []
    return [flag(d.ctx, "DTR-DAMAGE-CLEAR-DUSK", f"Damage was left on "
                 f"{', '.join(d.name(c) for c in damaged)} after Dusk; non-Poison damage clears "
                 "at Dusk.", objects=tuple(damaged))]


def invariants(d: Dtr, w: Closing) -> list[Flag]:
    """State invariants, reported in the window where they break (not again at every marker)."""
    ctx = d.ctx
    out: list[Flag] = []
    changed = w.changed()
    if not changed:
        return out  # each invariant below is only reported in a window that touched it
    seats = d.seats()
    dead = []
    zones = seat_zones(tuple(seats))
    view = d.view
    # cheap test first: most windows moved or hit no card in play (a child's zone is its
    # container, so no card in play changed when no changed object lies in a play zone)
    if any(view.zone_of(c) in zones.play for c in changed):
        moved_in_play = [c for s in seats for c in view.child_ids(z(s, "play"), "card")
                         if c in changed]
    else:
        moved_in_play = []
    for c in moved_in_play:
        if not d.is_type(c, "Champion"):
            continue
        card = d.card(c)
        guard = card.get("guard") if card is not None else None
        if isinstance(guard, int) and guard > 0 and d.damage(c) >= guard:
            dead.append(c)
    if dead:
        out.append(flag(ctx, "DTR-DESTROY-AT-GUARD", f"{', '.join(d.name(c) for c in dead)} "
                        "has damage equal to or above its Guard and should be destroyed.",
                        objects=tuple(dead)))
    steps = changed & zones.track  # the window's changes first: the cheap test
    for s in seats if steps else ():
        if (z(s, "step") in steps or z(s, "completed") in steps) \
                and d.view.exists(z(s, "step")) and d.step(s) != d.completed(s):
            out.append(flag(ctx, "DTR-STEP-EQUALS-COMPLETED", f"Seat {s}'s step marker is on "
                            f"{d.step(s)} but their Completed pile has {d.completed(s)} Rites.",
                            objects=(z(s, "step"), z(s, "completed"))))
    if (POOL in changed or "altar" in changed) and d.view.count(POOL) \
            and ritual.rite_on_altar(d) is None:
        out.append(flag(ctx, "DTR-POOL-DISCARD", "Cards are still in the Defense Pool after the "
                        "Rite left the Altar; committed cards are discarded either way.",
                        objects=(POOL,)))
    return out


def declarations_end(d: Dtr, w: Closing) -> list[Flag]:
    ctx = d.ctx
    now = ctx.index
    out: list[Flag] = []
    for i, rite, owner in ritual.blocked_among(w.ops):
        placed = ritual.placed_at_before(d, rite, i)
        gained, _spent = d.favor_gain(owner, i if placed is None else placed, now)
        cap = d.favor_cap(owner)
        base = d.favor(owner) - gained
        expected = max(0, min(int(d.p("blocked_favor", 2)), cap - base))
        if gained != expected:
            out.append(flag(ctx, "DTR-BLOCKED-FAVOR", f"Seat {owner} gained {gained} Favor for "
                            f"their blocked Rite; it is {d.p('blocked_favor', 2)} (up to the cap) "
                            "and the rest of the payment is lost.", objects=(z(owner, "favor"),)))
        drew = d.draws(owner, i if placed is None else placed, now)
        need = d.blocked_draw(owner)
        if drew != need:
            out.append(flag(ctx, "DTR-BLOCKED-DRAW", f"Seat {owner} drew {drew} for their blocked "
                            f"Rite; they draw {need}.", objects=(z(owner, "hand"),)))
    declared = d.declarations_by_name(w.start, now)
    for i, rec in declared.get("pact-decline", ()):
        pact = d.field(rec, "pact")
        offerer = d.view.owner_of(pact) if isinstance(pact, str) else None
        if offerer is not None and not _went_to(d, pact, z(offerer, "hand"), i, now):
            out.append(flag(ctx, "DTR-PACT-DECLINE", f"The declined Pact did not go back to seat "
                            f"{offerer}'s hand.", objects=(pact,)))
    for i, rec in declared.get("pact-break", ()):
        out += _pact_break(d, i, rec)
    for i, rec in declared.get("counter", ()):
        card_id = resolve(d, d.field(rec, "card")) or d.field(rec, "card")
        if not isinstance(card_id, str):
            continue
        card_owner = d.view.owner_of(card_id)
        if card_owner is None:
            continue
        refunded, _ = d.favor_gain(card_owner, i, now)
        if d.view.zone_of(card_id) != z(card_owner, "discard") or refunded:
            out.append(flag(ctx, "DTR-COUNTER", "A countered card goes to its owner's discard "
                            "pile and its cost isn't refunded.", objects=(card_id,)))
    for i, rec in declared.get("expel", ()):
        seat = d.seat_of(rec)
        try:
            count = int(d.field(rec, "count"))
        except (TypeError, ValueError):
            continue
        if seat is None:
            continue
        moved = sum(1 for _j, r in d.range(i, now) for _o, src, dst in journal_moves(r)
                    if src == z(seat, "deck") and dst == z(seat, "discard"))
        if moved != count:
            out.append(flag(ctx, "DTR-EXPEL", f"Seat {seat} declared Expel {count} but moved "
                            f"{moved} card(s) from their deck to their discard pile.",
                            objects=(z(seat, "deck"),)))
    return out


def _went_to(d: Dtr, obj_id: str, zone: str, start: int, stop: int) -> bool:
    if d.view.zone_of(obj_id) == zone and d.view.exists(obj_id):
        return True
    for _i, rec in d.range(start, stop):
        moves = journal_moves(rec)
        if any(o == obj_id for o, _s, _d in moves) and any(dst == zone for _o, _s, dst in moves):
            return True
    return False


def _pact_break(d: Dtr, i: int, rec: Record) -> list[Flag]:
    ctx = d.ctx
    pact = resolve(d, d.field(rec, "pact")) or d.field(rec, "pact")
    breaker = d.seat_field(rec, "breaker") or d.seat_of(rec)
    if not isinstance(pact, str) or breaker is None:
        return []
    offerer = d.view.owner_of(pact)
    accepter = next((d.seat_of(r) for _j, r in d.declarations("pact-accept", 0, i)
                     if resolve(d, d.field(r, "pact")) == pact), None)
    other = accepter if breaker == offerer else offerer
    problems = []
    _up, lost = d.favor_gain(breaker, i, ctx.index)
    loss = int(d.p("pact_break_favor_loss", 2))
    if lost != min(loss, d.favor(breaker) + lost):
        problems.append(f"seat {breaker} loses {loss} Favor")
    if other is not None and d.draws(other, i, ctx.index) != int(d.p("pact_break_draw", 2)):
        problems.append(f"seat {other} draws {d.p('pact_break_draw', 2)}")
    if zone_kind(d.view.zone_of(pact)) != "discard":
        problems.append("the Pact goes to the discard pile")
    if not problems:
        return []
    arbiter = any(d.name(c) == "Arbiter of Oaths" for s in d.seats()
                  for c in d.view.child_ids(z(s, "play"), "card"))
    f = flag(ctx, "DTR-PACT-BREAK", "A broken Pact: " + "; ".join(problems) + ".",
             objects=(pact,))
    if arbiter:
        f = type(f)(f.rule, "warning", f.message + " (Arbiter of Oaths is in play.)", f.section,
                    f.ops, f.objects)
    return [f]


def turn_passes(d: Dtr, prev: int | None) -> list[Flag]:
    """`prev`: the index of the turn marker before this one (None: this is the first)."""
    ctx = d.ctx
    out: list[Flag] = []
    seat = ctx.op.args.get("seat")
    if prev is not None and isinstance(seat, int):
        before = d.records[prev].op.args.get("seat")
        n = len(d.seats())
        if isinstance(before, int) and n and seat != before % n + 1:
            out.append(flag(ctx, "DTR-FIRST-PLAYER", f"The turn went from seat {before} to seat "
                            f"{seat}; play goes clockwise (seat {before % n + 1} is next).",
                            objects=()))
    step_max = int(d.p("step_max", 5))
    done = [s for s in d.seats() if d.completed(s) >= step_max]
    if done and ctx.history.last_mark("winner") is None:
        out.append(flag(ctx, "DTR-STEP5-WIN", f"Seat {done[0]} resolved Step {step_max} and won; "
                        "the game ends there.", objects=(z(done[0], "completed"),)))
    return out


def check_winner(d: Dtr) -> list[Flag]:
    ctx = d.ctx
    a = ctx.op.args
    seat = a.get("seat")
    if seat is None:
        seat = d.seat_field(ctx.record, "seat")
    if seat is None and isinstance(a.get("value"), int):
        seat = a["value"]
    step_max = int(d.p("step_max", 5))
    if isinstance(seat, int) and d.completed(seat) < step_max:
        return [flag(ctx, "DTR-STEP5-WIN", f"Seat {seat} was declared the winner with "
                     f"{d.completed(seat)} completed Rites; resolving Step {step_max} wins.",
                     objects=(z(seat, "completed"),))]
    return []
