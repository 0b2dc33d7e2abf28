"""Content-addressed transfer of a table's files (its module archive and art) between peers."""
