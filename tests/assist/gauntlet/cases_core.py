"""Fires / nearest-legal pairs: turn structure, movement, battles, zones.

Each case takes a fresh table and `legal`; it prepares the situation, returns the checkpoint
after which flags count, and performs the illegal move (legal=False) or the nearest legal one.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from assist.testing import AssistTable

from .gau_kit import (
    AO1,
    AO2,
    CAPTURE,
    CLEANUP,
    DRAW,
    MOVE,
    battle,
    begin,
    cmd,
    discard,
    face,
    hidden,
    order,
    roll,
    stock,
    tok,
)

Case = Callable[[AssistTable, bool], int]
CASES: list[tuple[str, tuple[Any, ...], Case]] = []


def case(rule: str, *table_args: Any) -> Callable[[Case], Case]:
    def deco(fn: Case) -> Case:
        CASES.append((rule, table_args, fn))
        return fn
    return deco


def cp(t: AssistTable) -> int:
    return t.checkpoint()


def fight(t: AssistTable, att: int = 1, pos: int = 4, enter: bool = True, **kw: Any) -> None:
    """Tokens next to each other (last turn), `att`'s Movement step, attacker enters, battle."""
    de = 2 if att == 1 else 1
    back = pos - 1 if att == 1 else pos + 1
    tok(t, att, back)
    tok(t, de, pos)
    begin(t, att, MOVE)
    if enter:
        tok(t, att, pos)
    battle(t, att, pos, **kw)


def commits(t: AssistTable, att: int = 1) -> None:
    de = 2 if att == 1 else 1
    hidden(t, att, "hand", "commit")
    hidden(t, de, "hand", "commit")


def hands(t: AssistTable, seat: int, n: int = 3, choose: int = 1) -> None:
    cmd(t, seat, "draw", **{"from": f"p{seat}.deck", "to": f"p{seat}.battle-hand", "count": n})
    for _ in range(choose):
        hidden(t, seat, "battle-hand", "battle-choice")


def reveal(t: AssistTable) -> None:
    for s in (1, 2):
        for z in ("commit", "battle-choice"):
            for _ in t.replica.state.objs[f"p{s}.{z}"].children:
                cmd(t, s, "flip", card=f"p{s}.{z}:#0", face_up=True)


def cleanup(t: AssistTable, keep: str | None = None, condemn: int | None = None) -> None:
    for s in (1, 2):
        choice = "graveyard" if s == condemn else "discard"
        for z, dest in (("commit", "graveyard"), ("battle-choice", choice),
                        ("battle-hand", "discard")):
            while t.replica.state.objs[f"p{s}.{z}"].children and f"p{s}.{z}" != keep:
                discard(t, s, z, dest)


def full_battle(t: AssistTable, att: int = 1, pos: int = 4, winner: int = 1,
                retreat: bool = True, close: bool = True, condemn: int | None = None,
                **kw: Any) -> None:
    fight(t, att, pos, **kw)
    de = 2 if att == 1 else 1
    commits(t, att)
    hands(t, att)
    hands(t, de)
    reveal(t)
    roll(t, att, 5 if winner == att else 1)
    roll(t, de, 1 if winner == att else 5)
    t.declare("battle-winner", seat=att, winner=winner,
              attacker_total=6 if winner == att else 2, defender_total=2 if winner == att else 6)
    loser = de if winner == att else att
    if retreat:
        tok(t, loser, pos + (-1 if loser == 1 else 1))
    cleanup(t, condemn=condemn)
    if close:
        t.declare("battle-close", seat=att)


# -- turn structure ---------------------------------------------------------------------------
@case("GAU-TURN-ALTERNATE")
def _(t: AssistTable, legal: bool) -> int:
    begin(t, 1, None)
    c = cp(t)
    t.turn(2 if legal else 1)
    return c


@case("GAU-STEP-ORDER")
def _(t: AssistTable, legal: bool) -> int:
    begin(t, 1, MOVE)
    c = cp(t)
    t.phase(AO2 if legal else DRAW, seat=1)
    return c


@case("GAU-CAPTURE-MANDATORY")
def _(t: AssistTable, legal: bool) -> int:
    tok(t, 1, 4)
    begin(t, 1, CAPTURE)
    c = cp(t)
    if legal:
        face(t, 4, 1)
    t.phase(DRAW, seat=1)
    return c


@case("GAU-CAPTURE-REQUIRES-OCCUPATION")
def _(t: AssistTable, legal: bool) -> int:
    if legal:
        tok(t, 1, 4)
    begin(t, 1, CAPTURE)
    c = cp(t)
    face(t, 4, 1)
    return c


@case("GAU-CONTROL-CHANGE-TIMING")
def _(t: AssistTable, legal: bool) -> int:
    tok(t, 1, 4)
    begin(t, 1, CAPTURE if legal else MOVE)
    c = cp(t)
    face(t, 4, 1)
    return c


@case("GAU-TERR-TWO-FACINGS")
def _(t: AssistTable, legal: bool) -> int:
    begin(t, 1, CAPTURE)
    c = cp(t)
    cmd(t, 1, "rotate", card="gauntlet.P1:#0", degrees=0 if legal else 90)
    return c


@case("GAU-DRAW-ONE")
def _(t: AssistTable, legal: bool) -> int:
    begin(t, 1, DRAW)
    c = cp(t)
    cmd(t, 1, "draw", **{"from": "p1.deck", "to": "p1.hand", "count": 1 if legal else 2})
    t.phase(AO1, seat=1)
    return c


@case("GAU-RESHUFFLE-TRIGGER")
def _(t: AssistTable, legal: bool) -> int:
    begin(t, 1, DRAW)
    discard(t, 1)
    if legal:
        cmd(t, 1, "draw", **{"from": "p1.deck", "to": "p1.hand", "count": 27})
    c = cp(t)
    cmd(t, 1, "move", card="p1.discard:#0", to="p1.deck")
    return c


@case("GAU-GRAVEYARD-NO-RESHUFFLE")
def _(t: AssistTable, legal: bool) -> int:
    begin(t, 1, DRAW)
    discard(t, 1, to="discard" if legal else "graveyard")
    cmd(t, 1, "draw", **{"from": "p1.deck", "to": "p1.hand", "count": 27})
    c = cp(t)
    cmd(t, 1, "move", card="p1.discard:#0" if legal else "p1.graveyard:#0", to="p1.deck")
    return c


@case("GAU-ACTION-ONE-PER-TURN")
def _(t: AssistTable, legal: bool) -> int:
    begin(t, 1, AO2)
    t.declare("action-card", seat=1)
    c = cp(t)
    if not legal:
        t.declare("action-card", seat=1)
    discard(t, 1)
    return c


@case("GAU-ACTION-TIMING")
def _(t: AssistTable, legal: bool) -> int:
    begin(t, 1, AO1 if legal else MOVE)
    c = cp(t)
    t.declare("action-card", seat=1)
    return c


@case("GAU-AO-AFTER-ONLY-IF-UNUSED")
def _(t: AssistTable, legal: bool) -> int:
    begin(t, 1, AO1)
    t.declare("action-card", seat=1)
    t.phase(MOVE, seat=1)
    t.phase(AO2, seat=1)
    c = cp(t)
    if not legal:
        t.declare("action-card", seat=1)
    t.phase(CLEANUP, seat=1)
    return c


@case("GAU-HAND-LIMIT")
def _(t: AssistTable, legal: bool) -> int:
    begin(t, 1, DRAW)
    cmd(t, 1, "draw", **{"from": "p1.deck", "to": "p1.hand"})
    for step in (AO1, MOVE, AO2, CLEANUP):
        t.phase(step, seat=1)
    c = cp(t)
    if legal:
        discard(t, 1)
    t.turn(2)
    return c


@case("GAU-HAND-LIMIT-DISCARD")
def _(t: AssistTable, legal: bool) -> int:
    begin(t, 1, DRAW)
    if legal:
        cmd(t, 1, "draw", **{"from": "p1.deck", "to": "p1.hand"})
    for step in (AO1, MOVE, AO2, CLEANUP):
        t.phase(step, seat=1)
    c = cp(t)
    discard(t, 1)
    return c


# -- movement ---------------------------------------------------------------------------------
@case("GAU-MOVE-ONE-CHOICE", "military", "diplomats", "Commandant")
def _(t: AssistTable, legal: bool) -> int:
    begin(t, 1, MOVE)
    c = cp(t)
    tok(t, 1, 1)
    if not legal:
        tok(t, 1, 2)
    return c


@case("GAU-MOVE-STEPWISE")
def _(t: AssistTable, legal: bool) -> int:
    begin(t, 1, MOVE)
    c = cp(t)
    tok(t, 1, 1 if legal else 2)
    return c


@case("GAU-MOVE-ONLY-IN-STEP")
def _(t: AssistTable, legal: bool) -> int:
    begin(t, 1, MOVE if legal else AO1)
    c = cp(t)
    tok(t, 1, 1)
    return c


@case("GAU-NO-PASSING")
def _(t: AssistTable, legal: bool) -> int:
    tok(t, 1, 1)
    tok(t, 2, 2)
    begin(t, 1, MOVE)
    c = cp(t)
    tok(t, 1, 2 if legal else 3)
    if legal:
        battle(t, 1, 2)
    return c


@case("GAU-NO-SHARED-POSITION")
def _(t: AssistTable, legal: bool) -> int:
    fight(t)
    c = cp(t)
    if legal:
        tok(t, 1, 3)
        t.declare("withdraw", seat=1)
    t.declare("battle-close", seat=1)
    return c


@case("GAU-BATTLE-ON-ENTRY")
def _(t: AssistTable, legal: bool) -> int:
    tok(t, 1, 3)
    tok(t, 2, 4)
    begin(t, 1, MOVE)
    c = cp(t)
    tok(t, 1, 4)
    if legal:
        battle(t, 1, 4)
    t.phase(AO2, seat=1)
    return c


@case("GAU-ATTACKER-ENTERS")
def _(t: AssistTable, legal: bool) -> int:
    fight(t, enter=legal)
    return cp(t) - 1  # the battle-open declaration is the checked op


@case("GAU-WITHDRAW-LIMIT")
def _(t: AssistTable, legal: bool) -> int:
    tok(t, 1, 1)
    begin(t, 1, MOVE)
    c = cp(t)
    tok(t, 1, 2 if legal else 0)
    return c


@case("GAU-POSITION-BOUNDS")
def _(t: AssistTable, legal: bool) -> int:
    begin(t, 1, MOVE)
    c = cp(t)
    cmd(t, 1, "move", id="p1.token", to="gauntlet.P1" if legal else "supply")
    return c


@case("GAU-BATTLE-WITHDRAW-DEST")
def _(t: AssistTable, legal: bool) -> int:
    fight(t)
    t.declare("withdraw", seat=1)
    c = cp(t)
    tok(t, 1, 3 if legal else 5)
    return c


# -- battles ----------------------------------------------------------------------------------
@case("GAU-COMMIT-MAX-ONE")
def _(t: AssistTable, legal: bool) -> int:
    fight(t)
    c = cp(t)
    hidden(t, 1, "hand", "commit")
    if not legal:
        hidden(t, 1, "hand", "commit")
    return c


@case("GAU-COMMIT-ORDER")
def _(t: AssistTable, legal: bool) -> int:
    fight(t)
    c = cp(t)
    order = (1, 2) if legal else (2, 1)
    for s in order:
        hidden(t, s, "hand", "commit")
    return c


@case("GAU-BATTLEHAND-DRAW")
def _(t: AssistTable, legal: bool) -> int:
    fight(t)
    commits(t)
    c = cp(t)
    hands(t, 1, 3 if legal else 2)
    return c


@case("GAU-BATTLEHAND-ORDER")
def _(t: AssistTable, legal: bool) -> int:
    fight(t)
    commits(t)
    c = cp(t)
    for s in ((1, 2) if legal else (2, 1)):
        hands(t, s)
    return c


@case("GAU-BATTLEHAND-ORDER")
def _(t: AssistTable, legal: bool) -> int:
    """An attacker with nothing to draw forms no Battle Hand: the defender may draw at once.
    The nearest illegal case leaves the attacker one card to draw."""
    fight(t)
    commits(t)
    cmd(t, 1, "move_all", **{"from": "p1.deck", "to": "p1.graveyard"})
    if not legal:
        cmd(t, 1, "move", card="p1.graveyard:top", to="p1.deck")
    c = cp(t)
    hands(t, 2)
    return c


@case("GAU-BATTLEHAND-CHOOSE-ONE")
def _(t: AssistTable, legal: bool) -> int:
    fight(t)
    commits(t)
    c = cp(t)
    hands(t, 1, 3, 1 if legal else 2)
    return c


@case("GAU-BATTLEHAND-SEPARATE")
def _(t: AssistTable, legal: bool) -> int:
    fight(t)
    commits(t)
    hands(t, 1)
    c = cp(t)
    if legal:
        discard(t, 1, "battle-hand", "discard")
    else:
        hidden(t, 1, "battle-hand", "hand")
    return c


@case("GAU-NO-LATE-COMMIT")
def _(t: AssistTable, legal: bool) -> int:
    fight(t)
    hidden(t, 1, "hand", "commit")
    if legal:
        hidden(t, 2, "hand", "commit")
    hands(t, 1)
    c = cp(t)
    if not legal:
        hidden(t, 2, "hand", "commit")
    return c


@case("GAU-REVEAL-BEFORE-DICE")
def _(t: AssistTable, legal: bool) -> int:
    fight(t)
    commits(t)
    if legal:
        reveal(t)
    c = cp(t)
    roll(t, 1, 4)
    return c


@case("GAU-DICE-COUNT")
def _(t: AssistTable, legal: bool) -> int:
    fight(t)
    t.declare("net-advantage", seat=1, net=1)
    c = cp(t)
    roll(t, 1, *((3, 5) if legal else (3,)))
    return c


@case("GAU-DICE-KEEP")
def _(t: AssistTable, legal: bool) -> int:
    fight(t)
    t.declare("net-advantage", seat=1, net=1)
    roll(t, 1, 2, 5)
    roll(t, 2, 3)
    c = cp(t)
    t.declare("battle-winner", seat=1, winner=1, attacker_total=6 if legal else 3,
              defender_total=3, attacker_die=5 if legal else 2, defender_die=3)
    return c


@case("GAU-PREDICE-SPENDS")
def _(t: AssistTable, legal: bool) -> int:
    stock(t, 1)  # Command to pay for the Order
    fight(t)
    if not legal:
        roll(t, 1, 3)
    c = cp(t)
    order(t, 1, "Rally")
    return c


@case("GAU-WINNER")
def _(t: AssistTable, legal: bool) -> int:
    fight(t)
    c = cp(t)
    t.declare("battle-winner", seat=1, winner=1 if legal else 2, attacker_total=7,
              defender_total=3)
    return c


@case("GAU-TIE-REROLL")
def _(t: AssistTable, legal: bool) -> int:
    fight(t, att=2, pos=4)  # seat 1 defends P4, which faces seat 2: no Defender's Advantage
    c = cp(t)
    t.declare("battle-winner", seat=2, winner=2, attacker_total=5 if legal else 4,
              defender_total=4)
    return c


@case("GAU-RESULT-RETREAT")
def _(t: AssistTable, legal: bool) -> int:
    full_battle(t, retreat=legal, close=False)
    c = cp(t)
    t.declare("battle-close", seat=1)
    return c


@case("GAU-CLEANUP-DEST")
def _(t: AssistTable, legal: bool) -> int:
    fight(t)
    commits(t)
    reveal(t)
    c = cp(t)
    discard(t, 1, "commit", "graveyard" if legal else "discard")
    return c


@case("GAU-CLEANUP-COMPLETE")
def _(t: AssistTable, legal: bool) -> int:
    full_battle(t, close=False)
    if not legal:
        hidden(t, 1, "hand", "commit")
    c = cp(t)
    t.declare("battle-close", seat=1)
    return c


@case("GAU-ATTACKER-FIRST", "military", "financiers")
def _(t: AssistTable, legal: bool) -> int:
    stock(t, 1)  # Command to pay for the Order
    fight(t)
    c = cp(t)
    if legal:
        order(t, 1, "Rally")
    t.declare("subsidize", seat=2, bonus=1, spent=1)
    if not legal:
        order(t, 1, "Rally")
    return c


@case("GAU-ONE-BATTLE-AT-A-TIME")
def _(t: AssistTable, legal: bool) -> int:
    fight(t)
    c = cp(t)
    if legal:
        t.declare("withdraw", seat=1)
        tok(t, 1, 3)
        t.declare("battle-close", seat=1)
    else:
        battle(t, 1, 4)
    return c


# -- Last Stand -------------------------------------------------------------------------------
@case("GAU-FORCED-BEYOND")
def _(t: AssistTable, legal: bool) -> int:
    full_battle(t, pos=6, retreat=legal, close=False)
    c = cp(t)
    t.declare("battle-close", seat=1)
    return c


@case("GAU-LASTSTAND-PREREQ")
def _(t: AssistTable, legal: bool) -> int:
    tok(t, 1, 6)
    tok(t, 2, 7)
    if legal:
        face(t, 6, 1)
    begin(t, 1, MOVE)
    c = cp(t)
    tok(t, 1, 7)
    return c


def last_stand(t: AssistTable) -> None:
    tok(t, 1, 6)
    tok(t, 2, 7)
    face(t, 6, 1)
    begin(t, 1, MOVE)
    tok(t, 1, 7)
    battle(t, 1, 7, last_stand=True)


@case("GAU-LASTSTAND-BONUS")
def _(t: AssistTable, legal: bool) -> int:
    last_stand(t)
    roll(t, 1, 5)
    roll(t, 2, 3)
    c = cp(t)
    t.declare("battle-winner", seat=1, winner=1, attacker_total=6,
              defender_total=4 if legal else 3, attacker_die=5, defender_die=3)
    return c


@case("GAU-LASTSTAND-WIN")
def _(t: AssistTable, legal: bool) -> int:
    last_stand(t)
    t.declare("battle-winner", seat=1, winner=1, attacker_total=6, defender_total=4)
    tok(t, 2, 7)
    t.declare("battle-close", seat=1)
    c = cp(t)
    if legal:
        t.mark("winner", for_seat=1, seat=1, how="gauntlet")
    else:
        t.turn(2)
    return c


@case("GAU-LASTSTAND-LOSS")
def _(t: AssistTable, legal: bool) -> int:
    last_stand(t)
    t.declare("battle-winner", seat=1, winner=2, attacker_total=3, defender_total=5)
    if legal:
        tok(t, 1, 6)
    c = cp(t)
    t.declare("battle-close", seat=1)
    return c


# -- zones, Assets, Overlays ------------------------------------------------------------------
@case("GAU-ZONE-VISIBILITY")
def _(t: AssistTable, legal: bool) -> int:
    begin(t, 1, AO1)
    t.declare("action-card", seat=1)
    c = cp(t)
    t.do({"seat": 1, "op": "move", "card": "p1.hand:#0", "to": "p1.discard",
          **({"face_up": True} if legal else {})})
    return c


def bank(t: AssistTable, seat: int, n: int) -> None:
    cmd(t, seat, "draw", **{"from": f"p{seat}.deck", "to": f"p{seat}.hand", "count": n})
    for _ in range(n):
        discard(t, seat, "hand", "assets")


@case("GAU-ASSET-LIMIT")
def _(t: AssistTable, legal: bool) -> int:
    bank(t, 1, 3)
    begin(t, 1, AO1)
    t.declare("action-card", seat=1)
    c = cp(t)
    discard(t, 1, "hand", "discard" if legal else "assets")
    return c


@case("GAU-ASSET-LIMIT-IMMEDIATE")
def _(t: AssistTable, legal: bool) -> int:
    bank(t, 2, 3)
    tok(t, 1, 4)
    begin(t, 1, CAPTURE)
    face(t, 4, 1)
    c = cp(t)
    if legal:
        discard(t, 2, "assets", "discard")
    else:
        t.phase(DRAW, seat=1)
    return c


@case("GAU-ASSET-ENTRY")
def _(t: AssistTable, legal: bool) -> int:
    begin(t, 1, AO1 if legal else MOVE)
    if legal:
        t.declare("action-card", seat=1)
    c = cp(t)
    discard(t, 1, "hand", "assets")
    return c


@case("GAU-ASSET-DISCARD-USES-AO")
def _(t: AssistTable, legal: bool) -> int:
    bank(t, 1, 1)
    begin(t, 1, AO1 if legal else MOVE)
    c = cp(t)
    discard(t, 1, "assets", "discard")
    return c


def overlay(t: AssistTable, where: str, rot: int = 0, owner: int = 1) -> str:
    cmd(t, owner, "create", id="ov1", kind="card", to=where, owner=owner, card="war-banner",
        rot=rot)
    return "ov1"


@case("GAU-OVERLAY-ATTACHED")
def _(t: AssistTable, legal: bool) -> int:
    begin(t, 1, AO1)
    c = cp(t)
    overlay(t, "gauntlet.P1" if legal else "p1.assets")
    return c


@case("GAU-OVERLAY-FACING")
def _(t: AssistTable, legal: bool) -> int:
    begin(t, 1, AO1)
    overlay(t, "gauntlet.P4", rot=180)
    c = cp(t)
    cmd(t, 1, "rotate", card="ov1", degrees=180 if legal else 0)
    return c


@case("GAU-OVERLAY-OWNERSHIP")
def _(t: AssistTable, legal: bool) -> int:
    begin(t, 1, AO1)
    overlay(t, "gauntlet.P4", rot=180)
    c = cp(t)
    if legal:
        cmd(t, 1, "rotate", card="ov1", degrees=180)
    else:
        cmd(t, 2, "set", id="ov1", field="owner", value=2)
    return c


@case("GAU-OVERLAY-DEST")
def _(t: AssistTable, legal: bool) -> int:
    begin(t, 1, AO1)
    overlay(t, "gauntlet.P1")
    c = cp(t)
    cmd(t, 1, "move", id="ov1", to="p1.discard" if legal else "p2.discard")
    return c


@case("GAU-TERR-NOT-IN-DECK")
def _(t: AssistTable, legal: bool) -> int:
    begin(t, 1, AO1)
    c = cp(t)
    if legal:
        cmd(t, 1, "rotate", card="gauntlet.P1:#0", degrees=0)
    else:
        cmd(t, 1, "move", card="gauntlet.P1:#0", to="p1.discard")
    return c


@case("GAU-SUPP-NOT-CARDS")
def _(t: AssistTable, legal: bool) -> int:
    begin(t, 2, AO1)
    c = cp(t)
    if legal:
        cmd(t, 2, "move", card="p2.hand:#0", to="p2.discard", face_up=True)
    else:
        cmd(t, 2, "move", card="p2.proposals:#0", to="p2.discard")
    return c


@case("GAU-TERR-STAY-FACEUP")
def _(t: AssistTable, legal: bool) -> int:
    begin(t, 1, AO1)
    c = cp(t)
    cmd(t, 1, "flip", card="gauntlet.P1:#0", face_up=legal)
    return c


@case("GAU-LEADER-FACEUP")
def _(t: AssistTable, legal: bool) -> int:
    begin(t, 1, AO1)
    c = cp(t)
    cmd(t, 1, "flip", card="p1.leader:#0", face_up=legal)
    return c
