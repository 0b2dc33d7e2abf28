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
    # the designer's questions (all off unless set; `DESIGNER` sets them all):
    # two drafts of this game, every other session under draft B (the module with its version
    # bumped and its hand limit raised: table.bench.report.draft_of); its `strong_group` wins
    # `draft_weight` times as often in draft A only, so draft B is the more balanced
    draft_game: str | None = None
    draft_weight: float = 6.0
    # playtest groups, one per session (a tag op at setup); the loaded die only at the tables of
    # `loaded_group` (None: at every table of `loaded_game`)
    groups: tuple[str, ...] = ()
    loaded_group: str | None = None
    # a slip at a known rate per occasion: each Dead to Rites Dawn forgets its Favor with this
    # chance (DTR-DAWN-INCOME), instead of the one slip per session of `slip_rate`
    dawn_slips: float = 0.0
    # cards the scripted players hold but never play, per game: dead cards
    dead_cards: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # the starter decks the players choose from, per game (default: all of them)
    decks: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # designer notes: at the end of a turn, with `note_rate`, the seat notes one of these
    # (typed as people type: near-identical remarks)
    notes: tuple[str, ...] = ()
    note_rate: float = 0.0

    def legal(self) -> Plan:
        """The same plan with no slip planted: every seat plays by its rulebook."""
        zero: dict[str, Any] = {f.name: 0.0 for f in fields(self)
                                if f.name.endswith("slip_rate") or f.name == "dawn_slips"}
        return replace(self, **zero)


DESIGNER = Plan(draft_game="gauntlet",
                decks={"gauntlet": ("military", "diplomats", "mystics")},
                groups=("Tuesday club", "Thursday club", "Online league"),
                loaded_group="Thursday club", dawn_slips=0.05, dusk_slip_rate=0.6,
                dead_cards={"gauntlet": ("supply-cache",), "dead-to-rites": ("sellsword",),
                            "mantle-of-the-keeper": ("vogarn-vial-toss",)},
                notes=("Pacts never get played", "pacts never get played!",
                       "Pacts never get played.", "Is the hand limit checked before drawing?",
                       "is the hand limit checked before drawing", "Dawn income unclear"),
                note_rate=0.02)


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
    draft: str = ""  # "A" or "B" in the game of `Plan.draft_game`, else ""
    group: str = ""  # the playtest group (Plan.groups)
    occasions: dict[str, int] = field(default_factory=dict)  # rule -> times it applied
