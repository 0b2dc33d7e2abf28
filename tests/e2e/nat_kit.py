"""An internet in network namespaces, for the internet-play fault test (Linux, root, iptables).

"public" (one peer with a public address) and two routers sit on a hub namespace that stands
for the internet (tests/e2e/wan_hub.py: every frame 80 ± 20 ms late, 2 % lost; this kernel has
no netem). Each router masquerades its home (a namespace behind it) and drops whatever comes
from the internet that is not a reply to something the home sent (a home NAT's filtering).
Router A also maps one UDP port to its home's host (what UPnP or NAT-PMP gives a host on a real
router): with relays off nothing else can open a path into a home. Every address exists only in
these namespaces; everything is removed after.
"""
from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import ClassVar

from tests.e2e.netns_kit import Peer, netns_unavailable

HUB = Path(__file__).with_name("wan_hub.py")
MAPPED_PORT = 7400


def nat_unavailable() -> str | None:
    return netns_unavailable() or (None if shutil.which("iptables") else
                                   "iptables is not installed (apt-get install iptables)")


def _run(*args: str) -> None:
    done = subprocess.run(list(args), capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(args)}: {done.stderr.strip()}")


class NatLab:
    """Namespaces ``pub``, ``a`` (home A) and ``b`` (home B), for peers; see the module doc."""

    def __init__(self, delay_ms: int = 80, jitter_ms: int = 20, loss: float = 0.02, *,
                 public_firewall: bool = False) -> None:
        self.public_firewall = public_firewall  # "pub" then takes no connection it did not open
        self.tag = f"nt{os.getpid() % 1000}{random.randrange(10, 100)}"
        self.net = random.randrange(1, 250)
        self.shaping = (delay_ms, jitter_ms, loss)
        self.hub: subprocess.Popen[str] | None = None
        self.peers: list[Peer] = []
        self.made: list[str] = []

    def ns(self, name: str) -> str:
        return f"{self.tag}{name}"

    def wan(self, last: int) -> str:
        return f"10.240.{self.net}.{last}"

    @property
    def public_addr(self) -> str:
        return self.wan(10)

    @property
    def router_a(self) -> str:
        return self.wan(1)

    home_addr: ClassVar[dict[str, str]] = {"a": "192.168.1.2", "b": "192.168.2.2"}

    def _ns(self, name: str) -> str:
        ns = self.ns(name)
        _run("ip", "netns", "add", ns)
        self.made.append(ns)
        _run("ip", "-n", ns, "link", "set", "lo", "up")
        _run("ip", "netns", "exec", ns, "sysctl", "-q", "-w", "net.ipv6.conf.all.disable_ipv6=1")
        return ns

    def _veth(self, ns1: str, if1: str, ns2: str, if2: str) -> None:
        tmp = f"{self.tag}x{len(self.made)}{random.randrange(100)}"[:15]
        _run("ip", "link", "add", tmp, "type", "veth", "peer", "name", if2, "netns", ns2)
        _run("ip", "link", "set", tmp, "netns", ns1)
        _run("ip", "-n", ns1, "link", "set", tmp, "name", if1)
        _run("ip", "-n", ns1, "link", "set", if1, "up")
        _run("ip", "-n", ns2, "link", "set", if2, "up")

    def __enter__(self) -> NatLab:
        try:
            hub, pub = self._ns("hub"), self._ns("pub")
            self._veth(hub, "hp", pub, "eth0")
            _run("ip", "-n", pub, "addr", "add", f"{self.public_addr}/24", "dev", "eth0")
            if self.public_firewall:
                for rule in (["-A", "INPUT", "-m", "conntrack", "--ctstate",
                              "ESTABLISHED,RELATED", "-j", "ACCEPT"],
                             ["-A", "INPUT", "-i", "eth0", "-j", "DROP"]):
                    _run("ip", "netns", "exec", pub, "iptables", *rule)
            for home, last, lan in (("a", 1, "192.168.1"), ("b", 2, "192.168.2")):
                router, peer = self._ns(f"r{home}"), self._ns(home)
                self._veth(hub, f"h{home}", router, "wan")
                self._veth(router, "lan", peer, "eth0")
                _run("ip", "-n", router, "addr", "add", f"{self.wan(last)}/24", "dev", "wan")
                _run("ip", "-n", router, "addr", "add", f"{lan}.1/24", "dev", "lan")
                _run("ip", "-n", peer, "addr", "add", f"{lan}.2/24", "dev", "eth0")
                _run("ip", "-n", peer, "route", "add", "default", "via", f"{lan}.1")
                self._router(router, f"{lan}.2", mapped=home == "a")
            self.hub = subprocess.Popen(
                ["ip", "netns", "exec", hub, sys.executable, str(HUB), *map(str, self.shaping),
                 "hp", "ha", "hb"], stdout=subprocess.PIPE, text=True)
            assert self.hub.stdout is not None and "HUB READY" in self.hub.stdout.readline()
        except BaseException:
            self.close()
            raise
        return self

    def _router(self, router: str, home: str, mapped: bool) -> None:
        def ipt(*rule: str) -> None:
            _run("ip", "netns", "exec", router, "iptables", *rule)

        _run("ip", "netns", "exec", router, "sysctl", "-q", "-w", "net.ipv4.ip_forward=1")
        ipt("-t", "nat", "-A", "POSTROUTING", "-o", "wan", "-j", "MASQUERADE")
        ipt("-A", "FORWARD", "-i", "wan", "-m", "conntrack", "--ctstate", "ESTABLISHED,RELATED",
            "-j", "ACCEPT")
        if mapped:
            ipt("-t", "nat", "-A", "PREROUTING", "-i", "wan", "-p", "udp", "--dport",
                str(MAPPED_PORT), "-j", "DNAT", "--to-destination", f"{home}:{MAPPED_PORT}")
            ipt("-A", "FORWARD", "-i", "wan", "-p", "udp", "-d", home, "--dport",
                str(MAPPED_PORT), "-j", "ACCEPT")
        ipt("-A", "FORWARD", "-i", "wan", "-j", "DROP")

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        for p in self.peers:
            p.kill()
        if self.hub is not None and self.hub.poll() is None:
            self.hub.kill()
            self.hub.wait(5)
        for ns in reversed(self.made):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)

    def cut(self, home: str) -> None:
        """The home's uplink goes dead (packets vanish, as when a line drops)."""
        _run("ip", "-n", self.ns(f"r{home}"), "link", "set", "wan", "down")

    def heal(self, home: str) -> None:
        _run("ip", "-n", self.ns(f"r{home}"), "link", "set", "wan", "up")

    def start(self, where: str, *args: str) -> Peer:
        peer = Peer(self.ns(where), args)
        self.peers.append(peer)
        return peer
