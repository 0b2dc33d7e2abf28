"""The replica announces every change itself: ops folded, knowledge arriving, a replay's seek."""

from table.core.replica import Replica
from table.core.seek import ReplayReplica
from table.core.timeline import Change


def _table() -> Replica:
    r = Replica("t", "a")
    r.issue("hello", {"name": "a"})
    r.issue("create", {"id": "c", "kind": "counter"})
    r.issue("counter", {"id": "c", "add": 2})
    return r


def test_knowledge_arriving_is_announced_as_a_change_without_records():
    r = _table()
    heard: list[Change] = []
    r.listeners.append(heard.append)
    r.receive_private({"cards": {"h1": ["Iron Wall", "salt"]}})
    assert len(heard) == 1
    assert heard[0].records == [] and heard[0].first == len(r.records())
    assert r.knowledge.card_of("h1") == "Iron Wall"


def test_a_replay_seek_is_announced_with_what_it_changed():
    replay = ReplayReplica(_table(), at=3)
    heard: list[Change] = []
    replay.listeners.append(heard.append)
    replay.seek(2)
    assert len(heard) == 1 and heard[0].rolled_back == 1 and "c" in heard[0].touched
    assert replay.state.objs["c"].counters.get("value", 0) == 0
    replay.seek(2)  # nothing moved: nothing announced
    assert len(heard) == 1
    replay.seek(3)
    assert len(heard) == 2 and replay.state.objs["c"].counters["value"] == 2
