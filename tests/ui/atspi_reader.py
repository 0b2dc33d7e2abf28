"""An AT-SPI client, as a screen reader is one: run by the system's Python with python3-pyatspi
(never the project's venv), in the test's own D-Bus session. It finds the application whose
name holds argv[1] and prints JSON lines on stdout:

    {"event": "ready"}                                  listening
    {"event": "focus", "role": ..., "name": ...}        the accessible focus moved
    {"event": "announce", "text": ...}                  an announcement was made
    {"event": "dump", "nodes": [[depth, role, name, description, [states]], ...]}

Commands on stdin, one a line: "dump" (the whole accessible tree of the application),
"quit". Nothing here imports the project: what it prints is what any AT-SPI client reads.
"""
from __future__ import annotations

import contextlib
import json
import sys
import time

import pyatspi  # type: ignore[import-not-found]
from gi.repository import GLib  # type: ignore[import-not-found]


def say(obj: dict) -> None:  # type: ignore[type-arg]
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def find_app(needle: str, timeout: float = 60.0):  # type: ignore[no-untyped-def]
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        desktop = pyatspi.Registry.getDesktop(0)
        for i in range(desktop.childCount):
            app = desktop.getChildAtIndex(i)
            try:
                if app is not None and needle.lower() in (app.name or "").lower():
                    return app
            except Exception:  # an application going away while asked
                continue
        time.sleep(0.2)
    return None


def walk(acc, depth: int, out: list) -> None:  # type: ignore[no-untyped-def,type-arg]
    try:
        states = [pyatspi.stateToString(s) for s in acc.getState().getStates()]
        out.append([depth, acc.getRoleName(), acc.name or "", acc.description or "", states])
        count = acc.childCount
    except Exception:
        return
    for i in range(count):
        try:
            child = acc.getChildAtIndex(i)
        except Exception:
            continue
        if child is not None:
            walk(child, depth + 1, out)


def main() -> int:
    app = find_app(sys.argv[1] if len(sys.argv) > 1 else "sandtable")
    if app is None:
        say({"event": "error", "text": "application not found"})
        return 1
    app_name = app.name

    def mine(event) -> bool:  # type: ignore[no-untyped-def]
        try:
            return event.host_application is not None and \
                event.host_application.name == app_name
        except Exception:
            return False

    def on_focus(event) -> None:  # type: ignore[no-untyped-def]
        if event.detail1 and mine(event):
            with contextlib.suppress(Exception):  # a source gone while asked
                say({"event": "focus", "role": event.source.getRoleName(),
                     "name": event.source.name or ""})

    def on_announce(event) -> None:  # type: ignore[no-untyped-def]
        if mine(event):
            say({"event": "announce", "text": str(event.any_data)})

    pyatspi.Registry.registerEventListener(on_focus, "object:state-changed:focused")
    pyatspi.Registry.registerEventListener(on_announce, "object:announcement")

    def command(_fd, _cond) -> bool:  # type: ignore[no-untyped-def]
        line = sys.stdin.readline()
        if not line or line.strip() == "quit":
            pyatspi.Registry.stop()
            return False
        if line.strip() == "dump":
            nodes: list = []  # type: ignore[type-arg]
            walk(app, 0, nodes)
            say({"event": "dump", "nodes": nodes})
        return True

    GLib.io_add_watch(sys.stdin.fileno(), GLib.IO_IN | GLib.IO_HUP, command)
    GLib.idle_add(lambda: say({"event": "ready"}) and False)
    pyatspi.Registry.start()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
