"""The Ritual track: Rites on the Altar, the Defense Pool, blocked and resolved Rites, Paths."""
from __future__ import annotations

import re
from collections.abc import Iterable

from assist.api import Flag, journal_moves
from table.core.timeline import Record
from table.games.model import Card

from .reader import ALTAR, POOL, Dtr, z, zone_kind, zone_seat
from .rules import flag

_POOL_BONUS = re.compile(r"\+(\d+) to the Defense Pool total")


def _was_top(d: Dtr, obj_id: str, zone: str | None) -> bool:
    for entry in d.ctx.record.journal.entries:
        if entry[0] == "rm" and entry[3] == obj_id and entry[1].id == zone:
            return bool(entry[2] >= len(entry[1].children))
    return True


def _is_top(d: Dtr, obj_id: str, zone: str) -> bool:
    ids = d.view.child_ids(zone, "card")
    return bool(ids) and ids[-1] == obj_id


def rite_on_altar(d: Dtr) -> str | None:
    for obj_id in reversed(d.view.child_ids(ALTAR, "card")):
        if d.is_type(obj_id, "Rite"):
            return obj_id
    return None


def placed_at(d: Dtr, rite: str) -> int:
    """Index of the op that put `rite` on the Altar (searching back from the current op)."""
    found = placed_at_before(d, rite, d.ctx.index)
    return d.history.current_turn_start() if found is None else found


def placed_at_before(d: Dtr, rite: str, index: int) -> int | None:
    records = d.records
    for i in range(index - 1, -1, -1):
        rec = records[i]
        op = rec.op
        if rec.void is None and op.kind == "move" and op.args.get("id") == rite \
                and op.args.get("to") == ALTAR:
            return i
        if op.kind == "mark" and op.args.get("what") == "turn" and rec.void is None:
            return None
    return None


def ward_of(d: Dtr, rite: str) -> int | None:
    card = d.card(rite)
    if card is None or not isinstance(card.get("ward"), int):
        return None
    owner = d.view.owner_of(rite) or 0
    per = int(d.p("ward_per_ready_champion", 1))
    return card.number("ward") + per * sum(1 for c in d.champions(owner) if d.ready(c))


def commits(d: Dtr, start: int, stop: int) -> list[tuple[int, int | None, str]]:
    """(index, committing seat, card) for cards put into the Defense Pool in [start, stop)."""
    return [(i, d.seat_of(rec), obj) for i, rec, obj in d.moved_in(POOL, start, stop)]


def check_rite_move(d: Dtr, obj_id: str, card: Card, src: str | None, dst: str) -> list[Flag]:
    ctx = d.ctx
    out: list[Flag] = []
    owner = d.view.owner_of(obj_id) or 0
    dst_kind = zone_kind(dst)
    step = card.number("step")
    if src == ALTAR and dst != ALTAR:
        return rite_leaves_altar(d, obj_id, card, dst)
    if dst != ALTAR and dst_kind not in ("rites", "completed"):
        return [flag(ctx, "DTR-RITES-SEPARATE", f"{d.whose(obj_id)} went to {d.place(dst)}; "
                     "Rites are only ever in the Rite stack, on the Altar or in the Completed "
                     "pile.", objects=(obj_id,))]
    if dst == ALTAR:
        if src != z(owner, "rites") or not _was_top(d, obj_id, src) or step != d.step(owner) + 1:
            out.append(flag(ctx, "DTR-RITE-NEXT", f"{d.who(ctx.seat)} placed {d.whose(obj_id)} "
                            f"on the Altar; only the top of {d.who(owner)}'s Rite stack (Step "
                            f"{d.step(owner) + 1}) can go.", objects=(obj_id,)))
        if ctx.seat != d.active or owner != d.active:
            out.append(flag(ctx, "DTR-RITE-ACTIVE-PLAYER", f"{d.who(ctx.seat)} placed "
                            f"{d.whose(obj_id)} on the Altar on {d.who(d.active)}'s turn; only "
                            "the active player places a Rite, their own.", objects=(obj_id,)))
        rites = [c for c in d.view.child_ids(ALTAR, "card") if d.is_type(c, "Rite")]
        if len(rites) > 1:
            out.append(flag(ctx, "DTR-ALTAR-ONE", f"{d.owned(rites)} are on the Altar together; "
                            "one Rite waits there at a time.", objects=tuple(rites)))
        return out
    if dst_kind == "completed":
        if zone_kind(src) == "rites" and step > int(d.p("path_max_step", 3)):
            out.append(flag(ctx, "DTR-PATH-LIMIT", f"{d.whose(obj_id)} (Step {step}) reached the "
                            "Completed pile without the Altar; a Path only advances through "
                            f"Steps 1-{d.p('path_max_step', 3)}.", objects=(obj_id,)))
        out += _completed_ok(d, obj_id, card, dst, owner)
    return out


def _completed_ok(d: Dtr, obj_id: str, card: Card, dst: str, owner: int) -> list[Flag]:
    if zone_seat(dst) != owner or not _is_top(d, obj_id, dst) or not d.view.is_up(obj_id):
        return [flag(d.ctx, "DTR-RESOLVED-COMPLETED", f"{d.whose(obj_id)} went to "
                     f"{d.place(dst)}, not face up on top of {d.who(owner)}'s Completed pile.",
                     objects=(obj_id,))]
    return []


def rite_leaves_altar(d: Dtr, obj_id: str, card: Card, dst: str) -> list[Flag]:
    ctx = d.ctx
    out: list[Flag] = []
    owner = d.view.owner_of(obj_id) or 0
    placed = placed_at(d, obj_id)
    if dst == z(owner, "rites"):
        blocked = True
        if not _is_top(d, obj_id, dst):
            out.append(flag(ctx, "DTR-BLOCKED-RETURN", f"{d.whose(obj_id)} went back into "
                            f"{d.who(owner)}'s Rite stack, not on top of it.", objects=(obj_id,)))
    elif dst == z(owner, "completed"):
        blocked = False
        out += _completed_ok(d, obj_id, card, dst, owner)
    else:
        return [flag(ctx, "DTR-BLOCKED-RETURN", f"{d.whose(obj_id)} left the Altar for "
                     f"{d.place(dst)}; a "
                     "blocked Rite returns to the top of its owner's Rite stack (a resolved one "
                     "goes to their Completed pile).", objects=(obj_id,))]
    pool = commits(d, placed, ctx.index)
    first_commit = pool[0][0] if pool else ctx.index
    # Outcome against the flip
    ward = ward_of(d, obj_id)
    total = pool_total(d, placed, ctx.index)
    if ward is not None and total is not None and (total >= ward) != blocked:
        should = "blocked" if total >= ward else "resolved"
        did = "blocked" if blocked else "resolved"
        out.append(flag(ctx, "DTR-POOL-FLIP-RESULT", f"{d.whose(obj_id)} was {did}, but the "
                        f"Defense Pool totals {total} against its Ward of {ward}: it is "
                        f"{should}.", objects=(obj_id,)))
    # Crowning
    if card.number("step") >= 4:
        need = int(d.p("crowning_draw", 1))
        short = [s for s in d.seats() if s != owner and (drew := d.draws(s, placed, first_commit))
                 != need and not d.short_draw_ok(s, drew, need, first_commit)]
        if short:
            out.append(flag(ctx, "DTR-CROWNING", f"{d.whose(obj_id)} (Step "
                            f"{card.number('step')}) hit the Altar and "
                            f"{', '.join(d.who(s) for s in short)} did not draw {need} before "
                            "responding; every other player does.", objects=(obj_id,)))
    return out


def played_interrupt(d: Dtr, rec: Record, obj_id: str, src: str | None) -> bool:
    """An Interrupt played face up from its player's hand (into the Defense Pool, their discard
    pile or play area): a play in the window ("any player ... may play Interrupts"), paid as
    costs.py reads it, not a card committed face down."""
    seat = d.seat_of(rec)
    return rec.op.args.get("face_up") is True and seat is not None \
        and src == z(seat, "hand") and d.is_type(obj_id, "Interrupt")


def pool_bonus(card: Card | None) -> int:
    """What an Interrupt's printed text adds to the Defense Pool total ("Interrupt: +2 to the
    Defense Pool total." -> 2; any other text adds nothing)."""
    m = _POOL_BONUS.search(card.text) if card is not None else None
    return int(m.group(1)) if m else 0


def pool_total(d: Dtr, start: int, stop: int) -> int | None:
    """The Defense Pool total of a Rite placed at `start`, its fate read at `stop`: the Block of
    every card committed face down, plus what the Interrupts played in the window add (their
    Block is not counted: they were played, not committed). None: a card is hidden."""
    total = 0
    for _i, rec in d.range(start, stop):
        if rec.op.kind != "move":
            continue
        for obj, src, dst in journal_moves(rec):
            if dst is None:
                continue
            card = d.card(obj)
            if played_interrupt(d, rec, obj, src):
                total += pool_bonus(card)
            elif dst == POOL:
                if card is None:
                    return None
                total += card.number("block")
    return total


def check_commit(d: Dtr, obj_id: str, src: str | None) -> list[Flag]:
    ctx = d.ctx
    out: list[Flag] = []
    actor = ctx.seat
    if played_interrupt(d, ctx.record, obj_id, src):
        return out  # played, not committed: any player, any time in the window
    rite = rite_on_altar(d)
    owner = d.view.owner_of(rite) if rite else None
    card_owner = d.view.owner_of(obj_id)
    if owner is not None and (actor == owner or card_owner == owner):
        out.append(flag(ctx, "DTR-POOL-OPPONENTS-ONLY", f"{d.who(owner)} committed "
                        f"{d.name(obj_id)} to the Defense Pool against their own {d.whose(rite)}; "
                        "only opponents commit.", objects=(obj_id,)))
    card = d.card(obj_id)
    if d.view.is_up(obj_id) or src != z(actor or 0, "hand") or (
            card is not None and card.type in ("Rite", "Crown")):
        how = "face up" if d.view.is_up(obj_id) else f"from {d.place(src)}" \
            if src != z(actor or 0, "hand") else f"(a {card.type if card else 'card'})"
        out.append(flag(ctx, "DTR-POOL-FACEDOWN", f"{d.who(actor)} committed {d.whose(obj_id)} "
                        f"to the Defense Pool {how}; cards are committed from hand, face down, "
                        "and only main-deck cards.", objects=(obj_id,)))
    if rite is not None and d.active is not None and actor is not None:
        n = len(d.seats())
        order = {(d.active + k - 1) % n + 1: k for k in range(1, n)}
        placed = placed_at(d, rite)
        acted = [s for _i, s, _o in commits(d, placed, ctx.index)]
        acted += [d.seat_of(r) for _i, r in d.declarations("pass", placed, ctx.index)]
        later = [s for s in acted if s is not None and s != actor
                 and order.get(s, 0) > order.get(actor, 0)]
        if later:
            out.append(flag(ctx, "DTR-POOL-ORDER", f"{d.who(actor)} committed "
                            f"{d.name(obj_id)} after {d.who(later[0])} had acted; opponents "
                            "commit in turn, clockwise from the left of the active player.",
                            objects=(obj_id,)))
    return out


def check_ward_declaration(d: Dtr) -> list[Flag]:
    ctx = d.ctx
    rite = rite_on_altar(d)
    value = d.field(ctx.record, "ward")
    try:
        declared = int(value)
    except (TypeError, ValueError):
        return []
    ward = ward_of(d, rite) if rite else None
    if ward is not None and declared != ward:
        owner = d.view.owner_of(rite) if rite else 0
        return [flag(ctx, "DTR-WARD-READY-CHAMPIONS", f"{d.who(ctx.seat)} declared the Ward "
                     f"of {d.whose(rite)} as {declared}; it is {ward}: the printed Ward plus 1 "
                     f"per ready Champion of {d.who(owner)}.", objects=(rite,) if rite else ())]
    return []


def blocked_among(ops: Iterable[tuple[int, Record]]) -> list[tuple[int, str, int]]:
    """(index, rite, owner) for Rites sent back from the Altar to a Rite stack by these ops."""
    out = []
    for i, rec in ops:
        if rec.op.kind != "move":
            continue
        for obj, src, dst in journal_moves(rec):
            if src == ALTAR and zone_kind(dst) == "rites":
                out.append((i, obj, zone_seat(dst) or 0))
    return out
