"""Designer notes grouped by what they say and by draft (the same remark in forty sessions is
one line with a count, not forty), with every note one click away; and the unfinished
sessions, listed in a table that stays closed until opened."""
from __future__ import annotations

from collections import Counter, defaultdict

from .html import _table, version_label
from .model import Session

_LIST = 200  # notes listed one by one under the grouped table


def _draft(s: Session) -> str:
    return version_label(s.version, s.game_hash) if s.draft_known else "module not in the log"


def render(ss: list[Session]) -> str:
    notes = [(s, n, turn, who, text) for s in ss for n, turn, who, text in s.notes]
    if not notes:
        return "<h3>Designer notes</h3><p class=muted>No notes in these sessions.</p>"
    drafts = sorted({_draft(s) for s in ss})
    by_text: dict[str, Counter[str]] = defaultdict(Counter)
    sessions: dict[str, set[str]] = defaultdict(set)
    for s, _n, _turn, _who, text in notes:
        key = " ".join(text.split()).casefold()  # the same words, however typed
        by_text[key][_draft(s)] += 1
        sessions[key].add(s.name)
    shown = {(" ".join(t.split())).casefold(): " ".join(t.split()) for *_x, t in notes}
    rows = []
    for key, per in sorted(by_text.items(), key=lambda kv: (-sum(kv[1].values()), kv[0])):
        rows.append([shown[key], sum(per.values()), len(sessions[key])]
                    + ([per.get(d, 0) for d in drafts] if len(drafts) > 1 else []))
    head = ["Note", "Times", "Sessions"] + (drafts if len(drafts) > 1 else [])
    listed = [(s.name, n, turn, who, text) for s, n, turn, who, text in notes[:_LIST]]
    more = f" (the first {_LIST})" if len(notes) > _LIST else ""
    return (f"<h3>Designer notes ({len(notes)}, {len(rows)} different)</h3>"
            + _table(head, rows, set(range(1, len(head))))
            + f"<details><summary>Every note{more}</summary><div class=scroll>"
            + _table(["Session", "Op", "Turn", "Who", "Note"], listed, {1, 2})
            + "</div></details>")


def unfinished(ss: list[Session]) -> str:
    """The sessions with no result, in a collapsed table (they are out of every win rate)."""
    open_ = [s for s in ss if not s.finished]
    if not open_:
        return ""
    rows = [[s.path.name, _draft(s), len(s.seats), s.turns, f"{s.minutes:.0f}",
             sum(s.flags.values()), len(s.notes)] for s in open_]
    return (f"<details><summary>{len(open_)} unfinished session(s) (no end-of-game op: left "
            f"out of every win rate)</summary><div class=scroll>"
            + _table(["Session", "Draft", "Players", "Turns", "Minutes", "Flags", "Notes"],
                     rows, {2, 3, 4, 5, 6}) + "</div></details>")

