"""A scripted game of nine turns with two battles: clean when legal; with illegal moves slipped
in, exactly those are flagged. Plus the assist's time budget per op."""
from __future__ import annotations

from typing import Any

from assist.testing import AssistTable

from .gau_kit import cmd, discard
from .script import game


def test_legal_game_raises_no_flag() -> None:
    t = game()
    assert t.setup_flags() == []
    assert t.rules() == [], t.describe()
    assert t.runner.disabled is None
    assert t.replica.state.turn["number"] >= 9


def _rot(t: AssistTable) -> None:
    cmd(t, 2, "rotate", card="gauntlet.P1:#0", degrees=90)


def _graveyard_to_deck(t: AssistTable) -> None:
    discard(t, 1, "hand", "graveyard")
    t.do({"seat": 1, "op": "move", "card": "p1.graveyard:#0", "to": "p1.deck"})


SLIPS: dict[str, tuple[Any, str | tuple[str, ...]]] = {
    "t1:draw": (lambda t: cmd(t, 1, "draw", **{"from": "p1.deck", "to": "p1.hand"}),
                "GAU-DRAW-ONE"),
    "t2:ao1": (_rot, "GAU-TERR-TWO-FACINGS"),
    "t3:ao1": (lambda t: t.declare("action-card", seat=2), "GAU-ACTION-TIMING"),
    "t3:ao2": (lambda t: t.declare("action-card", seat=1), "GAU-ACTION-ONE-PER-TURN"),
    "t4:ao1": (lambda t: cmd(t, 2, "counter", id="p2.influence", value=11),
               "GAU-DIP-INFLUENCE-RANGE"),
    "t4:cleanup": (lambda t: discard(t, 2, "hand", "graveyard"), "GAU-HAND-LIMIT-DISCARD"),
    "t5:move": (lambda t: discard(t, 1, "hand", "assets"), "GAU-ASSET-ENTRY"),
    # after dice, and with no Command to pay for it (seat 1 has none before its first win)
    "b1:result": (lambda t: t.declare("order", seat=1, order="Rally"),
                  ("GAU-PREDICE-SPENDS", "GAU-MIL-RALLY")),
    "b2:won": (lambda t: cmd(t, 1, "counter", id="p1.command", add=1),
               "GAU-MIL-COMMAND-RANGE"),
    "b2:revealed": (lambda t: t.declare("order", seat=1, order="Entrench"),
                    "GAU-MIL-ORDERS-OWN-LEADER"),
    "t6:ao1": (lambda t: cmd(t, 2, "flip", card="p2.leader:#0", face_up=False),
               "GAU-LEADER-FACEUP"),
    "t9:ao1": (_graveyard_to_deck, "GAU-GRAVEYARD-NO-RESHUFFLE"),
    "t9:cleanup": (lambda t: t.declare("action-card", seat=1), "GAU-ACTION-TIMING"),
}


def test_slipped_illegal_moves_raise_exactly_those() -> None:
    t = game({k: v[0] for k, v in SLIPS.items()})
    assert t.runner.disabled is None
    got = sorted(t.rules())
    want = sorted(r for _, rule in SLIPS.values()
                  for r in ((rule,) if isinstance(rule, str) else rule))
    extra = set(got) - set(want)
    assert got == want, (extra, t.describe())
