"""Fires / nearest-legal pairs for the six factions and their Leaders."""
from __future__ import annotations

from assist.testing import AssistTable

from .cases_core import bank, case, commits, cp, fight, full_battle, hands, reveal
from .gau_kit import (
    AO1,
    AO2,
    CAPTURE,
    DRAW,
    MOVE,
    begin,
    cmd,
    discard,
    hidden,
    order,
    roll,
    stock,
    tok,
)

__all__ = ["bank"]


def ids(t: AssistTable, zone: str) -> list[str]:
    return list(t.replica.state.objs[zone].children)


def side(t: AssistTable, seat: int, obj: str, value: str) -> None:
    cmd(t, seat, "set", id=obj, field="props.side", value=value)


# -- Military ---------------------------------------------------------------------------------
@case("GAU-MIL-COMMAND-RANGE")
def _(t: AssistTable, legal: bool) -> int:
    begin(t, 1, AO1)
    c = cp(t)
    cmd(t, 1, "counter", id="p1.command", value=0 if legal else 3)
    return c


@case("GAU-MIL-COMMAND-GAIN")
def _(t: AssistTable, legal: bool) -> int:
    if legal:
        full_battle(t)
    else:
        begin(t, 1, AO1)
    c = cp(t)
    cmd(t, 1, "counter", id="p1.command", add=1)
    return c


@case("GAU-MIL-ORDERS-OWN-LEADER")
def _(t: AssistTable, legal: bool) -> int:
    stock(t, 1)  # Command to pay for the Order
    fight(t)
    c = cp(t)
    order(t, 1, "Rally" if legal else "Entrench")
    return c


@case("GAU-MIL-ONWARD")
def _(t: AssistTable, legal: bool) -> int:
    stock(t, 1)  # Command to pay for the Order
    begin(t, 1, MOVE)
    if legal:
        order(t, 1, "Onward")
    tok(t, 1, 1)
    c = cp(t)
    tok(t, 1, 2)
    return c


@case("GAU-MIL-RALLY")
def _(t: AssistTable, legal: bool) -> int:
    stock(t, 1)  # Command to pay for the Order
    fight(t, att=1 if legal else 2, pos=4)
    c = cp(t)
    order(t, 1, "Rally")
    return c


@case("GAU-MIL-ROUT")
def _(t: AssistTable, legal: bool) -> int:
    stock(t, 1)  # Command to pay for the Order
    if legal:
        full_battle(t)
    else:
        begin(t, 1, MOVE)
    c = cp(t)
    order(t, 1, "Rout")
    return c


@case("GAU-MIL-ENTRENCH", "military", "diplomats", "Commandant")
def _(t: AssistTable, legal: bool) -> int:
    stock(t, 1)  # Command to pay for the Order
    fight(t, att=2 if legal else 1, pos=4)
    c = cp(t)
    order(t, 1, "Entrench")
    return c


@case("GAU-MIL-REPEL", "military", "diplomats", "Commandant")
def _(t: AssistTable, legal: bool) -> int:
    stock(t, 1)  # Command to pay for the Order
    full_battle(t, att=2 if legal else 1, pos=4, winner=1, close=False)
    c = cp(t)
    order(t, 1, "Repel")
    return c


@case("GAU-MIL-FORTIFY", "military", "diplomats", "Commandant")
def _(t: AssistTable, legal: bool) -> int:
    stock(t, 1)  # Command to pay for the Order
    if legal:
        full_battle(t)
    else:
        begin(t, 1, MOVE)
    c = cp(t)
    order(t, 1, "Fortify")
    return c


# -- Diplomats (seat 2) -----------------------------------------------------------------------
@case("GAU-DIP-INFLUENCE-RANGE")
def _(t: AssistTable, legal: bool) -> int:
    begin(t, 2, AO1)
    c = cp(t)
    cmd(t, 2, "counter", id="p2.influence", value=10 if legal else 11)
    return c


@case("GAU-DIP-TERMS-TIMING")
def _(t: AssistTable, legal: bool) -> int:
    fight(t)
    if not legal:
        commits(t)
    c = cp(t)
    t.declare("terms-offered", seat=2, proposal="Ceasefire")
    return c


def offer(t: AssistTable, stake: int = 1) -> None:
    t.declare("terms-offered", seat=2, proposal="Ceasefire")
    cmd(t, 2, "counter", id="p2.influence", add=-stake)
    cmd(t, 2, "counter", id="p2.influence-staked", add=stake)


@case("GAU-DIP-STAKE")
def _(t: AssistTable, legal: bool) -> int:
    fight(t)
    t.declare("terms-offered", seat=2, proposal="Ceasefire")
    cmd(t, 2, "counter", id="p2.influence-staked", value=1 if legal else 0)
    c = cp(t)
    t.declare("terms-refused", seat=1)
    return c


@case("GAU-DIP-STAKE-LOCKED")
def _(t: AssistTable, legal: bool) -> int:
    fight(t)
    offer(t)
    if legal:
        t.declare("terms-accepted", seat=1)
    c = cp(t)
    cmd(t, 2, "counter", id="p2.influence-staked", add=-1)
    return c


@case("GAU-DIP-ACCEPTED")
def _(t: AssistTable, legal: bool) -> int:
    fight(t)
    offer(t)
    t.declare("terms-accepted", seat=1)
    if not legal:
        hidden(t, 1, "hand", "commit")
        discard(t, 1, "commit", "graveyard")
    cmd(t, 2, "counter", id="p2.influence-staked", add=-1)
    cmd(t, 2, "counter", id="p2.influence", add=2)
    side(t, 2, ids(t, "p2.proposals")[0], "Treaty Article")
    c = cp(t)
    t.declare("battle-close", seat=1)
    return c


@case("GAU-DIP-LEVERAGE")
def _(t: AssistTable, legal: bool) -> int:
    fight(t)
    if legal:
        offer(t)
        t.declare("terms-refused", seat=1)
    c = cp(t)
    t.declare("leverage", seat=2, amount=0)
    return c


@case("GAU-DIP-NO-UNRATIFY")
def _(t: AssistTable, legal: bool) -> int:
    begin(t, 2, AO1)
    props = ids(t, "p2.proposals")
    side(t, 2, props[0], "Treaty Article")
    c = cp(t)
    side(t, 2, props[1] if legal else props[0], "Treaty Article" if legal else "Proposal")
    return c


@case("GAU-DIP-PEACE-TREATY")
def _(t: AssistTable, legal: bool) -> int:
    for obj in ids(t, "p2.proposals")[:5]:
        side(t, 2, obj, "Treaty Article")
    begin(t, 2, CAPTURE)
    c = cp(t)
    if legal:
        t.mark("winner", for_seat=2, seat=2, how="peace-treaty")
    t.phase(DRAW, seat=2)
    return c


@case("GAU-DIP-CORDIALITY")
def _(t: AssistTable, legal: bool) -> int:
    fight(t)
    offer(t)
    t.declare("terms-accepted" if legal else "terms-refused", seat=1)
    c = cp(t)
    t.declare("cordiality", seat=2)
    return c


@case("GAU-DIP-POLITICAL-CAPITAL", "military", "diplomats", None, "Senator")
def _(t: AssistTable, legal: bool) -> int:
    fight(t)
    offer(t)
    t.declare("terms-refused", seat=1)
    t.declare("battle-winner", seat=1, winner=1 if legal else 2)
    c = cp(t)
    t.declare("political-capital", seat=2, cards=0)
    return c


# -- Financiers (seat 2) ----------------------------------------------------------------------
FIN = ("military", "financiers")


@case("GAU-FIN-CAPITAL-LIMIT", *FIN)
def _(t: AssistTable, legal: bool) -> int:
    begin(t, 2, AO2)
    cmd(t, 2, "counter", id="p2.capital", value=3 if legal else 4)
    c = cp(t)
    t.turn(1)
    return c


@case("GAU-FIN-CAPITAL-NONNEG", *FIN)
def _(t: AssistTable, legal: bool) -> int:
    begin(t, 2, AO2)
    c = cp(t)
    cmd(t, 2, "counter", id="p2.capital", value=0 if legal else -1)
    return c


@case("GAU-FIN-TREASURY", *FIN)
def _(t: AssistTable, legal: bool) -> int:
    begin(t, 2, AO2 if legal else AO1)
    c = cp(t)
    discard(t, 2, "hand", "treasury")
    return c


@case("GAU-FIN-TREASURY-STICKY", *FIN)
def _(t: AssistTable, legal: bool) -> int:
    begin(t, 2, AO2)
    discard(t, 2, "hand", "treasury")
    begin(t, 2, AO2)
    if legal:
        t.declare("deed-buy", seat=2, collateral="treasury")
    c = cp(t)
    discard(t, 2, "treasury", "discard")
    return c


@case("GAU-FIN-DEED-TIMING", *FIN)
def _(t: AssistTable, legal: bool) -> int:
    begin(t, 2, AO2 if legal else AO1)
    c = cp(t)
    t.declare("deed-buy", seat=2)
    return c


@case("GAU-FIN-DEED-COST", *FIN)
def _(t: AssistTable, legal: bool) -> int:
    begin(t, 2, AO2)
    c = cp(t)
    t.declare("deed-buy", seat=2, position="P4", paid=1 if legal else 2)
    return c


@case("GAU-FIN-DEED-INTEGRITY", *FIN)
def _(t: AssistTable, legal: bool) -> int:
    begin(t, 2, AO2)
    c = cp(t)
    cmd(t, 2, "move", card="deed-supply:#0", to="p2.deeds" if legal else "p2.discard")
    return c


@case("GAU-FIN-INCOME", *FIN)
def _(t: AssistTable, legal: bool) -> int:
    cmd(t, 2, "move", card="deed-supply:#0", to="p2.deeds")
    begin(t, 2, CAPTURE)
    c = cp(t)
    if legal:
        cmd(t, 2, "counter", id="p2.capital", add=1)
    t.phase(DRAW, seat=2)
    return c


@case("GAU-FIN-CONTROLLING-INTEREST", *FIN)
def _(t: AssistTable, legal: bool) -> int:
    for _ in range(6):
        cmd(t, 2, "move", card="deed-supply:#0", to="p2.deeds")
    begin(t, 2, AO2)
    c = cp(t)
    if legal:
        t.mark("winner", for_seat=2, seat=2, how="controlling-interest")
    t.turn(1)
    return c


@case("GAU-FIN-SUBSIDIZE", *FIN)
def _(t: AssistTable, legal: bool) -> int:
    fight(t)
    c = cp(t)
    t.declare("subsidize", seat=2, bonus=2, spent=3 if legal else 2)
    return c


@case("GAU-FIN-LINE-OF-CREDIT", *FIN)
def _(t: AssistTable, legal: bool) -> int:
    begin(t, 2, AO2)
    c = cp(t)
    t.declare("deed-buy", seat=2, position="P1", collateral="clerk", paid=1 if legal else 2)
    return c


@case("GAU-FIN-HOSTILE-TAKEOVER", "military", "financiers", None, "Executive")
def _(t: AssistTable, legal: bool) -> int:
    if legal:
        full_battle(t, att=2, pos=3, winner=2)
        t.phase(AO2, seat=2)
    else:
        begin(t, 2, AO2)
    c = cp(t)
    t.declare("hostile-takeover", seat=2, position="P3", paid=1)
    return c


# -- Intelligence (seat 2) --------------------------------------------------------------------
INT = ("military", "intelligence")


def fetch(t: AssistTable, name: str, seat: int = 2) -> None:
    """Put a named card from the Draw Pile into the hand (setting up a test, as the designer)."""
    t.do({"op": "move", "card": f"p{seat}.deck:{name}", "to": f"p{seat}.hand"})


def mission(t: AssistTable, name: str = "Informant", slot: str = "mission") -> None:
    t.do({"op": "move", "card": f"p2.hand:{name}", "to": f"p2.{slot}"})


@case("GAU-INT-NONNEG", *INT)
def _(t: AssistTable, legal: bool) -> int:
    begin(t, 2, AO1)
    c = cp(t)
    cmd(t, 2, "counter", id="p2.intel", value=0 if legal else -1)
    return c


@case("GAU-INT-MISSION-ELIGIBLE", *INT)
def _(t: AssistTable, legal: bool) -> int:
    name = "Informant" if legal else "Dead Drop"
    fetch(t, name)
    begin(t, 2, AO2)
    c = cp(t)
    mission(t, name)
    return c


@case("GAU-INT-MISSION-START", *INT)
def _(t: AssistTable, legal: bool) -> int:
    fetch(t, "Informant")
    begin(t, 2, AO2 if legal else AO1)
    c = cp(t)
    mission(t)
    return c


@case("GAU-INT-NOT-SAME-TURN", *INT)
def _(t: AssistTable, legal: bool) -> int:
    fetch(t, "Informant")
    begin(t, 2, AO2)
    mission(t)
    if legal:
        begin(t, 2, AO2)
    c = cp(t)
    t.declare("mission-complete", seat=2)
    return c


@case("GAU-INT-FAIL-DEST", *INT)
def _(t: AssistTable, legal: bool) -> int:
    fetch(t, "Informant")
    begin(t, 2, AO2)
    mission(t)
    begin(t, 2, AO1)
    t.declare("mission-fail", seat=2)
    c = cp(t)
    discard(t, 2, "mission", "graveyard" if legal else "discard")
    return c


@case("GAU-INT-SURVEILLANCE", *INT)
def _(t: AssistTable, legal: bool) -> int:
    cmd(t, 2, "counter", id="p2.intel", value=3)
    fight(t)
    if legal:
        hidden(t, 1, "hand", "commit")
    c = cp(t)
    t.declare("surveillance", seat=2)
    return c


@case("GAU-INT-INTERFERENCE", *INT)
def _(t: AssistTable, legal: bool) -> int:
    cmd(t, 2, "counter", id="p2.intel", value=3)
    fight(t)
    hidden(t, 1, "hand", "commit")
    if legal:
        t.declare("surveillance", seat=2)
    c = cp(t)
    t.declare("interference", seat=2)
    return c


@case("GAU-INT-SPECOP-START", *INT)
def _(t: AssistTable, legal: bool) -> int:
    cmd(t, 2, "counter", id="p2.operation-progress", value=4 if legal else 3)
    begin(t, 2, AO2)
    c = cp(t)
    t.declare("special-op-start", seat=2)
    return c


@case("GAU-INT-SPECOP-FAIL", *INT)
def _(t: AssistTable, legal: bool) -> int:
    cmd(t, 2, "counter", id="p2.operation-progress", value=4)
    fetch(t, "Informant")
    begin(t, 2, AO2)
    mission(t, slot="special-operation")
    begin(t, 2, AO1)
    c = cp(t)
    cmd(t, 2, "counter", id="p2.operation-progress", value=5 if legal else 3)
    return c


@case("GAU-INT-FIELDCRAFT", *INT)
def _(t: AssistTable, legal: bool) -> int:
    cmd(t, 2, "counter", id="p2.intel", value=2)
    begin(t, 2, AO1)
    if not legal:
        t.declare("fieldcraft", seat=2)
    c = cp(t)
    t.declare("fieldcraft", seat=2)
    return c


@case("GAU-INT-MISSION-CONTROL", "military", "intelligence", None, "Spymaster")
def _(t: AssistTable, legal: bool) -> int:
    begin(t, 2, AO2)
    if legal:
        t.declare("mission-complete", seat=2)
    c = cp(t)
    t.declare("mission-control", seat=2)
    return c


# -- Mystics (seat 2) -------------------------------------------------------------------------
MYS = ("military", "mystics")


def rite(t: AssistTable, which: int) -> str:
    """0 Echoes, 1 Blood, 2 Crossing."""
    return [c for c in ids(t, "p2.rites") if t.replica.state.objs[c].kind == "card"][which]


def mark_rite(t: AssistTable, which: int | None) -> None:
    cmd(t, 2, "move", id="p2.rite-begun", to=rite(t, which) if which is not None else "p2.rites")


@case("GAU-MYS-BEGIN-TIMING", *MYS)
def _(t: AssistTable, legal: bool) -> int:
    begin(t, 2, AO2 if legal else AO1)
    c = cp(t)
    t.declare("rite-begin", seat=2, rite="Rite of Echoes")
    return c


@case("GAU-MYS-ONE-BEGUN", *MYS)
def _(t: AssistTable, legal: bool) -> int:
    mark_rite(t, 0)
    begin(t, 2, AO2)
    if legal:
        mark_rite(t, None)
    c = cp(t)
    t.declare("rite-begin", seat=2, rite="Rite of Blood")
    return c


@case("GAU-MYS-NOT-SAME-TURN", *MYS)
def _(t: AssistTable, legal: bool) -> int:
    if legal:
        mark_rite(t, 0)
    begin(t, 2, AO2)
    if not legal:
        mark_rite(t, 0)
    c = cp(t)
    side(t, 2, rite(t, 0), "Complete")
    return c


@case("GAU-MYS-ONE-COMPLETE-PER-TURN", *MYS)
def _(t: AssistTable, legal: bool) -> int:
    mark_rite(t, 0)
    begin(t, 2, AO2)
    side(t, 2, rite(t, 0), "Complete")
    mark_rite(t, 2)
    if legal:
        begin(t, 2, AO2)
    c = cp(t)
    side(t, 2, rite(t, 2), "Complete")
    return c


@case("GAU-MYS-COMPLETE-STATE", *MYS)
def _(t: AssistTable, legal: bool) -> int:
    if legal:
        mark_rite(t, 0)
    begin(t, 2, AO2)
    c = cp(t)
    side(t, 2, rite(t, 0), "Complete")
    return c


@case("GAU-MYS-UNLOCKS", *MYS)
def _(t: AssistTable, legal: bool) -> int:
    if legal:
        side(t, 2, rite(t, 0), "Complete")
    begin(t, 2, AO1)
    c = cp(t)
    t.declare("invocation", seat=2)
    return c


@case("GAU-MYS-RITUAL-WIN", *MYS)
def _(t: AssistTable, legal: bool) -> int:
    for i in range(3):
        side(t, 2, rite(t, i), "Complete")
    begin(t, 2, AO2)
    c = cp(t)
    if legal:
        t.mark("winner", for_seat=2, seat=2, how="ritual")
    t.turn(1)
    return c


@case("GAU-MYS-LOSS-INTERRUPTS", *MYS)
def _(t: AssistTable, legal: bool) -> int:
    mark_rite(t, 1)
    full_battle(t, att=2, pos=4, winner=1, close=False)
    c = cp(t)  # the flag is laid at the battle's close, when the Rite was interrupted
    t.declare("battle-close", seat=2)
    if legal:
        mark_rite(t, None)
    t.phase(AO2, seat=2)
    return c


@case("GAU-MYS-BLOOD-COMPLETE", *MYS)
def _(t: AssistTable, legal: bool) -> int:
    mark_rite(t, 1)
    if legal:
        fight(t, att=2, pos=4)
        roll(t, 2, 6)
        roll(t, 1, 1)
        t.declare("battle-winner", seat=2, winner=2, attacker_total=6, defender_total=1)
        tok(t, 1, 3)
        t.declare("battle-close", seat=2)
    else:
        begin(t, 2, AO2)
    c = cp(t)
    side(t, 2, rite(t, 1), "Complete")
    return c


@case("GAU-MYS-CROSSING-BEGIN", *MYS)
def _(t: AssistTable, legal: bool) -> int:
    if legal:
        full_battle(t, att=2, pos=3, winner=2)
        t.phase(AO2, seat=2)
    else:
        begin(t, 2, AO2)
    c = cp(t)
    t.declare("rite-begin", seat=2, rite="Rite of Crossing")
    return c


@case("GAU-MYS-BOUND", *MYS)
def _(t: AssistTable, legal: bool) -> int:
    begin(t, 2, AO2)
    hidden(t, 2, "hand", "bound")
    c = cp(t)
    discard(t, 2, "bound", "graveyard" if legal else "discard")
    return c


@case("GAU-MYS-INVOCATION", *MYS)
def _(t: AssistTable, legal: bool) -> int:
    side(t, 2, rite(t, 0), "Complete")
    discard(t, 2, "hand", "graveyard")
    begin(t, 2, AO1)
    if legal:
        t.declare("invocation", seat=2)
    c = cp(t)
    discard(t, 2, "graveyard", "discard")
    return c


@case("GAU-MYS-TRANSMUTATION", *MYS)
def _(t: AssistTable, legal: bool) -> int:
    side(t, 2, rite(t, 0), "Complete")
    side(t, 2, rite(t, 1), "Complete")
    if legal:
        fight(t)
    else:
        begin(t, 2, AO1)
    c = cp(t)
    t.declare("transmutation", seat=2)
    return c


@case("GAU-MYS-GUARDIANS", "military", "mystics", None, "Spirit Walker")
def _(t: AssistTable, legal: bool) -> int:
    if legal:
        full_battle(t, att=2, pos=4, winner=1)
    else:
        begin(t, 2, AO1)
    c = cp(t)
    t.declare("guardians", seat=2)
    return c


# -- Inquisition (seat 2) ---------------------------------------------------------------------
INQ = ("military", "inquisition")


@case("GAU-INQ-CONVICTION-RANGE", *INQ)
def _(t: AssistTable, legal: bool) -> int:
    begin(t, 2, AO1)
    c = cp(t)
    cmd(t, 2, "counter", id="p2.conviction", value=0 if legal else 5)
    return c


@case("GAU-INQ-CONVICTION-GAIN", *INQ)
def _(t: AssistTable, legal: bool) -> int:
    if legal:
        full_battle(t, att=1, pos=4, winner=2, condemn=1)
    else:
        begin(t, 2, AO1)
    c = cp(t)
    cmd(t, 2, "counter", id="p2.conviction", add=1)
    return c


@case("GAU-INQ-CONDEMNATION", *INQ)
def _(t: AssistTable, legal: bool) -> int:
    fight(t)
    commits(t)
    hands(t, 1)
    hands(t, 2)
    reveal(t)
    c = cp(t)
    discard(t, 1, "battle-choice", "graveyard" if legal else "discard")
    return c


@case("GAU-INQ-PURGE-TIMING", *INQ)
def _(t: AssistTable, legal: bool) -> int:
    begin(t, 2, AO1 if legal else MOVE)
    c = cp(t)
    t.declare("purge", seat=2, tier=1)
    return c


@case("GAU-INQ-PURGE-TIER", *INQ)
def _(t: AssistTable, legal: bool) -> int:
    cmd(t, 2, "counter", id="p2.conviction", value=3)
    begin(t, 2, AO1)
    t.declare("purge", seat=2, tier=2)
    c = cp(t)
    cmd(t, 2, "counter", id="p2.conviction", add=-2 if legal else -1)
    return c


@case("GAU-INQ-FINAL-JUDGMENT", *INQ)
def _(t: AssistTable, legal: bool) -> int:
    if legal:
        full_battle(t, att=2, pos=4, winner=2, condemn=1)
    else:
        begin(t, 2, AO2)
    c = cp(t)
    t.declare("purge", seat=2, tier=2, final_judgment=True)
    return c


@case("GAU-INQ-RELENTLESS", "military", "inquisition", None, "Witch Hunter")
def _(t: AssistTable, legal: bool) -> int:
    if legal:
        full_battle(t, att=1, pos=4, winner=2, condemn=1)
    else:
        begin(t, 1, AO1)
    c = cp(t)
    t.declare("relentless-pursuit", seat=2)
    return c
