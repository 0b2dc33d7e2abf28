"""Where this peer last reached the others: ``<log>.peers``, beside its log.

The log names every peer of the table and its key (their ``hello`` ops) but not where they
listen. A peer restarted from its log (``host``/``join`` with an existing log, or Resume)
reads this file to dial them again even when mDNS is blocked. JSON: ``{peer id: [[host,
port], ...]}``, newest address first; an internet endpoint ticket is kept as ``[ticket, 0]``,
so a restarted peer redials its internet table with no new ticket. A missing or unreadable
file is an empty book: the table still rejoins through mDNS or an address the player gives.
"""
from __future__ import annotations

import json
import logging
import os
from pathlib import Path

from netplay.link.addresses import is_ticket_address
from netplay.protocol.identity import is_valid_peer_id

log = logging.getLogger(__name__)

Addresses = dict[str, list[tuple[str, int]]]


def peers_path(log_path: str | Path) -> Path:
    return Path(str(log_path) + ".peers")


def load_peers(path: str | Path) -> Addresses:
    try:
        data = json.loads(Path(path).read_text())
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as err:
        log.warning("%s: unreadable peer address file, ignored (%s)", path, err)
        return {}
    out: Addresses = {}
    if not isinstance(data, dict):
        log.warning("%s: not a peer address file, ignored", path)
        return out
    for pid, addresses in data.items():
        if not is_valid_peer_id(pid) or not isinstance(addresses, list):
            continue
        good = [(str(a[0]), int(a[1])) for a in addresses
                if isinstance(a, list) and len(a) == 2 and isinstance(a[0], str)
                and type(a[1]) is int and (0 < a[1] <= 65535 or (a[1] == 0
                                           and is_ticket_address(a[0])))]
        if good:
            out[pid] = good
    return out


def played_over_internet(log_path: str | Path) -> bool:
    """The address file beside this log names a peer at an internet endpoint ticket: a peer
    restarted from the log opens its endpoint to redial them."""
    return any(port == 0 for addresses in load_peers(peers_path(log_path)).values()
               for _host, port in addresses)


def save_peers(path: str | Path, peers: Addresses) -> None:
    """Write atomically (a crash mid-write keeps the old file)."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    data = {pid: [list(a) for a in addresses] for pid, addresses in sorted(peers.items())}
    try:
        tmp.write_text(json.dumps(data))
        os.replace(tmp, path)
    except OSError as err:
        log.warning("%s: cannot save peer addresses (%s)", path, err)
