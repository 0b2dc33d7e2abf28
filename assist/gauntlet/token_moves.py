"""Player Tokens on the Gauntlet: on its positions only, one position at a time and never past
the other token, in the Movement step (or by an Order), a battle's withdrawal, and advancing
beyond the Gauntlet only for a Last Stand."""
from __future__ import annotations

from assist.api import Flag

from .facts import Battle, Facts
from .marks import MOVEMENT
from .rules import add


def check_token_move(f: Facts, out: list[Flag], seat: int, frm: str | None, to: str | None) -> None:
    a, b = f.pos_index(frm), f.pos_index(to)
    tok = f"p{seat}.token"
    if b is None:
        add(out, f, "GAU-POSITION-BOUNDS", "A Player Token stands only on one of the Gauntlet's "
            "positions.", [tok])
        return
    if a is None:
        return
    opp = f.token_pos(f.other(seat))
    if opp is not None and opp != a and opp != b and (a - opp) * (b - opp) < 0:
        add(out, f, "GAU-NO-PASSING", "Player Tokens never move through or past one another.",
            [tok])
    battle = f.battle
    dist = abs(b - a)
    repel = battle is not None and any(x.fields.get("order") == "Repel" for x in f.decl(
        "order", since=battle.open_i))
    if dist > 1 and not (repel and dist == 2):
        add(out, f, "GAU-MOVE-STEPWISE", f"The token moved {dist} positions at once; movement "
            f"goes one position at a time.", [tok])
    if battle is not None:
        _battle_move(f, out, seat, a, b, battle)
    else:
        step = f.step
        if step == MOVEMENT and seat == f.active:
            _movement(f, out, seat, a, b)
        elif not f.decl("order", "relentless-pursuit", since=f.step_start()):
            add(out, f, "GAU-MOVE-ONLY-IN-STEP", "Player Tokens move in the Movement step (or "
                "by retreat, withdrawal, Rout, Repel or Relentless Pursuit).", [tok])
    other = f.other(seat)
    if other is not None and b == f.lay.off.get(other):
        final = f.lay.final.get(other)
        there = f.token_pos(other) == b
        if not there or final is None or f.controller(final) != seat:
            add(out, f, "GAU-LASTSTAND-PREREQ", "Advancing beyond the Gauntlet needs the "
                "opponent forced beyond and their final Territory captured.", [tok])


def _movement(f: Facts, out: list[Flag], seat: int, a: int, b: int) -> None:
    home = f.toward_home(seat)
    if (b - a) * home > 0 and a == f.lay.final.get(seat) and b == f.lay.off.get(seat):
        add(out, f, "GAU-WITHDRAW-LIMIT", "You cannot voluntarily withdraw beyond your own end "
            "of the Gauntlet.", [f"p{seat}.token"])
    start = f.step_start()
    tok = f"p{seat}.token"
    moved = 0
    for i, obj, frm, to in f.moves_between(start):
        if obj == tok and f.battle_at(i) is None:
            x, y = f.pos_index(frm), f.pos_index(to)
            if x is not None and y is not None:
                moved += abs(y - x)
    onward = sum(1 for d in f.decl("order", since=start, seat=seat)
                 if d.fields.get("order") == "Onward")
    if moved > 1 + onward:
        rule = "GAU-MIL-ONWARD" if f.leader(seat) == "general" else "GAU-MOVE-ONE-CHOICE"
        add(out, f, rule, f"{f.who(seat)} moved {moved} positions this Movement step; each "
            f"position beyond the first needs Onward (or an effect).", [tok])


def _battle_move(f: Facts, out: list[Flag], seat: int, a: int, b: int, battle: Battle) -> None:
    wd = [d for d in f.decl("withdraw", since=battle.open_i)
          if d.fields.get("seat", d.seat) == seat]
    if not wd or battle.pos is None or battle.winner is not None:
        return
    # the attacker entered from one position toward its own end; the defender steps back one
    want = battle.pos + f.toward_home(seat)
    role = "attacker" if seat == battle.attacker else "defender"
    if b != want:
        add(out, f, "GAU-BATTLE-WITHDRAW-DEST", f"A withdrawing {role} moves to position "
            f"{want}.", [f"p{seat}.token"])
