"""The real program in a real X window: started as the README says (scripts/run.sh), driven
from outside with xdotool, seen through a screenshot of the X display. Skipped where there is
no Xvfb or xdotool (CI installs both)."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = [pytest.mark.xwindow, pytest.mark.processes]
ROOT = Path(__file__).resolve().parents[2]
SIZE = (1920, 1080)  # the screen; the window opens at its own size (1500x950) inside

needs_x = pytest.mark.skipif(shutil.which("Xvfb") is None or shutil.which("xdotool") is None,
                             reason="needs Xvfb and xdotool")

GRAB = """
import sys
from PySide6.QtGui import QGuiApplication
app = QGuiApplication(["grab", "-platform", "xcb"])
QGuiApplication.primaryScreen().grabWindow(0).save(sys.argv[1])
"""


def _wait(what: str, test, timeout: float = 30.0):  # type: ignore[no-untyped-def]
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = test()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


# No fixed wait for the app: it says when its table window is up (SANDTABLE_GEOMETRY_OUT: the
# window writes its cards' screen positions once shown and settled); until then the test waits
# as long as the program runs, up to this bound for a machine so loaded that it never would.
APP_START_BOUND = 300.0


def _start_app(argv: list[str], env: dict[str, str], stderr: Path) -> subprocess.Popen[bytes]:
    """The program, its stderr kept in a file (printed when the test fails)."""
    with stderr.open("wb") as err:
        return subprocess.Popen(argv, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=err)


def _app_ready(app: subprocess.Popen[bytes], geometry: Path, stderr: Path) -> list[dict]:  # type: ignore[type-arg]
    """The hand's card positions, once the table window has written them; fails at once,
    with the app's stderr, if the program exits first."""
    end = time.monotonic() + APP_START_BOUND
    while time.monotonic() < end:
        if geometry.exists():
            hand = json.loads(geometry.read_text())["hand"]
            if hand:
                return hand  # type: ignore[no-any-return]
        if app.poll() is not None:
            raise AssertionError(f"the app exited ({app.returncode}) before its table window "
                                 f"was shown; its stderr:\n{_tail(stderr)}")
        time.sleep(0.1)
    raise AssertionError(f"the app did not show its table window in {APP_START_BOUND:.0f} s; "
                         f"its stderr:\n{_tail(stderr)}")


def _tail(path: Path, lines: int = 40) -> str:
    text = path.read_text(errors="replace") if path.exists() else "(none)"
    return "\n".join(text.splitlines()[-lines:]) or "(empty)"


class _Explained:
    """A failure inside says what the app wrote on stderr and where the screenshots are."""

    def __init__(self, stderr: list[Path], shots: Path) -> None:
        self.stderr, self.shots = stderr, shots

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: object, exc: BaseException | None, tb: object) -> None:
        if exc is None or not isinstance(exc, (AssertionError, subprocess.SubprocessError)):
            return
        shots = sorted(str(p) for p in self.shots.glob("**/*.png"))
        logs = "".join(f"\n--- stderr of {p.stem} ({p}) ---\n{_tail(p)}" for p in self.stderr)
        raise AssertionError(f"{exc}\nscreenshots: {shots or 'none taken'}{logs}") from exc


def _xdotool(env: dict[str, str], *args: str) -> str:
    """What xdotool printed; "" when it did not answer in 10 s (a search can hang while the X
    server is busy), so the caller's wait goes on instead of hanging the test."""
    try:
        return subprocess.run(["xdotool", *args], env=env, capture_output=True, text=True,
                              timeout=10).stdout
    except subprocess.TimeoutExpired:
        return ""


def _grab(env: dict[str, str], out: Path):  # type: ignore[no-untyped-def]
    from PySide6.QtGui import QImage

    subprocess.run([sys.executable, "-c", GRAB, str(out)], env=env, check=True, timeout=30)
    return QImage(str(out))


def _red_pixels(img, x: int, y: int, r: int) -> int:  # type: ignore[no-untyped-def]
    """Counter-badge red (#c62828) pixels in a square of radius r around (x, y)."""
    n = 0
    for i in range(max(0, x - r), min(img.width(), x + r)):
        for j in range(max(0, y - r), min(img.height(), y + r)):
            c = img.pixelColor(i, j)
            if c.red() > 170 and c.green() < 70 and c.blue() < 70:
                n += 1
    return n


@needs_x
def test_right_click_a_card_and_add_a_counter_in_a_real_window(tmp_path) -> None:  # type: ignore[no-untyped-def]
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", "1", "-screen", "0",
                             f"{SIZE[0]}x{SIZE[1]}x24", "-nolisten", "tcp"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    app = None
    try:
        assert xvfb.stdout is not None
        display = ":" + xvfb.stdout.readline().decode().strip()
        geometry = tmp_path / "geometry.json"
        env = {**os.environ, "DISPLAY": display, "QT_QPA_PLATFORM": "xcb",
               "SANDTABLE_HOME": str(tmp_path / "home"), "SANDTABLE_GEOMETRY_OUT": str(geometry)}
        # the README's run command; a sample table keeps it quick
        stderr = tmp_path / "app-stderr.txt"
        app = _start_app(["bash", str(ROOT / "scripts" / "run.sh"), "--game", "sample"], env,
                         stderr)
        explained = _Explained([stderr], tmp_path)
        with explained:
            hand = _app_ready(app, geometry, stderr)
            assert _xdotool(env, "search", "--name", "Sandtable").split()
        card = hand[-1]  # the top of the fan: nothing covers it
        x, y = card["x"], card["y"]
        before = _grab(env, tmp_path / "before.png")
        subprocess.run(["xdotool", "mousemove", str(x), str(y), "click", "3"], env=env, check=True,
                       timeout=10)
        time.sleep(0.8)
        # Flip, Engage, Counters > Add Damage
        subprocess.run(["xdotool", "key", "--delay", "150", "Down", "Down", "Down", "Right",
                        "Return"], env=env, check=True, timeout=10)
        # the badge sits at the card's foot, from its left
        bx, by = x, y + 45
        red_before = _red_pixels(before, bx, by, 60)
        shots = iter(range(100))
        with explained:
            _wait("a counter badge on the card", lambda: _red_pixels(
                _grab(env, tmp_path / f"after-{next(shots)}.png"), bx, by, 60) > red_before + 30,
                timeout=15)
    finally:
        if app is not None:
            app.terminate()
            try:
                app.wait(10)
            except subprocess.TimeoutExpired:
                app.kill()
        xvfb.terminate()
        xvfb.wait(10)


@needs_x
def test_drag_a_card_into_play_then_ctrl_z_in_a_real_window(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """At 1366x768: drag the hand's top card up into the play area, press Ctrl+Z; the log the
    program wrote says the card went back into the hand, re-hidden (no card left in play)."""
    from table.core.replica import Replica

    xvfb = subprocess.Popen(["Xvfb", "-displayfd", "1", "-screen", "0", "1366x768x24",
                             "-nolisten", "tcp"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)
    app = None
    home = tmp_path / "home"
    try:
        assert xvfb.stdout is not None
        display = ":" + xvfb.stdout.readline().decode().strip()
        geometry = tmp_path / "geometry.json"
        env = {**os.environ, "DISPLAY": display, "QT_QPA_PLATFORM": "xcb",
               "SANDTABLE_HOME": str(home), "SANDTABLE_GEOMETRY_OUT": str(geometry)}
        stderr = tmp_path / "app-stderr.txt"
        app = _start_app(["bash", str(ROOT / "scripts" / "run.sh"), "--game", "sample"], env,
                         stderr)
        explained = _Explained([stderr], tmp_path)
        with explained:
            hand = _app_ready(app, geometry, stderr)
        x, y = hand[-1]["x"], hand[-1]["y"]  # the top of the fan: nothing covers it
        time.sleep(1.0)
        _grab(env, tmp_path / "1-start.png")
        steps = [["mousemove", str(x), str(y - 25 * i)] for i in range(1, 9)]
        subprocess.run(["xdotool", "mousemove", str(x), str(y), "mousedown", "1"], env=env,
                       check=True, timeout=10)
        for step in steps:  # a drag the view sees move, then the drop 200 px up: the play area
            subprocess.run(["xdotool", *step], env=env, check=True, timeout=10)
            time.sleep(0.05)
        subprocess.run(["xdotool", "mouseup", "1"], env=env, check=True, timeout=10)
        time.sleep(1.0)
        _grab(env, tmp_path / "2-played.png")
        subprocess.run(["xdotool", "key", "ctrl+z"], env=env, check=True, timeout=10)
        logs = home / "games"

        def undone() -> bool:
            found = sorted(logs.glob("*.sandlog")) if logs.exists() else []
            records = Replica.from_log(found[-1]).records() if found else []
            return bool(records) and records[-1].op.kind == "undo"

        with explained:
            _wait("the undo in the table's log", undone, timeout=15)
        time.sleep(0.5)
        _grab(env, tmp_path / "3-undone.png")
    finally:
        if app is not None:
            app.terminate()
            try:
                app.wait(10)
            except subprocess.TimeoutExpired:
                app.kill()
        xvfb.terminate()
        xvfb.wait(10)
    replica = Replica.from_log(sorted((home / "games").glob("*.sandlog"))[-1])
    move, undo = (r.op for r in replica.records()[-2:])
    assert move.kind == "move" and move.args["id"] == hand[-1]["id"] and move.args.get("card")
    assert undo.args["target"] == list(move.ref) and undo.args.get("out")
    state, knowledge = replica.state, replica.knowledge
    back = [knowledge.card_of(c) for c in state.cards_in(state.objs["p1.hand"])]
    assert move.args["card"] in back and len(back) == len(hand)  # back in the hand
    assert state.cards_in(state.objs[move.args["to"]]) == []  # no face-down card left in play


# --- a laptop's screen: every window, frame and all, inside 1366x768 ----------------------------
LAPTOP = (1366, 768)
GAMES = {"gauntlet": "Gauntlet", "mantle-of-the-keeper": "Mantle of the Keeper",
         "dead-to-rites": "Dead to Rites"}
WINDOW_MANAGER = shutil.which("openbox")  # a real title bar and border; without one, none


class Screen:
    """An Xvfb screen (with a window manager when there is one) and the programs on it."""

    def __init__(self, size: tuple[int, int], home: Path) -> None:
        self.size, self.home = size, home
        self.procs: list[subprocess.Popen[bytes]] = []
        xvfb = subprocess.Popen(["Xvfb", "-displayfd", "1", "-screen", "0",
                                 f"{size[0]}x{size[1]}x24", "-nolisten", "tcp"],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.procs.append(xvfb)
        assert xvfb.stdout is not None
        display = ":" + xvfb.stdout.readline().decode().strip()
        self.geometry = home.parent / "geometry.json"  # the table window's ready signal
        self.logs: list[Path] = []  # each program's stderr
        self.env = {**os.environ, "DISPLAY": display, "QT_QPA_PLATFORM": "xcb",
                    "SANDTABLE_HOME": str(home), "SANDTABLE_LAN_INTERFACES": "127.0.0.1",
                    "SANDTABLE_GEOMETRY_OUT": str(self.geometry)}
        if WINDOW_MANAGER:
            self.start([WINDOW_MANAGER])
            _wait("the window manager", lambda: "_NET_SUPPORTING_WM_CHECK" in subprocess.run(
                ["xprop", "-root"], env=self.env, capture_output=True, text=True).stdout
                if shutil.which("xprop") else True)

    def start(self, argv: list[str]) -> subprocess.Popen[bytes]:
        stderr = self.home.parent / f"{len(self.procs)}-{Path(argv[-1]).name}-stderr.txt"
        proc = _start_app(argv, self.env, stderr)
        self.procs.append(proc)
        self.logs.append(stderr)
        return proc

    def stop(self, proc: subprocess.Popen[bytes]) -> None:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)

    def close(self) -> None:
        for proc in reversed(self.procs):
            if proc.poll() is None:
                self.stop(proc)

    def xdotool(self, *args: str) -> str:
        return _xdotool(self.env, *args)

    def window(self, title: str, timeout: float = 8.0,
               app: subprocess.Popen[bytes] | None = None) -> str:
        """The visible window whose title matches (a regular expression). With ``app``, the
        program that is to show it: waited for as long as it runs (up to APP_START_BOUND)."""
        if app is None:
            return _wait(f"a window named {title!r}", lambda: self.xdotool(
                "search", "--onlyvisible", "--name", title).split(), timeout)[-1]

        def shown() -> list[str]:
            if app.poll() is not None:
                raise AssertionError(f"{app.args!r} exited ({app.returncode}) before showing "
                                     f"{title!r}")
            return self.xdotool("search", "--onlyvisible", "--name", title).split()
        return _wait(f"a window named {title!r}", shown, APP_START_BOUND)[-1]

    def frame(self, window: str) -> tuple[int, int, int, int]:
        """x, y, width, height of the window with its frame: the topmost window under the
        root that holds it (the window manager's frame), or the window itself."""
        wid = window
        while True:
            tree = subprocess.run(["xwininfo", "-tree", "-id", wid], env=self.env,
                                  capture_output=True, text=True, check=True).stdout
            parent = tree.split("Parent window id: ")[1].split()[0]
            root = tree.split("Root window id: ")[1].split()[0]
            if parent == root:
                break
            wid = parent
        info = subprocess.run(["xwininfo", "-id", wid], env=self.env, capture_output=True,
                              text=True, check=True).stdout
        field = {line.split(":")[0].strip(): line.split(":")[1].strip()
                 for line in info.splitlines() if ":" in line}
        return (int(field["Absolute upper-left X"]), int(field["Absolute upper-left Y"]),
                int(field["Width"]), int(field["Height"]))

    def fits(self, window: str) -> bool:
        x, y, w, h = self.frame(window)
        return x >= 0 and y >= 0 and x + w <= self.size[0] and y + h <= self.size[1]

    def assert_inside(self, window: str, what: str) -> tuple[int, int, int, int]:
        try:
            _wait(f"{what} inside the screen", lambda: self.fits(window), timeout=8)
        except AssertionError:
            raise AssertionError(f"{what}: frame {self.frame(window)} is not inside "
                                 f"{self.size[0]}x{self.size[1]}") from None
        time.sleep(0.8)  # the window manager has framed it: it stays there
        assert self.fits(window), f"{what}: frame {self.frame(window)} left the screen"
        return self.frame(window)

    def open_with(self, window: str, keys: str, title: str) -> str:
        """Press keys in `window` until a window named `title` shows (a busy machine may
        drop a key press while the window manager is still activating the window)."""
        for _ in range(6):
            self.key(window, keys)
            try:
                return self.window(title, timeout=8)
            except AssertionError:
                continue
        raise AssertionError(f"{keys} did not open {title!r}")

    def close_dialog(self, dialog: str, title: str) -> None:
        for _ in range(6):
            self.key(dialog, "Escape")
            try:
                _wait("the dialog to close", lambda: dialog not in self.xdotool(
                    "search", "--onlyvisible", "--name", title).split(), timeout=5)
                return
            except AssertionError:
                continue
        raise AssertionError(f"Escape did not close {title!r}")

    def key(self, window: str, keys: str) -> None:
        """Keys typed into the window, as a keyboard would (XTEST, to the focused window)."""
        self.xdotool("windowactivate", "--sync", window)
        self.xdotool("key", "--clearmodifiers", keys)


@needs_x
@pytest.mark.skipif(shutil.which("xwininfo") is None, reason="needs xwininfo (x11-utils)")
@pytest.mark.parametrize("game", list(GAMES))
def test_every_window_opens_inside_a_laptop_screen(game: str, tmp_path: Path) -> None:
    screen = Screen(LAPTOP, tmp_path / "home")
    try:
        with _Explained(screen.logs, tmp_path):
            _laptop_screen_windows(screen, game, tmp_path)
    finally:
        screen.close()


def _laptop_screen_windows(screen: Screen, game: str, tmp_path: Path) -> None:
    app = screen.start(["bash", str(ROOT / "scripts" / "run.sh"), "--game", game])
    table = screen.window(f"^{GAMES[game]} — Sandtable", app=app)
    _x, _y, w, h = screen.assert_inside(table, "the table window")
    assert w > LAPTOP[0] * 0.9 and h > LAPTOP[1] * 0.85  # and it uses the room there is
    _grab(screen.env, tmp_path / f"{game}-{LAPTOP[0]}x{LAPTOP[1]}.png")
    for keys, title in (("ctrl+shift+e", "^End the game$"),
                        ("ctrl+shift+n", "^Designer note$")):
        dialog = screen.open_with(table, keys, title)
        screen.assert_inside(dialog, title)
        screen.close_dialog(dialog, title)
    screen.stop(app)
    log = max((tmp_path / "home" / "games").glob("*.sandlog"), key=lambda p: p.stat().st_mtime)
    sandtable = str(ROOT / ".venv" / "bin" / "sandtable")
    replay = screen.start([sandtable, "replay", str(log)])
    screen.assert_inside(screen.window("replay — Sandtable$", app=replay), "the replay window")
    screen.stop(replay)
    start_screen = screen.start([sandtable])  # it offers to resume the game: no
    start = screen.window("^Sandtable$", app=start_screen)
    try:
        resume: str | None = screen.window("^Resume your game", timeout=8)
    except AssertionError:
        resume = None  # the game was not left open
    if resume is not None:
        screen.assert_inside(resume, "the Resume question")
        screen.close_dialog(resume, "^Resume your game")
    screen.assert_inside(start, "the start screen")
    for keys, title in (("alt+h", "^Host a LAN table — Sandtable$"),
                        ("alt+j", "^Join a LAN table — Sandtable$")):
        dialog = screen.open_with(start, keys, title)
        screen.assert_inside(dialog, title)
        screen.close_dialog(dialog, title)
