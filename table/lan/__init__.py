"""LAN play for a game module on top of netplay: hosting, joining, seats, the split setup, and
the table's module fetched from its peers. No Qt: the app and the CLI wire it to the player.

The rooms: `table` (a LAN table as this peer holds it), `setup` (the setup protocol as ops, no
I/O), `seating` (that protocol run as its marks arrive), `seat_setup` (a seat's setup as a
task, its hidden piles shuffled jointly), `reaching` (finding and dialing a table),
`hosting` (host and join), `rejoin` (back in from a log), `modules` (the module over the LAN).
What the app and the CLI call is gathered here.
"""
from table.lan.hosting import host, join, module_for
from table.lan.rejoin import rejoin
from table.lan.seating import take_seat
from table.lan.setup import draws_note, record_note, setup_complete
from table.lan.table import LanError, LanTable, NobodyFound

__all__ = ["LanError", "LanTable", "NobodyFound", "draws_note", "host", "join", "module_for",
           "record_note",
           "rejoin", "setup_complete", "take_seat"]
