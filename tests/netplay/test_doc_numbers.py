"""docs/protocol.md and docs/lan-play.md state the same numbers, and the code's defaults:
heartbeats, the dead-link limit, the handshake's timeouts and the admission's limits."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from netplay.link.link_state import LinkConfig
from netplay.mesh.admission import AdmissionLimits

DOCS = Path(__file__).resolve().parents[2] / "docs"
LINK, ADMISSION = LinkConfig(), AdmissionLimits()
NUM = r"([\d,]+(?:\.\d+)?)"
# what, the code's value, how protocol.md says it, how lan-play.md says it
NUMBERS = [
    ("heartbeat interval (s)", LINK.heartbeat_interval, rf"sends `hb` every {NUM} s",
     rf"heartbeats every {NUM} s"),
    ("dead link (s)", LINK.dead_after, rf"no frame for {NUM} s is dropped",
     rf"declared dead after {NUM} s without a frame"),
    ("handshake timeout (s)", LINK.handshake_timeout, rf"finish within {NUM} s of the",
     rf"the {NUM} s handshake timeout"),
    ("silent connection (s)", LINK.hello_timeout, rf"at most `hello_timeout` = {NUM} s",
     rf"idle pool of [\d,]+ for at most {NUM} s"),
    ("idle pool", ADMISSION.idle, rf"\*idle pool\* of {NUM} connections",
     rf"idle pool of {NUM} for"),
    ("handshake slots", ADMISSION.handshakes, rf"\*handshake slot\*: {NUM} in all",
     rf"one of {NUM} handshake slots"),
    ("kept for known peers", ADMISSION.known_share, rf"{NUM} of them kept",
     rf"{NUM} of them kept"),
    ("per address", ADMISSION.per_address, rf"One address holds at most {NUM} connections",
     rf"One address holds at most {NUM} connections"),
    ("stalled handshake (s)", ADMISSION.stall_after, rf"has sent nothing for {NUM} s",
     rf"a handshake silent for {NUM} s"),
]


def _text(name: str) -> str:
    return " ".join((DOCS / name).read_text(encoding="utf-8").split())


@pytest.mark.parametrize(("what", "value", "in_protocol", "in_lan_play"), NUMBERS,
                         ids=[n[0] for n in NUMBERS])
def test_both_pages_state_the_codes_number(what, value, in_protocol, in_lan_play):
    found = {}
    for page, pattern in (("protocol.md", in_protocol), ("lan-play.md", in_lan_play)):
        hits = re.findall(pattern, _text(page))
        assert hits, f"{page} does not state the {what} ({pattern!r})"
        found[page] = {float(h.replace(",", "")) for h in hits}
    assert found == {"protocol.md": {float(value)}, "lan-play.md": {float(value)}}, what


def test_no_other_heartbeat_figure_is_left_on_either_page():
    for page in ("protocol.md", "lan-play.md"):
        text = _text(page)
        assert not re.search(r"heartbeats? every (?!1 s)", text), page
        assert "10 s is dropped" not in text and "2 s / 10 s" not in text, page
