"""Graphics items of the table: one module per kind of thing on it."""
