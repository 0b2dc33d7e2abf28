"""Bots play whole games by the rulebook to each game's own win condition, keep the rules as
the assist reads them (save its known blind spots, named here), and see only their seat."""
from __future__ import annotations

import pytest

from table.bots import batch, registry
from table.bots.api import SeatView
from table.bots.effects import module_effects
from table.bots.match import Match
from table.core.replica import Replica

# Flags the assist raises on legal bot moves, each an assist blind spot (docs/bots.md):
# Gauntlet's checks read no Territory or card text (Sunken Quarry's commitments to the Discard
# Pile; War Council's and Edict's printed gains); Dead to Rites' Defense Pool checks take an
# Interrupt played face up into the pool (a play, by the module's [rules.plays]) for a
# face-down commit and leave out its "+2 to the Defense Pool total".
BLIND_SPOTS = {"GAU-CLEANUP-DEST", "GAU-MIL-COMMAND-GAIN", "GAU-INQ-CONVICTION-GAIN",
               "DTR-POOL-FACEDOWN", "DTR-POOL-FLIP-RESULT", "MAN-FAVOR-FOR-DAMAGE"}
WIN = {"gauntlet": "Ran the Gauntlet (won the Last Stand)",
       "dead-to-rites": "Step 5 Rite resolved", "mantle-of-the-keeper": "Last Chosen remaining"}


@pytest.mark.parametrize("game", sorted(WIN))
def test_heuristic_against_random_plays_to_the_win_condition(game: str, tmp_path) -> None:
    module = batch.load(game, None)
    seats = max(module.players.min, min(4, module.players.max))
    bots = (registry.strongest(game),) + (f"{game}-random",) * (seats - 1)
    plan = batch.Plan(game, None, seats, bots, 2, 11, str(tmp_path))
    for result in batch.run(plan):
        assert result["how"] == "victory" and result["condition"] == WIN[game]
        assert len(result["winners"]) == 1
        assert set(result["flags"]) <= BLIND_SPOTS, result["flags"]
        log = tmp_path / "games" / f"{game}-{result['k']:05d}.sandlog"
        assert log.is_file()
        # the log names who played each seat: the report and the dataset slice by it
        tags = Replica.from_log(log).state.tags
        assert tags["players"] == {str(s): f"{b} (bot)" for s, b in result["bots"].items()}


def test_the_same_seed_gives_the_same_games(tmp_path) -> None:
    plan = batch.Plan("gauntlet", None, 2, ("gauntlet-heuristic", "gauntlet-random"), 2, 3,
                      str(tmp_path / "a"), check=False)
    again = batch.Plan("gauntlet", None, 2, ("gauntlet-heuristic", "gauntlet-random"), 2, 3,
                       str(tmp_path / "b"), check=False)
    first = [r["digest"] for r in batch.run(plan)]
    assert first == [r["digest"] for r in batch.run(again)]
    other = batch.Plan("gauntlet", None, 2, ("gauntlet-heuristic", "gauntlet-random"), 2, 4,
                       str(tmp_path / "c"), check=False)
    assert first != [r["digest"] for r in batch.run(other)]


def test_a_bot_sees_no_card_of_another_seats_hand() -> None:
    """At a hot-seat table (one replica holds every secret) each bot's view knows its own hand
    and no other seat's, through the whole game."""
    module = batch.load("dead-to-rites", None)
    effects = module_effects(module.cards)
    bots = {s: registry.find("random", module.id)(seed=s, effects=effects) for s in (1, 2, 3, 4)}
    match = Match(module, bots, 5, max_turns=12)
    checked = 0
    while match.step() and match.replica.state.turn.get("number", 0) <= 12:
        for seat in (1, 2, 3, 4):
            view = match.views[seat]
            for other in (1, 2, 3, 4):
                hand = view.ids(f"p{other}.hand")
                known = [view.card_id(h) for h in hand]
                if other == seat:
                    assert None not in known
                else:
                    assert known == [None] * len(hand)
                    checked += len(hand)
                assert all(view.card_id(h) is None for h in view.ids(f"p{other}.deck"))
    match.close()
    assert checked > 100


def test_the_shipped_bots_are_plugins() -> None:
    names = set(registry.installed())
    for game in WIN:
        assert {f"{game}-heuristic", f"{game}-random"} <= names
        assert registry.strongest(game) == f"{game}-heuristic"
    with pytest.raises(registry.UnknownBot, match="installed"):
        registry.find("nobody", "gauntlet")


def test_seat_view_reads_through_the_views() -> None:
    module = batch.load("gauntlet", None)
    match = Match(module, {1: registry.find("random", "gauntlet")(),
                           2: registry.find("random", "gauntlet")()}, 2)
    view: SeatView = match.views[1]
    assert view.turn_seat in (1, 2) and view.count("p1.hand") == 3
    assert all(view.card(h) is not None for h in view.ids("p1.hand"))
    assert all(view.card(h) is None for h in view.ids("p2.hand"))
    match.close()
