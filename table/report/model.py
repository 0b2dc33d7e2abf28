"""What the report knows of one session (`Session`) and of each seat in it (`SeatInfo`)."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path


class Skip(Exception):
    """This log cannot be part of the report; the message says why."""


@dataclass(slots=True)
class SeatInfo:
    seat: int
    name: str
    deck: str
    attrs: dict[str, str]  # deck headers: faction / leader / crown / chosen ...
    order: int | None = None  # 1 = played first
    group: str | None = None  # the deck's group (the module's `[decks] group_header`)


@dataclass(frozen=True, slots=True)
class Note:
    """A designer note in its context: where in the play it was written, and the flags the
    assist raised in that turn."""
    op: int
    turn: int
    who: str
    text: str
    phase: str = ""
    seat: int | None = None
    flags: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class CardStory:
    """One seat's story of one card in a session (the dataset's `hands` row)."""
    seat: int
    card: str
    held: bool
    opening: int = 0
    drawn: int = 0
    held_end: int = 0
    played: int = 0
    used: tuple[tuple[str, int], ...] = ()  # (zone name, copies) it left the hand to otherwise


@dataclass(slots=True)
class Session:
    path: Path
    game: str
    game_name: str
    version: str
    game_hash: str
    created: str  # when the log file was made (header); `started`: the first op's clock
    kind: str  # "hot-seat", "merged" or "one peer"
    seats: list[SeatInfo]
    ops: int = 0
    turns: int = 0
    minutes: float = 0.0
    turn_seconds: list[float] = field(default_factory=list)
    actions: Counter[int] = field(default_factory=Counter)  # seat -> actions
    turns_by_seat: Counter[int] = field(default_factory=Counter)
    flags: Counter[str] = field(default_factory=Counter)  # rule -> count (sound ops only)
    # rule -> flags on ops read past a lost record (salvage mode): kept out of every total
    salvaged_flags: Counter[str] = field(default_factory=Counter)
    # rule -> flags a designer dismissed as false alarms: counted apart, out of every ranking
    dismissed_flags: Counter[str] = field(default_factory=Counter)
    occasions: Counter[str] = field(default_factory=Counter)  # rule -> times it applied
    flag_messages: dict[str, str] = field(default_factory=dict)  # rule -> one example message
    flag_first: dict[str, int] = field(default_factory=dict)  # rule -> the op of its first flag
    flags_why: str = ""  # why there are no flags, when the assist did not run
    notes: list[Note] = field(default_factory=list)
    winner: int | None = None  # the first winner (see `winners`)
    winner_text: str = ""
    winners: set[int] = field(default_factory=set)
    how: str = ""  # how it ended: victory, concession, time, draw, abandoned ("" unfinished)
    condition: str = ""  # the module's victory condition, when named
    scores: dict[int, float] = field(default_factory=dict)
    plays_declared: bool = False  # the module says what counts as a play
    salvaged: int = 0  # ops applied past a lost one (salvage mode)
    lost: list[int] = field(default_factory=list)  # numbers of the lost ops (one-author log)
    damage: list[str] = field(default_factory=list)  # what the reader could not read
    started: float = 0.0  # the first op's wall clock (seconds since the epoch)
    played: dict[int, list[str]] = field(default_factory=dict)  # seat -> card ids, in order
    in_hand: dict[int, set[str]] = field(default_factory=dict)  # seat -> cards it ever held
    stories: list[CardStory] = field(default_factory=list)  # every card's story, per seat
    rolls: list[tuple[int, int, int | None]] = field(default_factory=list)  # (sides, value, seat)
    hidden_total: int = 0
    hidden_unknown: int = 0
    problems: list[str] = field(default_factory=list)
    installed_hash: str = ""  # the installed module's hash, when it differs
    # a draft changed during play: (op number, the version it changed to, its hash)
    module_changes: list[tuple[int, str, str]] = field(default_factory=list)
    # how far its dice and shuffles can be trusted (table.core.audit.audit_summary):
    # "audited", "play audited", "local", "degraded", "unverifiable", "failed" or "none"
    randomness: str = "none"
    # the logs read as this session: one, or several peers' logs of one table merged
    logs: list[str] = field(default_factory=list)
    # logs of this table that lack ops the others hold: (log name, ops it lacks)
    disagree: list[tuple[str, int]] = field(default_factory=list)
    # the module judged by when the log's own was not available (its draft is then unknown)
    judged_by: str = ""
    header_recovered: list[str] = field(default_factory=list)  # a damaged header's fields
    table_id: str = ""  # the session's id in the dataset (its table's)
    # what the session is (its tag ops): playtest group, event, free tags, who played
    group: str = ""
    event: str = ""
    tags: list[str] = field(default_factory=list)
    player_names: list[str] = field(default_factory=list)

    @property
    def draft_known(self) -> bool:
        """Whether the session was judged by the module it was played under."""
        return not self.judged_by

    @property
    def name(self) -> str:
        if len(self.logs) > 1:
            return f"{self.path.name} (+{len(self.logs) - 1} log(s) of its table)"
        return self.path.name

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def finished(self) -> bool:
        return bool(self.how)

    @property
    def decided(self) -> bool:
        return bool(self.winners)

    @property
    def actions_per_turn(self) -> float:
        return sum(self.actions.values()) / self.turns if self.turns else 0.0

    @property
    def seconds_per_turn(self) -> float:
        return sum(self.turn_seconds) / len(self.turn_seconds) if self.turn_seconds else 0.0

    @property
    def incomplete(self) -> list[str]:
        out = []
        if self.hidden_unknown:
            out.append(f"{self.hidden_unknown} of {self.hidden_total} hidden cards were never "
                       f"revealed to this log (a single peer's log: merge the peers' logs for "
                       f"the whole picture); card statistics count only cards it saw")
        if not self.finished:
            out.append("unfinished: the log has no end-of-game op (no result)")
        elif not self.winners:
            out.append(f"ended without a winner ({self.how})")
        if self.salvaged:
            lost = ", ".join(f"#{n}" for n in self.lost[:5]) + (" …" if len(self.lost) > 5
                                                                  else "")
            out.append(f"salvaged: op(s) {lost} lost; {self.salvaged} later op(s) read in "
                       f"salvage mode")
        if self.salvaged_flags:
            out.append(f"{sum(self.salvaged_flags.values())} flag(s) on salvaged ops, kept out "
                       f"of the totals (they may be the lost op's doing)")
        if self.disagree:
            out.append("the logs of this table disagree: " + "; ".join(
                f"{name} lacks {n} op(s) the others hold" for name, n in self.disagree)
                + " (merged: each op counted once)")
        if self.judged_by:
            out.append(f"module not in the log: judged by {self.judged_by}")
        if self.flags_why:
            out.append(f"no flags: {self.flags_why}")
        out.extend(p for p in self.problems if "salvage mode" not in p)  # said above
        return out
