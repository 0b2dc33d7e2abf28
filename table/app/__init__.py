"""The application: the `sandtable` command, the desktop program's composition root, and the
wiring of LAN play and owner requests into the table windows. Nothing below imports it."""
