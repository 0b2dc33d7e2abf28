"""The table's rolls and hidden-pile shuffles, drawn jointly with the linked players.

:class:`LanDraws` is what a LAN session sets as ``replica.joint_draws`` (the core's seam,
``table.core.joint``): with another player reachable (linked, or linked to a linked peer:
netplay.mesh.routing), ``actions.roll`` / ``actions.shuffle`` start a joint round with every
reachable player through the session's :class:`~netplay.draws.round_driver.FairDriver`, and the
op is issued when the round completes; alone (or only watchers reachable) it declines, and the
action uses local randomness at once (marked local). Other players' draws are judged as they
arrive (:mod:`netplay.draws.witness`). Watchers take no part in the rounds: they check the
ops and, at the end, the publications, like any peer.
"""
from __future__ import annotations

import asyncio
from collections.abc import Callable

from netplay.draws.commit_reveal import MAX_PEERS
from netplay.draws.round_driver import FairDriver
from netplay.draws.watching import record_to_watchers
from table.core.replica import Replica
from table.core.watchers import is_watcher

TICK = 0.1  # seconds between checks of the joint draws' deadlines


class LanDraws:
    def __init__(self, replica: Replica, driver: FairDriver,
                 reachable: Callable[[], list[str]]) -> None:
        self.replica, self.driver, self.reachable = replica, driver, reachable
        self.published = False

    async def keep_time(self) -> None:
        """A joint draw may not stall the table: a peer that does not reveal in time is named
        and the draw falls back (FairRounds' deadlines, checked here)."""
        while True:
            await asyncio.sleep(TICK)
            self.driver.tick()

    def publish_once(self) -> None:
        """The end-of-game publication (``fair_pub``), once: what lets ``sandtable check
        --audit`` verify every joint draw from any peer's log. Watchers get it only where the
        table sends them players' secrets."""
        if self.published:
            return
        self.published = True
        peers = self.reachable()
        if not record_to_watchers(self.replica):
            peers = [p for p in peers if not is_watcher(self.replica.state, p)]
        self.driver.publish(peers)

    def players(self) -> list[str]:
        """This peer and the reachable peers that are not watchers (at most MAX_PEERS); just
        this peer when it watches (its table then refuses the roll at once)."""
        state = self.replica.state
        if is_watcher(state, self.replica.peer_id):
            return [self.replica.peer_id]
        others = sorted(p for p in self.reachable() if not is_watcher(state, p))
        return [self.replica.peer_id, *others[:MAX_PEERS - 1]]

    def roll(self, *, sides: int, count: int, die_id: str | None, why: str | None,
             seat: int | None) -> bool:
        peers = self.players()
        if len(peers) < 2:
            return False
        self.driver.roll(peers, sides=sides, count=count, die_id=die_id, why=why, seat=seat)
        return True

    def shuffle(self, pile_id: str, *, seat: int | None) -> bool:
        peers = self.players()
        if len(peers) < 2:
            return False
        self.driver.shuffle(peers, pile_id, seat=seat)
        return True
