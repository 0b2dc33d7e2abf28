"""Markers for the netplay tests that take the whole path.

The protocol (framing, handshake, encryption, links) is tested fed bytes or over the in-memory
network of virtual_net.py. The modules listed here open real sockets on 127.0.0.1 (meshes,
replication, discovery, fuzzing a listener) or start processes; they are marked so that
``pytest -m "not socket"`` runs the fast protocol tests alone. Tests elsewhere mark themselves.
"""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).parent
SOCKET_MODULES = {
    "test_discovery", "test_fuzz", "test_gifts_lan", "test_hidden_info", "test_mesh",
    "test_multiprocess", "test_op_fuzz", "test_qasync_timer_churn", "test_replication",
}
MULTIPROCESS_MODULES = {"test_multiprocess", "test_qasync_timer_churn", "test_admission_flood",
                        "test_long_session_limits"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        path = Path(str(item.fspath))
        if path.parent != HERE:
            continue
        if path.stem in SOCKET_MODULES:
            item.add_marker(pytest.mark.socket)
        if path.stem in MULTIPROCESS_MODULES:
            item.add_marker(pytest.mark.multiprocess)


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
