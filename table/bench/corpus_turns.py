"""How the legal corpus's scripted players play a turn of each built-in game, doing only what
its rulebook allows (and the planted slips); TURNS and STARTS name them by game."""
from __future__ import annotations

from collections.abc import Callable

from table.bench import corpus_gauntlet, corpus_ritual
from table.bench.corpus_table import Table, cards_in
from table.core import actions as act

Turn = Callable[[Table, int, int], None]  # (table, seat, turn number)


def _gauntlet_turn(t: Table, seat: int, number: int) -> None:
    rules = t.module.rules
    run = t.run
    for phase in rules["phases"]:
        act.mark(t.r, "phase", value=phase, seat=seat)
        if run is not None and phase == "Capture":
            corpus_gauntlet.capture(t, seat)
        elif run is not None and phase == "Movement":
            corpus_gauntlet.movement(t, run, seat, number)
            if run.over is not None:
                return  # the Last Stand won: the game is over
        elif phase == "Draw":
            t.draw(seat, int(rules.get("draw_per_turn", 1)))
        elif phase == "Action (before)":
            actions = [h for h in t.hand(seat) if (c := t.card(h)) is not None
                       and c.type == "Action" and t.playable(h)]
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
            at_cap = corpus_ritual.counter(t, f"p{seat}.favor") >= \
                corpus_ritual.seat_number(t, seat, "favor_cap", 6)
            if at_cap:  # a Dawn at the cap gains nothing: an occasion with nothing to forget
                t.occasion("DTR-DAWN-INCOME")
            elif not t.forgets_dawn(seat):  # the planted slips: this Dawn's Favor forgotten
                act.counter(t.r, f"p{seat}.favor", add=1, seat=seat)  # up to the cap only
            t.draw(seat, 1)
        elif phase == "Combat":
            _dtr_fight(t, seat)
        elif phase == "Dusk":
            _dtr_dusk(t, seat, number)
        elif phase == "Main":
            favor = t.r.state.objs[f"p{seat}.favor"].counters.get("value", 0)
            champions = [h for h in t.hand(seat) if (c := t.card(h)) is not None
                         and c.type == "Champion" and 0 < c.number("cost") <= favor
                         and t.playable(h)]
            if champions and t.rnd.random() < 0.8:
                handle = t.rnd.choice(champions)
                cost = t.card(handle).number("cost")
                if t.play_slip is not None and number >= t.play_slip \
                        and not t.card(handle).flag("ace"):
                    t.play_slip = None  # the planted slip: played with nothing paid
                    t.plant("DTR-PLAY-COST")
                else:
                    act.counter(t.r, f"p{seat}.favor", add=-cost, seat=seat)
                act.move(t.r, handle, f"p{seat}.play", face_up=True, seat=seat)
            if t.rnd.random() < 0.6:
                t.roll(seat, "effect")
        elif phase == "Rite":
            corpus_ritual.rite_phase(t, seat, t.slips)


def _champions(t: Table, seat: int) -> list[str]:
    return [h for h in cards_in(t.r, f"p{seat}.play")
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
             and c.number(value) > 0 and t.playable(h)]
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
            if t.income_slip is not None and number >= t.income_slip and cards_in(
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


TURNS: dict[str, Turn] = {"gauntlet": _gauntlet_turn, "dead-to-rites": _dtr_turn,
                           "mantle-of-the-keeper": _mantle_turn}
STARTS: dict[str, Callable[[Table], None]] = {"mantle-of-the-keeper": _mantle_start}
