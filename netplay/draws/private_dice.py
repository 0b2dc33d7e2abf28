"""Flags private dice as they arrive: a roll or shuffle another player drew alone while linked
to this player (``table.core.private_draws`` says why that is enough to know).

A player's peer judges each local draw of another player once, when it is first folded: if
that author is linked to it and has finished its catch-up on the link, the author's software
knew another player was there (this one) and drew alone anyway. Draws from before the link
arrive in its catch-up and are not judged; nor are any at a table opened allowing local draws,
nor a watcher's (its table voids them) or any when this peer watches (it takes no part).
"""
from __future__ import annotations

from collections.abc import Callable

from netplay.draws.watching import table_fields
from table.core.private_draws import describe, flag, is_local_draw, local_draws_allowed
from table.core.replica import Replica
from table.core.timeline import Change
from table.core.watchers import is_watcher


class PrivateDiceWatch:
    def __init__(self, replica: Replica, linked: Callable[[], list[str]],
                 caught_up_with: Callable[[str], bool]) -> None:
        self.replica, self.linked, self.caught_up_with = replica, linked, caught_up_with
        # each draw is judged once, when it first arrives (a rollback re-applies records);
        # those already held (a log read back on a restart) arrived before
        self._judged: set[tuple[str, int]] = {rec.op.ref for rec in replica.records()
                                              if is_local_draw(rec.op)}
        replica.subscribe(self._on_change)

    def _on_change(self, change: Change) -> None:
        me = self.replica.peer_id
        for record in change.records:
            op = record.op
            if op.author == me or op.ref in self._judged or not is_local_draw(op):
                continue
            self._judged.add(op.ref)
            if self._private(op.author):
                flag(self.replica, op, describe(op, me))

    def _private(self, author: str) -> bool:
        state = self.replica.state
        if is_watcher(state, self.replica.peer_id) or is_watcher(state, author):
            return False
        if local_draws_allowed(table_fields(self.replica)):
            return False
        return author in self.linked() and self.caught_up_with(author)
