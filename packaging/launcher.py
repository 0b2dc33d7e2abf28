"""Entry script of the desktop bundle: the same `sandtable` command as `pip install` gives."""
import sys

from table.app.cli import main

if __name__ == "__main__":
    sys.exit(main())
