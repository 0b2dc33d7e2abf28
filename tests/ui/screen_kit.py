"""Real windows for the keyboard and screen-reader tests: an Xvfb screen the test starts
(-displayfd), a private D-Bus session with the accessibility bus (at-spi-bus-launcher), programs
on them with their output kept, xdotool for keys, and an AT-SPI client (atspi_reader.py) run by
the system's Python with python3-pyatspi."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SYSTEM_PYTHON = "/usr/bin/python3"
BUS_LAUNCHER = next((p for p in ("/usr/libexec/at-spi-bus-launcher",
                                 "/usr/lib/at-spi2-core/at-spi-bus-launcher") if Path(p).exists()),
                    "")


def have_x() -> bool:
    return shutil.which("Xvfb") is not None and shutil.which("xdotool") is not None


def have_atspi() -> bool:
    if not (have_x() and BUS_LAUNCHER and shutil.which("dbus-daemon")
            and Path(SYSTEM_PYTHON).exists()):
        return False
    found = subprocess.run([SYSTEM_PYTHON, "-c", "import pyatspi"], capture_output=True)
    return found.returncode == 0


class Program:
    """A process whose stdout lines are kept (JSON-decoded with `json_lines`), stderr in a
    file."""

    def __init__(self, argv: list[str], env: dict[str, str], err: Path, *,
                 json_lines: bool = False, stdin: bool = False) -> None:
        self.err = err
        self.proc = subprocess.Popen(argv, env=env, cwd=ROOT, text=True,
                                     stdout=subprocess.PIPE, stderr=err.open("w"),
                                     stdin=subprocess.PIPE if stdin else subprocess.DEVNULL)
        self.lines: list[Any] = []
        threading.Thread(target=self._pump, args=(json_lines,), daemon=True).start()

    def _pump(self, json_lines: bool) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(json.loads(line) if json_lines else line.rstrip("\n"))

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, what: str, test: Any, timeout: float) -> Any:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for line in list(self.lines):
                if test(line):
                    return line
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        raise AssertionError(f"timed out waiting for {what}; stderr of {self.err.name}:\n"
                             + "\n".join(self.err.read_text(errors="replace").splitlines()[-30:]))

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


class Screen:
    """An Xvfb screen, with a private D-Bus session and accessibility bus when asked."""

    def __init__(self, where: Path, size: tuple[int, int] = (1366, 768), *,
                 accessibility: bool = False) -> None:
        self.dir = where  # programs' stderr, screenshots, the bus's socket
        where.mkdir(parents=True, exist_ok=True)
        self.procs: list[subprocess.Popen[Any]] = []
        self.programs: list[Program] = []
        xvfb = subprocess.Popen(["Xvfb", "-displayfd", "1", "-screen", "0",
                                 f"{size[0]}x{size[1]}x24", "-nolisten", "tcp"],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.procs.append(xvfb)
        assert xvfb.stdout is not None
        self.env = {**os.environ, "DISPLAY": ":" + xvfb.stdout.readline().decode().strip(),
                    "QT_QPA_PLATFORM": "xcb", "XDG_RUNTIME_DIR": str(self.dir)}
        self.env.pop("QT_ACCESSIBILITY", None)
        if accessibility:
            bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--print-address=1",
                                    f"--address=unix:path={self.dir}/bus"],
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            self.procs.append(bus)
            assert bus.stdout is not None
            self.env["DBUS_SESSION_BUS_ADDRESS"] = bus.stdout.readline().decode().strip()
            self.env["QT_LINUX_ACCESSIBILITY_ALWAYS_ON"] = "1"
            self.procs.append(subprocess.Popen([BUS_LAUNCHER, "--launch-immediately"],
                                               env=self.env, stderr=subprocess.DEVNULL))
        else:
            self.env.pop("DBUS_SESSION_BUS_ADDRESS", None)

    def start(self, name: str, argv: list[str], env: dict[str, str] | None = None,
              **kwargs: Any) -> Program:
        program = Program(argv, {**self.env, **(env or {})}, self.dir / f"{name}.err", **kwargs)
        self.programs.append(program)
        return program

    def reader(self, app_name: str = "sandtable") -> Program:
        """An AT-SPI client reading the application (atspi_reader.py), once it listens."""
        client = self.start("atspi", [SYSTEM_PYTHON, str(ROOT / "tests" / "ui" / "atspi_reader.py"),
                                      app_name], json_lines=True, stdin=True)
        client.wait_for("the AT-SPI client", lambda e: e["event"] in ("ready", "error"), 60)
        assert not [e for e in client.lines if e["event"] == "error"], client.lines
        return client

    def xdotool(self, *args: str) -> str:
        try:
            return subprocess.run(["xdotool", *args], env=self.env, capture_output=True,
                                  text=True, timeout=30).stdout
        except subprocess.TimeoutExpired:
            return ""

    def focus_window(self, title: str) -> str:
        """The newest window whose title holds `title`, given the keyboard."""
        end = time.monotonic() + 30
        while time.monotonic() < end:
            found = self.xdotool("search", "--onlyvisible", "--name", title).split()
            if found:
                self.xdotool("windowfocus", "--sync", found[-1])
                if self.xdotool("getwindowfocus").strip() == found[-1]:
                    time.sleep(0.3)  # the program sees the focus come in before the keys
                    return found[-1]
            time.sleep(0.2)
        raise AssertionError(f"no window titled {title!r}")

    def keys(self, *keys: str, delay_ms: int = 60) -> None:
        """Real key events from the X server (the focused window gets them)."""
        for i in range(0, len(keys), 40):
            self.xdotool("key", "--delay", str(delay_ms), *keys[i:i + 40])

    def shot(self, name: str) -> Path:
        out = self.dir / f"{name}.png"
        grab = ("import sys\nfrom PySide6.QtGui import QGuiApplication\n"
                "app = QGuiApplication(['grab', '-platform', 'xcb'])\n"
                "QGuiApplication.primaryScreen().grabWindow(0).save(sys.argv[1])\n")
        subprocess.run([sys.executable, "-c", grab, str(out)], env=self.env, timeout=30,
                       capture_output=True)
        return out

    def close(self) -> None:
        for program in reversed(self.programs):
            program.stop()
        for proc in reversed(self.procs):
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()

    def stderr_tails(self) -> str:
        return "".join(f"\n--- {p.err.name} ---\n" + "\n".join(
            p.err.read_text(errors="replace").splitlines()[-25:]) for p in self.programs
            if p.err.exists())
