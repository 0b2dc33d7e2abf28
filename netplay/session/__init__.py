"""One peer's LAN session: a replica kept in sync with a table, and the requests it answers."""
