"""Joining by an internet ticket: a dial that found no stream yet (the path across NATs still
being found) is tried again until the join's deadline; a joiner without an internet endpoint
and a table that answered and refused are told at once. The session is a scripted double: what
is tested is when `dial` tries again, not the transport (tests/e2e/test_internet_faults.py
joins through real NATs)."""
from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from table.lan.reaching import dial
from table.lan.table import LanError
from tests.netplay.netplay_testkit import run

TICKET = "endpoint" + "a" * 40


class Session:
    """Fails its first dials with the given reasons, then links (or never, with None)."""

    def __init__(self, reasons: list[str], links: bool = True) -> None:
        self.reasons, self.links, self.dials = list(reasons), links, 0
        self.linked: list[str] = []
        self.mesh = SimpleNamespace(dial_failures={}, peers=lambda: list(self.linked))

    async def connect(self, host: str, port: int) -> bool:
        self.dials += 1
        if self.reasons:
            self.mesh.dial_failures[(host, port)] = self.reasons.pop(0)
            return False
        if not self.links:
            return False
        self.linked.append("host")
        return True


def _dial(session: Session, timeout: float) -> Any:
    return run(dial(SimpleNamespace(session=session), [(TICKET, 0)], timeout))  # type: ignore[arg-type]


def test_a_ticket_not_reached_yet_is_dialled_again_until_it_links() -> None:
    slow = f"connect to {TICKET[:24]}... failed: no answer within 3 s"
    session = Session([slow, slow])
    _dial(session, 10.0)
    assert session.dials == 3 and session.linked == ["host"]


@pytest.mark.parametrize("reason", [
    f"connect to {TICKET[:24]}... failed: no internet endpoint here (host or join with "
    "--internet to reach peers over the internet)",
    "the table refused: protocol version 1 (this peer speaks 2)",
    "authentication failed: wrong passphrase",
])
def test_a_joiner_without_an_endpoint_or_a_refusal_is_told_at_once(reason: str) -> None:
    session = Session([reason] * 5)
    with pytest.raises(LanError):
        _dial(session, 10.0)
    assert session.dials == 1


def test_a_ticket_never_reached_fails_at_the_deadline_with_the_link_s_reason() -> None:
    slow = f"connect to {TICKET[:24]}... failed: no answer within 3 s"
    session = Session([slow] * 50)
    with pytest.raises(LanError, match="no answer within 3 s"):
        _dial(session, 1.0)
    assert 2 <= session.dials < 50
