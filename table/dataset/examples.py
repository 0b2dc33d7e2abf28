"""The example queries of docs/dataset.md and the starter notebook, each in SQL (DuckDB) and
in Polars. The SQL reads views named after the tables (`views(folder)` makes them); the Polars
code reads `table(name)`, a LazyFrame of that table's files (`POLARS_PRELUDE`). A test runs
every one of them over a generated dataset and checks both engines agree."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from .schema import DISMISSALS, SESSION_TABLES

TABLES = ("sessions", "seats", "ops", "flags", "salvaged_flags", "cards", "draws", "notes",
          "hands", "occasions", "dismissals")

DUCKDB_PRELUDE = """import duckdb

DATASET = "{folder}"
for name in ("sessions", "seats", "ops", "flags", "salvaged_flags", "cards", "draws", "notes",
             "hands", "occasions", "dismissals"):
    duckdb.sql(f"CREATE OR REPLACE VIEW {{name}} AS SELECT * FROM "
               f"read_parquet('{{DATASET}}/{{name}}/*.parquet', union_by_name = true)")
"""

POLARS_PRELUDE = """import glob
import polars as pl

DATASET = "{folder}"

def table(name):
    files = sorted(glob.glob(f"{{DATASET}}/{{name}}/*.parquet"))
    return pl.concat([pl.scan_parquet(f) for f in files], how="diagonal_relaxed")
"""

# (title, SQL, Polars expression); each result is sorted so both engines give the same rows
EXAMPLES: list[tuple[str, str, str]] = [
    ("Sessions per game and draft",
     """SELECT game, draft, count(*) AS sessions
FROM sessions GROUP BY game, draft ORDER BY game, draft""",
     """(table("sessions").group_by("game", "draft").agg(pl.len().alias("sessions"))
 .sort("game", "draft").collect())"""),
    ("Win rate by deck group (faction, crown, chosen), decided sessions only",
     """SELECT s.game, st."group", count(*) AS seat_games, sum(st.won::INT) AS wins,
       round(avg(st.won::INT), 4) AS win_rate
FROM seats st JOIN sessions s USING (session)
WHERE len(s.winners) > 0 AND st."group" IS NOT NULL
GROUP BY s.game, st."group" ORDER BY s.game, st."group\"""",
     """(table("seats").join(table("sessions"), on="session")
 .filter((pl.col("winners").list.len() > 0) & pl.col("group").is_not_null())
 .group_by("game", "group")
 .agg(pl.len().alias("seat_games"), pl.col("won").cast(pl.Int64).sum().alias("wins"),
      pl.col("won").cast(pl.Float64).mean().round(4).alias("win_rate"))
 .sort("game", "group").collect())"""),
    ("Win rate by seat order, never pooled across player counts",
     """SELECT s.game, s.players, st.turn_order, count(*) AS seat_games,
       round(avg(st.won::INT), 4) AS win_rate
FROM seats st JOIN sessions s USING (session)
WHERE len(s.winners) > 0 AND st.turn_order IS NOT NULL
GROUP BY s.game, s.players, st.turn_order ORDER BY s.game, s.players, st.turn_order""",
     """(table("seats").join(table("sessions"), on="session")
 .filter((pl.col("winners").list.len() > 0) & pl.col("turn_order").is_not_null())
 .group_by("game", "players", "turn_order")
 .agg(pl.len().alias("seat_games"),
      pl.col("won").cast(pl.Float64).mean().round(4).alias("win_rate"))
 .sort("game", "players", "turn_order").collect())"""),
    ("Flags per rule: how often, in how many of the checked sessions",
     """SELECT s.game, f.rule, count(*) AS flags, count(DISTINCT f.session) AS sessions
FROM flags f JOIN sessions s USING (session)
GROUP BY s.game, f.rule ORDER BY s.game, f.rule""",
     """(table("flags").join(table("sessions"), on="session").group_by("game", "rule")
 .agg(pl.len().alias("flags"), pl.col("session").n_unique().alias("sessions"))
 .sort("game", "rule").collect())"""),
    ("Cards played, with their name and type from the module's cards.csv",
     """SELECT s.game, o.card, c.name, c.type, count(*) AS plays
FROM ops o JOIN sessions s USING (session)
LEFT JOIN cards c ON c.module_hash = s.module_hash AND c.id = o.card
WHERE o.play GROUP BY s.game, o.card, c.name, c.type ORDER BY s.game, o.card""",
     """(table("ops").filter(pl.col("play")).join(table("sessions"), on="session")
 .join(table("cards").select("module_hash", "id", "name", "type"),
       left_on=["module_hash", "card"], right_on=["module_hash", "id"], how="left")
 .group_by("game", "card", "name", "type").agg(pl.len().alias("plays"))
 .sort("game", "card").collect())"""),
    ("Win rate of the seats that played a card, against their group's",
     """WITH played AS (
  SELECT DISTINCT o.session, o.seat, o.card FROM ops o WHERE o.play)
SELECT s.game, p.card, count(*) AS seat_games, round(avg(st.won::INT), 4) AS win_rate
FROM played p JOIN seats st ON st.session = p.session AND st.seat = p.seat
JOIN sessions s ON s.session = p.session
WHERE len(s.winners) > 0 GROUP BY s.game, p.card ORDER BY s.game, p.card""",
     """(table("ops").filter(pl.col("play")).select("session", "seat", "card").unique()
 .join(table("seats"), on=["session", "seat"]).join(table("sessions"), on="session")
 .filter(pl.col("winners").list.len() > 0).group_by("game", "card")
 .agg(pl.len().alias("seat_games"),
      pl.col("won").cast(pl.Float64).mean().round(4).alias("win_rate"))
 .sort("game", "card").collect())"""),
    ("Turn of the first Champion played, by seat order (Dead to Rites)",
     """WITH firsts AS (
  SELECT o.session, o.seat, min(o.turn) AS turn
  FROM ops o JOIN sessions s USING (session)
  JOIN cards c ON c.module_hash = s.module_hash AND c.id = o.card
  WHERE s.game = 'dead-to-rites' AND c.type = 'Champion' AND o.play
  GROUP BY o.session, o.seat)
SELECT st.turn_order, count(*) AS seats, round(avg(f.turn), 2) AS first_champion_turn
FROM firsts f JOIN seats st USING (session, seat)
GROUP BY st.turn_order ORDER BY st.turn_order""",
     """(table("ops").filter(pl.col("play")).join(table("sessions"), on="session")
 .filter(pl.col("game") == "dead-to-rites")
 .join(table("cards").select("module_hash", "id", "type"),
       left_on=["module_hash", "card"], right_on=["module_hash", "id"])
 .filter(pl.col("type") == "Champion")
 .group_by("session", "seat").agg(pl.col("turn").min())
 .join(table("seats"), on=["session", "seat"]).group_by("turn_order")
 .agg(pl.len().alias("seats"), pl.col("turn").mean().round(2).alias("first_champion_turn"))
 .sort("turn_order").collect())"""),
    ("Length of play by game and player count",
     """SELECT game, players, count(*) AS sessions, round(avg(turns), 2) AS turns,
       round(avg(duration_s) / 60, 2) AS minutes
FROM sessions GROUP BY game, players ORDER BY game, players""",
     """(table("sessions").group_by("game", "players")
 .agg(pl.len().alias("sessions"), pl.col("turns").mean().round(2).alias("turns"),
      (pl.col("duration_s").mean() / 60).round(2).alias("minutes"))
 .sort("game", "players").collect())"""),
    ("Dice: how often each face of a d6 came up, per game",
     """SELECT s.game, d.value, count(*) AS rolls
FROM draws d JOIN sessions s USING (session)
WHERE d.kind = 'roll' AND d.sides = 6 GROUP BY s.game, d.value ORDER BY s.game, d.value""",
     """(table("draws").filter((pl.col("kind") == "roll") & (pl.col("sides") == 6))
 .join(table("sessions"), on="session").group_by("game", "value")
 .agg(pl.len().alias("rolls")).sort("game", "value").collect())"""),
    ("Sessions to look at: unfinished, damaged or with hidden cards never revealed",
     """SELECT session, game, how, unfinished, damaged, hidden_unknown
FROM sessions WHERE unfinished OR damaged OR hidden_unknown > 0 ORDER BY session""",
     """(table("sessions").filter(pl.col("unfinished") | pl.col("damaged")
                           | (pl.col("hidden_unknown") > 0))
 .select("session", "game", "how", "unfinished", "damaged", "hidden_unknown")
 .sort("session").collect())"""),
]


def views(folder: str | Path, connection: Any = None) -> Any:
    """A DuckDB connection with one view per table of the dataset in `folder`."""
    import duckdb

    con = connection if connection is not None else duckdb.connect()
    root = Path(folder)
    for name in TABLES:
        if any((root / name).glob("*.parquet")):
            con.execute(f"CREATE OR REPLACE VIEW {name} AS SELECT * FROM read_parquet("
                        f"'{(root / name).as_posix()}/*.parquet', union_by_name = true)")
        elif name in SESSION_TABLES:  # no session yet: the table is there, empty
            con.register(name, SESSION_TABLES[name].empty_table())
        elif name == "dismissals":  # nothing dismissed
            con.register(name, DISMISSALS.empty_table())
    return con
