"""Which internet endpoint each peer of a table answers at, as claims its table identity signs.

A peer with an internet endpoint signs ``b"sandtable-quic-v1" || 0 || table id || 0 || peer
id || 0 || ticket`` with its Ed25519 identity key and gossips the claim in its ``peers``
message; every peer passes on the claims it holds, so a peer learns where to dial another even
through a third. A claim is kept only if it verifies under the key pinned (or gossiped) for
that peer id: a ticket cannot be swapped for another's, nor can a peer send anyone's traffic
to an endpoint of its choosing. (QUIC's own handshake proves the endpoint id, and the link's
handshake above it proves the table identity.) No I/O here.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from netplay.protocol.identity import Identity, is_valid_peer_id, verify
from netplay.protocol.wire import ProtocolError

CONTEXT = b"sandtable-quic-v1"
MAX_TICKET = 1024
MAX_CLAIMS = 64
SIGNATURE_BYTES = 64


def claim_bytes(table_id: str, peer_id: str, ticket: str) -> bytes:
    return b"\0".join((CONTEXT, table_id.encode(), peer_id.encode(), ticket.encode()))


class EndpointClaims:
    """The signed ``(ticket, signature)`` of every peer heard of, ours included."""

    def __init__(self, identity: Identity, table_id: str,
                 key_of: Callable[[str], bytes | None]) -> None:
        self.identity, self.table_id, self._key_of = identity, table_id, key_of
        self._claims: dict[str, tuple[str, bytes]] = {}

    def claim_own(self, ticket: str) -> None:
        sig = self.identity.sign(claim_bytes(self.table_id, self.identity.peer_id, ticket))
        self._claims[self.identity.peer_id] = (ticket, sig)

    def ticket_of(self, peer_id: str) -> str | None:
        claim = self._claims.get(peer_id)
        return claim[0] if claim is not None else None

    def entries(self) -> list[dict[str, Any]]:
        return [{"id": pid, "ticket": ticket, "sig": sig}
                for pid, (ticket, sig) in sorted(self._claims.items())][:MAX_CLAIMS]

    def receive(self, entries: Any) -> list[tuple[str, str]]:
        """Check a ``peers`` message's ``quic`` list; returns the (peer id, ticket) claims that
        are new. A malformed list is a ProtocolError; a claim whose signature does not verify
        (or whose key is not known yet) is skipped."""
        if entries is None:
            return []
        if not isinstance(entries, list) or len(entries) > MAX_CLAIMS:
            raise ProtocolError("peers: bad quic list")
        learned = []
        for entry in entries:
            if not isinstance(entry, dict):
                raise ProtocolError("peers: quic entry is not a map")
            pid, ticket, sig = entry.get("id"), entry.get("ticket"), entry.get("sig")
            if not is_valid_peer_id(pid) or not isinstance(ticket, str) \
                    or not 0 < len(ticket) <= MAX_TICKET or not isinstance(sig, bytes) \
                    or len(sig) != SIGNATURE_BYTES:
                raise ProtocolError("peers: bad quic entry")
            assert isinstance(pid, str)
            if pid == self.identity.peer_id or self._claims.get(pid, ("", b""))[0] == ticket:
                continue
            key = self._key_of(pid)
            if key is None or not verify(key, claim_bytes(self.table_id, pid, ticket), sig):
                continue
            self._claims[pid] = (ticket, sig)
            learned.append((pid, ticket))
        return learned
