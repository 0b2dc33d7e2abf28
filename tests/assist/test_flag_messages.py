"""Every rule's message, walked over the rule scenarios that raise it: it names the card(s) and
the player(s) it is about (assist.testing.missing_names), as the table names them."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import assist.scenarios as scenarios
from assist.runner import AssistRunner
from assist.scenarios import ScenarioRunner, scenario_files
from assist.testing import missing_names

ASSETS = Path(__file__).resolve().parents[2] / "assets"
GAMES = ["gauntlet", "mantle-of-the-keeper", "dead-to-rites"]


def _namer(module: Any) -> Any:
    return lambda cid: module.cards[cid].name if cid in module.cards else cid


@pytest.mark.parametrize("game", GAMES)
def test_every_message_names_its_cards_and_players(game: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    runners: list[tuple[Any, AssistRunner]] = []
    real = scenarios.AssistRunner.for_replica

    def keep(replica, *args, **kwargs):  # type: ignore[no-untyped-def]
        runner = real(replica, *args, **kwargs)
        runners.append((replica, runner))
        return runner

    monkeypatch.setattr(scenarios.AssistRunner, "for_replica", keep)
    checked: set[str] = set()
    unnamed: list[str] = []
    for path in scenario_files(ASSETS / game / "scenarios"):
        runners.clear()
        result = ScenarioRunner().run(path)
        assert result.passed, (path.name, result.problems)
        ((replica, runner),) = runners
        module = runner.module
        for entry in runner.entries(include_acked=True, include_undone=True,
                                    include_resolved=True):
            checked.add(entry.flag.rule)
            missing = missing_names(entry.flag, replica, _namer(module))
            if missing:
                unnamed.append(f"{path.name}: {entry.flag.rule}: {entry.flag.message!r} "
                               f"names not {', '.join(missing)}")
    assert len(checked) >= 10, checked
    assert not unnamed, "\n".join(unnamed)
