"""Cards: how often each was played, the win rate of the seats that played it and its lift
against its own group's seats, each with a 95% interval; on the page and as `cards.csv`."""
from __future__ import annotations

from typing import Any

from . import aggregate as agg
from .html import _pct, _Raw, _table
from .intervals import diff_of_rates, wilson
from .model import Session
from .session import installed_module

TOP = 30


def held(ss: list[Session]) -> dict[str, tuple[int, int]]:
    """Card -> (wins, seat-games) of the seats that held it in hand at some point, in decided
    sessions (whether or not they played it)."""
    out: dict[str, list[int]] = {}
    for s in agg.decided(ss):
        for seat, cards in s.in_hand.items():
            for card in cards:
                cell = out.setdefault(card, [0, 0])
                cell[0] += int(seat in s.winners)
                cell[1] += 1
    return {card: (w, n) for card, (w, n) in out.items()}


def card_rows(ss: list[Session]) -> list[dict[str, Any]]:
    """One row per card played or held (`report --csv`: cards.csv), most played first."""
    if not ss or not any(s.plays_declared for s in ss):
        return []
    module = installed_module(ss[0].game)
    cards = getattr(module, "cards", {}) or {}
    in_hand = held(ss)
    stats = agg.card_stats(ss, module)
    seen = {c.card for c in stats}
    stats += [agg.CardStat(card, getattr(cards.get(card), "group", "") or "", 0, 0, 0, 0)
              for card in sorted(set(in_hand) - seen)]
    rows = []
    for c in stats:
        card = cards.get(c.card)
        lo, hi = c.interval
        base = c.baseline
        lift = _lift(c)
        wins_held, n_held = in_hand.get(c.card, (0, 0))
        held_lo, held_hi = wilson(wins_held, n_held)
        rows.append({
            "game": ss[0].game, "card": c.card, "name": card.name if card else c.card,
            "type": card.type if card else "", "group": c.group,
            "sessions": c.sessions, "play_rate": round(c.sessions / len(ss), 4),
            "copies_played": c.plays, "seat_games": c.seat_games, "wins": c.wins,
            "win_rate": round(c.win_rate, 4) if c.seat_games else "",
            "win_low": round(lo, 4) if c.seat_games else "",
            "win_high": round(hi, 4) if c.seat_games else "",
            "held_seat_games": n_held, "held_wins": wins_held,
            "in_hand_win_rate": round(wins_held / n_held, 4) if n_held else "",
            "in_hand_low": round(held_lo, 4) if n_held else "",
            "in_hand_high": round(held_hi, 4) if n_held else "",
            "group_rate": round(base.rate, 4) if base is not None and base.games else "",
            "group_seat_games": base.games if base is not None else "",
            "lift": round(lift[0], 4) if lift else "",
            "lift_low": round(lift[1], 4) if lift else "",
            "lift_high": round(lift[2], 4) if lift else "",
        })
    return rows


def _lift(c: agg.CardStat) -> tuple[float, float, float] | None:
    """The card's win rate minus its group's, with the 95% interval of that difference."""
    base = c.baseline
    if base is None or not base.games or not c.seat_games:
        return None
    return diff_of_rates(base.wins, base.games, c.wins, c.seat_games)


def _cards(ss: list[Session]) -> str:
    if not any(s.plays_declared for s in ss):
        return ("<h3>Cards</h3><p class=muted>The game module does not declare what counts as a "
                "card played (<code>[rules.plays]</code> in game.toml), so no card statistics."
                "</p>")
    rows_all = [r for r in card_rows(ss) if r["sessions"]]
    if not rows_all:
        return ("<h3>Cards</h3><p class=muted>No card was played (as the module defines a play) "
                "in these sessions.</p>")
    rows = []
    for r in rows_all[:TOP]:
        if r["lift"] == "":
            lift_cell: Any = "—"
        else:
            cls = "pos" if r["lift_low"] > 0 else "neg" if r["lift_high"] < 0 else ""
            lift_cell = _Raw(f'<span class="{cls}">{r["lift"] * 100:+.0f} pts</span> '
                             f'<small>{r["lift_low"] * 100:+.0f} to {r["lift_high"] * 100:+.0f}'
                             f' · vs {_pct(r["group_rate"])} of {r["group_seat_games"]}</small>')
        played = r["sessions"] / len(ss)
        rows.append([r["name"], r["type"], r["group"] or "—",
                     _Raw(f'<span class="bar" style="width:{played * 100:.0f}px"></span>'
                          f" {_pct(played)}"), r["copies_played"], r["seat_games"],
                     _pct(r["win_rate"]) if r["seat_games"] else "—",
                     f'{_pct(r["win_low"])}–{_pct(r["win_high"])}' if r["seat_games"] else "—",
                     lift_cell,
                     f'{_pct(r["in_hand_win_rate"])} ({_pct(r["in_hand_low"])}–'
                     f'{_pct(r["in_hand_high"])}, n={r["held_seat_games"]})'
                     if r["held_seat_games"] else "—"])
    incomplete = any(s.hidden_unknown for s in ss)
    note = (" Counts only cards this set of logs saw played (some logs are one peer's)."
            if incomplete else "")
    shown = (f"All {len(rows_all)} cards played." if len(rows_all) <= TOP else
             f"The {TOP} most played of {len(rows_all)} cards (all of them in cards.csv with "
             f"<code>--csv</code>).")
    return ("<h3>Cards: play rate and win correlation</h3>"
            f'<p class="muted">A play is what the module declares (the zones a card of each type '
            f"is played to; setup excluded). Play rate: share of sessions in which some seat "
            f"played the card. Win rate when played (n = seat-games, 95% interval), and its "
            f"lift: the difference from the win rate of all seats of the card's own group, so a "
            f"strong faction does not make its cards look strong, with the 95% interval of that "
            f"difference (green or red when it leaves 0); and the win rate of the seats that "
            f"held it in hand at some point, played or not. {shown}{note}</p>" + _table(
                ["Card", "Type", "Group", "Play rate", "Copies", "n", "Win rate when played",
                 "95% CI", "Lift vs its group (95% CI)", "Win rate when held (95% CI, n)"],
                rows, {4, 5}))
