"""What counts as a card played follows each module's `[rules.plays]`: the assist's own legal
scripted games, logged and read by the report."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

from table.core.logfile import LogWriter, make_header
from table.report.session import read_session


def logged(replica, module, path: Path) -> Path:  # type: ignore[no-untyped-def]
    """The table's ops as a log file (plays are face up, so the ops name their cards)."""
    writer = LogWriter(path, make_header(replica.table_id, replica.peer_id, module.id,
                                         module.content_hash))
    for record in replica.records():
        writer.append(record.op.to_wire())
    writer.close()
    return path


def names(session, module) -> dict[int, Counter[str]]:  # type: ignore[no-untyped-def]
    return {seat: Counter(module.cards[c].name for c in cards)
            for seat, cards in session.played.items()}


def test_mantle_plays_go_to_the_discard_pile_but_exchanges_do_not_count(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from tests.assist.mantle_of_the_keeper.kit import MODULE
    from tests.assist.mantle_of_the_keeper.test_scripted_game import play_game

    g = play_game(False)
    session = read_session(logged(g.t.replica, MODULE, tmp_path / "m.sandlog"), assist=False)
    played = names(session, MODULE)
    # Shem's Bows (turns 1 and 4), Velya's Dagger defence and two Dagger attacks, Khaya's Tome
    assert played[1] == Counter({"Heirloom Bow": 2})
    assert played[3] == Counter({"Dagger": 3})
    assert played[2] == Counter({"Tome of Defense": 1})  # the card exchanged for Favor: no play


def test_dead_to_rites_counts_champions_not_cards_committed_to_the_defense_pool(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from table.games import find_module
    from tests.assist.dead_to_rites.script import Game

    module = find_module("dead-to-rites")
    t = Game().play_all()
    session = read_session(logged(t.replica, module, tmp_path / "d.sandlog"), assist=False)
    played = names(session, module)
    every = sum(played.values(), Counter())
    assert every["Brand Guard"] == 1 and every["Dirge Adept"] == 1
    assert every["Bastion Golem"] == 0 and every["Kindling Ward"] == 0  # blocks, not plays
    assert {module.cards[c].type for cards in session.played.values() for c in cards} <= {
        "Champion", "Interrupt", "Ritual", "Pact"}
