"""The `socket` and `processes` marks cannot drift: tests/markers_plugin.py fails an unmarked
test that opens a socket or starts a process, naming what it opened (checked on small test
files run by pytest itself, in this process)."""
from __future__ import annotations

import pytest

PLUGIN = ("-p", "tests.markers_plugin", "-p", "no:cacheprovider")


def test_an_unmarked_test_that_opens_a_socket_fails_naming_it(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_net='''
import socket
import pytest

def test_unmarked():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))

@pytest.mark.socket
def test_marked():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))

def test_a_socket_pair_is_no_socket_to_the_network():
    a, b = socket.socketpair()
    a.close(); b.close()
''')
    result = pytester.runpytest_inprocess(*PLUGIN)
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(["*test_unmarked opened a socket (bind ('127.0.0.1', 0)) but "
                                 "is not marked 'socket'*"])


def test_an_unmarked_process_fails_even_when_the_test_swallows_the_refusal(
        pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_proc='''
import subprocess, sys

def test_unmarked():
    try:
        subprocess.run([sys.executable, "-c", "pass"], check=True)
    except RuntimeError:
        pass
''')
    result = pytester.runpytest_inprocess(*PLUGIN)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*test_unmarked opened a process (*-c pass*) but is not "
                                 "marked 'processes'*"])


def test_a_fixture_marks_its_users_so_that_the_fast_suite_deselects_them(
        pytester: pytest.Pytester) -> None:
    pytester.makeconftest('''
import socket
import pytest
from tests.markers_plugin import marks_users

@pytest.fixture
@marks_users("socket")
def listener():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        yield s

@pytest.fixture
def table(listener):
    return listener.getsockname()
''')
    pytester.makepyfile(test_uses='''
def test_through_another_fixture(table):
    assert table[0] == "127.0.0.1"

def test_bytes_only():
    assert b"x" * 2 == b"xx"
''')
    pytester.runpytest_inprocess(*PLUGIN).assert_outcomes(passed=2)
    fast = pytester.runpytest_inprocess(*PLUGIN, "-m", "not socket and not processes")
    fast.assert_outcomes(passed=1, deselected=1)
