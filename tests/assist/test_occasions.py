"""Each game's occasions (assist/<game>/occasions.py), counted by the runner beside its checks:
the same counts whether the ops arrive in order or late (each late op a rollback and a replay),
and a broken occasions module costs the checks nothing."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from assist import occasions
from assist.runner import AssistRunner, load_plugin
from table.bench.legal_corpus import generate
from table.core.replica import Replica
from table.core.timeline import Timeline
from table.games import find_module


@pytest.fixture(scope="module")
def sessions(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Any, list[Any]]]:
    folder = tmp_path_factory.mktemp("occasions")
    out = []
    for truth in generate(folder, 6, seed=4):
        replica = Replica.from_log(truth.path)
        out.append((find_module(truth.game), [r.op for r in replica.records()]))
    return out


def _counted(module: Any, ops: list[Any], shuffle: int | None = None) -> list[Any]:
    runner = AssistRunner(module, load_plugin(module.id, []))
    timeline = Timeline()
    runner.attach(timeline)
    order = list(ops)
    if shuffle is not None:
        rnd = random.Random(shuffle)
        for _ in range(len(order) // 10):
            i = rnd.randrange(1, len(order))
            j = max(0, i - rnd.randrange(1, 6))
            order[j], order[i] = order[i], order[j]
    for op in order:
        timeline.insert(op)
    return sorted(runner.occasions.by_index.items())


def test_every_game_declares_occasions_and_late_ops_count_the_same(
        sessions: list[tuple[Any, list[Any]]]) -> None:
    for module, ops in sessions:
        declared = occasions.load(load_plugin(module.id, []))
        assert declared and all(o.what for o in declared.values())
        in_order = _counted(module, ops)
        assert in_order  # every game's sessions have occasions
        assert _counted(module, ops, shuffle=len(ops)) == in_order


def test_a_broken_occasions_module_costs_the_checks_nothing(
        sessions: list[tuple[Any, list[Any]]], monkeypatch: pytest.MonkeyPatch) -> None:
    module, ops = sessions[0]

    def broken(record: Any, state: Any, game: Any) -> tuple[int | None, ...]:
        raise RuntimeError("a bug in an occasion")

    plugin = load_plugin(module.id, [])
    monkeypatch.setattr(occasions, "load", lambda _plugin: {
        "X": occasions.Occasion("X", "every op", frozenset({"mark"}), broken)})
    runner = AssistRunner(module, plugin)
    timeline = Timeline()
    runner.attach(timeline)
    for op in ops:
        timeline.insert(op)
    assert runner.disabled is None and not runner.occasions.by_index
    assert runner.entries() == AssistRunner.for_replica(_replica(ops), module, plugin).entries()


def _replica(ops: list[Any]) -> Replica:
    replica = Replica("t", "reader")
    replica.receive_many(ops)
    return replica


def test_occasions_of_a_plugin_without_a_module_are_none(tmp_path: Path) -> None:
    class Bare:
        pass

    assert occasions.load(Bare()) == {}
