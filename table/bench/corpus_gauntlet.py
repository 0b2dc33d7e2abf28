"""The legal corpus's Gauntlet players running the Gauntlet. In a session with a run, one seat
(the runner) advances one position every Movement step while the other (the holder) steps onto
its own final Territory and holds it. The runner captures each enemy Territory it starts a turn
on; entering the holder's position begins a battle (commits from hand, Battle Hands, reveal,
dice, the winner, the retreat, cleanup); beating the holder on its final Territory forces it
beyond the Gauntlet, and the runner's next advance is the holder's Last Stand (+1 to the
defender, who wins ties). Winning the Last Stand wins the game; losing it sends the runner back
to the final Territory, and it tries again on its next turn.

Battle cards are used for their plain bonuses only ("+1.", "+2 if you are the defender.",
"+1; +2 if you initiated the battle."): a player commits or chooses one such card, or declines.
Planted slip (counted in `Truth.planted`): a Last Stand defender's total declared without its
+1 (GAU-LASTSTAND-BONUS), only where the winner stays the same.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from table.bench.corpus_table import Table, cards_in
from table.core import actions as act

RUN_SHARE = 0.6  # the Gauntlet sessions that have a run
_PLAIN = re.compile(r"^\+(\d+)\.$")
_ROLE = re.compile(r"^\+(\d+) if you are the (attacker|defender)\.$")
_INITIATED = re.compile(r"^\+(\d+); \+(\d+) if you initiated the battle\.$")


@dataclass(slots=True)
class Run:
    runner: int
    holder: int
    rng: random.Random
    over: int | None = None  # the runner, once it has won the Last Stand
    wins: dict[int, int] = field(default_factory=dict)  # seat -> turn number of its last win


def plan_run(t: Table) -> Run | None:
    """Whether this session has a run (and who runs), from a generator of its own."""
    rng = random.Random(t.seed ^ 0xBA771E)
    if rng.random() >= RUN_SHARE:
        return None
    runner = rng.choice(t.order)
    return Run(runner, next(s for s in t.order if s != runner), rng)


def bonus(text: str, attacker: bool) -> int | None:
    """A Battle effect's plain bonus (None: not one the scripted players use)."""
    text = text.strip()
    if m := _PLAIN.match(text):
        return int(m.group(1))
    if m := _ROLE.match(text):
        return int(m.group(1)) if (m.group(2) == "attacker") == attacker else 0
    if m := _INITIATED.match(text):
        return int(m.group(2)) if attacker else int(m.group(1))
    return None


def _slots(t: Table) -> list[str]:
    board = next(b for b in t.module.boards if b.kind == "slots")
    return [s.id for s in board.slots]


def _pos(t: Table, seat: int) -> int:
    return _slots(t).index(str(t.r.state.objs[f"p{seat}.token"].container))


def _toward(t: Table, seat: int) -> int:
    """+1 or -1: the direction from `seat`'s own end toward the other's."""
    return 1 if _pos_off(t, seat) == 0 else -1


def _pos_off(t: Table, seat: int) -> int:
    board = next(b for b in t.module.boards if b.kind == "slots")
    return next(i for i, s in enumerate(board.slots) if s.seat == seat and "off-column" in s.tags)


def _final(t: Table, seat: int) -> int:
    board = next(b for b in t.module.boards if b.kind == "slots")
    return next(i for i, s in enumerate(board.slots) if s.seat == seat and "final" in s.tags)


def _territory(t: Table, pos: int) -> str | None:
    found = cards_in(t.r, _slots(t)[pos])
    return found[0] if found else None


def _faces(t: Table, seat: int) -> int:
    return int(list(t.module.rules.get("facing", [0, 180]))[seat - 1])


def capture(t: Table, seat: int) -> None:
    """The Capture step: turn the enemy Territory the seat occupies to face it."""
    terr = _territory(t, _pos(t, seat))
    if terr is not None and t.r.state.objs[terr].rotation != _faces(t, seat):
        act.rotate(t.r, terr, _faces(t, seat), seat=seat)


def movement(t: Table, run: Run, seat: int, number: int) -> None:
    """The Movement step of a session with a run."""
    if seat == run.holder:
        if _pos(t, seat) == _pos_off(t, seat) and not run.wins.get(run.runner):
            act.move(t.r, f"p{seat}.token", _slots(t)[_final(t, seat)], seat=seat)
        return
    nxt = _pos(t, seat) + _toward(t, seat)
    if not 0 <= nxt < len(_slots(t)):
        return
    act.move(t.r, f"p{seat}.token", _slots(t)[nxt], seat=seat)
    if _pos(t, run.holder) == nxt:
        battle(t, run, seat, run.holder, nxt, number,
               last_stand=nxt == _pos_off(t, run.holder))


def _best(t: Table, handles: list[str], attacker: bool) -> str | None:
    scored = [(b, h) for h in handles if (c := t.card(h)) is not None
              and (b := bonus(str(c.get("battle") or ""), attacker)) is not None and b > 0]
    return max(scored)[1] if scored else None


def battle(t: Table, run: Run, att: int, de: int, pos: int, number: int, *,
           last_stand: bool) -> None:
    r, rng = t.r, run.rng
    act.mark(r, "declare", value="battle-open", fields={
        "attacker": att, "defender": de, "position": _slots(t)[pos].rsplit(".", 1)[-1],
        "last_stand": last_stand}, seat=att)
    used: dict[int, list[str]] = {att: [], de: []}
    for s in (att, de):  # commits from hand, the attacker first
        pick = _best(t, t.hand(s), s == att) if rng.random() < 0.6 else None
        if pick is None:
            act.mark(r, "declare", value="commit-declined", fields={"seat": s, "from": "hand"},
                     seat=s)
        else:
            act.move(r, pick, f"p{s}.commit", face_up=False, seat=s)
            used[s].append(cards_in(r, f"p{s}.commit")[-1])
    for s in (att, de):  # Battle Hands, the attacker first
        _battle_hand(t, s, pos)
        pick = _best(t, cards_in(r, f"p{s}.battle-hand"), s == att)
        if pick is None:
            act.mark(r, "declare", value="commit-declined",
                     fields={"seat": s, "from": "battle-hand"}, seat=s)
        else:
            act.move(r, pick, f"p{s}.battle-choice", face_up=False, seat=s)
            used[s].append(cards_in(r, f"p{s}.battle-choice")[-1])
    for s in (att, de):
        for h in used[s]:
            act.flip(r, h, True, seat=s)
    cards = {s: sum(bonus(str(t.card(h).get("battle")), s == att) or 0 for h in used[s])
             for s in (att, de)}
    terr = _territory(t, pos)
    controls = terr is not None and t.r.state.objs[terr].rotation == _faces(t, de)
    extra = int(t.module.rules.get("last_stand_bonus", 1)) if last_stand else 0
    while True:
        dice = {s: rng.randint(1, 6) for s in (att, de)}
        for s in (att, de):
            r.issue("roll", {"id": f"p{s}.die", "sides": 6, "values": [dice[s]],
                             "why": "battle"}, seat=s)
        totals = {att: dice[att] + cards[att], de: dice[de] + cards[de] + extra}
        if totals[att] != totals[de] or last_stand or controls:
            break  # a tie without Defender's Advantage: both reroll
    declared = dict(totals)
    winner = att if totals[att] > totals[de] else de
    if last_stand and t.plan.last_stand_slip_rate and rng.random() < \
            t.plan.last_stand_slip_rate and (totals[att] > totals[de] - extra) == (winner == att):
        declared[de] -= extra  # the planted slip: the Last Stand's +1 forgotten
        t.plant("GAU-LASTSTAND-BONUS")
    act.mark(r, "declare", value="battle-winner", fields={
        "winner": winner, "attacker_total": declared[att], "defender_total": declared[de],
        "attacker_die": dice[att], "defender_die": dice[de]}, seat=att)
    _result(t, run, att, de, pos, winner, last_stand)
    _cleanup(t, att, de, pos)
    act.mark(r, "declare", value="battle-close", seat=att)
    if winner == att and last_stand:
        run.over = att
    if t.groups.get(winner) == "Military" and run.wins.get(winner) != number:
        command = t.r.state.objs[f"p{winner}.command"].counters.get("value", 0)
        if command < int(t.module.rules.get("command_max", 2)):
            act.counter(r, f"p{winner}.command", add=1, seat=winner)
    run.wins[winner] = number


def _battle_hand(t: Table, seat: int, pos: int) -> None:
    """Three cards from the Draw Pile into the Battle Hand (four at Whispering Wood; the
    Discard Pile forms a new Draw Pile when it cannot complete the draw)."""
    terr = _territory(t, pos)
    text = t.card(terr).text if terr is not None and t.card(terr) is not None else ""
    want = int(t.module.rules.get("battle_hand", 3)) + ("Battle Hands formed here" in text)
    deck, discard = f"p{seat}.deck", f"p{seat}.discard"
    have = min(want, len(cards_in(t.r, deck)))
    if have:
        act.draw(t.r, deck, f"p{seat}.battle-hand", have, seat=seat)
    if have < want and cards_in(t.r, discard):
        act.move_all(t.r, discard, deck, shuffle=True, seat=seat)
        act.draw(t.r, deck, f"p{seat}.battle-hand", min(want - have, len(cards_in(t.r, deck))),
                 seat=seat)


def _result(t: Table, run: Run, att: int, de: int, pos: int, winner: int,
            last_stand: bool) -> None:
    loser = de if winner == att else att
    if last_stand:
        if winner == de:  # back to the final Territory
            act.move(t.r, f"p{att}.token", _slots(t)[pos - _toward(t, att)], seat=att)
        return
    back = pos - _toward(t, loser)
    act.move(t.r, f"p{loser}.token", _slots(t)[back], seat=loser)
    if loser == de and back == _pos_off(t, de):
        act.mark(t.r, "declare", value="forced-beyond", fields={"seat": de}, seat=de)


def _cleanup(t: Table, att: int, de: int, pos: int) -> None:
    """Commits to their owners' Graveyards (Discard Piles where the Territory says so: Sunken
    Quarry), Battle Hand cards to the Discard Piles (a chosen one to the Graveyard against the
    Inquisition)."""
    terr = _territory(t, pos)
    text = t.card(terr).text if terr is not None and t.card(terr) is not None else ""
    commit_to = "discard" if "committed from hand here go to the Discard Pile" in text \
        else "graveyard"
    for s in (att, de):
        other = de if s == att else att
        choice_to = "graveyard" if t.groups.get(other) == "Inquisition" else "discard"
        for zone, dest in (("commit", commit_to), ("battle-choice", choice_to),
                           ("battle-hand", "discard")):
            for h in list(cards_in(t.r, f"p{s}.{zone}")):
                act.move(t.r, h, f"p{s}.{dest}", face_up=True, seat=s)
