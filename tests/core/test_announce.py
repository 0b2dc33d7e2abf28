"""The replica announces every change itself: ops folded, knowledge arriving, a replay's seek."""

import pytest

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
    r.subscribe(heard.append)
    r.receive_private({"cards": {"h1": ["Iron Wall", "salt"]}})
    assert len(heard) == 1
    assert heard[0].records == [] and heard[0].first == len(r.records())
    assert r.knowledge.card_of("h1") == "Iron Wall"


def test_a_replay_seek_is_announced_with_what_it_changed():
    replay = ReplayReplica(_table(), at=3)
    heard: list[Change] = []
    replay.subscribe(heard.append)
    replay.seek(2)
    assert len(heard) == 1 and heard[0].rolled_back == 1 and "c" in heard[0].touched
    assert replay.state.objs["c"].counters.get("value", 0) == 0
    replay.seek(2)  # nothing moved: nothing announced
    assert len(heard) == 1
    replay.seek(3)
    assert len(heard) == 2 and replay.state.objs["c"].counters["value"] == 2


def test_unsubscribing_stops_a_listener_and_is_harmless_twice():
    r = _table()
    heard: list[Change] = []
    kept: list[Change] = []
    stop = r.subscribe(heard.append)
    r.subscribe(kept.append)
    r.issue("counter", {"id": "c", "add": 1})
    stop()
    stop()
    r.issue("counter", {"id": "c", "add": 1})
    assert len(heard) == 1 and len(kept) == 2


def test_a_listener_may_unsubscribe_itself_while_hearing_a_change():
    r = _table()
    heard: list[int] = []
    stops = []

    def once(change: Change) -> None:
        heard.append(change.first)
        stops[0]()

    stops.append(r.subscribe(once))
    r.issue("counter", {"id": "c", "add": 1})
    r.issue("counter", {"id": "c", "add": 1})
    assert heard == [3]


def test_reports_reach_their_subscribers_until_they_unsubscribe():
    r = _table()
    heard: list[str] = []
    stop = r.subscribe_reports(heard.append)
    r.report("first")
    stop()
    r.report("second")
    assert heard == ["first"] and r.reports[-2:] == ["first", "second"]


def test_an_error_in_a_listener_reaches_the_caller_after_the_op_is_applied():
    r = _table()

    def broken(_change: Change) -> None:
        raise RuntimeError("listener bug")

    r.subscribe(broken)
    with pytest.raises(RuntimeError, match="listener bug"):
        r.issue("counter", {"id": "c", "add": 5})
    assert r.state.objs["c"].counters["value"] == 7
