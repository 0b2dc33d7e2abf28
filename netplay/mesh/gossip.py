"""The mesh's ``peers`` message, built and checked with no I/O.

Every peer tells each new link, and every ``gossip_interval`` all of them, whom it is linked to
(id, address, key) and the keys of every peer it has met, departed ones too: a late joiner needs
them to check the signatures of those peers' ops during catch-up. A malformed message is a
:class:`~netplay.protocol.wire.ProtocolError` naming what is wrong, which drops the sender's link.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from netplay.protocol.identity import PUBLIC_KEY_BYTES, is_valid_peer_id
from netplay.protocol.wire import ProtocolError

MAX_GOSSIP_ENTRIES = 64
MAX_KNOWN_KEYS = 256

LinkedPeer = tuple[str, str, int, bytes]  # peer id, host, port, Ed25519 key


def hearsay_keys(entries: list[Any], me: str, pinned: Mapping[str, bytes],
                 hearsay: dict[str, bytes]) -> None:
    """Keep the keys a ``peers`` message gives for peers whose key no handshake proved here
    (the first heard wins)."""
    for pid, key in read_keys(entries):
        if pid != me and pid not in pinned:
            hearsay.setdefault(pid, key)


def peers_message(linked: Iterable[LinkedPeer], keys: Mapping[str, bytes],
                  quic: list[dict[str, Any]] | None = None,
                  links: Iterable[str] = ()) -> dict[str, Any]:
    """``quic``: the signed endpoint claims (netplay.link.endpoint_claims), when any; ``links``:
    every peer the sender is linked to (with or without an address to give)."""
    entries = [{"id": pid, "host": host, "port": port, "key": key}
               for pid, host, port, key in linked]
    known = [{"id": pid, "key": key} for pid, key in sorted(keys.items())]
    msg = {"t": "peers", "peers": entries[:MAX_GOSSIP_ENTRIES], "keys": known[:MAX_KNOWN_KEYS]}
    if quic:
        msg["quic"] = quic
    msg["links"] = sorted(links)[:MAX_GOSSIP_ENTRIES]
    return msg


def read_links(entries: list[Any] | None) -> list[str] | None:
    """The peer ids a ``peers`` message's ``links`` lists (None: it has none, an older peer)."""
    if entries is None:
        return None
    if len(entries) > MAX_GOSSIP_ENTRIES or not all(is_valid_peer_id(p) for p in entries):
        raise ProtocolError("peers: bad links")
    return [str(p) for p in entries]


def read_peers(entries: list[Any]) -> list[LinkedPeer]:
    """The linked peers a ``peers`` message lists, every field checked."""
    if len(entries) > MAX_GOSSIP_ENTRIES:
        raise ProtocolError("peers: too many entries")
    parsed: list[LinkedPeer] = []
    for entry in entries:
        if not isinstance(entry, dict):
            raise ProtocolError("peers: entry is not a map")
        pid, host, port, key = entry.get("id"), entry.get("host"), entry.get("port"), entry.get("key")
        if not is_valid_peer_id(pid):
            raise ProtocolError("peers: bad peer id")
        if not isinstance(host, str) or not 0 < len(host) <= 255:
            raise ProtocolError("peers: bad host")
        if not isinstance(port, int) or isinstance(port, bool) or not 0 < port <= 65535:
            raise ProtocolError("peers: bad port")
        if not isinstance(key, bytes) or len(key) != PUBLIC_KEY_BYTES:
            raise ProtocolError("peers: bad key")
        assert isinstance(pid, str)
        parsed.append((pid, host, port, key))
    return parsed


def read_keys(entries: list[Any]) -> list[tuple[str, bytes]]:
    """The (peer id, key) pairs a ``peers`` message's ``keys`` lists, every field checked."""
    if len(entries) > MAX_KNOWN_KEYS:
        raise ProtocolError("peers: too many keys")
    out: list[tuple[str, bytes]] = []
    for entry in entries:
        if not isinstance(entry, dict):
            raise ProtocolError("peers: key entry is not a map")
        pid, key = entry.get("id"), entry.get("key")
        if not is_valid_peer_id(pid) or not isinstance(key, bytes) or len(key) != PUBLIC_KEY_BYTES:
            raise ProtocolError("peers: bad key entry")
        assert isinstance(pid, str)
        out.append((pid, key))
    return out
