"""What a legal corpus plants (`Plan`, the effects' true sizes) and what each of its sessions
holds (`Truth`), for the report's tests to recover (table.bench.legal_corpus)."""
from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any


@dataclass(frozen=True, slots=True)
class Plan:
    """The effects planted in a corpus (their true sizes, for the tests to recover)."""
    strong_group: dict[str, str] = field(default_factory=lambda: {
        "gauntlet": "Military", "dead-to-rites": "Grave Choir"})
    strong_weight: float = 2.5
    order_edge: dict[str, tuple[int, int]] = field(default_factory=lambda: {
        "mantle-of-the-keeper": (3, 3)})  # game -> (player count, seat order position)
    order_weight: float = 6.0
    loaded_game: str = "dead-to-rites"
    loaded_six: float = 0.35
    slip_rate: float = 0.2
    income_slip_rate: float = 0.2
    dusk_slip_rate: float = 0.25
    last_dusk_share: float = 0.3  # of the Dusk slips, planted at the last Dusk before the end
    play_slip_rate: float = 0.15  # a Dead to Rites Champion played once with nothing paid
    last_play_slip_rate: float = 0.5  # of unfinished Dead to Rites sessions: ended by one
    rite_slip_rate: float = 0.1  # of Rites placed: one Favor short
    last_stand_slip_rate: float = 0.3  # of Last Stands: the defender's +1 left out
    unfinished_rate: float = 0.05
    concession_rate: float = 0.1

    def legal(self) -> Plan:
        """The same plan with no slip planted: every seat plays by its rulebook."""
        zero: dict[str, Any] = {f.name: 0.0 for f in fields(self) if f.name.endswith("slip_rate")}
        return replace(self, **zero)


@dataclass(slots=True)
class Truth:
    """What was planted in one session (for tests), beside what its log says."""
    path: Path
    game: str
    seats: int
    groups: dict[int, str]
    order: list[int]
    winner: int | None
    slipped: bool
    how: str
    planted: dict[str, int] = field(default_factory=dict)  # rule -> slips planted (all kinds)
