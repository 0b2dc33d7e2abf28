"""The mesh: a link to every peer of a table, admission, redial, and gossip of who is linked."""
