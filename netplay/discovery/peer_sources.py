"""Where a table's other peers may be found, so the mesh can redial them: the addresses this
peer saved beside its log (``<log>.peers``, with the keys their first ops announced), and mDNS
during play, where a peer of this table announcing itself (restarted, on a new address) is
remembered at once."""
from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from netplay.discovery.mdns import TableBrowser
from netplay.discovery.peerfile import load_peers, save_peers
from netplay.mesh.mesh import Mesh

if TYPE_CHECKING:
    from zeroconf.asyncio import AsyncZeroconf

log = logging.getLogger(__name__)


def remember_saved_peers(mesh: Mesh, peers_file: str | None,
                         announced_key: Callable[[str], str | None]) -> None:
    """Every peer the address file names, at the addresses last saved for it."""
    if not peers_file:
        return
    for pid, addresses in load_peers(peers_file).items():
        key_hex = announced_key(pid)
        try:
            key = bytes.fromhex(key_hex) if key_hex else None
        except ValueError:
            key = None
        for host, port in reversed(addresses):
            mesh.remember(pid, host, port, key, linked_before=True)


def save_known_peers(mesh: Mesh, peers_file: str | None) -> None:
    if peers_file:
        save_peers(peers_file, {p.peer_id: list(p.addresses) for p in mesh.book.peers()
                                if p.addresses})


async def browse_for_peers(mesh: Mesh, zeroconf: AsyncZeroconf | None, table_id: str) -> TableBrowser | None:
    """Listen to mDNS during play on the announcer's zeroconf; None when it cannot."""
    browser = TableBrowser(aiozc=zeroconf)

    def changed() -> None:
        for listing in browser.tables():
            if listing.table_id == table_id:
                for peer in listing.peers:
                    mesh.remember(peer.peer_id, peer.host, peer.port)

    browser.on_change = changed
    try:
        await browser.start()
    except Exception:
        log.exception("could not browse the LAN for this table's peers")
        return None
    return browser
