"""A corpus of playtest sessions played *legally* by scripted players, with planted effects.

Unlike `simulate` (which exercises the log and breaks rules on purpose), every session here is a
hot-seat table of a built-in module where each seat does only what its rulebook allows (the
rules assist raises nothing), and the corpus plants effects whose true size is known, so the
report can be checked against them:

- a stronger group: `Plan.strong_group` wins `strong_weight` times as often as the others;
- a seat-order advantage at one player count: the seat playing `order_edge[1]`-th at a table
  of `order_edge[0]` seats wins `order_weight` times as often (other counts stay fair);
- a loaded die: in `loaded_game`, free rolls come up 6 with probability `loaded_six`;
- rule slips at known rates: in a session, with probability `slip_rate`, one seat skips the
  hand limit once (the assist flags GAU-HAND-LIMIT / MAN-HAND-LIMIT; in Dead to Rites the Dawn's
  Favor is forgotten once, DTR-DAWN-INCOME); with `income_slip_rate` a Mantle seat draws a
  second card at Income once (MAN-INCOME, and nothing else: the extra draw is not an action);
  with `dusk_slip_rate` a Dead to Rites Dusk leaves a Champion's combat damage on it once
  (DTR-DAMAGE-CLEAR-DUSK), often the last Dusk before the game's end. These are the only flags
  planted, and `Truth.planted` counts each;
- the Dead to Rites players pay every card's cost from their Favor before it enters play, and
  fight: a ready Champion attacks an opponent's, both take the other's Power (never a kill),
  the target strikes back, Dusk clears the damage and the attacker readies at its next Dawn;
- a Draw Pile that runs out is refilled from the Discard Pile, in one gesture or card by card
  and then shuffled (both are the refill);
- endings: most sessions end with an `end` op (the time limit, or a concession);
  `unfinished_rate` of them stop without one.

Deterministic for a seed. `scripts/make_corpus.py` writes one; the report tests build a small
one in a fixture and the report benchmark a large one.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from table.bench.simulated_sessions import SessionClock
from table.core import actions as act
from table.core.replica import Replica
from table.core.rng import Rng

GAMES = ("gauntlet", "mantle-of-the-keeper", "dead-to-rites")


@dataclass(frozen=True, slots=True)
class Plan:
    """The effects planted in a corpus (their true sizes, for the tests to recover)."""
    strong_group: dict[str, str] = field(default_factory=lambda: {
        "gauntlet": "Military", "dead-to-rites": "Grave Choir"})
    strong_weight: float = 2.5
    order_edge: dict[str, tuple[int, int]] = field(default_factory=lambda: {
        "mantle-of-the-keeper": (3, 3)})  # game -> (player count, seat order position)
    order_weight: float = 6.0
    loaded_game: str = "dead-to-rites"
    loaded_six: float = 0.35
    slip_rate: float = 0.2
    income_slip_rate: float = 0.2
    dusk_slip_rate: float = 0.25
    last_dusk_share: float = 0.3  # of the Dusk slips, planted at the last Dusk before the end
    unfinished_rate: float = 0.05
    concession_rate: float = 0.1


@dataclass(slots=True)
class Truth:
    """What was planted in one session (for tests), beside what its log says."""
    path: Path
    game: str
    seats: int
    groups: dict[int, str]
    order: list[int]
    winner: int | None
    slipped: bool
    how: str
    planted: dict[str, int] = field(default_factory=dict)  # rule -> slips planted (all kinds)


def _cards_in(r: Replica, zone: str) -> list[str]:
    return r.state.cards_in(r.state.live(zone))


def _card_id(r: Replica, handle: str) -> str | None:
    obj = r.state.objs.get(handle)
    return (obj.card if obj is not None and obj.card else None) or r.knowledge.card_of(handle)


class Table:
    """One session being played: the replica, its module, the seats in turn order."""

    def __init__(self, module: Any, seats: int, seed: int, path: Path, plan: Plan,
                 rnd: random.Random, start_time: float) -> None:
        from table.games.setup import new_table

        self.module, self.plan, self.rnd = module, plan, rnd
        names = sorted(module.starter_decks)
        picks = rnd.sample(names, seats) if len(names) >= seats else \
            [rnd.choice(names) for _ in range(seats)]  # each Chosen / Crown / faction once
        self.decks = {s: module.starter_decks[name] for s, name in enumerate(picks, start=1)}
        self.r = new_table(module, seats, self.decks, rng=Rng(seed), log_path=path,
                           peer_id=f"hotseat{seed % 10000:04d}")
        last = self.r.records()[-1].op.time if self.r.records() else start_time
        self.r.clock = SessionClock(max(last, start_time), rnd, gaps=(3.0, 40.0))
        order = sorted(self.r.state.seats)
        first = self.r.state.turn.get("seat") or order[0]
        index = order.index(first)
        self.order = order[index:] + order[:index]
        self.groups = {s: module.deck_group(d) or "?" for s, d in self.decks.items()}
        self.slip_seat: int | None = None
        self.income_slip: int | None = None  # the turn number of Mantle's extra Income draw
        self.dusk_slip: int | None = None  # from this turn on, the next Dusk with damage slips
        self.dusk_slipped_at: int | None = None
        self.planted: dict[str, int] = {}
        # the fights, refills and slips draw from a generator of their own, so the choices
        # the older plantings make (and so their sessions' results) stay as they were
        self.extra = random.Random(seed ^ 0x5EED)

    def plant(self, rule: str) -> None:
        self.planted[rule] = self.planted.get(rule, 0) + 1

    def card(self, handle: str) -> Any:
        card_id = _card_id(self.r, handle)
        return self.module.cards.get(card_id) if card_id else None

    def hand(self, seat: int) -> list[str]:
        return _cards_in(self.r, f"p{seat}.hand")

    def draw(self, seat: int, count: int = 1) -> None:
        """Draw `count` cards; a Draw Pile emptied is formed again from the Discard Pile at
        once (Mantle's rule; harmless elsewhere, where the corpus's decks never run out)."""
        deck, discard = f"p{seat}.deck", f"p{seat}.discard"
        for _ in range(count):
            if not _cards_in(self.r, deck):
                return
            act.draw(self.r, deck, f"p{seat}.hand", 1, seat=seat)
            if not _cards_in(self.r, deck) and _cards_in(self.r, discard):
                self.refill(seat)

    def refill(self, seat: int) -> None:
        """The Discard Pile becomes the Draw Pile: one gesture, or card by card then shuffled."""
        deck, discard = f"p{seat}.deck", f"p{seat}.discard"
        if self.extra.random() < 0.5:
            act.move_all(self.r, discard, deck, shuffle=True, seat=seat)
            return
        while _cards_in(self.r, discard):
            act.move(self.r, _cards_in(self.r, discard)[-1], deck, seat=seat)
        act.shuffle(self.r, deck, seat=seat, now=True)

    def discard_to(self, seat: int, limit: int, to: str = "discard") -> int:
        """Discard down to the hand limit (the slip: once, the slipping seat forgets)."""
        if self.slip_seat == seat and len(self.hand(seat)) > limit:
            self.slip_seat = None
            return 0
        dropped = 0
        while len(self.hand(seat)) > limit:
            act.move(self.r, self.hand(seat)[0], f"p{seat}.{to}", face_up=True, seat=seat)
            dropped += 1
        return dropped

    def roll(self, seat: int, why: str) -> None:
        if self.module.id != self.plan.loaded_game:
            value = self.rnd.randint(1, 6)
        else:  # 6 with probability loaded_six, the other faces equally likely
            value = 6 if self.rnd.random() < self.plan.loaded_six else self.rnd.randint(1, 5)
        self.r.issue("roll", {"sides": 6, "values": [value], "why": why}, seat=seat)


Turn = Callable[[Table, int, int], None]  # (table, seat, turn number)


def _gauntlet_turn(t: Table, seat: int, number: int) -> None:
    rules = t.module.rules
    for phase in rules["phases"]:
        act.mark(t.r, "phase", value=phase, seat=seat)
        if phase == "Draw":
            t.draw(seat, int(rules.get("draw_per_turn", 1)))
        elif phase == "Action (before)":
            actions = [h for h in t.hand(seat) if (c := t.card(h)) is not None
                       and c.type == "Action"]
            if actions and t.rnd.random() < 0.7:
                act.move(t.r, t.rnd.choice(actions), f"p{seat}.discard", face_up=True,
                         seat=seat)
        elif phase == "Cleanup":
            t.discard_to(seat, int(rules.get("hand_limit", 3)))


def _dtr_turn(t: Table, seat: int, number: int) -> None:
    for phase in t.module.rules["phases"]:
        act.mark(t.r, "phase", value=phase, seat=seat)
        if phase == "Dawn":
            for champion in _champions(t, seat):  # ready at your Dawn
                if t.r.state.objs[champion].rotation % 360:
                    act.rotate(t.r, champion, 0, seat=seat)
            if t.slip_seat == seat:  # the planted slip: this Dawn's Favor is forgotten
                t.slip_seat = None
            else:
                act.counter(t.r, f"p{seat}.favor", add=1, seat=seat)
            t.draw(seat, 1)
        elif phase == "Combat":
            _dtr_fight(t, seat)
        elif phase == "Dusk":
            _dtr_dusk(t, seat, number)
        elif phase == "Main":
            favor = t.r.state.objs[f"p{seat}.favor"].counters.get("value", 0)
            champions = [h for h in t.hand(seat) if (c := t.card(h)) is not None
                         and c.type == "Champion" and 0 < c.number("cost") <= favor]
            if champions and t.rnd.random() < 0.8:
                handle = t.rnd.choice(champions)
                cost = t.card(handle).number("cost")
                act.counter(t.r, f"p{seat}.favor", add=-cost, seat=seat)
                act.move(t.r, handle, f"p{seat}.play", face_up=True, seat=seat)
            if t.rnd.random() < 0.6:
                t.roll(seat, "effect")


def _champions(t: Table, seat: int) -> list[str]:
    return [h for h in _cards_in(t.r, f"p{seat}.play")
            if (c := t.card(h)) is not None and c.type == "Champion"]


def _damage(t: Table, handle: str) -> int:
    return t.r.state.objs[handle].counters.get("damage", 0)


def _dtr_fight(t: Table, seat: int) -> None:
    """One attack, if a fair one is there: a ready Champion that did not enter this turn on an
    opponent's undamaged Champion, neither blow a kill; then the strike back."""
    turn_start = max(i for i, rec in enumerate(t.r.records())
                     if rec.op.kind == "mark" and rec.op.args.get("what") == "turn") \
        if t.r.records() else 0
    entered = {rec.op.args.get("id") for rec in t.r.records()[turn_start:]
               if rec.op.kind == "move"}
    ready = [h for h in _champions(t, seat) if t.r.state.objs[h].rotation % 360 == 0
             and h not in entered and not t.card(h).flag("cant_attack") and not _damage(t, h)]
    foes = [h for s in t.order if s != seat for h in _champions(t, s) if not _damage(t, h)]
    pairs = [(a, f) for a in ready for f in foes
             if t.card(a).number("power") < t.card(f).number("guard")
             and t.card(f).number("power") < t.card(a).number("guard")
             and not t.card(a).flag("poison") and not t.card(f).flag("poison")]
    if not pairs or t.extra.random() < 0.3:
        return
    attacker, target = t.extra.choice(pairs)
    r = t.r
    act.mark(r, "declare", value="attack", fields={"attacker": attacker, "target": target},
             seat=seat)
    act.rotate(r, attacker, 90, seat=seat)
    act.counter(r, target, key="damage", add=t.card(attacker).number("power"), seat=seat)
    foe = r.state.objs[target].owner
    act.mark(r, "declare", value="strike-back", fields={"target": target, "attacker": attacker},
             seat=foe)
    strike = t.card(target).number("power")
    if strike:
        act.counter(r, attacker, key="damage", add=strike, seat=foe)


def _dtr_dusk(t: Table, seat: int, number: int) -> None:
    """Damage clears at Dusk (the slip: once, one damaged Champion keeps it)."""
    damaged = [h for s in t.order for h in _champions(t, s) if _damage(t, h)]
    if damaged and t.dusk_slip is not None and number >= t.dusk_slip:
        t.dusk_slip, t.dusk_slipped_at = None, number
        damaged = damaged[1:]
    for handle in damaged:
        act.counter(t.r, handle, key="damage", value=0, seat=seat)


# Mantle's arena at the start (as the assist's own tests lay it out): five Hazards (a Rift pair
# counts as one) and each Chosen on its own Rym tile, clear of Obstructions
_MANTLE_HAZARDS = {"tremor-1": (0, 4), "surge-1": (9, 4), "breach-1": (0, 9), "rift-1": (0, 0),
                   "rift-2": (9, 9), "tremor-2": (8, 8)}
# each Chosen on its own Rym tile, at the centre: 1 and 2 side by side, 3 and 4 side by side
_MANTLE_STANDEES = {1: (4, 3), 2: (5, 3), 3: (4, 6), 4: (5, 6)}
_MANTLE_FOES = {1: 2, 2: 1, 3: 4, 4: 3}  # the adjacent Chosen each one attacks


def _mantle_start(t: Table) -> None:
    for token, cell in _MANTLE_HAZARDS.items():
        act.move(t.r, token, "arena", pos=list(cell), seat=t.order[0])
    for seat in t.order:
        act.move(t.r, f"p{seat}.standee", "arena", pos=list(_MANTLE_STANDEES[seat]), seat=seat)
    act.mark(t.r, "turn", for_seat=t.order[0], seat=t.order[0])


def _basic(t: Table, seat: int, value: str) -> str | None:
    """A Basic card in `seat`'s hand with an attack (or defense) value, if any."""
    found = [h for h in t.hand(seat) if (c := t.card(h)) is not None and c.type == "Basic"
             and c.number(value) > 0]
    return t.rnd.choice(found) if found else None


def _mantle_attack(t: Table, seat: int) -> bool:
    """An attack on the adjacent Chosen, defended or not, with the damage and Favor the
    rules give; never a lethal one (the corpus keeps every Chosen in the game)."""
    foe = _MANTLE_FOES[seat]
    if foe not in t.order:
        return False
    card = _basic(t, seat, "attack")
    if card is None:
        return False
    rules, r = t.module.rules, t.r
    attack = t.card(card).number("attack")
    if r.state.objs[f"p{foe}.health"].counters.get("value", 0) <= attack:
        return False  # a blow that could end the Chosen is not scripted
    act.mark(r, "declare", value="attack", fields={"target": foe, "card": t.card(card).name},
             seat=seat)
    act.move(r, card, f"p{seat}.discard", face_up=True, seat=seat)
    block = _basic(t, foe, "defense") if t.rnd.random() < 0.5 else None
    defense = 0
    if block is not None:
        defense = t.card(block).number("defense")
        act.mark(r, "declare", value="defense", fields={"card": t.card(block).name}, seat=foe)
        act.move(r, block, f"p{foe}.discard", face_up=True, seat=foe)
    damage = max(0, attack - defense)
    if damage:
        act.counter(r, f"p{foe}.health", add=-damage, seat=seat)
        act.counter(r, f"p{seat}.favor", add=damage * int(rules.get("favor_per_damage", 1)),
                    seat=seat)
    elif block is not None:
        act.counter(r, f"p{foe}.favor", add=int(rules.get("full_defense_bonus", 2)), seat=foe)
    return True


def _mantle_turn(t: Table, seat: int, number: int) -> None:
    """Income (1 Favor, 1 card); two actions (an attack on the adjacent Chosen, draws); End of
    turn: discard to 6 for Favor."""
    rules = t.module.rules
    for phase in rules["phases"]:
        act.mark(t.r, "phase", value=phase, seat=seat)
        if phase == "Income":
            act.counter(t.r, f"p{seat}.favor", add=1, seat=seat)
            t.draw(seat, 1)
            if t.income_slip is not None and number >= t.income_slip and _cards_in(
                    t.r, f"p{seat}.deck"):  # the planted slip: a second card at Income
                t.income_slip = None
                t.plant("MAN-INCOME")
                t.draw(seat, 1)
        elif phase == "Action":
            actions = 2
            if t.rnd.random() < 0.6 and _mantle_attack(t, seat):
                actions -= 1
            for _ in range(t.rnd.choice(range(1, actions + 1))):
                t.draw(seat, 1)
        elif phase == "End of turn":
            dropped = t.discard_to(seat, int(rules.get("hand_limit", 6)))
            if dropped:
                per = int(rules.get("favor_per_hand_limit_discard", 1))
                act.counter(t.r, f"p{seat}.favor", add=dropped * per, seat=seat)


_SLIP_RULES = {"gauntlet": "GAU-HAND-LIMIT", "mantle-of-the-keeper": "MAN-HAND-LIMIT",
               "dead-to-rites": "DTR-DAWN-INCOME"}
_TURNS: dict[str, Turn] = {"gauntlet": _gauntlet_turn, "dead-to-rites": _dtr_turn,
                           "mantle-of-the-keeper": _mantle_turn}
_STARTS: dict[str, Callable[[Table], None]] = {"mantle-of-the-keeper": _mantle_start}


def play(module: Any, seats: int, seed: int, path: Path, plan: Plan,
         start_time: float = 1.7e9) -> Truth:
    """Play one legal session of `module` with the planted effects; log it to `path`."""
    rnd = random.Random(seed)
    t = Table(module, seats, seed, path, plan, rnd, start_time)
    slipped = rnd.random() < plan.slip_rate
    if slipped:
        t.slip_seat = rnd.choice(t.order)
    turn = _TURNS[module.id]
    if module.id in _STARTS:
        _STARTS[module.id](t)
    rounds = rnd.randint(3, 6)
    turns = rounds * len(t.order)
    more = t.extra
    if module.id == "mantle-of-the-keeper" and more.random() < plan.income_slip_rate:
        t.income_slip = more.randrange(turns)
    if module.id == "dead-to-rites" and more.random() < plan.dusk_slip_rate:
        t.dusk_slip = turns - 1 if more.random() < plan.last_dusk_share else \
            more.randrange(turns)
    for number in range(turns):
        seat = t.order[number % len(t.order)]
        if number:
            act.mark(t.r, "turn", for_seat=seat, seat=seat)
        turn(t, seat, number)
    winner, how = _finish(t, plan, rnd)
    t.r.close()
    if slipped and t.slip_seat is None:
        t.plant(_SLIP_RULES[module.id])
    if t.dusk_slipped_at is not None and not (how == "unfinished"
                                              and t.dusk_slipped_at == turns - 1):
        t.plant("DTR-DAMAGE-CLEAR-DUSK")  # a last Dusk that nothing ends is never closed
    return Truth(path, module.id, seats, dict(t.groups), list(t.order), winner,
                 slipped and t.slip_seat is None, how, dict(t.planted))


def _finish(t: Table, plan: Plan, rnd: random.Random) -> tuple[int | None, str]:
    if rnd.random() < plan.unfinished_rate:
        return None, "unfinished"
    weights = []
    strong = plan.strong_group.get(t.module.id)
    edge = plan.order_edge.get(t.module.id)
    for position, seat in enumerate(t.order, start=1):
        w = plan.strong_weight if t.groups[seat] == strong else 1.0
        if edge is not None and edge == (len(t.order), position):
            w *= plan.order_weight
        weights.append(w)
    winner = rnd.choices(t.order, weights)[0]
    # the scripted players never reach a victory condition, so the table stops at its time
    # limit and names the winner (drawn by the planted odds), or the others concede
    how = "concession" if rnd.random() < plan.concession_rate else "time"
    act.end_game(t.r, [winner], how, seat=winner, text="scripted corpus session")
    return winner, how


def generate(folder: str | Path, count: int, *, seed: int = 1, plan: Plan | None = None,
             games: tuple[str, ...] = GAMES) -> list[Truth]:
    """`count` sessions spread over `games` (player counts over each module's range)."""
    from table.games import find_module

    plan = plan or Plan()
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    modules = [find_module(g) for g in games]
    out = []
    for i in range(count):
        module = modules[i % len(modules)]
        lo, hi = module.players.min, min(module.players.max, 4)
        seats = lo + (i // len(modules)) % (hi - lo + 1)
        path = folder / f"{module.id}-{seed:03d}-{i:05d}.sandlog"
        out.append(play(module, seats, seed * 100_000 + i, path, plan,
                        start_time=1.7e9 + i * 7200.0))
    return out
