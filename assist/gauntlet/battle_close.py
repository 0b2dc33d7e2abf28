"""Checks on the battle-close declaration: cleanup, positions after the result, Terms."""
from __future__ import annotations

from assist.api import Flag

from .facts import Battle, Facts
from .rules import add

BATTLE_ZONES = ("commit", "battle-choice", "battle-hand")


def check_close(f: Facts, out: list[Flag], b: Battle) -> None:
    left = [c for s in (1, 2) for z in BATTLE_ZONES for c in f.v.child_ids(f"p{s}.{z}", "card")]
    if left:
        add(out, f, "GAU-CLEANUP-COMPLETE", f"{len(left)} card(s) are still in a battle slot or "
            f"Battle Hand after the battle closed.", left)
    accepted = f.decl("terms-accepted", since=b.open_i)
    if accepted:
        _accepted(f, out, b, accepted[-1].index)
        return
    if f.decl("withdraw", since=b.open_i):
        return
    if b.winner is None or b.attacker is None or b.defender is None or b.pos is None:
        p1, p2 = f.token_pos(1), f.token_pos(2)
        if p1 is not None and p1 == p2:
            add(out, f, "GAU-NO-SHARED-POSITION", "The battle closed with both tokens in one "
                "position.", ["p1.token", "p2.token"])
        return
    w = b.winner
    loser = b.defender if w == b.attacker else b.attacker
    lp, wp = f.token_pos(loser), f.token_pos(w)
    flagged = False
    if b.last_stand:
        if w == b.defender:
            want = b.pos + f.toward_home(b.attacker)
            if lp != want:
                add(out, f, "GAU-LASTSTAND-LOSS", f"{f.who(loser)} lost the Last Stand and "
                    f"retreats to the final Territory.", [f"p{loser}.token"])
        return
    step = 2 if any(x.fields.get("order") == "Repel" for x in f.decl("order", since=b.open_i,
                                                                        seat=w)) else 1
    want = max(0, min(len(f.lay.slots) - 1, b.pos + step * f.toward_home(loser)))
    final = b.pos == f.lay.final.get(loser)
    if lp != want:
        rule = "GAU-FORCED-BEYOND" if final else "GAU-RESULT-RETREAT"
        add(out, f, rule, f"{f.who(loser)} lost and retreats to position {want} "
            f"(is at {lp}).", [f"p{loser}.token"])
        flagged = True
    rout = any(x.fields.get("order") == "Rout" for x in f.decl("order", since=b.open_i, seat=w))
    if wp != b.pos and not rout:
        rule = "GAU-FORCED-BEYOND" if final and wp == f.lay.off.get(loser) \
            else "GAU-RESULT-RETREAT"
        add(out, f, rule, f"{f.who(w)} won and occupies the contested position {b.pos} "
            f"(is at {wp}).", [f"p{w}.token"])
        flagged = True
    if not flagged and lp is not None and lp == wp:
        add(out, f, "GAU-NO-SHARED-POSITION", "The battle closed with both tokens in one "
            "position.", ["p1.token", "p2.token"])


def _accepted(f: Facts, out: list[Flag], b: Battle, since: int) -> None:
    records = f.h.records
    used = False
    for i in range(since, f.h.index):
        op = records[i].op
        into_battle = str(op.args.get("to", "")).split(".")[-1] in BATTLE_ZONES
        if op.kind == "roll" or (op.kind == "consume" and into_battle):
            used = True
    dip = next((d.seat for d in f.decl("terms-offered", since=b.open_i)), None)
    staked = f.v.counter(f"p{dip}.influence-staked") or 0 if dip else 0
    if used or staked:
        add(out, f, "GAU-DIP-ACCEPTED", "After accepted Terms no card is committed, no Battle "
            "Hand is drawn and no dice are rolled; the stake is returned.")
