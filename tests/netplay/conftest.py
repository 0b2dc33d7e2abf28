"""Fixtures for the netplay tests.

The protocol (framing, handshake, encryption, links) is tested fed bytes or over the in-memory
network of virtual_net.py; the modules that open real sockets on 127.0.0.1 or start processes
say so with their marks (checked by tests/markers_plugin.py), so that
``pytest -m "not socket and not processes"`` runs the fast protocol tests alone.
"""

from __future__ import annotations

import pytest


@pytest.fixture
def plaintext_sent(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """Every message this process sends on a link, as packed before encryption: each netplay
    module that packs an outgoing message (the outbox packs them all; the link its bye)
    records into the returned list."""
    import netplay.link.link
    import netplay.link.outbox

    sent: list[bytes] = []
    for module in (netplay.link.outbox, netplay.link.link):
        real = module.pack

        def recording(msg: object, real: object = real) -> bytes:
            data = real(msg)  # type: ignore[operator]
            sent.append(data)
            return data

        monkeypatch.setattr(module, "pack", recording)
    return sent
