"""Declarations of the factions' powers and their leaders' once-per-turn abilities (Diplomats'
Terms, Financiers' Subsidize, Intelligence's Surveillance, the Mystics' unlocks): when each may
be used and what it costs. `declares.check_declare` finds them in FACTION_POWERS."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from assist.api import Flag

from .facts import Decl, Facts
from .rules import add

# A declaration's check: the facts, the flags so far (appended to), the declaration.
Handler = Callable[[Facts, list[Flag], Decl], None]
Need = Callable[[Facts, Decl], bool]  # what must be true for a once-per-turn power


def _terms_offered(f: Facts, out: list[Flag], d: Decl) -> None:
    b = f.battle
    seat = d.seat
    bad = b is None or seat not in (b.attacker, b.defender) or f.faction(seat or 0) != "Diplomats"
    if not bad and b is not None and (
            f.decl("terms-offered", since=b.open_i, before=d.index)
            or any(f.v.count(f"p{s}.commit") for s in (1, 2))):
        bad = True
    if bad:
        add(out, f, "GAU-DIP-TERMS-TIMING", "Terms are offered by the Diplomat in its own "
            "battle, before any card is committed, once per battle.")


def _proposal_of(f: Facts, d: Decl) -> Any:
    for x in reversed(f.decl("terms-offered", before=d.index)):
        ref = str(x.fields.get("proposal", ""))
        card = f.game.card(ref) or f.card(ref)
        if card is None:
            found = f.game.module.find_cards(ref) if ref else []
            card = found[0] if len(found) == 1 else None
        return x, card
    return None, None


def _terms_answer(f: Facts, out: list[Flag], d: Decl) -> None:
    offer, card = _proposal_of(f, d)
    if offer is None or card is None or offer.seat is None:
        return
    staked = f.v.counter(f"p{offer.seat}.influence-staked") or 0
    stake = card.number("stake")
    if staked != stake:
        add(out, f, "GAU-DIP-STAKE", f"{card.name} stakes {stake} Influence; {staked} is "
            f"staked.", [f"p{offer.seat}.influence-staked"])


def _leverage(f: Facts, out: list[Flag], d: Decl) -> None:
    b = f.battle
    if b is None or not f.decl("terms-refused", since=b.open_i) or f.faction(d.seat or 0) \
            != "Diplomats":
        add(out, f, "GAU-DIP-LEVERAGE", "Leverage is used only in a battle after the "
            "Diplomat's Terms were refused.")


def _subsidize(f: Facts, out: list[Flag], d: Decl) -> None:
    b = f.battle
    seat = d.seat
    bonus, spent = d.fields.get("bonus"), d.fields.get("spent")
    if b is None or seat not in (b.attacker, b.defender):
        add(out, f, "GAU-FIN-SUBSIDIZE", "Subsidize is used only in a battle involving the "
            "Financier.")
        return
    if isinstance(bonus, int) and isinstance(spent, int):
        costs = list(f.p("subsidize_costs", [1, 3, 6, 10]))
        cost = costs[bonus - 1] if 0 < bonus <= len(costs) else bonus * (bonus + 1) // 2
        if spent != cost:
            add(out, f, "GAU-FIN-SUBSIDIZE", f"Subsidize +{bonus} costs {cost} Capital; "
                f"{spent} was spent.")


def _once_per_turn(rule: str, leader: str | None, what: str, need: Need | None = None) -> Handler:
    def check(f: Facts, out: list[Flag], d: Decl) -> None:
        seat = d.seat
        ok = seat is not None and (leader is None or f.leader(seat) == leader)
        if ok and f.decl(d.name, before=d.index, seat=seat):
            ok = False
        if ok and need is not None:
            ok = need(f, d)
        if not ok:
            add(out, f, rule, what)
    return check


def _accepted_this_turn(f: Facts, d: Decl) -> bool:
    return bool(f.decl("terms-accepted", before=d.index)) and bool(
        f.decl("terms-offered", before=d.index, seat=d.seat))


def _lost_refused(f: Facts, d: Decl) -> bool:
    for b in f.battles:
        if b.winner is not None and b.winner != d.seat and d.seat in (b.attacker, b.defender) \
                and f.decl("terms-refused", since=b.open_i, before=b.winner_i):
            return True
    return False


def _after_complete(f: Facts, d: Decl) -> bool:
    return bool(f.decl("mission-complete", before=d.index, seat=d.seat))


def _lost_own_turn(f: Facts, d: Decl) -> bool:
    lost = [b for b in f.battles if b.winner is not None and b.winner != d.seat
            and d.seat in (b.attacker, b.defender)]
    return d.seat == f.active and bool(lost)


def _pursuit(f: Facts, d: Decl) -> bool:
    return any(b.defender == d.seat and b.winner == d.seat for b in f.battles)


def _intel(n: int) -> Need:
    def need(f: Facts, d: Decl) -> bool:
        return (f.v.counter(f"p{d.seat}.intel") or 0) >= n or (f.counter_at(
            f"p{d.seat}.intel", d.index) or 0) >= n
    return need


def _surveillance(f: Facts, out: list[Flag], d: Decl) -> None:
    b = f.battle
    seat = d.seat
    opp = f.other(seat)
    ok = b is not None and seat in (b.attacker, b.defender) and f.faction(seat or 0) \
        == "Intelligence"
    if ok and b is not None and (
            f.decl("surveillance", since=b.open_i, before=d.index, seat=seat)
            or not (f.v.count(f"p{opp}.commit") or f.v.count(f"p{opp}.battle-choice"))
            or (f.counter_at(f"p{seat}.intel", d.index) or 0) < 1):
        ok = False
    if not ok:
        add(out, f, "GAU-INT-SURVEILLANCE", "Surveillance: once per battle, 1 Intel, right "
            "after the opponent commits or chooses a face-down card.")


def _interference(f: Facts, out: list[Flag], d: Decl) -> None:
    b = f.battle
    prior = [x for x in f.decls if b is not None and b.open_i < x.index < d.index]
    ok = bool(prior) and prior[-1].name == "surveillance" and prior[-1].seat == d.seat
    if ok and (f.counter_at(f"p{d.seat}.intel", d.index) or 0) < 2:
        ok = False
    if not ok:
        add(out, f, "GAU-INT-INTERFERENCE", "Interference comes right after your own "
            "Surveillance and costs 2 more Intel.")


def _rites_done(f: Facts, seat: int | None) -> int:
    return sum(1 for c in f.v.child_ids(f"p{seat}.rites", "card")
               if f.v.prop(c, "side") == "Complete")


def _invocation(f: Facts, out: list[Flag], d: Decl) -> None:
    if _rites_done(f, d.seat) < 1:
        add(out, f, "GAU-MYS-UNLOCKS", "Invocation is unlocked by the first completed Rite.")
    elif f.decl("invocation", before=d.index, seat=d.seat):
        add(out, f, "GAU-MYS-INVOCATION", "Invocation is used once per turn.")


def _transmutation(f: Facts, out: list[Flag], d: Decl) -> None:
    b = f.battle
    if _rites_done(f, d.seat) < 2:
        add(out, f, "GAU-MYS-UNLOCKS", "Transmutation is unlocked by the second completed Rite.")
    elif b is None or d.seat not in (b.attacker, b.defender) or f.decl(
            "transmutation", before=d.index, seat=d.seat):
        add(out, f, "GAU-MYS-TRANSMUTATION", "Transmutation: once per turn, in a battle "
            "involving the Mystic, before dice.")


FACTION_POWERS: dict[str, Handler] = {
    "terms-offered": _terms_offered,
    "terms-accepted": _terms_answer,
    "terms-refused": _terms_answer,
    "leverage": _leverage,
    "subsidize": _subsidize,
    "cordiality": _once_per_turn("GAU-DIP-CORDIALITY", "ambassador", "Cordiality is the "
                                 "Ambassador's, once per turn, after its Terms are accepted.",
                                 _accepted_this_turn),
    "political-capital": _once_per_turn("GAU-DIP-POLITICAL-CAPITAL", "senator", "Political "
                                        "Capital is the Senator's, once per turn, after losing "
                                        "a battle that followed refused Terms.", _lost_refused),
    "mission-control": _once_per_turn("GAU-INT-MISSION-CONTROL", "spymaster", "Mission Control "
                                      "is the Spymaster's, once per turn, right after "
                                      "completing a Mission.", _after_complete),
    "fieldcraft": _once_per_turn("GAU-INT-FIELDCRAFT", "ranger", "Fieldcraft is the Ranger's, "
                                 "once per turn, for 1 Intel.", _intel(1)),
    "guardians": _once_per_turn("GAU-MYS-GUARDIANS", "spirit-walker", "Guardians of the Circle "
                                "is the Spirit Walker's, on the first battle lost on its own "
                                "turn.", _lost_own_turn),
    "relentless-pursuit": _once_per_turn("GAU-INQ-RELENTLESS", "witch-hunter", "Relentless "
                                         "Pursuit is the Witch Hunter's, once per turn, after "
                                         "defeating an opponent who attacked it.", _pursuit),
    "surveillance": _surveillance,
    "interference": _interference,
    "invocation": _invocation,
    "transmutation": _transmutation,
}
