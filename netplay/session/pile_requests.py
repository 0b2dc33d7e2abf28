"""Requests to the owner of a hidden pile: at a LAN table only the peer playing a seat handles
that seat's hidden piles, so "take the top card of Alice's deck" goes to Alice's peer as a
private ``request``; it performs the entry as her seat if she consents
(``netplay.session.consent``) and answers with a ``reply``. A watcher's request is always
refused."""


from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Coroutine
from typing import Any, Protocol

from netplay.protocol.wire import ProtocolError
from netplay.session.consent import REQUEST_TIMEOUT, ConsentAsker, OwnerRequest, decide, refusal_text
from netplay.session.events import RequestDone, SessionEvent
from table.core import jsonform
from table.core.errors import CoreError
from table.core.events import EventHub
from table.core.replica import Replica
from table.core.watchers import is_watcher

log = logging.getLogger(__name__)

REQUESTABLE = jsonform.REQUESTABLE


class RequestPolicy(Protocol):
    allow_requests: str  # "always", "never" or "ask" (netplay.session.consent)


class PrivateSender(Protocol):
    def send_private(self, peer_id: str, body: dict[str, Any]) -> bool: ...


class RequestHost(Protocol):
    """What owner requests use of their session (a LAN session), and nothing more: so this
    module does not import the session that owns it."""

    @property
    def peer_id(self) -> str: ...
    @property
    def replica(self) -> Replica: ...
    @property
    def replication(self) -> PrivateSender: ...
    @property
    def options(self) -> RequestPolicy: ...
    @property
    def consent(self) -> ConsentAsker | None: ...
    @property
    def started(self) -> bool: ...
    @property
    def events(self) -> EventHub[SessionEvent]: ...
    def seat_peer(self, seat: int) -> str | None: ...
    def spawn(self, coro: Coroutine[Any, Any, None]) -> None: ...


class OwnerRequests:
    def __init__(self, session: RequestHost) -> None:
        self._session = session
        self._waiting: dict[int, asyncio.Future[tuple[bool, str]]] = {}
        self._ids = itertools.count(1)

    async def ask(self, entry: dict[str, Any], owner_seat: int,
                  timeout: float = REQUEST_TIMEOUT) -> tuple[bool, str]:
        """Ask the peer playing ``owner_seat`` to perform ``entry`` (JSON op form) as that
        seat. Returns (ok, error message)."""
        s = self._session
        peer = s.seat_peer(owner_seat)
        if peer is None:
            return False, f"nobody plays seat {owner_seat}"
        if peer == s.peer_id:
            try:
                jsonform.perform(s.replica, {**entry, "seat": owner_seat})
                return True, ""
            except CoreError as err:
                return False, str(err)
        rid = next(self._ids)
        fut: asyncio.Future[tuple[bool, str]] = asyncio.get_running_loop().create_future()
        self._waiting[rid] = fut
        body = {"k": "request", "id": rid, "seat": owner_seat, "entry": entry}
        if not s.replication.send_private(peer, body):
            self._waiting.pop(rid, None)
            return False, f"seat {owner_seat}'s player is not connected"
        try:
            return await asyncio.wait_for(fut, timeout)
        except TimeoutError:
            return False, "no answer from the owner's peer"
        finally:
            self._waiting.pop(rid, None)

    def abandon(self, why: str) -> None:
        """The session stops: every request still waiting gets `why` as its answer."""
        for fut in self._waiting.values():
            if not fut.done():
                fut.set_result((False, why))

    def received(self, peer_id: str, body: dict[str, Any]) -> None:
        """Another peer's ``request``: checked here, answered once the player decided."""
        rid, seat, entry = body.get("id"), body.get("seat"), body.get("entry")
        if type(rid) is not int or type(seat) is not int or not isinstance(entry, dict):
            raise ProtocolError("malformed request")
        self._session.spawn(self._answer(peer_id, rid, seat, entry))

    def replied(self, body: dict[str, Any]) -> None:
        """The owner's ``reply`` to one of our requests (a late or unknown one is ignored)."""
        rid = body.get("id")
        fut = self._waiting.get(rid) if type(rid) is int else None
        if fut is not None and not fut.done():
            fut.set_result((bool(body.get("ok")), str(body.get("error") or "")))

    async def _answer(self, peer_id: str, rid: int, seat: int, entry: dict[str, Any]) -> None:
        s = self._session
        error = self._refusal(peer_id, seat, entry)
        if not error:
            name = str(s.replica.state.peers.get(peer_id, {}).get("name") or peer_id)
            allowed, answer = await decide(s.options.allow_requests, s.consent,
                                           OwnerRequest(peer_id, name, seat, dict(entry)))
            if answer == "always":  # "always for this game"
                s.options.allow_requests = "always"
            if not s.started:
                return
            if not allowed:
                error = refusal_text(answer)
        ok = False
        if not error:
            try:
                jsonform.perform(s.replica, {**entry, "seat": seat})
                ok = True
            except CoreError as err:
                error = str(err)
        log.info("request from %s: %s -> %s", peer_id, entry, "done" if ok else error)
        s.replication.send_private(peer_id, {"k": "reply", "id": rid, "ok": ok,
                                             "error": error[:500]})
        s.events.emit(RequestDone(peer_id, dict(entry), ok, error))

    def _refusal(self, peer_id: str, seat: int, entry: dict[str, Any]) -> str:
        """Why this request is refused before the player is asked (empty: ask)."""
        s = self._session
        if is_watcher(s.replica.state, peer_id):
            return "a watcher cannot move pieces"
        if s.seat_peer(seat) != s.peer_id:
            return f"this peer does not play seat {seat}"
        if entry.get("op") not in REQUESTABLE:
            return f"{entry.get('op')!r} cannot be requested (only {sorted(REQUESTABLE)})"
        return ""
