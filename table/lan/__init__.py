"""LAN play for a game module on top of netplay: hosting, joining, seats, the split setup, and
the table's module fetched from its peers. No Qt: the app wires it to the windows."""
