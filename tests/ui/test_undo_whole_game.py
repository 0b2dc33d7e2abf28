"""Thirty everyday moves in each shipped game (draw, play from hand, commit face down, counters,
flip, rotate, move between zones, take a card back into the hand), then Ctrl+Z until the start
and redo to the end, by real key events in the window: the saved position is the start's, then
the end's."""
from __future__ import annotations

import random
from typing import Any

import pytest
from PySide6.QtCore import Qt

from table.games.position_writer import replica_position

CTRL, SHIFT = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier
MOVES = 30
# each game's seats, the seat's play area, where a card is committed face down, a counter
GAMES = {
    "dead-to-rites": (4, "p{s}.play", "defense-pool", "p{s}.favor"),
    "gauntlet": (2, "p{s}.assets", "p{s}.commit", "p{s}.influence"),
    "mantle-of-the-keeper": (2, "supply", "supply", "p{s}.favor"),
}


def _everyday_move(w: Any, game: str, seat: int, rnd: random.Random
                   ) -> tuple[str, dict[str, Any] | None]:
    """One move the seat can make now (its kind, and the JSON op form the window's gestures
    use; None when the seat cannot make that kind of move now)."""
    _, play, down, counter = (z.format(s=seat) if isinstance(z, str) else z
                              for z in GAMES[game])
    state = w.replica.state
    if state.live(counter) is None:  # (a faction's own counters)
        counter = next(o.id for o in state.objs.values()
                       if o.alive and o.kind == "counter" and o.owner == seat)
    hand, deck, discard = f"p{seat}.hand", f"p{seat}.deck", f"p{seat}.discard"
    mine = [c for c in state.cards_in(play) if state.objs[c].owner == seat]
    kind = rnd.choice(["draw", "draw", *sorted(KINDS - {"draw"})])
    if kind == "back" and not state.cards_in(discard):
        kind = "discard"  # nothing there yet to bring back: put one there first
    if kind in ("flip", "rotate", "discard", "take") and not mine:
        kind = "play"  # nothing in play yet: play one first
    if kind == "draw" and state.cards_in(deck):
        return kind, {"op": "draw", "from": deck, "to": hand, "count": rnd.choice([1, 1, 2])}
    if kind in ("play", "down") and state.cards_in(hand):
        return kind, {"op": "move", "id": rnd.choice(state.cards_in(hand)),
                      "to": play if kind == "play" else down, "face_up": kind == "play"}
    if kind == "counter":
        return kind, {"op": "counter", "id": counter, "add": rnd.choice([-1, 1, 2])}
    if kind == "back" and state.cards_in(discard):
        return kind, {"op": "move", "id": state.cards_in(discard)[-1], "to": play,
                      "face_up": True}
    if not mine or kind not in ("flip", "rotate", "discard", "take"):
        return kind, None
    card = rnd.choice(mine)
    return kind, {"flip": {"op": "flip", "id": card},
                  "rotate": {"op": "rotate", "id": card, "degrees": rnd.choice([0, 90])},
                  "discard": {"op": "move", "id": card, "to": discard, "face_up": True},
                  "take": {"op": "move", "id": card, "to": hand}}[kind]


KINDS = {"draw", "play", "down", "counter", "flip", "rotate", "discard", "back", "take"}


def _press_until(w: Any, qtbot: Any, mods: Qt.KeyboardModifier, done: str, last: str) -> int:
    """Press the key until the status bar says `last`; every other press must say `done`."""
    for presses in range(3 * MOVES):
        qtbot.keyClick(w.view, Qt.Key.Key_Z, mods)
        said = w.statusBar().currentMessage()
        if said == last:
            return presses
        assert said.startswith(done), said
        assert "handle" not in said and "#" not in said
    raise AssertionError(f"still {done.lower()} after {3 * MOVES} presses")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_thirty_moves_ctrl_z_to_the_start_then_redo_to_the_end(qtbot, game: str) -> None:  # type: ignore[no-untyped-def]
    from table.ui.games import game_choice
    from tests.ui.test_games import _open

    w = _open(qtbot, game, GAMES[game][0])
    try:
        choice = game_choice(game)
        assert choice is not None
        module = choice.module
        seat = w.replica.state.turn["seat"]
        w.ctl.set_seat(seat)  # the seat whose turn it is, as hot-seat shows it
        start = replica_position(w.replica, module)
        rnd = random.Random(f"{game}-5")
        made: list[str] = []
        while len(made) < MOVES:
            kind, entry = _everyday_move(w, game, seat, rnd)
            if entry is not None:
                assert w.ctl.perform(entry).done, entry
                made.append(kind)
        assert set(made) == KINDS, made  # every everyday move, in this seeded run
        end = replica_position(w.replica, module)
        assert end != start
        undone = _press_until(w, qtbot, CTRL, "Undone: ",
                              "Nothing of yours to undo since the game began")
        assert replica_position(w.replica, module) == start
        redone = _press_until(w, qtbot, CTRL | SHIFT, "Redone: ", "Nothing to redo")
        assert replica_position(w.replica, module) == end
        assert redone == undone >= MOVES - 5  # (a card turned to where it was changed nothing)
        assert all(r.void is None for r in w.replica.records())
    finally:
        w.shutdown()
