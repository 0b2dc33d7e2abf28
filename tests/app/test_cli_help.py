"""`sandtable X --help` for every subcommand, found by walking the parser (a command added
later is checked too): each prints a description and every option and argument its help."""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

import pytest

from table.app.cli import build_parser, main

BIN = Path(sys.executable).parent / "sandtable"


def _commands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
              ) -> list[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    out = []
    # argparse offers no public walk over a parser's actions and subcommands
    for action in parser._actions:  # noqa: SLF001 - argparse's, see above
        if isinstance(action, argparse._SubParsersAction):  # noqa: SLF001 - argparse's
            for name, sub in action.choices.items():
                out.append(((*path, name), sub))
                out.extend(_commands(sub, (*path, name)))
    return out


COMMANDS = _commands(build_parser())


def _flat(text: str) -> str:
    """The text without its line breaks and spaces (argparse wraps, even after a hyphen)."""
    return re.sub(r"\s+", "", text)


def _help_of(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as done:
        main([*argv, "--help"])
    assert done.value.code == 0
    return _flat(capsys.readouterr().out)


def test_the_walk_finds_every_command() -> None:
    names = {" ".join(path) for path, _ in COMMANDS}
    assert {"host", "join", "check", "log show", "log export", "play", "bench core"} <= names
    assert len(names) >= 25


@pytest.mark.parametrize(("path", "parser"), COMMANDS, ids=[" ".join(p) for p, _ in COMMANDS])
def test_help_describes_the_command_and_every_option(path: tuple[str, ...],
                                                     parser: argparse.ArgumentParser,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    shown = _help_of(list(path), capsys)
    assert parser.description, f"`sandtable {' '.join(path)}` has no description"
    usage_end = shown.index(_flat(parser.description))  # a line of its own, after the usage
    assert shown.startswith("usage:") and usage_end > 0
    for action in parser._actions:  # noqa: SLF001 - argparse's: no public walk over its actions
        if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):  # noqa: SLF001
            continue
        name = "/".join(action.option_strings) or action.dest
        assert action.help, f"`sandtable {' '.join(path)}`: {name} has no help"
        assert "only mode" not in action.help, f"{name}: {action.help}"
        wanted = _flat(action.help % {"default": action.default}
                       if "%(default)" in action.help else action.help)
        assert wanted in shown, f"{name}'s help is not printed"


@pytest.mark.parametrize("command", ["host", "log show"])
@pytest.mark.processes
def test_the_installed_command_prints_the_same_help(command: str) -> None:
    done = subprocess.run([str(BIN), *command.split(), "--help"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    description = dict((" ".join(p), s) for p, s in COMMANDS)[command].description
    assert description is not None
    assert _flat(description)[:40] in _flat(done.stdout)
    assert lines[0].startswith("usage:")
