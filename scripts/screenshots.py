"""The README's screenshots of the three games, from the real program in a real window: an X
server of the screen's size (Xvfb) with a window manager (openbox), `sandtable play` opened
there as a player opens it, and the whole screen grabbed once the table has settled.

    python scripts/screenshots.py --display :21 [--out docs/screenshots] [--size 1366x768 ...]

Writes <game>-<W>x<H>.png for each game and size, the pointer resting on a card of the hand
(the reading panel shows it), and hover-zoom.png (Dead to Rites on a laptop, Alt held). Needs
Xvfb, openbox, xdotool and ImageMagick's `import`; uses the display number given (and nothing
else), and a settings folder of its own (a fresh player's first run: no saved window size).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES = {"gauntlet": 2, "mantle-of-the-keeper": 4, "dead-to-rites": 4}
SETTLE_S = 2.0  # after the table window reported its cards' places: a last repaint


def _wait(what: str, done, timeout: float = 120.0) -> None:  # type: ignore[no-untyped-def]
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if done():
            return
        time.sleep(0.1)
    raise SystemExit(f"screenshots: timed out waiting for {what}")


def shoot(display: str, size: str, game: str, seats: int, out: Path,
          hold_alt: Path | None = None) -> None:
    """One screenshot of `game`; with `hold_alt`, a second one there with Alt held (the card
    under the pointer drawn large)."""
    width, height = size.split("x")
    xvfb = subprocess.Popen(["Xvfb", display, "-screen", "0", f"{width}x{height}x24",
                             "-nolisten", "tcp"], stderr=subprocess.DEVNULL)
    home = Path(tempfile.mkdtemp(prefix="sandtable-shots-"))
    geometry = home / "geometry.json"
    env = {**os.environ, "DISPLAY": display, "QT_QPA_PLATFORM": "xcb",
           "SANDTABLE_HOME": str(home), "SANDTABLE_GEOMETRY_OUT": str(geometry)}
    procs: list[subprocess.Popen[bytes]] = [xvfb]
    try:
        _wait("the X server", lambda: subprocess.run(["xdpyinfo"], env=env, capture_output=True)
              .returncode == 0, 30)
        procs.append(subprocess.Popen(["openbox"], env=env, stderr=subprocess.DEVNULL))
        time.sleep(0.5)
        sandtable = Path(sys.executable).with_name("sandtable")
        procs.append(subprocess.Popen([str(sandtable), "play", "--game", game, "--seats",
                                       str(seats)], env=env, cwd=ROOT,
                                      stderr=subprocess.DEVNULL))
        _wait(f"{game}'s table window", geometry.exists)
        hand = json.loads(geometry.read_text())["hand"]
        if hand:  # the pointer on a card of the hand: the reading panel shows it
            card = hand[len(hand) // 2]
            subprocess.run(["xdotool", "mousemove", str(card["x"]), str(card["y"])], env=env,
                           check=True)
        time.sleep(SETTLE_S)
        subprocess.run(["import", "-display", display, "-window", "root", str(out)], env=env,
                       check=True)
        print(out)
        if hold_alt is not None:
            subprocess.run(["xdotool", "keydown", "alt"], env=env, check=True)
            time.sleep(SETTLE_S)
            subprocess.run(["import", "-display", display, "-window", "root", str(hold_alt)],
                           env=env, check=True)
            subprocess.run(["xdotool", "keyup", "alt"], env=env, check=True)
            print(hold_alt)
    finally:
        for proc in reversed(procs):
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
        shutil.rmtree(home, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--display", required=True, help="X display to use, e.g. :21")
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    parser.add_argument("--size", action="append", help="screen WxH (default: both)")
    parser.add_argument("--game", action="append", help="game id (default: all three)")
    args = parser.parse_args()
    for tool in ("Xvfb", "openbox", "import", "xdpyinfo", "xdotool"):
        if shutil.which(tool) is None:
            raise SystemExit(f"screenshots: needs {tool}")
    out = Path(args.out)
    for size in args.size or ["1366x768", "1920x1080"]:
        for game in args.game or list(GAMES):
            zoom = out / "hover-zoom.png" if (game, size) == ("dead-to-rites", "1366x768") \
                else None
            shoot(args.display, size, game, GAMES[game], out / f"{game}-{size}.png", zoom)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
