"""Checks that run when a timing window closes (a turn, phase or winner marker, the `end` op,
or the end of the input).

The window that closes is everything since the previous turn/phase marker: the Dawn's income
and readying, Combat's damage and strike backs, Dusk's clean-up, and the consequences of
declarations made in it (blocked Rites, Pacts, Counter, Expel). State invariants (destroyed at
Guard, step = Completed pile) are checked at every marker, so a player has the window to act
them out. Each verdict is laid at the op it judges (not at the marker that closed the window):
see close_window.
"""
from __future__ import annotations

from collections.abc import Iterable

from assist.api import Flag, journal_moves
from table.core.timeline import Record

from . import combat, ritual
from .reader import ALTAR, POOL, Dtr, resolve, z, zone_kind, zone_seat
from .rules import flag
from .window import Closing, closing, seat_zones

# the rules judged when their timing window closes (each flag laid at the op it judges)
WINDOW_RULES = frozenset({
    "DTR-DAWN-READY", "DTR-DAWN-INCOME", "DTR-PACT-EXPIRY", "DTR-ATTACKER-ENGAGES",
    "DTR-COMBAT-DAMAGE", "DTR-STRIKE-BACK", "DTR-DAMAGE-CLEAR-DUSK", "DTR-DESTROY-AT-GUARD",
    "DTR-STEP-EQUALS-COMPLETED", "DTR-POOL-DISCARD", "DTR-BLOCKED-FAVOR", "DTR-BLOCKED-DRAW",
    "DTR-PACT-DECLINE", "DTR-PACT-BREAK", "DTR-COUNTER", "DTR-EXPEL"})


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
    """The verdicts of the window that closes (at a marker, or as the input ends). What an
    entry required (an attack's strike back, a blocked Rite's Favor, a declared Counter) is laid
    at that entry; what the window required (the Dawn's income, Dusk's clean-up, a state to
    restore) at the op that closed it (the last op, when the input ended)."""
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


def _names(d: Dtr, objs: list[str]) -> str:
    return ", ".join(d.name(c) for c in objs)


def dawn_end(d: Dtr, start: int, active: int) -> list[Flag]:
    ctx, who = d.ctx, d.who(active)
    out: list[Flag] = []
    engaged = [c for c in d.champions(active) if not d.ready(c)]
    if engaged:
        out.append(flag(ctx, "DTR-DAWN-READY", f"{who}'s Dawn ended with {_names(d, engaged)} "
                        "still engaged; your Champions ready at your Dawn.",
                        objects=tuple(engaged)))
    gained, _spent = d.favor_gain(active, start, d.stop)
    drew = d.draws(active, start, d.stop)
    missing = []
    if gained == 0 and d.favor(active) < d.favor_cap(active):
        missing.append("gain Favor")
    if drew == 0 and not d.short_draw_ok(active, drew, 1, d.stop):
        missing.append("draw a card")
    if missing:
        out.append(flag(ctx, "DTR-DAWN-INCOME", f"{who} did not {' or '.join(missing)} at "
                        "their Dawn; every player gains Favor and draws at their Dawn.",
                        objects=(z(active, "favor"), z(active, "hand"))))
    for pact in d.view.child_ids(z(active, "pacts"), "card"):
        accepted = [d.seat_of(r) for _i, r in d.declarations("pact-accept", 0, start)
                    if resolve(d, d.field(r, "pact")) == pact]
        if accepted:
            out.append(flag(ctx, "DTR-PACT-EXPIRY", f"{d.name(pact)}, {who}'s Pact with "
                            f"{d.who(accepted[-1])}, is still out after {who}'s next Dawn; it "
                            "ends then and goes to their discard pile.",
                            objects=(pact, z(active, "pacts"))))
    return out


def combat_end(d: Dtr) -> list[Flag]:
    ctx = d.ctx
    out: list[Flag] = []
    attacks = combat.attacks_this_turn(d, d.stop)
    if not attacks:
        return out
    declared_at = {a: i for i, a, _t in reversed(attacks) if a}
    still = sorted({a for _i, a, _t in attacks if a and d.view.exists(a)
                    and zone_kind(d.view.zone_of(a)) == "play" and d.ready(a)},
                   key=lambda a: declared_at[a])
    if still:
        owner = d.who(zone_seat(d.view.zone_of(still[0])))
        out.append(flag(ctx, "DTR-ATTACKER-ENGAGES", f"{owner}'s {_names(d, still)} attacked "
                        "and stayed upright; every attacker engages (turns sideways).",
                        objects=tuple(still), at=d.ref(declared_at[still[0]])))
    dealt = combat.damage_dealt(d, attacks[0][0], d.stop)
    targets: dict[str, list[str]] = {}
    first: dict[str, int] = {}
    for i, a, t in attacks:
        if a and t:
            targets.setdefault(t, []).append(a)
            first.setdefault(t, i)
    turn_start = ctx.history.current_turn_start()
    struck = {resolve(d, d.field(r, "target"))
              for _i, r in d.declarations("strike-back", turn_start, d.stop)}
    for target, attackers in targets.items():
        at = d.ref(first[target])
        owner = d.who(d.view.owner_of(target))
        cards = [d.card(a) for a in attackers]
        if all(c is not None for c in cards):
            power = sum(c.number("power") for c in cards if c is not None)
            if dealt.get(target, 0) != power:
                out.append(flag(ctx, "DTR-COMBAT-DAMAGE", f"{owner}'s {d.name(target)} took "
                                f"{dealt.get(target, 0)} damage from {d.owned(attackers)}, "
                                f"whose total Power is {power}.",
                                objects=(target, *attackers), at=at))
        if target not in struck:
            out.append(flag(ctx, "DTR-STRIKE-BACK", f"{owner}'s {d.name(target)} did not strike "
                            f"back at {d.owned(attackers)}; every target strikes back once, "
                            "even if destroyed (declare it).", objects=(target, *attackers),
                            at=at))
    return out


def dusk_end(d: Dtr) -> list[Flag]:
    view = d.view  # the damage first: the cheap test (most Champions have none at Dusk)
    damaged = [c for s in d.seats() for c in view.child_ids(z(s, "play"), "card")
               if (view.counter(c, "damage") or 0) > 0 and d.is_type(c, "Champion")]
    if not damaged:
        return []
    whose = ", ".join(f"{d.who(d.view.owner_of(c))}'s {d.name(c)}" for c in damaged)
    return [flag(d.ctx, "DTR-DAMAGE-CLEAR-DUSK", f"Damage was left on {whose} after Dusk; "
                 "non-Poison damage clears at Dusk.", objects=tuple(damaged))]


def invariants(d: Dtr, w: Closing) -> list[Flag]:
    """State invariants, reported in the window where they break (not again at every marker),
    at the window's last op that touched them."""
    ctx = d.ctx
    out: list[Flag] = []
    changed = w.changed()
    if not changed:
        return out  # each invariant below is only reported in a window that touched it
    seats = d.seats()
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
            out.append(flag(ctx, "DTR-DESTROY-AT-GUARD", f"{d.who(view.owner_of(c))}'s "
                            f"{d.name(c)} has {d.damage(c)} damage against a Guard of {guard} "
                            "and is still in play; it is destroyed.", objects=(c,)))
    steps = changed & zones.track  # the window's changes first: the cheap test
    for s in seats if steps else ():
        track = {z(s, "step"), z(s, "completed")}
        if track & steps and d.view.exists(z(s, "step")) and d.step(s) != d.completed(s):
            out.append(flag(ctx, "DTR-STEP-EQUALS-COMPLETED", f"{d.who(s)}'s step marker is on "
                            f"{d.step(s)} but their Completed pile has {d.completed(s)} Rites.",
                            objects=(z(s, "step"), z(s, "completed"))))
    if (POOL in changed or ALTAR in changed) and d.view.count(POOL) \
            and ritual.rite_on_altar(d) is None:
        out.append(_pool_left(d, w))
    return out


def _pool_left(d: Dtr, w: Closing) -> Flag:
    """Cards still in the Defense Pool while no Rite waits on the Altar: after a Rite left it,
    or when none was there."""
    view = d.view
    left = view.child_ids(POOL, "card")
    whose = sorted({s for c in left if (s := view.owner_of(c)) is not None})
    by = f" (committed by {', '.join(d.who(s) for s in whose)})" if whose else ""
    gone = [obj for _i, _rec, obj in _left_altar(w)]
    what = f"after {d.name(gone[-1])} left the Altar" if gone else "with no Rite on the Altar"
    return flag(d.ctx, "DTR-POOL-DISCARD", f"{_names(d, left)}{by} stayed in the Defense Pool "
                f"{what}; committed cards go to their owners' discard piles.",
                objects=(POOL, *left))


def _left_altar(w: Closing) -> list[tuple[int, Record, str]]:
    return [(i, rec, obj) for i, rec in w.ops if rec.op.kind in ("move", "consume")
            for obj, src, dst in journal_moves(rec) if src == ALTAR and dst != ALTAR]


def declarations_end(d: Dtr, w: Closing) -> list[Flag]:
    ctx = d.ctx
    now = d.stop
    out: list[Flag] = []
    for i, rite, owner in ritual.blocked_among(w.ops):
        placed = ritual.placed_at_before(d, rite, i)
        gained, _spent = d.favor_gain(owner, i if placed is None else placed, now)
        cap = d.favor_cap(owner)
        base = d.favor(owner) - gained
        expected = max(0, min(int(d.p("blocked_favor", 2)), cap - base))
        who, rite_name = d.who(owner), d.name(rite)
        if gained != expected:
            out.append(flag(ctx, "DTR-BLOCKED-FAVOR", f"{who} gained {gained} Favor for their "
                            f"blocked {rite_name}; it is {d.p('blocked_favor', 2)} (up to the "
                            "cap) and the rest of the payment is lost.",
                            objects=(rite, z(owner, "favor")), at=d.ref(i)))
        drew = d.draws(owner, i if placed is None else placed, now)
        need = d.blocked_draw(owner)
        if drew != need and not d.short_draw_ok(owner, drew, need, now):
            out.append(flag(ctx, "DTR-BLOCKED-DRAW", f"{who} drew {drew} card(s) for their "
                            f"blocked {rite_name}; they draw {need}.",
                            objects=(rite, z(owner, "hand")), at=d.ref(i)))
    declared = d.declarations_by_name(w.start, now)
    for i, rec in declared.get("pact-decline", ()):
        pact = resolve(d, d.field(rec, "pact")) or d.field(rec, "pact")
        offerer = d.view.owner_of(pact) if isinstance(pact, str) else None
        if offerer is not None and isinstance(pact, str) \
                and not _went_to(d, pact, z(offerer, "hand"), i, now):
            out.append(flag(ctx, "DTR-PACT-DECLINE", f"{d.who(d.seat_of(rec))} declined "
                            f"{d.name(pact)}, and it did not go back to {d.who(offerer)}'s hand.",
                            objects=(pact,), at=d.ref(i)))
    for i, rec in declared.get("pact-break", ()):
        out += _pact_break(d, i, rec)
    out += _countered(d, declared.get("counter", ()), now)
    out += _expelled(d, declared.get("expel", ()), now)
    return out


def _countered(d: Dtr, declared: Iterable[tuple[int, Record]], now: int) -> list[Flag]:
    """Each Counter declared: the card to its owner's discard pile, nothing refunded."""
    ctx = d.ctx
    out: list[Flag] = []
    for i, rec in declared:
        card_id = resolve(d, d.field(rec, "card")) or d.field(rec, "card")
        if not isinstance(card_id, str):
            continue
        card_owner = d.view.owner_of(card_id)
        if card_owner is None:
            continue
        refunded, _ = d.favor_gain(card_owner, i, now)
        where = d.view.zone_of(card_id)
        problems = []
        if where != z(card_owner, "discard"):
            problems.append(f"went to {d.place(where)} instead of their discard pile")
        if refunded:
            problems.append(f"{refunded} Favor was given back")
        if problems:
            out.append(flag(ctx, "DTR-COUNTER", f"{d.who(card_owner)}'s {d.name(card_id)} was "
                            f"countered by {d.who(d.seat_of(rec))} and " + " and ".join(problems)
                            + "; a countered card goes to the discard pile, its cost not "
                            "refunded.", objects=(card_id,), at=d.ref(i)))
    return out


def _expelled(d: Dtr, declared: Iterable[tuple[int, Record]], now: int) -> list[Flag]:
    """Each Expel X declared: exactly X cards from the deck to the discard pile."""
    ctx = d.ctx
    out: list[Flag] = []
    for i, rec in declared:
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
            out.append(flag(ctx, "DTR-EXPEL", f"{d.who(seat)} declared Expel {count} but moved "
                            f"{moved} card(s) from their deck to their discard pile.",
                            objects=(z(seat, "deck"), z(seat, "discard")), at=d.ref(i)))
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
    _up, lost = d.favor_gain(breaker, i, d.stop)
    loss = int(d.p("pact_break_favor_loss", 2))
    if lost != min(loss, d.favor(breaker) + lost):
        problems.append(f"{d.who(breaker)} lost {lost} Favor (the breaker loses {loss})")
    draw = int(d.p("pact_break_draw", 2))
    if other is not None and (drew := d.draws(other, i, d.stop)) != draw:
        problems.append(f"{d.who(other)} drew {drew} (the other player draws {draw})")
    where = d.view.zone_of(pact)
    if zone_kind(where) != "discard":
        problems.append(f"the Pact went to {where}, not the discard pile")
    if not problems:
        return []
    arbiter = any(d.name(c) == "Arbiter of Oaths" for s in d.seats()
                  for c in d.view.child_ids(z(s, "play"), "card"))
    f = flag(ctx, "DTR-PACT-BREAK", f"{d.who(breaker)} broke {d.name(pact)}: "
             + "; ".join(problems) + ".", objects=(pact,), at=d.ref(i))
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
            out.append(flag(ctx, "DTR-FIRST-PLAYER", f"The turn went from {d.who(before)} to "
                            f"{d.who(seat)}; play goes clockwise ({d.who(before % n + 1)} is "
                            "next).", objects=(z(before, "crown"), z(seat, "crown"))))
    step_max = int(d.p("step_max", 5))
    done = [s for s in d.seats() if d.completed(s) >= step_max]
    if done and ctx.history.last_mark("winner") is None:
        out.append(flag(ctx, "DTR-STEP5-WIN", f"{d.who(done[0])} resolved Step {step_max} and "
                        "won, yet play went on; the game ends there.",
                        objects=(z(done[0], "completed"),)))
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
        return [flag(ctx, "DTR-STEP5-WIN", f"{d.who(seat)} was declared the winner with "
                     f"{d.completed(seat)} completed Rites; resolving Step {step_max} wins.",
                     objects=(z(seat, "completed"),))]
    return []
