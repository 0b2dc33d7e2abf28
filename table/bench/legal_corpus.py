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
  `unfinished_rate` of them stop without one;
- the designer's questions (`corpus_plan.DESIGNER`): two drafts of one game, the stronger group
  stronger in draft A only (draft B is the more balanced); playtest groups (a tag op per
  session) with the loaded die at one group's tables only; the Dawn's Favor forgotten at a
  known rate per Dawn (slips per occasion); cards the players hold and never play (dead cards).

The plan and each session's truth are in `corpus_plan`, a session's table and shared moves in
`corpus_table`, each game's scripted turn in `corpus_turns`.

Deterministic for a seed. `scripts/make_corpus.py` writes one; the report tests build a small
one in a fixture and the report benchmark a large one.
"""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from table.bench import corpus_gauntlet, corpus_ritual
from table.bench.corpus_plan import Plan, Truth
from table.bench.corpus_table import Table
from table.bench.corpus_turns import STARTS, TURNS
from table.core import actions as act

__all__ = ["GAMES", "Plan", "Truth", "generate", "play"]

GAMES = ("gauntlet", "mantle-of-the-keeper", "dead-to-rites")


_SLIP_RULES = {"gauntlet": "GAU-HAND-LIMIT", "mantle-of-the-keeper": "MAN-HAND-LIMIT",
               "dead-to-rites": "DTR-DAWN-INCOME"}
_RUN_WON = "Ran the Gauntlet (won the Last Stand)"


def play(module: Any, seats: int, seed: int, path: Path, plan: Plan,
         start_time: float = 1.7e9, *, group: str = "", draft: str = "") -> Truth:
    """Play one legal session of `module` with the planted effects; log it to `path`.
    `group`: its playtest group (said in a tag op); `draft`: "A" or "B" in the plan's draft
    game (`module` is then that draft's)."""
    rnd = random.Random(seed)
    t = Table(module, seats, seed, path, plan, rnd, start_time, group)
    if group:
        act.tag(t.r, group=group)
    slipped = rnd.random() < plan.slip_rate
    if slipped:
        t.slip_seat = rnd.choice(t.order)
        if module.id == "dead-to-rites" and plan.dawn_slips:
            slipped, t.slip_seat = False, None  # the slips at a rate per Dawn replace it
    turn = TURNS[module.id]
    if module.id in STARTS:
        STARTS[module.id](t)
    rounds = rnd.randint(3, 6)
    turns = rounds * len(t.order)
    more = t.extra
    if module.id == "mantle-of-the-keeper" and more.random() < plan.income_slip_rate:
        t.income_slip = more.randrange(turns)
    if module.id == "dead-to-rites" and more.random() < plan.dusk_slip_rate:
        t.dusk_slip = turns - 1 if more.random() < plan.last_dusk_share else \
            more.randrange(turns)
    if module.id == "dead-to-rites" and t.slips.random() < plan.play_slip_rate:
        t.play_slip = t.slips.randrange(turns)
    if module.id == "gauntlet":
        t.run = corpus_gauntlet.plan_run(t)
        if t.run is not None:  # a run takes the runner seven turns at least: a longer game
            turns = max(turns, len(t.order) * (8 + t.run.rng.randint(0, 4)))
    noting = random.Random(seed ^ 0x0E7E)
    for number in range(turns):
        seat = t.order[number % len(t.order)]
        if number:
            act.mark(t.r, "turn", for_seat=seat, seat=seat)
        turn(t, seat, number)
        if plan.notes and noting.random() < plan.note_rate:
            t.r.issue("note", {"text": noting.choice(plan.notes)}, seat=seat)
        if t.run is not None and t.run.over is not None:
            break
    if t.run is not None and t.run.over is not None:
        winner, how = t.run.over, "victory"  # the Last Stand won: the Gauntlet is run
        act.end_game(t.r, [winner], how, condition=_RUN_WON, seat=winner,
                     text="scripted corpus session")
    else:
        winner, how = _finish(t, plan, rnd, draft)
    if how == "unfinished" and module.id == "dead-to-rites" and \
            t.slips.random() < plan.last_play_slip_rate and \
            corpus_ritual.unpaid_play(t, t.order[(turns - 1) % len(t.order)]) is not None:
        t.plant("DTR-PLAY-COST")  # the session stops on a play nothing was paid for
    t.r.close()
    if slipped and t.slip_seat is None:
        t.plant(_SLIP_RULES[module.id])
    if t.dusk_slipped_at is not None:
        t.plant("DTR-DAMAGE-CLEAR-DUSK")  # the last Dusk too: the end of the log closes it
    return Truth(path, module.id, seats, dict(t.groups), list(t.order), winner,
                 slipped and t.slip_seat is None, how, dict(t.planted), draft, group,
                 dict(t.occasions))


def _finish(t: Table, plan: Plan, rnd: random.Random, draft: str = "") -> tuple[int | None, str]:
    if rnd.random() < plan.unfinished_rate:
        return None, "unfinished"
    weights = []
    # the stronger group is stronger in draft A only: draft B is balanced
    strong = None if draft == "B" else plan.strong_group.get(t.module.id)
    weight = plan.draft_weight if draft == "A" else plan.strong_weight
    edge = plan.order_edge.get(t.module.id)
    for position, seat in enumerate(t.order, start=1):
        w = weight if t.groups[seat] == strong else 1.0
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
    import tempfile

    from table.games import find_module

    plan = plan or Plan()
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    modules = [find_module(g) for g in games]
    out = []
    with tempfile.TemporaryDirectory(prefix="sandtable-drafts-") as drafts:
        draft_b = _draft_b(plan, modules, Path(drafts))
        for i in range(count):
            module = modules[i % len(modules)]
            lo, hi = module.players.min, min(module.players.max, 4)
            seats = lo + (i // len(modules)) % (hi - lo + 1)
            draft = ""
            if module.id == plan.draft_game:
                draft = "B" if (i // len(modules)) % 2 else "A"
                module = draft_b if draft == "B" else module
            group = plan.groups[random.Random(f"{seed}/{i}").randrange(len(plan.groups))] \
                if plan.groups else ""
            path = folder / f"{module.id}-{seed:03d}-{i:05d}.sandlog"
            out.append(play(module, seats, seed * 100_000 + i, path, plan,
                            start_time=1.7e9 + i * 7200.0, group=group, draft=draft))
    return out


def _draft_b(plan: Plan, modules: list[Any], folder: Path) -> Any:
    """The plan's draft B: its game's module with the version bumped and a rule changed."""
    base = next((m for m in modules if m.id == plan.draft_game), None)
    if base is None:
        return None
    from table.bench.drafts import draft_of

    return draft_of(base, folder)
