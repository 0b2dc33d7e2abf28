"""Which rules confuse: each rule's slips per occasion (its flags against the times it applied,
as its plugin's occasions module states them: every Dawn, every hand at a turn's end), with a
95% interval, ranked by that rate; a frequent occasion no longer makes a rule look confusing.
Flags a designer dismissed as false alarms leave the ranking and are counted apart; rules
whose occasions are not declared are listed after, by flags alone."""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from .html import _Raw, _table
from .intervals import wilson
from .model import Session


@dataclass(slots=True)
class RuleRate:
    rule: str
    slips: int  # settled flags, dismissed ones left out
    occasions: int  # 0: the rule declares none
    sessions: int  # sessions with a slip
    dismissed: int = 0

    @property
    def rate(self) -> float:
        return self.slips / self.occasions if self.occasions else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(min(self.slips, self.occasions), self.occasions)


def rule_rates(ss: Sequence[Session]) -> tuple[list[RuleRate], list[RuleRate]]:
    """(rules with occasions, ranked by slips per occasion; rules without, by flags)."""
    checked = [s for s in ss if not s.flags_why]
    slips: Counter[str] = Counter()
    times: Counter[str] = Counter()
    where: Counter[str] = Counter()
    dismissed: Counter[str] = Counter()
    for s in checked:
        slips.update(s.flags)
        times.update(s.occasions)
        where.update(set(s.flags))
        dismissed.update(s.dismissed_flags)
    rules = set(slips) | set(times)
    rated = [RuleRate(r, slips[r], times[r], where[r], dismissed[r]) for r in rules if times[r]]
    bare = [RuleRate(r, slips[r], 0, where[r], dismissed[r]) for r in rules if not times[r]]
    rated.sort(key=lambda r: (-r.rate, -r.slips, r.rule))
    bare.sort(key=lambda r: (-r.slips, r.rule))
    return rated, bare


def dismissed_rules(ss: Sequence[Session]) -> Counter[str]:
    out: Counter[str] = Counter()
    for s in ss:
        out.update(s.dismissed_flags)
    return out


def render(ss: Sequence[Session], why: dict[str, str] | None = None) -> str:
    """The ranking, then the rules without declared occasions, then what was dismissed."""
    rated, bare = rule_rates(ss)
    gone = dismissed_rules(ss)
    if not rated and not bare and not gone:
        return ""
    rows = []
    for r in rated:
        if not r.slips and not r.dismissed:
            continue
        lo, hi = r.interval
        rows.append([r.rule, r.slips, r.occasions,
                     _Raw(f"<b>{r.rate * 100:.1f}%</b>"), f"{lo * 100:.1f}%–{hi * 100:.1f}%",
                     r.sessions, r.dismissed or ""])
    quiet = sum(1 for r in rated if not r.slips)
    out = ["<h3>Confusion per occasion: rules ranked by slips per occasion</h3>"
           "<p class=muted>A rule's slips (its flags, those dismissed as false alarms left out) "
           "against its occasions: the times it applied, as the game's rules-assist plugin "
           "states them (every Dawn, every Crowning, every hand at a turn's end), with the 95% "
           "Wilson interval. A rule that applies often no longer ranks first for that alone."
           + (f" {quiet} rule(s) with occasions were never slipped." if quiet else "")
           + "</p>"]
    if rows:
        out.append(_table(["Rule", "Slips", "Occasions", "Per occasion", "95% CI",
                           "Sessions with a slip", "Dismissed (not counted)"], rows,
                          {1, 2, 5, 6}))
    if bare:
        out.append("<p class=muted>Rules whose occasions the plugin does not declare, by flags: "
                   + escape("; ".join(f"{r.rule} {r.slips} in {r.sessions} session(s)"
                                      for r in bare)) + "</p>")
    if gone:
        why = why or {}
        items = "".join(f"<li><b>{escape(rule)}</b>: {n} flag(s)"
                        + (f" — {escape(why[rule])}" if why.get(rule) else "") + "</li>"
                        for rule, n in gone.most_common())
        out.append(f"<p><b>Dismissed as false alarms</b> ({sum(gone.values())} flag(s), out "
                   f"of every total and ranking):</p><ul>{items}</ul>")
    return "".join(out)
