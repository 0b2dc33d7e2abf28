"""Watchers at a LAN table, and the complete record they receive when the game ends.

A watcher is a peer whose ``hello`` says ``watch: true`` (``table.core.watchers``): it takes no
seat, so no secret is ever sent to it during play (secrets go to seats). When the game ends (an
``end`` op takes effect) or a player leaves the table on purpose, each player's peer sends its
secrets to every linked watcher in one private ``record`` message, unless the table's layout
mark says ``record_to_watchers: false``. The watcher keeps them in its log, which then holds
what ``sandtable log merge`` of every player's log would give.
"""
from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from netplay.protocol.splitting import RECORD_MAPS, split_maps
from netplay.protocol.wire import ProtocolError
from table.core.knowledge import Knowledge
from table.core.replica import Replica
from table.core.timeline import Change
from table.core.watchers import is_watcher, watchers

log = logging.getLogger(__name__)

RECORD = "record"  # the private message kind (docs/protocol.md)


def table_fields(replica: Replica) -> dict[str, Any]:
    """The fields of the table's layout mark (``mark setup "table"``), or {}."""
    for rec in replica.records():
        a = rec.op.args
        if rec.op.kind == "mark" and rec.void is None and a.get("what") == "setup" \
                and a.get("value") == "table":
            return dict(a.get("fields") or {})
    return {}


def watchers_allowed(replica: Replica) -> bool:
    return table_fields(replica).get("watchers") is not False


def record_to_watchers(replica: Replica) -> bool:
    return table_fields(replica).get("record_to_watchers") is not False


def secrets_record(knowledge: Knowledge) -> dict[str, Any]:
    """Everything a peer knows privately, as a private record (``Knowledge.absorb`` form)."""
    return {"cards": {h: [c, s] for h, (c, s) in sorted(knowledge.cards.items())},
            "shown": {h: sorted(seats) for h, seats in sorted(knowledge.shown.items())},
            "decks": knowledge.decks_record(), "fair": knowledge.fair}


class EndOfGame:
    """Sends this player's record to the watchers once the game is over for it."""

    def __init__(self, replica: Replica, send_private: Callable[[str, dict[str, Any]], bool],
                 linked: Callable[[], list[str]]) -> None:
        self.replica, self.send_private, self.linked = replica, send_private, linked
        self.ended = False
        self.sent: set[str] = set()  # watchers that have our record

    def on_change(self, change: Change) -> None:
        if not self.ended and any(r.op.kind == "end" and r.void is None for r in change.records):
            self.ended = True
        if self.ended:  # and a watcher may have said hello since
            self.share()

    def share(self) -> int:
        """Send our record to every linked watcher that lacks it; returns how many got it."""
        r = self.replica
        if is_watcher(r.state, r.peer_id):
            return 0
        linked = set(self.linked())
        todo = [w for w in watchers(r.state) if w in linked and w not in self.sent]
        # the table's setting is read from its layout mark (a scan of the log): only when due
        if not todo or not record_to_watchers(r):
            return 0
        parts = split_maps(secrets_record(r.knowledge), RECORD_MAPS)  # merged on arrival
        for watcher in todo:
            if all(self.send_private(watcher, {"k": RECORD, "data": part}) for part in parts):
                self.sent.add(watcher)
                log.info("sent this player's secrets to watcher %s", watcher)
        return len(todo)

    def receive(self, peer_id: str, body: dict[str, Any]) -> None:
        """A player's record, here at a watcher (a player ignores one and reports it)."""
        data = body.get("data")
        if not isinstance(data, dict):
            raise ProtocolError("malformed record")
        if not is_watcher(self.replica.state, self.replica.peer_id):
            self.replica.report(f"peer {peer_id} sent its secrets to this peer, which does not "
                                "watch; ignored")
            return
        self.replica.receive_private(data)
