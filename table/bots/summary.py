"""What a batch of bot games says: each bot's wins against its seat share with a 95% interval,
per seat too (restricted play: bot X against bot Y, per seat), how the games ended, their
length, the rules assist's flags on the bots' moves by rule, the cards whose text the bots did
not resolve; and, against another batch (a draft's), the difference with its interval."""
from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

from table.report.intervals import diff_of_means, diff_of_rates, mean_interval, wilson


def summarise(results: Sequence[dict[str, Any]], *, game: str, module_label: str,
              seconds: float) -> dict[str, Any]:
    n = len(results)
    seats = results[0]["seats"] if results else 0
    wins: Counter[str] = Counter()
    played: Counter[str] = Counter()
    by_seat: dict[str, dict[int, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    flags: Counter[str] = Counter()
    hows: Counter[str] = Counter()
    unresolved: Counter[str] = Counter()
    for r in results:
        for seat, name in r["bots"].items():
            played[name] += 1
            won = int(seat) in r["winners"]
            wins[name] += won
            cell = by_seat[name][int(seat)]
            cell[0] += won
            cell[1] += 1
        flags.update(r["flags"])
        hows[r["how"] + (f" ({r['condition']})" if r["condition"] else "")] += 1
        unresolved.update(r["unresolved"])
    bots = {}
    for name in sorted(played):
        low, high = wilson(wins[name], played[name])
        bots[name] = {"games": played[name], "wins": wins[name],
                      "rate": wins[name] / played[name], "low": low, "high": high,
                      "seat_share": 1 / seats if seats else 0.0,
                      "by_seat": {s: {"wins": w, "games": g} for s, (w, g) in
                                  sorted(by_seat[name].items())}}
    turns = [float(r["turns"]) for r in results]
    mean, lo, hi = mean_interval(turns) if turns else (0.0, 0.0, 0.0)
    by_win = sum(1 for r in results if r["how"] == "victory")
    return {"game": game, "module": module_label, "games": n, "seats": seats, "bots": bots,
            "ended_by_win_condition": by_win, "endings": dict(hows),
            "turns": {"mean": mean, "low": lo, "high": hi, "values": turns},
            "flags": dict(flags), "flags_total": sum(flags.values()),
            "unresolved_cards": dict(unresolved), "seconds": seconds,
            "games_per_second": n / seconds if seconds else 0.0,
            "digests": [r["digest"] for r in results]}


def compare(base: dict[str, Any], draft: dict[str, Any]) -> dict[str, Any]:
    """The draft's batch against the base's: each bot's win rate and the game length, the
    difference (draft - base) with its 95% interval, and whether the interval excludes 0."""
    out: dict[str, Any] = {"base": base["module"], "draft": draft["module"], "bots": {}}
    for name, b in base["bots"].items():
        d = draft["bots"].get(name)
        if d is None:
            continue
        diff = diff_of_rates(b["wins"], b["games"], d["wins"], d["games"])
        if diff is not None:
            out["bots"][name] = {"base": b["rate"], "draft": d["rate"], "diff": diff[0],
                                 "low": diff[1], "high": diff[2],
                                 "moved": diff[1] > 0 or diff[2] < 0}
    t = diff_of_means(base["turns"]["values"], draft["turns"]["values"])
    if t is not None:
        out["turns"] = {"base": base["turns"]["mean"], "draft": draft["turns"]["mean"],
                        "diff": t[0], "low": t[1], "high": t[2], "moved": t[1] > 0 or t[2] < 0}
    return out


def lines(s: dict[str, Any]) -> list[str]:
    out = [f"{s['games']} games of {s['module']}, {s['seats']} seats, "
           f"{s['games_per_second']:.1f} games/s"]
    for name, b in s["bots"].items():
        out.append(f"  {name:<34} won {b['wins']:>5} of {b['games']:<5} = {b['rate']:6.1%} "
                   f"[{b['low']:.1%}, {b['high']:.1%}]  (seat share {b['seat_share']:.0%})")
        seats = ", ".join(f"seat {k}: {v['wins']}/{v['games']}" for k, v in b["by_seat"].items())
        out.append(f"  {'':<34} {seats}")
    out.append(f"  ended by the game's own win condition: {s['ended_by_win_condition']} of "
               f"{s['games']} ({', '.join(f'{k}: {v}' for k, v in s['endings'].items())})")
    t = s["turns"]
    out.append(f"  turns per game: {t['mean']:.1f} [{t['low']:.1f}, {t['high']:.1f}]")
    flags = ", ".join(f"{k} {v}" for k, v in sorted(s["flags"].items())) or "none"
    out.append(f"  rules assist flags on the bots' moves: {s['flags_total']} ({flags})")
    cards = ", ".join(sorted(s["unresolved_cards"])) or "none"
    out.append(f"  cards whose text the bots did not resolve: {cards}")
    return out


def compare_lines(c: dict[str, Any]) -> list[str]:
    out = [f"draft {c['draft']} against {c['base']} (draft - base, 95% interval):"]
    for name, b in c["bots"].items():
        out.append(f"  {name:<34} win rate {b['base']:.1%} -> {b['draft']:.1%}: "
                   f"{b['diff']:+.1%} [{b['low']:+.1%}, {b['high']:+.1%}]"
                   f"{'  moved' if b['moved'] else ''}")
    if "turns" in c:
        t = c["turns"]
        out.append(f"  turns per game {t['base']:.1f} -> {t['draft']:.1f}: {t['diff']:+.1f} "
                   f"[{t['low']:+.1f}, {t['high']:+.1f}]{'  moved' if t['moved'] else ''}")
    return out


__all__ = ["compare", "compare_lines", "lines", "summarise"]
