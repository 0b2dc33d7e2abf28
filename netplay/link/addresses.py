"""A peer's address as links dial it: ``(host, port)`` on the LAN, or an internet endpoint
ticket (:mod:`netplay.link.quic`) standing as the host, with port 0."""

from __future__ import annotations


def is_ticket_address(host: str) -> bool:
    """An internet endpoint ticket (netplay.link.quic) standing as an address's host."""
    return host.startswith("endpoint") and len(host) > 20
