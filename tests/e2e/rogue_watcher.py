"""A modified `sandtable` whose watcher issues ops its table would refuse (a hostile client).

Only the local refusal in `Replica.issue` is taken away: the op is signed and sent as any op,
so the test sees what every other peer does with it (and this peer's own fold voids it too).
"""
from __future__ import annotations

import sys

from table.core import native

native.load_sources()  # a compiled core's functions cannot be replaced: this client runs Python
from table.core import replica  # noqa: E402  (after the line above, or it could load compiled)

replica.watcher_refusal = lambda state, author, kind: None  # type: ignore[assignment]

if __name__ == "__main__":
    from table.app.cli import main

    sys.exit(main())
