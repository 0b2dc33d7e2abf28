"""Designer notes in their context: each with its session, turn, phase, seat and the flags the
assist raised in that turn; near-identical notes grouped (the same remark typed forty ways is one
line with a count, where it was written and what was flagged around it). And the unfinished
sessions, listed in a table that stays closed until opened."""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from difflib import SequenceMatcher

from .html import _table, version_label
from .model import Note, Session

_LIST = 300  # notes listed one by one under the grouped table
SIMILAR = 0.8  # two notes whose normal forms match this closely are one remark


def _draft(s: Session) -> str:
    return version_label(s.version, s.game_hash) if s.draft_known else "module not in the log"


def normal(text: str) -> str:
    """A note's words, however typed: case, punctuation and spacing left out."""
    return " ".join(re.sub(r"[^\w\s]", " ", text.casefold()).split())


@dataclass(slots=True)
class Remark:
    """Near-identical notes, grouped."""
    key: str  # the normal form of its first note
    notes: list[tuple[Session, Note]] = field(default_factory=list)

    @property
    def text(self) -> str:
        """The wording written most often."""
        words = Counter(" ".join(n.text.split()) for _s, n in self.notes)
        return min(words, key=lambda w: (-words[w], w))

    def where(self) -> str:
        phases = Counter(n.phase or f"turn {n.turn}" if n.turn else "setup"
                         for _s, n in self.notes)
        return ", ".join(f"{p} ×{c}" for p, c in phases.most_common(3))

    def flags(self) -> str:
        rules = Counter(r for _s, n in self.notes for r in n.flags)
        return ", ".join(f"{r} ×{c}" for r, c in rules.most_common(3)) or "—"


def group_notes(notes: list[tuple[Session, Note]]) -> list[Remark]:
    """Notes grouped by what they say: the same words, or nearly (a typo, a word more)."""
    remarks: list[Remark] = []
    by_key: dict[str, Remark] = {}
    for s, note in notes:
        key = normal(note.text)
        remark = by_key.get(key)
        if remark is None:
            remark = next((r for r in remarks if _alike(r.key, key)), None)
            if remark is None:
                remark = Remark(key)
                remarks.append(remark)
            by_key[key] = remark
        remark.notes.append((s, note))
    return sorted(remarks, key=lambda r: (-len(r.notes), r.key))


def _alike(a: str, b: str) -> bool:
    if abs(len(a) - len(b)) > max(len(a), len(b)) * (1 - SIMILAR):
        return False
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    return matcher.real_quick_ratio() >= SIMILAR and matcher.ratio() >= SIMILAR


def render(ss: list[Session]) -> str:
    notes = [(s, n) for s in ss for n in s.notes]
    if not notes:
        return "<h3>Designer notes</h3><p class=muted>No notes in these sessions.</p>"
    drafts = sorted({_draft(s) for s in ss})
    remarks = group_notes(notes)
    rows = []
    for r in remarks:
        per = Counter(_draft(s) for s, _n in r.notes)
        rows.append([r.text, len(r.notes), len({s.name for s, _n in r.notes}), r.where(),
                     r.flags()] + ([per.get(d, 0) for d in drafts] if len(drafts) > 1 else []))
    head = ["Note (near-identical ones grouped)", "Times", "Sessions", "Where (phase)",
            "Flags in that turn"] + (drafts if len(drafts) > 1 else [])
    listed = [[s.name, n.op, n.turn, n.phase or "—", n.who, n.text, ", ".join(n.flags) or "—"]
              for s, n in notes[:_LIST]]
    more = f" (the first {_LIST})" if len(notes) > _LIST else ""
    return (f"<h3>Designer notes in context ({len(notes)}, {len(remarks)} different remarks)"
            f"</h3><p class=muted>Each note with the turn and phase it was written in and the "
            f"flags the rules assist raised in that turn (dismissed ones left out); notes that "
            f"say the same thing, however typed, are one line.</p>"
            + _table(head, rows, {1, 2, *range(5, len(head))})
            + f"<details><summary>Every note{more}, in its context</summary>"
            + _table(["Session", "Op", "Turn", "Phase", "Who", "Note", "Flags in that turn"],
                     listed, {1, 2}) + "</details>")


def unfinished(ss: list[Session]) -> str:
    """The sessions with no result, in a collapsed table (they are out of every win rate)."""
    open_ = [s for s in ss if not s.finished]
    if not open_:
        return ""
    rows = [[s.path.name, _draft(s), len(s.seats), s.turns, f"{s.minutes:.0f}",
             sum(s.flags.values()), len(s.notes)] for s in open_]
    return (f"<details><summary>{len(open_)} unfinished session(s) (no end-of-game op: left "
            f"out of every win rate)</summary>"
            + _table(["Session", "Draft", "Players", "Turns", "Minutes", "Flags", "Notes"],
                     rows, {2, 3, 4, 5, 6}) + "</details>")
