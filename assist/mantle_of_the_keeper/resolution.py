"""What a timing window did, judged when the next one opens: an attack's damage and the Favor
it earns, a turret's activation, a Favor Exchange, an Ability's unlock or use."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .board import ability_slot, chosen_card, seat_of_id
from .combat import attacker_of, object_ref
from .common import (
    Out,
    card_named,
    card_of_obj,
    excused_between,
    is_modifier,
    param,
    piece,
    seat_name,
)
from .facts import Facts, counter_delta, declared, drawn, fields, moved
from .geometry import chebyshev, line_of_sight

if TYPE_CHECKING:
    from assist.api import OpContext
    from table.core.timeline import Record


def close_window(ctx: OpContext, f: Facts, out: Out) -> None:
    """The window that closes now; its verdicts are laid at the declaration that opened it."""
    j = f.previous_opener()
    if j is None:
        return
    rec = f.h.records[j]
    name = declared(rec)
    before = out.laid_at(j)
    if name == "attack":
        _resolve_attack(ctx, f, out, j, rec)
    elif name == "turret-activate":
        _resolve_turret(ctx, f, out, j, rec)
    elif name == "exchange":
        _resolve_exchange(ctx, f, out, j, rec)
    elif name in ("ability-unlock", "ability-use"):
        _resolve_ability(ctx, f, out, j, rec, name)
    out.laid_at(before)


def _gains(f: Facts, start: int, stop: int, obj_id: str) -> tuple[int, int]:
    """(sum of increases, sum of decreases) of a counter over records start..stop."""
    up = down = 0
    for i in range(start, stop + 1):
        d = counter_delta(f.h.records[i], obj_id)
        if d > 0:
            up += d
        else:
            down -= d
    return up, down


def _played(ctx: OpContext, f: Facts, start: int, stop: int, seat: int | None) -> list[tuple[int, Any]]:
    out = []
    for i in range(start, stop + 1):
        m = moved(f.h.records[i])
        if m is not None and seat is not None and m[1] == f"p{seat}.hand":
            out.append((i, card_of_obj(ctx, m[0], f.h.records[i].op.args)))
    return out


def _resolve_attack(ctx: OpContext, f: Facts, out: Out, j: int, rec: Record) -> None:
    stop = f.now - 1
    a = fields(rec)
    attacker = attacker_of(f, rec) or ""
    a_seat = seat_of_id(attacker)
    target = object_ref(a.get("target")) or ""
    t_seat = seat_of_id(target) if target.endswith(".standee") else None
    excused = excused_between(f, j, stop)
    defense = next((f.h.records[i] for i in range(j + 1, stop + 1)
                    if declared(f.h.records[i]) == "defense"), None)
    defense_at = next((i for i in range(j + 1, stop + 1)
                       if declared(f.h.records[i]) == "defense"), stop + 1)
    a_plays = _played(ctx, f, j, stop, a_seat)
    d_plays = _played(ctx, f, j, stop, t_seat) if t_seat is not None else []
    a_main = [c for _, c in a_plays if not is_modifier(c)]
    a_mods = [(i, c) for i, c in a_plays if is_modifier(c)]
    d_main = [c for _, c in d_plays if not is_modifier(c)]
    d_mods = [c for _, c in d_plays if is_modifier(c)]
    _check_card_counts(ctx, out, (a_seat, t_seat), (a_main, a_mods), (d_main, d_mods),
                       defense_at, excused)
    a_card = card_named(ctx.game, a.get("card")) or (a_main[0] if a_main else None)
    d_fields = fields(defense) if defense is not None else {}
    d_card = card_named(ctx.game, d_fields.get("card")) or (d_main[0] if d_main else None)
    special = any(c is not None and c.type == "Special" for c in (a_card, d_card)) or excused
    mods = bool(a_mods or d_mods)
    attack = a.get("value") if isinstance(a.get("value"), int) else (
        a_card.number("attack") if a_card is not None and not a_mods else None)
    defended = defense is not None or bool(d_main)
    dvalue = d_fields.get("value") if isinstance(d_fields.get("value"), int) else (
        d_card.number("defense") if d_card is not None and not d_mods else (0 if not defended
                                                                          else None))
    blow = _Blow(j, stop, attacker, a_seat, t_seat, attack, dvalue, defended, mods, special)
    if t_seat is not None:
        _check_damage(ctx, f, out, blow, t_seat)
    elif ".turret" in target and a_seat is not None:
        _check_turret_destroyed(ctx, f, out, blow, target, a_seat)


@dataclass(frozen=True, slots=True)
class _Blow:
    """One attack as declared and played: who, the values, whether a card changed the math."""

    start: int  # index of the attack's declaration
    stop: int  # index of the last record of its resolution
    attacker: str
    a_seat: int | None
    t_seat: int | None
    attack: Any
    dvalue: Any
    defended: bool
    mods: bool  # a Modifier was played on either side
    special: bool  # a Special card or a card effect: the numbers may differ (warnings)


def _check_card_counts(ctx: OpContext, out: Out, seats: tuple[int | None, int | None],
                       attack_plays: tuple[list[Any], list[tuple[int, Any]]],
                       defense_plays: tuple[list[Any], list[Any]], defense_at: int,
                       excused: bool) -> None:
    """One card plus one Modifier a side; the attacker's Modifier with its attack card."""
    a_seat, t_seat = seats
    (a_main, a_mods), (d_main, d_mods) = attack_plays, defense_plays
    if len(a_main) > 1:
        out.add("MAN-ONE-CARD-PER-ATTACK", f"{seat_name(ctx, a_seat)} played {len(a_main)} cards "
                f"for one attack: only one card (plus one Modifier) per attack.", excused=excused)
    if len(a_mods) > 1 or len(d_mods) > 1:
        seat, mods = (a_seat, [c for _i, c in a_mods]) if len(a_mods) > 1 else (t_seat, d_mods)
        names = ", ".join(c.name for c in mods if c is not None)
        out.add("MAN-MODIFIER-ONE", f"{seat_name(ctx, seat)} played {len(mods)} Modifiers "
                f"({names}) on one side of an attack: Modifiers may not be stacked.",
                [f"p{seat}.discard"] if seat is not None else [])
    if any(i > defense_at for i, _ in a_mods):
        out.add("MAN-MODIFIER-TIMING", f"{seat_name(ctx, a_seat)} added a Modifier after the "
                f"defense: Modifiers are played together with the attack card.")
    if len(d_main) > 1:
        out.add("MAN-DEFENSE-ONLY-TARGET", f"{seat_name(ctx, t_seat)} defended with "
                f"{len(d_main)} cards: one defense card (plus one Modifier).", excused=excused)


def _check_damage(ctx: OpContext, f: Facts, out: Out, blow: _Blow, t_seat: int) -> None:
    """Successful Damage taken, the Favor it earns, the Full Defense Bonus, an unharmed
    attacker."""
    j, stop, attacker, a_seat = blow.start, blow.stop, blow.attacker, blow.a_seat
    attack, dvalue, defended, special = blow.attack, blow.dvalue, blow.defended, blow.special
    mods = blow.mods
    credit_seat = a_seat
    _, taken = _gains(f, j, stop, f"p{t_seat}.health")
    expected = max(0, attack - dvalue) if attack is not None and dvalue is not None else None
    # Health stops at 0 (MAN-HEALTH-RANGE): a lethal blow takes what is left, no more; its
    # Successful Damage is still the difference (p. 13), and so is the Favor it earns
    lethal = expected is not None and 0 < taken < expected and \
        (ctx.view.counter(f"p{t_seat}.health") or 0) == 0
    damage = expected if lethal and expected is not None else taken
    if expected is not None and not (mods and special) and taken != expected and not lethal:
        out.add("MAN-DAMAGE", f"{seat_name(ctx, t_seat)} lost {taken} Health; attack "
                f"{attack} - defense {dvalue} = {expected} Successful Damage.",
                [f"p{t_seat}.health"], excused=special)
    per = param(ctx.game, "favor_per_damage", 1)
    if credit_seat is not None:
        got, _ = _gains(f, j, stop, f"p{credit_seat}.favor")
        if got != damage * per and not (".turret" in attacker and got):
            out.add("MAN-FAVOR-FOR-DAMAGE", f"{seat_name(ctx, credit_seat)} gained {got} Favor "
                    f"for {damage} Successful Damage: it is {per} Favor per point.",
                    [f"p{credit_seat}.favor"], excused=special)
    d_got, _ = _gains(f, j, stop, f"p{t_seat}.favor")
    bonus = param(ctx.game, "full_defense_bonus", 2)
    if defended and taken == 0 and d_got != bonus:
        out.add("MAN-FULL-DEFENSE", f"{seat_name(ctx, t_seat)} fully defended and gained "
                f"{d_got} Favor: the Full Defense Bonus is exactly {bonus}.",
                [f"p{t_seat}.favor"], excused=special)
    elif taken > 0 and d_got and not special:
        out.add("MAN-FULL-DEFENSE", f"{seat_name(ctx, t_seat)} took {taken} damage yet gained "
                f"{d_got} Favor: the bonus is only for a full defense.", [f"p{t_seat}.favor"])
    if a_seat is not None and attacker.endswith(".standee"):
        _, hurt = _gains(f, j, stop, f"p{a_seat}.health")
        if hurt and not special:
            out.add("MAN-ATTACKER-UNHARMED", f"{seat_name(ctx, a_seat)} lost {hurt} Health "
                    f"attacking: the defense value never damages the attacker.",
                    [f"p{a_seat}.health"])


def _check_turret_destroyed(ctx: OpContext, f: Facts, out: Out, blow: _Blow, target: str,
                            a_seat: int) -> None:
    j, stop, special = blow.start, blow.stop, blow.special
    gone = f.view.zone_of(target) != "arena"
    got, _ = _gains(f, j, stop, f"p{a_seat}.favor")
    want = param(ctx.game, "turret_destroy_favor", 1)
    if gone and got != want:
        out.add("MAN-TURRET-DESTROY", f"{seat_name(ctx, a_seat)} destroyed an Arcane Turret "
                f"and gained {got} Favor: destroying it gives {want}.",
                [f"p{a_seat}.favor"], excused=special)


def _resolve_turret(ctx: OpContext, f: Facts, out: Out, j: int, rec: Record) -> None:
    stop = f.now - 1
    turret = object_ref(fields(rec).get("turret")) or ""
    owner = seat_of_id(turret) or f.seat_of(rec)
    board = f.board()
    if board is None or owner is None:
        return
    cell = board.turrets.get(turret)
    total = 0
    for seat in sorted(ctx.view.seats):
        if seat == owner:
            continue
        _, taken = _gains(f, j, stop, f"p{seat}.health")
        total += taken
        got, _ = _gains(f, j, stop, f"p{seat}.favor")
        if got:
            out.add("MAN-TURRET-NO-FDB", f"{seat_name(ctx, seat)} gained {got} Favor defending a "
                    f"turret: there is no Full Defense Bonus against Arcane Turrets.",
                    [f"p{seat}.favor"])
        t_cell = board.standees.get(seat)
        if taken and cell is not None and t_cell is not None:
            reach = param(ctx.game, "turret_range", 3)
            if line_of_sight(cell, t_cell, board.blockers()) is not None or \
                    chebyshev(cell, t_cell) > reach:
                out.add("MAN-TURRET-ATTACK", f"{piece(ctx, turret)} hit "
                        f"{seat_name(ctx, seat)}, who is not Nearby to it (Range {reach} and "
                        "Line of Sight).", [turret, f"p{seat}.health"])
    got, _ = _gains(f, j, stop, f"p{owner}.favor")
    per = param(ctx.game, "favor_per_damage", 1)
    if got != total * per:
        out.add("MAN-TURRET-FAVOR", f"The turrets dealt {total} Successful Damage and "
                f"{seat_name(ctx, owner)} gained {got} Favor: +{per} per point.",
                [f"p{owner}.favor"], excused=excused_between(f, j, stop))


def _resolve_exchange(ctx: OpContext, f: Facts, out: Out, j: int, rec: Record) -> None:
    stop = f.now - 1
    seat = f.seat_of(rec)
    if seat is None:
        return
    kind = str(fields(rec).get("kind", "")).casefold()
    up, down = _gains(f, j, stop, f"p{seat}.favor")
    excused = excused_between(f, j, stop)
    if kind == "discard":
        plays = _played(ctx, f, j, stop, seat)
        n = len(plays)
        if n > 1:  # later plays in the same window are ordinary plays (actions)
            stop = plays[1][0] - 1
            up, down = _gains(f, j, stop, f"p{seat}.favor")
            n = 1
        gain = param(ctx.game, "favor_exchange_discard_gain", 1)
        if n != 1 or up - down != gain:
            out.add("MAN-EXCHANGE-DISCARD", f"Favor Exchange: {seat_name(ctx, seat)} discarded "
                    f"{n} card(s) for {up - down} Favor; it is 1 card for {gain} Favor.",
                    [f"p{seat}.favor"], excused=excused)
    elif kind == "draw":
        draws = [(i, drawn(f.h.records[i], seat)) for i in range(j, stop + 1)]
        draws = [(i, k) for i, k in draws if k]
        n = draws[0][1] if draws else 0
        if len(draws) > 1:  # later draws in the same window are actions
            up, down = _gains(f, j, draws[1][0] - 1, f"p{seat}.favor")
        cost = param(ctx.game, "favor_exchange_draw_cost", 2)
        if n != 1 or down - up != cost:
            out.add("MAN-EXCHANGE-DRAW", f"Favor Exchange: {seat_name(ctx, seat)} spent "
                    f"{down - up} Favor and drew {n} card(s); it is {cost} Favor for 1 card.",
                    [f"p{seat}.favor"], excused=excused)


def _resolve_ability(ctx: OpContext, f: Facts, out: Out, j: int, rec: Record, name: str) -> None:
    stop = f.now - 1
    seat = f.seat_of(rec)
    if seat is None:
        return
    slot = ability_slot(chosen_card(ctx.view, ctx.game, seat), fields(rec).get("ability"))
    if slot is None:
        return
    number, ability, cost = slot
    up, down = _gains(f, j, stop, f"p{seat}.favor")
    rule = "MAN-ABILITY-UNLOCK" if name == "ability-unlock" else "MAN-ABILITY-LOCKED"
    if down - up != cost:
        verb = "Unlocking" if name == "ability-unlock" else "Using"
        out.add(rule, f"{verb} {ability} costs {cost} Favor; {seat_name(ctx, seat)} paid "
                f"{down - up}.", [f"p{seat}.favor"], excused=excused_between(f, j, stop))
    if name == "ability-unlock" and not ctx.view.child_ids(f"p{seat}.mat.ability-{number}"):
        out.add(rule, f"{ability} was unlocked without a tracking cube on its lock icon.",
                [f"p{seat}.mat.ability-{number}"], excused=excused_between(f, j, stop))


