"""The dataset's tables and their columns (docs/dataset.md describes each column).

One folder per table under the dataset's root, Parquet files inside: `sessions/`, `seats/`,
`ops/`, `flags/`, `draws/`, `notes/`, `hands/` hold one part file per run (and shard) of `sandtable
dataset`; `cards/` holds one file per module version, keyed by its content hash. `session` is
the table id everywhere: the key the tables join on.
"""
from __future__ import annotations

import pyarrow as pa

_STR, _INT, _F64, _BOOL = pa.string(), pa.int32(), pa.float64(), pa.bool_()
_TIME = pa.timestamp("ms", tz="UTC")

SESSIONS = pa.schema([
    ("session", _STR), ("game", _STR), ("module_name", _STR), ("module_version", _STR),
    ("module_hash", _STR), ("draft", _STR), ("players", _INT), ("seats", pa.list_(_STR)),
    ("recorded_as", _STR), ("started", _TIME), ("duration_s", _F64), ("turns", _INT), ("ops", _INT),
    ("how", _STR), ("condition", _STR), ("winners", pa.list_(_INT)), ("unfinished", _BOOL),
    ("damaged", _BOOL), ("damage", pa.list_(_STR)), ("salvaged", _INT), ("audited", _STR),
    ("flags_checked", _BOOL), ("flags_why", _STR), ("hidden_unknown", _INT),
    ("sources", pa.list_(_STR)), ("source_hashes", pa.list_(_STR)), ("fingerprint", _STR),
    # what the report says of a session beyond the play (docs/dataset.md)
    ("named_after", _STR), ("created", _STR), ("problems", pa.list_(_STR)),
    ("lost", pa.list_(_INT)), ("judged_by", _STR), ("module_note", _STR),
    ("installed_hash", _STR), ("module_changes", pa.list_(pa.struct([
        ("op", _INT), ("version", _STR), ("hash", _STR)]))),
    ("plays_declared", _BOOL), ("header_recovered", pa.list_(_STR)), ("hidden_total", _INT),
    ("turn_seconds", pa.list_(_F64)), ("disagree", pa.list_(pa.struct([
        ("log", _STR), ("missing", _INT)]))),
    ("unreadable", pa.list_(pa.struct([("log", _STR), ("why", _STR)]))), ("unusable", _STR),
    # what the session is (its `tag` ops): the slices of `report --by` (`playtest_group`: the
    # playtest group, not a deck's group, which is `seats.group`)
    ("playtest_group", _STR), ("event", _STR), ("tags", pa.list_(_STR)),
    ("player_names", pa.list_(_STR)),
])
SEATS = pa.schema([
    ("session", _STR), ("seat", _INT), ("name", _STR), ("deck", _STR), ("deck_hash", _STR),
    ("group", _STR), ("fields", pa.map_(_STR, _STR)), ("turn_order", _INT), ("result", _STR),
    ("won", _BOOL), ("score", _F64), ("player", _STR),
])
OPS = pa.schema([
    ("session", _STR), ("op", _INT), ("author", _STR), ("seat", _INT), ("turn", _INT),
    ("active_seat", _INT), ("phase", _STR), ("kind", _STR), ("what", _STR), ("value", _STR),
    ("object", _STR),
    ("card", _STR), ("count", _INT), ("from_zone", _STR), ("to_zone", _STR),
    ("face_up", _BOOL), ("play", _BOOL), ("void", _BOOL), ("salvaged", _BOOL), ("time", _TIME),
])
FLAGS = pa.schema([
    ("session", _STR), ("op", _INT), ("rule", _STR), ("severity", _STR), ("seat", _INT),
    ("card", _STR), ("turn", _INT), ("section", _STR), ("message", _STR), ("salvaged", _BOOL),
])
DRAWS = pa.schema([
    ("session", _STR), ("op", _INT), ("kind", _STR), ("seat", _INT), ("turn", _INT),
    ("die", _STR), ("sides", _INT), ("value", _INT), ("zone", _STR), ("cards", _INT),
    ("joint", _BOOL), ("audited", _BOOL), ("why", _STR),
])
# a card's story in a seat's hand (stories.py): copies in the opening hand, drawn in play,
# held at the end, played, and gone elsewhere from the hand (zone name -> copies)
HANDS = pa.schema([
    ("session", _STR), ("seat", _INT), ("card", _STR), ("held", _BOOL), ("opening", _INT),
    ("drawn", _INT), ("held_end", _INT), ("played", _INT),
    ("used", pa.map_(_STR, _INT)),
])
NOTES = pa.schema([
    ("session", _STR), ("op", _INT), ("turn", _INT), ("seat", _INT), ("name", _STR),
    ("text", _STR), ("phase", _STR), ("active_seat", _INT), ("time", _TIME),
])

# how often each rule applied (its occasions, as its plugin's occasions module states them:
# every Dawn, every hand at a turn's end), per seat: slips per occasion, not raw flag counts
OCCASIONS = pa.schema([
    ("session", _STR), ("rule", _STR), ("seat", _INT), ("occasions", _INT),
])
# rules and single flags a designer dismissed as false alarms (dismissals.py): not a per-session
# table, rewritten whole by every run from the files found beside the logs and the modules
DISMISSALS = pa.schema([
    ("rule", _STR), ("session", _STR), ("op", _INT), ("why", _STR), ("source", _STR),
])

# the per-session tables, in the order a run writes them: `flags` holds the settled flags a
# designer counts; `salvaged_flags` (the same columns) those raised on ops read past a lost
# record, which may be the lost op's doing and are never counted as slips
SESSION_TABLES: dict[str, pa.Schema] = {
    "sessions": SESSIONS, "seats": SEATS, "ops": OPS, "flags": FLAGS,
    "salvaged_flags": FLAGS, "draws": DRAWS, "notes": NOTES, "hands": HANDS,
    "occasions": OCCASIONS,
}
# `cards`: module_hash, game, module_version, then every column of that version's cards.csv
# as text (the columns differ between games: read them with union_by_name)
CARDS_KEYS = ("module_hash", "game", "module_version")
