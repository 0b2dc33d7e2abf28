"""The DuckDB queries the report runs over the dataset (docs/report.md lists them).

Two kinds: `LOADS` read what the report knows of each session and seat out of the dataset's
tables (the page's tables and charts are computed from those rows); `FIGURES` are the page's
headline figures as a designer would ask them, one query each, printed with their answers by
`sandtable report --sql`. Both read the views `table.dataset.examples.views` makes, so every
query runs as printed in a DuckDB shell or notebook over the dataset folder.
"""
from __future__ import annotations

from pathlib import Path

from table.core.opkinds import ACTIONS

_ACTION_KINDS = ", ".join(f"'{k}'" for k in sorted(ACTIONS))

# (name, what the rows are, SQL): the rows every session of the report is built from
LOADS: list[tuple[str, str, str]] = [
    ("sessions", "each session the report can count, with its draft, result, damage",
     """SELECT session, named_after, sources, game, module_name, module_version, module_hash,
       created, recorded_as, ops, turns, duration_s, turn_seconds, how, condition, winners,
       salvaged, lost, damage, epoch_ms(started) / 1000.0 AS started, hidden_total,
       hidden_unknown, problems, installed_hash, module_changes, audited, disagree, judged_by,
       header_recovered, plays_declared, flags_why
FROM sessions WHERE unusable = '' ORDER BY named_after"""),
    ("unusable", "sessions and logs the report cannot count, and why",
     """SELECT named_after AS log, unusable AS why FROM sessions WHERE unusable <> ''
UNION ALL
SELECT u.log, u.why FROM (SELECT unnest(unreadable) AS u FROM sessions)
ORDER BY log"""),
    ("seats", "each seat: name, deck, declared fields, group, turn order, score",
     """SELECT session, seat, name, deck, fields, "group", turn_order, score
FROM seats ORDER BY session, seat"""),
    ("flags", "flags per session and rule, those on salvaged ops apart, one message each",
     """SELECT session, rule, salvaged, count(*) AS flags, min(op) AS first_op,
       arg_min(message, op) AS message
FROM flags GROUP BY session, rule, salvaged ORDER BY session, first_op, rule"""),
    ("actions", "actions per session and seat (applied ops of a seat once play began)",
     f"""SELECT session, seat, count(*) AS actions FROM ops
WHERE NOT void AND seat IS NOT NULL AND turn > 0 AND kind IN ({_ACTION_KINDS})
GROUP BY session, seat ORDER BY session, seat"""),
    ("turns", "turns per session and seat (turn marks)",
     """SELECT session, active_seat AS seat, count(*) AS turns FROM ops
WHERE NOT void AND kind = 'mark' AND what = 'turn' AND active_seat IS NOT NULL
GROUP BY session, active_seat ORDER BY session, active_seat"""),
    ("notes", "the designers' notes, in play order",
     """SELECT session, op, turn, name, text FROM notes ORDER BY session, op"""),
    ("rolls", "every die rolled: sides, face, seat",
     """SELECT session, sides, value, seat FROM draws WHERE kind = 'roll'
ORDER BY session, op"""),
    ("plays", "every card played, by seat, in play order",
     """SELECT session, seat, card FROM ops WHERE play ORDER BY session, op"""),
    ("hands", "every card that entered a seat's hand (as far as the logs know)",
     """SELECT session, seat, card FROM hands ORDER BY session, seat, card"""),
]

# (figure, SQL): the page's headline figures, per game (and draft where the page says so)
FIGURES: list[tuple[str, str]] = [
    ("sessions per game (Overview: Sessions)",
     "SELECT game, count(*) AS sessions FROM sessions WHERE unusable = '' "
     "GROUP BY game ORDER BY game"),
    ("drafts per game (Overview: Drafts)",
     """SELECT game, count(DISTINCT CASE WHEN judged_by = ''
       THEN module_version || ' ' || module_hash ELSE 'module not in the log' END) AS drafts
FROM sessions WHERE unusable = '' GROUP BY game ORDER BY game"""),
    ("turns per game, mean (Overview: Turns)",
     "SELECT game, round(avg(turns), 1) AS turns FROM sessions WHERE unusable = '' "
     "GROUP BY game ORDER BY game"),
    ("minutes per game, mean (Overview: Minutes)",
     "SELECT game, round(avg(duration_s) / 60, 0) AS minutes FROM sessions "
     "WHERE unusable = '' GROUP BY game ORDER BY game"),
    ("flags per session, mean, salvaged ops left out (Overview: Flags / session)",
     """SELECT s.game, round(count(f.rule) / count(DISTINCT s.session), 1) AS flags
FROM sessions s LEFT JOIN flags f ON f.session = s.session AND NOT f.salvaged
WHERE s.unusable = '' GROUP BY s.game ORDER BY s.game"""),
    ("designer notes per game (Overview: Notes)",
     """SELECT s.game, count(n.op) AS notes FROM sessions s LEFT JOIN notes n USING (session)
WHERE s.unusable = '' GROUP BY s.game ORDER BY s.game"""),
    ("sessions with a winner, and unfinished ones (Overview)",
     """SELECT game, count(*) FILTER (len(winners) > 0) AS with_a_winner,
       count(*) FILTER (unfinished) AS unfinished FROM sessions WHERE unusable = ''
GROUP BY game ORDER BY game"""),
    ("damaged logs (Overview: Damaged logs)",
     """SELECT game, count(*) FILTER (salvaged > 0 OR len(damage) > 0) AS damaged
FROM sessions WHERE unusable = '' GROUP BY game ORDER BY game"""),
    ("flags on salvaged ops, kept out of the totals (Overview)",
     """SELECT s.game, count(*) AS salvaged_flags FROM flags f JOIN sessions s USING (session)
WHERE f.salvaged AND s.unusable = '' GROUP BY s.game ORDER BY s.game"""),
    ("flags raised, per game (a game's 'flags raised' card)",
     """SELECT s.game, count(*) AS flags FROM flags f JOIN sessions s USING (session)
WHERE NOT f.salvaged AND s.unusable = '' GROUP BY s.game ORDER BY s.game"""),
    ("rules flagged most: flags and sessions per rule (the flags chart)",
     """SELECT s.game, f.rule, count(*) AS flags, count(DISTINCT f.session) AS sessions
FROM flags f JOIN sessions s USING (session) WHERE NOT f.salvaged AND s.unusable = ''
GROUP BY s.game, f.rule ORDER BY s.game, flags DESC, f.rule"""),
    ("win rate by deck group, decided sessions (Win rate by group)",
     """SELECT s.game, st."group", count(*) AS seat_games, sum(st.won::INT) AS wins
FROM seats st JOIN sessions s USING (session)
WHERE s.unusable = '' AND len(s.winners) > 0 AND st."group" IS NOT NULL
GROUP BY s.game, st."group" ORDER BY s.game, st."group\""""),
    ("win rate by seat order and player count (Seat order)",
     """SELECT s.game, s.players, st.turn_order, count(*) AS seat_games,
       sum(st.won::INT) AS wins
FROM seats st JOIN sessions s USING (session)
WHERE s.unusable = '' AND len(s.winners) > 0 AND st.turn_order IS NOT NULL
GROUP BY ALL ORDER BY ALL"""),
    ("cards played: plays and sessions per card (Cards)",
     """SELECT s.game, o.card, count(*) AS plays, count(DISTINCT o.session) AS sessions
FROM ops o JOIN sessions s USING (session) WHERE o.play AND s.unusable = ''
GROUP BY s.game, o.card ORDER BY s.game, plays DESC, o.card"""),
    ("dice: rolls per face (Dice)",
     """SELECT s.game, d.sides, d.value, count(*) AS rolls
FROM draws d JOIN sessions s USING (session) WHERE d.kind = 'roll' AND s.unusable = ''
GROUP BY ALL ORDER BY ALL"""),
]


def sql_text() -> str:
    """Every query the report runs, as `sandtable report --sql` prints them."""
    out = ["-- The rows the report is built from (one query each):"]
    for name, what, sql in LOADS:
        out += [f"-- {name}: {what}", sql.rstrip() + ";", ""]
    out.append("-- The page's headline figures:")
    for figure, sql in FIGURES:
        out += [f"-- {figure}", sql.rstrip() + ";", ""]
    return "\n".join(out)


def figures_text(folder: str | Path) -> str:
    """Each headline figure's query over the dataset in `folder`, with its answer."""
    from table.dataset.examples import views

    con = views(folder)
    out = [f"-- over the dataset {folder}"]
    for figure, sql in FIGURES:
        cursor = con.execute(sql)
        columns = [d[0] for d in cursor.description]
        out += [f"-- {figure}", sql.rstrip() + ";", "-- " + " | ".join(columns)]
        out += ["-- " + " | ".join(str(v) for v in row) for row in cursor.fetchall()]
        out.append("")
    return "\n".join(out)
