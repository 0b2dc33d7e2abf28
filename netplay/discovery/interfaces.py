"""This machine's networks, for a player to choose where a LAN table is announced and found.

A machine with a VPN or two network cards has more than one network; the Host and Join dialogs
offer each (table.app.lan_wiring), and the choice becomes the session's ``interfaces``. Read
with ifaddr (zeroconf reads the same for its own default).
"""
from __future__ import annotations

import ipaddress
from dataclasses import dataclass

import ifaddr


@dataclass(frozen=True, slots=True)
class LocalAddress:
    address: str  # an IPv4 address of this machine
    adapter: str  # the name the system gives its network adapter ("eth0", "Wi-Fi", "tun0")

    @property
    def loopback(self) -> bool:
        return ipaddress.ip_address(self.address).is_loopback


def local_addresses() -> list[LocalAddress]:
    """Every IPv4 address of this machine, the networks first and this computer alone
    (loopback) last."""
    found = [LocalAddress(str(ip.ip), adapter.nice_name)
             for adapter in ifaddr.get_adapters() for ip in adapter.ips
             if isinstance(ip.ip, str)]  # IPv6 addresses come as tuples: tables use IPv4
    return sorted(found, key=lambda a: (a.loopback, a.adapter, a.address))
