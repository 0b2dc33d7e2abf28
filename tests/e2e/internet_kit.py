"""Helpers for the internet-play tests: a script any game plays (dice and chat only), and the
ticket a host prints."""
from __future__ import annotations

import json
from pathlib import Path

from tests.e2e.netns_kit import Peer


def dice_and_chat(path: Path, seat: int, ops: int, interval: float) -> Path:
    lines = [{"after": interval, "op": "roll", "sides": 6} if i % 2 == 0 else
             {"after": interval, "op": "chat", "text": f"seat {seat} says {i}"}
             for i in range(ops)]
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    return path


def ticket_of(p: Peer, timeout: float = 30) -> str:
    return p.wait_line("TICKET", timeout)[1]
