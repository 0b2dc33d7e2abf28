"""A peer's malformed message, refused where messages are decoded (netplay.protocol): the link
that carried it drops with a reason saying what was wrong, the log names the peer, and nothing
of it reaches the rooms above the mesh."""
from __future__ import annotations

import logging

import pytest
from netplay_testkit import LOOPBACK, run, start_meshes, stop_all, wait_until

import netplay.session.lan_session  # noqa: F401 - registers every message kind (joint draws too)
from netplay.link.outbox import PackedMessage
from netplay.mesh.events import MessageReceived
from netplay.protocol.wire import pack

pytestmark = pytest.mark.socket

CASES = {
    "negative vector entry": ({"t": "vv", "vv": {"a" * 16: -1}},
                              "vv: bad version vector entry"),
    "hash without a vector": ({"t": "hash", "vv": [1], "h": "ff"},
                              "hash: field 'vv' should be map, got list"),
    "unknown kind": ({"t": "format-c"}, "unknown message type 'format-c'"),
    "joint draw start without peers": ({"t": "fair_start", "r": "x.1", "use": "roll", "c": "ab"},
                                       "fair_start: missing field 'peers'"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_malformed_message_drops_the_link_naming_the_peer(case: str,
                                                            caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    message, reason = CASES[case]

    async def scenario() -> None:
        hostile, target = await start_meshes(2)
        seen: list[MessageReceived] = []
        target.events.subscribe(lambda e: seen.append(e) if isinstance(e, MessageReceived) else None)
        await hostile.connect(LOOPBACK, target.port)
        assert await wait_until(lambda: hostile.peer_id in target.peers(), 5)
        link = hostile.link(target.peer_id)
        assert link is not None
        # packed by hand: the mesh's own send checks outgoing messages and would refuse it
        assert link.send_packed(PackedMessage(str(message["t"]), pack(message)))
        assert await wait_until(lambda: hostile.peer_id not in target.peers(), 5)
        assert not [e for e in seen if e.peer_id == hostile.peer_id]
        await stop_all([hostile, target])

    run(scenario(), 30)
    assert any(hostile_named(r.getMessage()) and reason in r.getMessage()
               for r in caplog.records), [r.getMessage() for r in caplog.records]


def hostile_named(text: str) -> bool:
    """A log line about a dropped link names the peer by its id (16 hex digits)."""
    return any(len(word) >= 16 and all(c in "0123456789abcdef" for c in word[:16])
               for word in text.replace(":", " ").split())
