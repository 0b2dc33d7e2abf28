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
# whether the flag `e` (session, op, rule) was dismissed: its rule, or itself
DISMISSED = """EXISTS (SELECT 1 FROM dismissals d WHERE d.rule = e.rule
  AND (d.session IS NULL OR (d.session = e.session AND d.op = e.op)))"""

# (name, what the rows are, SQL): the rows every session of the report is built from
LOADS: list[tuple[str, str, str]] = [
    ("sessions", "each session the report can count, with its draft, result, damage",
     """SELECT session, named_after, sources, game, module_name, module_version, module_hash,
       created, recorded_as, ops, turns, duration_s, turn_seconds, how, condition, winners,
       salvaged, lost, damage, epoch_ms(started) / 1000.0 AS started, hidden_total,
       hidden_unknown, problems, installed_hash, module_changes, audited, disagree, judged_by,
       header_recovered, plays_declared, flags_why, playtest_group, event, tags, player_names
FROM sessions WHERE unusable = '' ORDER BY named_after"""),
    ("unusable", "sessions and logs the report cannot count, and why",
     """SELECT named_after AS log, unusable AS why FROM sessions WHERE unusable <> ''
UNION ALL
SELECT u.log, u.why FROM (SELECT unnest(unreadable) AS u FROM sessions)
ORDER BY log"""),
    ("seats", "each seat: name, deck, declared fields, group, turn order, score",
     """SELECT session, seat, name, deck, fields, "group", turn_order, score
FROM seats ORDER BY session, seat"""),
    ("flags", "flags per session and rule: settled ones, those a designer dismissed as false "
              "alarms, and those on salvaged ops, apart; one message each",
     f"""WITH every AS (
  SELECT session, op, rule, message, false AS salvaged FROM flags
  UNION ALL SELECT session, op, rule, message, true AS salvaged FROM salvaged_flags)
SELECT e.session, e.rule, e.salvaged, {DISMISSED} AS dismissed, count(*) AS flags,
       min(e.op) AS first_op, arg_min(e.message, e.op) AS message
FROM every e GROUP BY ALL ORDER BY e.session, first_op, e.rule"""),
    ("actions", "actions per session and seat (applied ops of a seat once play began)",
     f"""SELECT session, seat, count(*) AS actions FROM ops
WHERE NOT void AND seat IS NOT NULL AND turn > 0 AND kind IN ({_ACTION_KINDS})
GROUP BY session, seat ORDER BY session, seat"""),
    ("turns", "turns per session and seat (turn marks)",
     """SELECT session, active_seat AS seat, count(*) AS turns FROM ops
WHERE NOT void AND kind = 'mark' AND what = 'turn' AND active_seat IS NOT NULL
GROUP BY session, active_seat ORDER BY session, active_seat"""),
    ("notes", "the designers' notes in play order, each with its turn, phase, seat and the "
              "flags raised in that turn (settled, not dismissed)",
     f"""SELECT n.session, n.op, n.turn, n.name, n.text, n.phase, n.seat,
       list(DISTINCT e.rule ORDER BY e.rule) FILTER (e.rule IS NOT NULL) AS flags
FROM notes n LEFT JOIN flags e ON e.session = n.session AND e.turn = n.turn
  AND n.turn > 0 AND NOT {DISMISSED}
GROUP BY ALL ORDER BY n.session, n.op"""),
    ("rolls", "every die rolled: sides, face, seat",
     """SELECT session, sides, value, seat FROM draws WHERE kind = 'roll'
ORDER BY session, op"""),
    ("plays", "every card played, by seat, in play order",
     """SELECT session, seat, card FROM ops WHERE play ORDER BY session, op"""),
    ("hands", "every card's story in each seat's hand: held, opening, drawn, held at the end, "
              "played, used otherwise (as far as the logs know)",
     """SELECT session, seat, card, held, opening, drawn, held_end, played, used
FROM hands ORDER BY session, seat, card"""),
    ("occasions", "how often each rule applied (its occasions), per session",
     """SELECT session, rule, sum(occasions) AS occasions FROM occasions
GROUP BY session, rule ORDER BY session, rule"""),
    ("dismissals", "the rules and flags dismissed as false alarms, and why",
     """SELECT rule, session, op, why, source FROM dismissals ORDER BY rule, session, op"""),
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
    ("flags per session, mean, salvaged and dismissed flags left out (Overview: Flags / session)",
     f"""SELECT s.game, round(count(e.rule) / count(DISTINCT s.session), 1) AS flags
FROM sessions s LEFT JOIN flags e ON e.session = s.session AND NOT {DISMISSED}
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
     """SELECT s.game, count(*) AS salvaged_flags FROM salvaged_flags f
JOIN sessions s USING (session)
WHERE s.unusable = '' GROUP BY s.game ORDER BY s.game"""),
    ("flags dismissed as false alarms, counted apart (Overview)",
     f"""SELECT s.game, count(*) AS dismissed_flags FROM flags e JOIN sessions s USING (session)
WHERE {DISMISSED} AND s.unusable = '' GROUP BY s.game ORDER BY s.game"""),
    ("flags raised, per game (a game's 'flags raised' card)",
     f"""SELECT s.game, count(*) AS flags FROM flags e JOIN sessions s USING (session)
WHERE NOT {DISMISSED} AND s.unusable = '' GROUP BY s.game ORDER BY s.game"""),
    ("rules flagged most: flags and sessions per rule (the flags chart)",
     f"""SELECT s.game, e.rule, count(*) AS flags, count(DISTINCT e.session) AS sessions
FROM flags e JOIN sessions s USING (session) WHERE NOT {DISMISSED} AND s.unusable = ''
GROUP BY s.game, e.rule ORDER BY s.game, flags DESC, e.rule"""),
    ("rules by slips per occasion, dismissed ones left out (Confusion per occasion)",
     f"""WITH slips AS (
  SELECT e.session, e.rule, count(*) AS slips FROM flags e WHERE NOT {DISMISSED}
  GROUP BY ALL),
times AS (SELECT session, rule, sum(occasions) AS occasions FROM occasions GROUP BY ALL)
SELECT s.game, coalesce(f.rule, t.rule) AS rule, sum(coalesce(f.slips, 0)) AS slips,
       sum(t.occasions) AS occasions,
       round(sum(coalesce(f.slips, 0)) / sum(t.occasions), 4) AS per_occasion
FROM times t FULL JOIN slips f USING (session, rule) JOIN sessions s USING (session)
WHERE s.unusable = '' GROUP BY ALL HAVING sum(t.occasions) > 0
ORDER BY s.game, per_occasion DESC, rule"""),
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
    ("dice per playtest group: sixes of a d6 and all its rolls (Dice per group)",
     """SELECT s.game, s.playtest_group, count(*) FILTER (d.value = 6) AS sixes,
       count(*) AS rolls
FROM draws d JOIN sessions s USING (session)
WHERE d.kind = 'roll' AND d.sides = 6 AND s.unusable = '' GROUP BY ALL ORDER BY ALL"""),
    ("cards held and never played: seat-games holding them (Cards: dead cards)",
     """SELECT s.game, h.card, count(*) FILTER (h.held) AS held_in, sum(h.played) AS played
FROM hands h JOIN sessions s USING (session) WHERE s.unusable = ''
GROUP BY ALL HAVING sum(h.played) = 0 AND count(*) FILTER (h.held) > 0
ORDER BY s.game, held_in DESC, h.card"""),
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


# what `--by` slices the dataset's sessions by: the condition a session meets for a value
SLICES = {"group": ("playtest_group", "playtest_group = ?"), "event": ("event", "event = ?"),
          "tag": ("unnest(tags)", "list_contains(tags, ?)"),
          "player": ("unnest(player_names)", "list_contains(player_names, ?)")}


def figures_text(folder: str | Path, by: str | None = None) -> str:
    """Each headline figure's query over the dataset in `folder`, with its answer; with `by`
    (group, event, tag, player), the answers once per slice: the same queries over the
    sessions of that slice (the `sessions` view narrowed to them)."""
    from table.dataset.examples import views

    con = views(folder)
    out = [f"-- over the dataset {folder}"]
    if by is None:
        return "\n".join(out + _answers(con))
    column, condition = SLICES[by]
    con.execute("CREATE TEMP TABLE every_session AS SELECT * FROM sessions")
    values = [v for (v,) in con.execute(
        f"SELECT DISTINCT {column} AS v FROM every_session ORDER BY v").fetchall()]
    for value in values:
        where = condition.replace("?", _literal(value))
        con.execute(f"CREATE OR REPLACE TEMP VIEW sessions AS SELECT * FROM every_session "
                    f"WHERE {where}")
        out += [f"-- {by} {value!r}: sessions WHERE {where}", "", *_answers(con)]
    return "\n".join(out)


def _literal(value: object) -> str:
    return "'" + str(value).replace("'", "''") + "'"


def _answers(con: object) -> list[str]:
    out = []
    for figure, sql in FIGURES:
        cursor = con.execute(sql)  # type: ignore[attr-defined]
        columns = [d[0] for d in cursor.description]
        out += [f"-- {figure}", sql.rstrip() + ";", "-- " + " | ".join(columns)]
        out += ["-- " + " | ".join(str(v) for v in row) for row in cursor.fetchall()]
        out.append("")
    return out
