"""Checks on `set` (rotation, face, owner, side), `counter` and `roll` ops."""
from __future__ import annotations

from assist.api import Flag

from .facts import Facts
from .marks import CAPTURE
from .printed import printed_gains
from .rules import add
from .wording import whose


def check_set(f: Facts, out: list[Flag]) -> None:
    a = f.ctx.op.args
    obj, name, value = str(a["id"]), a.get("field"), a.get("value")
    card = f.card(obj)
    where = f.v.zone_of(obj)
    pos = f.pos_index(where)
    if name == "rotation" and card is not None:
        if card.type == "Territory" and pos is not None:
            _rotate_territory(f, out, obj, pos)
        elif pos is not None or (where and f.card(where) is not None):
            terr = f.territory_at(pos) if pos is not None else where
            if terr and f.v.rotation(obj) != f.v.rotation(terr):
                add(out, f, "GAU-OVERLAY-FACING", "An Overlay faces the way its Territory "
                    "faces.", [obj])
    elif name == "face_up" and card is not None:
        if card.type == "Territory" and value is False:
            add(out, f, "GAU-TERR-STAY-FACEUP", f"{card.name} was turned face down; Territories "
                f"stay face up after the reveal.", [obj])
        elif card.type == "Leader" and value is False:
            add(out, f, "GAU-LEADER-FACEUP", f"{card.name} stays face up all game.", [obj])
        kind = (where or "").rsplit(".", 1)[-1]
        if (kind == "deck" and value is True) or (kind in ("discard", "graveyard")
                                                  and value is False):
            add(out, f, "GAU-ZONE-VISIBILITY", "Draw Piles are face down; Discard Piles and "
                "Graveyards face up.", [obj])
    elif name == "owner" and card is not None and card.type != "Territory" and (
            pos is not None or (where and f.card(where) is not None)):
        add(out, f, "GAU-OVERLAY-OWNERSHIP", "An Overlay keeps its owner when control of its "
            "Territory changes.", [obj])
    elif name == "props.side" and card is not None:
        _side(f, out, obj, card, value)


def _rotate_territory(f: Facts, out: list[Flag], obj: str, pos: int) -> None:
    rot = f.v.rotation(obj)
    seat = f.seat_facing(rot)
    if seat is None:
        add(out, f, "GAU-TERR-TWO-FACINGS", f"A Territory faces one of the players "
            f"({' or '.join(map(str, f.facing()))} degrees), not {rot}.", [obj])
        return
    old = f.ctx.field_before(obj, "rotation")
    if old == rot:
        return
    if f.token_pos(seat) != pos:
        add(out, f, "GAU-CAPTURE-REQUIRES-OCCUPATION", f"{whose(f, obj)} was turned to face "
            f"{f.who(seat)}, who does not occupy it.", [obj])
    elif f.step != CAPTURE or f.active != seat:
        allowed = [d for d in f.decl("order", "hostile-takeover", seat=seat)
                   if d.name == "hostile-takeover" or d.fields.get("order") == "Fortify"]
        if not allowed:
            add(out, f, "GAU-CONTROL-CHANGE-TIMING", "Territories are captured in the "
                "occupier's next Capture step, not straight after a battle (unless Fortify or "
                "Hostile Takeover).", [obj])
    _specop(f, out)


def check_asset_excess(f: Facts, out: list[Flag]) -> None:
    """The op right after a Territory rotation that left a player over the Asset limit."""
    if f.h.index == 0:
        return
    prev = f.h.records[f.h.index - 1]
    op = prev.op
    if prev.void is not None or op.kind != "set" or op.args.get("field") != "rotation":
        return
    for s in (1, 2):
        count = f.v.count(f"p{s}.assets")
        if count > f.controlled(s):
            moves = f.ctx.moves()
            if not any(frm == f"p{s}.assets" for _, frm, _ in moves):
                add(out, f, "GAU-ASSET-LIMIT-IMMEDIATE", f"{f.who(s)} has {count} Assets but "
                    f"controls {f.controlled(s)} Territories: discard the excess at once.",
                    [f"p{s}.assets"])


def _side(f: Facts, out: list[Flag], obj: str, card: object, value: object) -> None:
    ctype = getattr(card, "type", "")
    old = _old_prop(f, obj, "side")
    if ctype == "Proposal" and old == "Treaty Article" and value == "Proposal":
        add(out, f, "GAU-DIP-NO-UNRATIFY", "No rule turns a Treaty Article back into a "
            "Proposal.", [obj])
    if ctype != "Rite":
        return
    owner = f.v.owner_of(obj)
    if old == "Complete" and value != "Complete":
        add(out, f, "GAU-MYS-COMPLETE-STATE", "A completed Rite stays complete.", [obj])
        return
    if value != "Complete" or old == "Complete":
        return
    marker = f"p{owner}.rite-begun"
    if f.v.zone_of(marker) != obj:
        add(out, f, "GAU-MYS-COMPLETE-STATE", "Only a begun Rite can complete.", [obj])
        return
    records = f.h.records
    start = f.h.current_turn_start()
    for i in range(start, f.h.index):
        op = records[i].op
        if records[i].void is not None:
            continue
        if op.kind == "move" and op.args.get("id") == marker and op.args.get("to") == obj:
            add(out, f, "GAU-MYS-NOT-SAME-TURN", "A Rite cannot complete on the turn it was "
                "begun.", [obj])
            return
        if op.kind == "set" and op.args.get("field") == "props.side" and \
                op.args.get("value") == "Complete" and f.v.owner_of(str(op.args["id"])) == owner:
            add(out, f, "GAU-MYS-ONE-COMPLETE-PER-TURN", "Only one Rite may be completed per "
                "turn.", [obj])
            return
    if getattr(card, "id", "") == "rite-of-blood":
        ok = False
        for b in f.won_this_turn(owner or 0):
            used = [m for m in f.moves_between(b.open_i, b.close_i or f.h.index)
                    if m[3] in (f"p{owner}.commit", f"p{owner}.battle-choice")]
            if not used:
                ok = True
        if not ok:
            add(out, f, "GAU-MYS-BLOOD-COMPLETE", "Rite of Blood completes by winning a battle "
                "with no hand commitment and no Battle Hand card.", [obj])


def _old_prop(f: Facts, obj: str, key: str) -> object:
    for entry in f.ctx.record.journal.entries:
        if entry[0] == "p" and entry[1].id == obj and entry[2] == key:
            return entry[3]
    return f.v.prop(obj, key)


def _specop(f: Facts, out: list[Flag]) -> None:
    for s in (1, 2):
        if f.v.count(f"p{s}.special-operation"):
            progress = f.v.counter(f"p{s}.operation-progress") or 0
            opp = f.controlled(f.other(s) or 0)
            if progress <= opp:
                add(out, f, "GAU-INT-SPECOP-FAIL", f"Operation Progress ({progress}) no longer "
                    f"exceeds the opponent's Territories ({opp}): the Special Operation fails "
                    f"and goes to the Graveyard.", f.v.child_ids(f"p{s}.special-operation"))


# -- counters ---------------------------------------------------------------------------------
def check_counter(f: Facts, out: list[Flag]) -> None:
    cid = str(f.ctx.op.args["id"])
    head, _, kind = cid.partition(".")
    if not head[1:].isdigit():
        return
    seat = int(head[1:])
    now = f.v.counter(cid) or 0
    before = f.ctx.counter_before(cid)
    delta = now - (before if before is not None else now)
    if kind == "command":
        hi = int(f.p("command_max", 2))
        if not 0 <= now <= hi:
            add(out, f, "GAU-MIL-COMMAND-RANGE", f"Command is {now}; it stays 0 to {hi}.", [cid])
        elif delta > 0:
            _command_gain(f, out, seat, cid)
    elif kind in ("influence", "influence-staked"):
        total = (f.v.counter(f"p{seat}.influence") or 0) + \
            (f.v.counter(f"p{seat}.influence-staked") or 0)
        hi = int(f.p("influence_max", 10))
        if now < 0 or not 0 <= total <= hi:
            add(out, f, "GAU-DIP-INFLUENCE-RANGE", f"Influence (with the stake) is {total}; it "
                f"stays 0 to {hi}.", [cid])
        if kind == "influence-staked" and delta < 0:
            _stake_locked(f, out, seat, cid)
    elif kind == "capital":
        if now < 0:
            add(out, f, "GAU-FIN-CAPITAL-NONNEG", f"Capital is {now}; it never goes below 0.",
                [cid])
    elif kind in ("intel", "operation-progress"):
        if now < 0:
            add(out, f, "GAU-INT-NONNEG", f"{kind.replace('-', ' ').capitalize()} is {now}; it "
                f"never goes below 0.", [cid])
        if kind == "operation-progress":
            _specop(f, out)
    elif kind == "conviction":
        hi = int(f.p("conviction_max", 4))
        if not 0 <= now <= hi:
            add(out, f, "GAU-INQ-CONVICTION-RANGE", f"Conviction is {now}; it stays 0 to {hi}.",
                [cid])
        elif delta > 0:
            _conviction_gain(f, out, seat, cid)
        elif delta < 0:
            _purge_cost(f, out, seat, cid, -delta)


def _gains_this_turn(f: Facts, cid: str) -> int:
    n = 0
    records = f.h.records
    for i in range(f.h.current_turn_start(), f.h.index):
        rec = records[i]
        if rec.void is None and rec.op.kind == "counter" and rec.op.args.get("id") == cid:
            for entry in rec.journal.entries:
                if entry[0] == "c" and entry[1].id == cid:
                    old = entry[3] if isinstance(entry[3], int) else 0
                    nxt = f.counter_at(cid, i + 1)
                    if nxt is not None and nxt > old:
                        n += 1
    return n


def _command_gain(f: Facts, out: list[Flag], seat: int, cid: str) -> None:
    allowed = (1 if f.won_this_turn(seat) else 0) + printed_gains(f, seat, "command")
    if _gains_this_turn(f, cid) + 1 > allowed:
        add(out, f, "GAU-MIL-COMMAND-GAIN", "Command rises by 1 only for the first battle the "
            "Military player wins in a turn, and by what an Action card played this turn "
            "says.", [cid])


def _conviction_gain(f: Facts, out: list[Flag], seat: int, cid: str) -> None:
    blasphemy = len(f.decl("blasphemy", seat=seat))
    opp = f.other(seat)
    battles = [b for b in f.battles if seat in (b.attacker, b.defender)]
    fed = any(m[3] == f"p{opp}.graveyard" for b in battles
              for m in f.moves_between(b.open_i))
    gains = _gains_this_turn(f, cid) + 1
    normal = 1 if fed else 0
    if gains > normal + blasphemy + printed_gains(f, seat, "conviction"):
        add(out, f, "GAU-INQ-CONVICTION-GAIN", "Conviction rises once per turn after a battle "
            "sends opposing cards to the Graveyard (plus Blasphemy, and what an Action card "
            "played this turn says).", [cid])


def _purge_cost(f: Facts, out: list[Flag], seat: int, cid: str, spent: int) -> None:
    purges = f.decl("purge", since=f.step_start(), seat=seat)
    if not purges:
        return
    p = purges[-1]
    tier = p.fields.get("tier")
    if not isinstance(tier, int):
        return
    cost = max(1, tier - 1) if p.fields.get("final_judgment") else tier
    if spent != cost:
        add(out, f, "GAU-INQ-PURGE-TIER", f"Purge tier {tier} costs {cost} Conviction; {spent} "
            f"was spent.", [cid])


def _stake_locked(f: Facts, out: list[Flag], seat: int, cid: str) -> None:
    b = f.battle
    if b is None:
        return
    if f.decl("terms-offered", since=b.open_i, seat=seat) and not f.decl(
            "terms-accepted", since=b.open_i) and b.winner is None:
        add(out, f, "GAU-DIP-STAKE-LOCKED", "Staked Influence stays locked until the Terms "
            "resolve.", [cid])


# -- rolls ------------------------------------------------------------------------------------
def check_roll(f: Facts, out: list[Flag]) -> None:
    b = f.battle
    if b is None or b.winner is not None:
        return
    seat = f.seat
    values = f.ctx.op.args.get("values") or []
    earlier = f.rolls_between(b.open_i, f.h.index - 1)
    if not earlier:
        down = [c for s in (1, 2) for z in ("commit", "battle-choice")
                for c in f.v.child_ids(f"p{s}.{z}", "card") if not f.v.is_up(c)]
        if down:
            add(out, f, "GAU-REVEAL-BEFORE-DICE", "Reveal every committed and chosen card "
                "before the battle dice are rolled.", down)
    if seat is None:
        return
    net = 0
    for d in f.decl("net-advantage", since=b.open_i):
        if d.fields.get("seat", d.seat) == seat and isinstance(d.fields.get("net"), int):
            net = d.fields["net"]
    if len(values) != 1 + abs(net):
        add(out, f, "GAU-DICE-COUNT", f"{f.who(seat)} rolled {len(values)} dice; with net "
            f"advantage {net} it rolls {1 + abs(net)}.")
