"""Generated playtest sessions: hot-seat tables of a game module played by a scripted "player".

For tests, the report benchmark and demos. Each session sets a game up with `new_table`, then
plays turns through `table.core.actions` as a person at the table would: the active seat marks
its turn and the phases, draws, plays cards from hand face up, rolls dice, moves counters,
sometimes undoes a move or writes a designer note, and the session ends with a winner. Times are
simulated (a few seconds to a minute per action), so the report's durations look like real play.
Deterministic for a given seed.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from table.core import actions as act
from table.core import undoing
from table.core.errors import CoreError
from table.core.objects import PUBLIC
from table.core.replica import Replica
from table.core.rng import Rng

NOTES = ["rule unclear here", "is this card too strong?", "we forgot the upkeep step",
         "timing of this effect is ambiguous", "turn felt too long", "nice combo"]
_PLAY_ZONES = ("play", "assets", "accessories", "supplemental", "pacts")


class SessionClock:
    """A generated session's clock: each op a random `gaps` seconds after the one before."""

    def __init__(self, start: float, rnd: random.Random,
                 gaps: tuple[float, float] = (2.0, 45.0)) -> None:
        self.now, self.rnd, self.gaps = start, rnd, gaps

    def __call__(self) -> float:
        self.now += self.rnd.uniform(*self.gaps)
        return self.now


def _zone(r: Replica, seat: int, names: tuple[str, ...]) -> str | None:
    for name in names:
        obj = r.state.live(f"p{seat}.{name}")
        if obj is not None:
            return obj.id
    return None


def _cards(r: Replica, zone_id: str | None) -> list[str]:
    if zone_id is None or r.state.live(zone_id) is None:
        return []
    return r.state.cards_in(zone_id)


def _public_play_zone(r: Replica, seat: int) -> str | None:
    for name in _PLAY_ZONES:
        obj = r.state.live(f"p{seat}.{name}")
        if obj is not None and obj.visibility == PUBLIC and obj.kind == "zone":
            return obj.id
    return None


def play_session(module: Any, seats: int, seed: int, log_path: str | Path, *,
                 turns: int | None = None, start_time: float = 0.0,
                 favour: Callable[[int, Replica], float] | None = None,
                 note_rate: float = 0.04, loaded: tuple[int, float] | None = None) -> Replica:
    """Play one scripted session of `module` and log it to `log_path`. Returns the replica.

    `favour(seat, replica)` weights each seat's chance to win (default: the seat's group index
    nudges it, so reports over many sessions show a faction that wins more often).
    `loaded` = (seat, chance of a six): that seat's dice are loaded (the other faces equally
    likely), for tests that must find the session and the seat.
    """
    from table.games.setup import default_decks, new_table

    rnd = random.Random(seed)
    names = sorted(module.starter_decks)
    decks = {s: module.starter_decks[rnd.choice(names)] for s in range(1, seats + 1)} \
        if names else None
    replica = new_table(module, seats, decks, rng=Rng(seed), log_path=log_path,
                        peer_id=f"hotseat{seed % 1000:03d}")
    setup_end = replica.records()[-1].op.time if replica.records() else start_time
    replica.clock = SessionClock(setup_end, rnd)
    phases = [str(p) for p in (module.rules.get("phases") or ["Start", "Main", "End"])]
    dice = [o.id for o in replica.state.objs.values() if o.kind == "die" and o.alive]
    counters = [o.id for o in replica.state.objs.values() if o.kind == "counter" and o.alive]
    order = sorted(replica.state.seats)
    first = replica.state.turn.get("seat") or order[0]
    start = order.index(first) if first in order else 0
    order = order[start:] + order[:start]
    total = turns if turns is not None else rnd.randint(5, 11) * len(order) // 2 + 2
    chosen = decks or default_decks(module, seats)
    for t in range(total):
        seat = order[t % len(order)]
        if t:  # the setup marked the first player's turn already
            act.mark(replica, "turn", for_seat=seat, seat=seat)
        for phase in phases:
            act.mark(replica, "phase", value=phase, seat=seat)
            _phase_actions(replica, rnd, seat, phase, phases, dice, counters, note_rate,
                           loaded)
    weights = []
    for s in order:
        deck = chosen.get(s)
        group = module.deck_group(deck) if deck is not None else None
        index = module.groups.index(group) if group in module.groups else 0
        bias = favour(s, replica) if favour is not None else 1.0 + 0.35 * (index % 3)
        weights.append(bias * (1.25 if s == order[0] else 1.0))
    winner = rnd.choices(order, weights)[0]
    act.mark(replica, "winner", value=winner, seat=winner)
    replica.close()
    return replica


def _roll(r: Replica, rnd: random.Random, seat: int, loaded: tuple[int, float] | None, *,
          die_id: str | None = None, count: int = 1, why: str) -> None:
    if loaded is None or loaded[0] != seat:
        act.roll(r, die_id=die_id, sides=6, count=count, seat=seat, why=why)
        return
    values = [6 if rnd.random() < loaded[1] else rnd.randint(1, 5) for _ in range(count)]
    args: dict[str, Any] = {"sides": 6, "values": values, "local": True, "why": why}
    if die_id is not None:
        args["id"] = die_id
    r.issue("roll", args, seat=seat)


def _phase_actions(r: Replica, rnd: random.Random, seat: int, phase: str, phases: list[str],
                   dice: list[str], counters: list[str], note_rate: float,
                   loaded: tuple[int, float] | None = None) -> None:
    index = phases.index(phase)
    try:
        if index == 0 or "draw" in phase.lower() or "dawn" in phase.lower():
            deck = _zone(r, seat, ("deck",))
            hand = _zone(r, seat, ("hand",))
            if deck and hand and _cards(r, deck):
                act.draw(r, deck, hand, rnd.choice((1, 1, 2)), seat=seat)
        if index == len(phases) // 2 or "action" in phase.lower() or phase == "Main":
            hand, dest = _zone(r, seat, ("hand",)), _public_play_zone(r, seat)
            for _ in range(rnd.choice((0, 1, 1, 2, 3))):
                held = _cards(r, hand)
                if not held or dest is None:
                    break
                act.move(r, rnd.choice(held), dest, face_up=True, seat=seat)
            if dice and rnd.random() < 0.5:
                _roll(r, rnd, seat, loaded, die_id=rnd.choice(dice), why="battle")
            elif rnd.random() < 0.4:
                _roll(r, rnd, seat, loaded, count=rnd.choice((1, 2)), why="effect")
            own = [c for c in counters if c.startswith(f"p{seat}.")] or counters
            if own and rnd.random() < 0.7:
                act.counter(r, rnd.choice(own), add=rnd.choice((-1, 1, 1, 2)), seat=seat)
            if rnd.random() < 0.08:
                undoing.undo_last(r, seat=seat)
        if index == len(phases) - 1:
            played = _public_play_zone(r, seat)
            discard = _zone(r, seat, ("discard", "graveyard"))
            cards = _cards(r, played)
            if cards and discard and rnd.random() < 0.5:
                act.move(r, cards[0], discard, face_up=True, seat=seat)
        if rnd.random() < note_rate:
            r.issue("note", {"text": rnd.choice(NOTES)}, seat=seat)
    except CoreError:
        pass  # a move the scripted player cannot make is simply skipped, as a person would


def generate(module: Any, count: int, folder: str | Path, *, seed: int = 1,
             seats: int | None = None, prefix: str | None = None, turns: int | None = None,
             loaded: dict[int, tuple[int, float]] | None = None) -> list[Path]:
    """`count` sessions of `module` in `folder` (seat counts vary over the module's range);
    `loaded`: session index -> (seat, chance of a six) for the sessions with a loaded die."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    lo, hi = module.players.min, min(module.players.max, 4)
    for i in range(count):
        n = seats if seats is not None else lo + (seed + i) % (hi - lo + 1)
        path = folder / f"{prefix or module.id}-{seed + i:04d}.sandlog"
        play_session(module, n, seed * 1000 + i, path, turns=turns,
                     loaded=(loaded or {}).get(i))
        out.append(path)
    return out
