"""A LAN session's settings: the table it hosts or joins, how it is found, and what this
peer answers to other players' requests."""

from __future__ import annotations

from dataclasses import dataclass, field

from netplay.mesh.mesh import MeshConfig
from netplay.replication.replication import ReplicationConfig


@dataclass(slots=True)
class SessionOptions:
    table_name: str = "table"
    game: str = ""
    seats: int = 0  # seats at the table (0: unknown yet)
    passphrase: str | None = None
    interfaces: list[str] | None = None  # None: all interfaces (the product default)
    port: int = 0
    announce: bool = True
    player_name: str = ""
    # Requests on this peer's hidden piles: "always", "never" or "ask" (the player, through
    # LanSession.consent); see netplay.session.consent.
    allow_requests: str = "always"
    peers_file: str | None = None  # where to keep the other peers' addresses (``<log>.peers``)
    browse: bool = True  # with ``announce``: also browse mDNS during play for the table's peers
    watch: bool = False  # join as a watcher (no seat; docs/lan-play.md)
    watchers: bool = True  # announced: the table takes watchers (the host's setting)
    local_draws: bool = False  # announced: players may draw alone (the host's setting)
    mesh: MeshConfig = field(default_factory=MeshConfig)
    replication: ReplicationConfig = field(default_factory=ReplicationConfig)
