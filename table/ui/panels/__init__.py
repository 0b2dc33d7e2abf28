"""Side panels (dock widgets) of the table window."""
