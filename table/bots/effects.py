"""Card effects as data: the small vocabulary of table actions a module's `effect` column speaks,
which bots resolve (the table itself still enforces nothing; players read the card's text).

A cell holds clauses separated by ";", each `WHEN: VERB [N] [WORD] [if CONDITION]`:

    action: draw 2                       battle: bonus 2 if defender
    play: gain 2 favor                   interrupt: bonus 2
    battle: advantage 1                  destroys: gain 1 favor
    play: heal 3                         play: damage 2 adjacent

WHEN names the moment the card is used (`WHENS`); VERB one of `VERBS`, N a whole number, WORD
what it counts (a counter such as favor, command, influence; a target such as adjacent), and
CONDITION one of `CONDITIONS`. docs/game-module.md lists them with their meaning. `parse`
raises `EffectError` naming the clause, so `sandtable validate` reports file:line.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

COLUMN = "effect"
# when a card's effect applies: Gauntlet's Action / Battle effects, a card played (Dead to
# Rites' Rituals, Mantle's Specials), an Interrupt, a defense, a Champion that destroys another
WHENS = ("action", "battle", "play", "interrupt", "defend", "attack", "destroys")
# the table actions: draw/discard/expel cards, gain/lose a tracker, deal damage or heal,
# move a piece, ready/engage, a bonus to a total (battle, attack, defense, Defense Pool),
# advantage dice, look at the top of one's own Draw Pile, negate the opponent's chosen card
VERBS = ("draw", "discard", "expel", "gain", "lose", "damage", "heal", "move", "ready",
         "engage", "bonus", "advantage", "peek", "negate")
NEEDS_WORD = ("gain", "lose")
NO_NUMBER = ("ready", "engage")  # every other action says how many
CONDITIONS = ("attacker", "defender", "initiated", "controlled", "enemy", "adjacent",
              "arcane")

_CLAUSE = re.compile(r"^(?P<when>[a-z]+)\s*:\s*(?P<verb>[a-z]+)(?:\s+(?P<n>[+-]?\d+))?"
                     r"(?:\s+(?P<word>[a-z][a-z-]*))?(?:\s+if\s+(?P<cond>[a-z]+))?$")


class EffectError(ValueError):
    """A cell of the effect column that is not in the vocabulary."""


@dataclass(frozen=True, slots=True)
class Effect:
    when: str
    verb: str
    amount: int = 1
    word: str = ""
    condition: str = ""

    def applies(self, facts: Iterable[str]) -> bool:
        """Whether its condition holds, given the situation's facts ("attacker", ...)."""
        return not self.condition or self.condition in set(facts)


def parse(cell: str) -> list[Effect]:
    """The clauses of one cell; raises EffectError on the first it cannot read."""
    out: list[Effect] = []
    for raw in cell.split(";"):
        text = " ".join(raw.strip().lower().split())
        if not text:
            continue
        m = _CLAUSE.match(text)
        if m is None:
            raise EffectError(f"cannot read effect {raw.strip()!r} (WHEN: VERB [N] [WORD] "
                              f"[if CONDITION])")
        when, verb, word, cond = m["when"], m["verb"], m["word"] or "", m["cond"] or ""
        if when not in WHENS:
            raise EffectError(f"effect {raw.strip()!r}: unknown moment {when!r} (one of "
                              f"{', '.join(WHENS)})")
        if verb not in VERBS:
            raise EffectError(f"effect {raw.strip()!r}: unknown action {verb!r} (one of "
                              f"{', '.join(VERBS)})")
        if verb not in NO_NUMBER and not m["n"]:
            raise EffectError(f"effect {raw.strip()!r}: {verb} needs a number "
                              f"(e.g. '{when}: {verb} 1')")
        if verb in NEEDS_WORD and not word:
            raise EffectError(f"effect {raw.strip()!r}: {verb} needs what to {verb} "
                              f"(e.g. '{verb} 1 favor')")
        if cond and cond not in CONDITIONS:
            raise EffectError(f"effect {raw.strip()!r}: unknown condition {cond!r} (one of "
                              f"{', '.join(CONDITIONS)})")
        out.append(Effect(when, verb, int(m["n"]) if m["n"] else 1, word, cond))
    return out


def module_effects(cards: Mapping[str, object]) -> dict[str, list[Effect]]:
    """Every card's parsed effects (cards without the column or with an empty cell are left
    out); a malformed cell raises EffectError naming the card."""
    out: dict[str, list[Effect]] = {}
    for card_id, card in cards.items():
        cell = getattr(card, "fields", {}).get(COLUMN)
        if isinstance(cell, str) and cell.strip():
            try:
                out[card_id] = parse(cell)
            except EffectError as err:
                raise EffectError(f"card {card_id}: {err}") from None
    return out


def total(effects: Iterable[Effect], when: str, verb: str, facts: Iterable[str] = ()) -> int:
    """The sum of one kind of effect at one moment whose conditions hold."""
    held = set(facts)
    return sum(e.amount for e in effects if e.when == when and e.verb == verb
               and e.applies(held))


__all__ = ["COLUMN", "CONDITIONS", "VERBS", "WHENS", "Effect", "EffectError", "module_effects",
           "parse", "total"]
