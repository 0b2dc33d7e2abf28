"""Where it is happening: a game's sessions sliced by what they are (their tag ops: playtest
group, event, free tag, player), `sandtable report --by group`. Every figure of the page is
shown per slice; above them, a table of the slices side by side, and their dice, each slice's
rolls of a die size tested against a fair die with the number of slices allowed for
(Bonferroni), so a loaded die at one group's table is singled out by name."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from .aggregate import Dice
from .dice import ALPHA
from .html import _Raw, _table
from .model import Session

BY = ("group", "event", "tag", "player")
NONE = {"group": "(no group)", "event": "(no event)", "tag": "(no tag)", "player": "(no name)"}


def values_of(s: Session, by: str) -> list[str]:
    """The slices a session falls in (a session with two tags is in both)."""
    if by == "group":
        return [s.group or NONE[by]]
    if by == "event":
        return [s.event or NONE[by]]
    if by == "tag":
        return list(s.tags) or [NONE[by]]
    if by == "player":
        return sorted(set(s.player_names)) or [NONE[by]]
    raise ValueError(f"--by {by!r}: one of {', '.join(BY)}")


def slices(ss: Sequence[Session], by: str) -> list[tuple[str, list[Session]]]:
    out: dict[str, list[Session]] = {}
    for s in ss:
        for value in values_of(s, by):
            out.setdefault(value, []).append(s)
    return sorted(out.items(), key=lambda kv: (kv[0] == NONE[by], kv[0]))


@dataclass(slots=True)
class SliceDice:
    label: str
    dice: Dice
    tests: int  # slice-dice tested (the Bonferroni factor)

    @property
    def adjusted(self) -> float:
        return min(1.0, self.dice.p_value * self.tests)

    @property
    def loaded(self) -> bool:
        return self.adjusted < ALPHA

    @property
    def most(self) -> int:
        return max(range(self.dice.sides), key=lambda i: self.dice.counts[i]) + 1


def slice_dice(parts: Sequence[tuple[str, Sequence[Session]]]) -> list[SliceDice]:
    """Each slice's rolls per die size, tested against a fair die (12 rolls or more)."""
    found: list[tuple[str, Dice]] = []
    for label, ss in parts:
        by_sides: dict[int, list[int]] = {}
        for s in ss:
            for sides, value, _seat in s.rolls:
                if 2 <= sides <= 100 and 1 <= value <= sides:
                    by_sides.setdefault(sides, [0] * sides)[value - 1] += 1
        found += [(label, Dice(n, c)) for n, c in sorted(by_sides.items()) if sum(c) >= 12]
    return [SliceDice(label, d, len(found)) for label, d in found]


def loaded_sentence(tested: Sequence[SliceDice], by: str) -> str:
    loaded = [x for x in tested if x.loaded]
    if not tested:
        return ""
    if not loaded:
        return (f"No {by}'s dice look unfair ({len(tested)} {by}-die tested against a fair "
                f"die, p × {len(tested)} ≥ {ALPHA}).")
    parts = []
    for x in sorted(loaded, key=lambda x: x.adjusted):
        d = x.dice
        parts.append(f"{by} {x.label}: face {x.most} came up {d.counts[x.most - 1]} times in "
                     f"{d.total} rolls of a d{d.sides} ({d.counts[x.most - 1] / d.total:.1%}, "
                     f"fair {1 / d.sides:.1%}; p × {x.tests} = {x.adjusted:.1e})")
    return (f"The dice look loaded at {len(loaded)} {by}(s): " + "; ".join(parts) + ".")


def render_dice(parts: Sequence[tuple[str, Sequence[Session]]], by: str) -> str:
    tested = slice_dice(parts)
    if not tested:
        return ""
    rows = []
    for x in tested:
        d = x.dice
        p = f"{x.adjusted:.1e}" if x.adjusted < 0.001 else f"{x.adjusted:.3f}"
        rows.append([x.label, f"d{d.sides}", d.total,
                     " ".join(f"{f + 1}:{c}" for f, c in enumerate(d.counts)),
                     f"{x.most} ({d.counts[x.most - 1] / d.total:.1%}, fair {1 / d.sides:.1%})",
                     f"{d.chi2:.1f}",
                     _Raw(f'<span class="neg">{p} — loaded?</span>') if x.loaded else p])
    sentence = loaded_sentence(tested, by)
    cls = "bad" if any(x.loaded for x in tested) else "muted"
    return (f"<h3>Dice per {escape(by)}</h3><p class=\"{cls}\">{escape(sentence)}</p>"
            + _table([by.capitalize(), "Die", "Rolls", "Faces (face:count)", "Most often",
                      "χ²", f"p × {len(tested)} tests"], rows, {2, 5}))


def summary(parts: Sequence[tuple[str, Sequence[Session]]], by: str) -> str:
    """The slices side by side: sessions, decided, turns, flags per session, notes."""
    rows = []
    for label, ss in parts:
        decided = sum(1 for s in ss if s.winners)
        turns = sum(s.turns for s in ss) / len(ss) if ss else 0.0
        flags = sum(sum(s.flags.values()) for s in ss) / len(ss) if ss else 0.0
        rows.append([label, len(ss), decided, f"{turns:.1f}", f"{flags:.1f}",
                     sum(len(s.notes) for s in ss)])
    return (f"<h3>By {escape(by)}: {len(parts)} slice(s)</h3><p class=muted>Every figure "
            f"below is shown for each {escape(by)} in turn (a session in several "
            f"{escape(by)}s counts in each).</p>"
            + _table([by.capitalize(), "Sessions", "Decided", "Turns (mean)",
                      "Flags / session", "Notes"], rows, {1, 2, 3, 4, 5}))
