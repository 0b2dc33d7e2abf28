"""The admission rules, fed with no I/O (netplay.mesh.admission): idle connections only push each
other out, a talking connection gets a handshake slot, known peers keep their share, and a
silent handshake is reclaimed once it has stalled."""
from __future__ import annotations

from netplay.mesh.admission import Admission, AdmissionLimits

LIMITS = AdmissionLimits(idle=8, handshakes=4, known_share=1, per_address=2, stall_after=1.0)


def _admission(known: set[str] = frozenset()) -> tuple[Admission, list[str]]:
    closed: list[str] = []
    return Admission(LIMITS, known=lambda a: a in known), closed


def _open(admission: Admission, closed: list[str], address: str, now: float = 0.0):
    return admission.open(address, now, lambda: closed.append(address))


def test_a_full_idle_pool_closes_its_longest_waiting_connection_for_a_newcomer():
    admission, closed = _admission()
    flood = [_open(admission, closed, f"10.0.0.{i}", now=i) for i in range(8)]
    joiner = _open(admission, closed, "10.9.9.9", now=9)
    assert joiner is not None and closed == ["10.0.0.0"] and flood[0].done
    assert admission.started(joiner, 9.001)  # its hello: a handshake slot
    for i in range(1000):  # the flood goes on: it only ever pushes itself out
        _open(admission, closed, f"10.1.{i // 250}.{i % 250}", now=10 + i)
    assert not joiner.done and admission.pending == 9 and admission.evicted == 1000


def test_one_address_holds_its_share_and_makes_room_from_its_own():
    admission, closed = _admission()
    a, b = (_open(admission, closed, "10.0.0.1", now=t) for t in (0, 1))
    assert admission.started(b, 1.5)
    c = _open(admission, closed, "10.0.0.1", now=2)  # its own oldest idle goes
    assert c is not None and a.done and closed == ["10.0.0.1"]
    assert admission.started(c, 2.1)
    assert _open(admission, closed, "10.0.0.1", now=3) is None  # both talk: busy
    assert _open(admission, closed, "10.0.0.2", now=3) is not None


def test_strangers_cannot_take_the_known_peers_share():
    admission, closed = _admission(known={"10.5.5.5"})
    talkers = [_open(admission, closed, f"10.0.0.{i}", now=0) for i in range(4)]
    assert [admission.started(t, 0.1) for t in talkers] == [True, True, True, False]
    known = _open(admission, closed, "10.5.5.5", now=0.2)
    assert known is not None and known.known and admission.started(known, 0.2)


def test_a_stalled_handshake_is_reclaimed_and_a_talking_one_is_not():
    admission, closed = _admission()
    talkers = [_open(admission, closed, f"10.0.0.{i}", now=0) for i in range(3)]
    for t in talkers:
        assert admission.started(t, 0.0)
    newcomer = _open(admission, closed, "10.9.9.9", now=0.5)
    assert not admission.started(newcomer, 0.5)  # the strangers' slots are in use
    admission.heard(talkers[0], 1.2)
    admission.heard(talkers[2], 1.2)
    assert admission.started(newcomer, 1.5)  # talkers[1] was silent for 1.5 s
    assert talkers[1].done and closed == ["10.0.0.1"]
    assert not talkers[0].done and not talkers[2].done


def test_release_is_idempotent_and_frees_the_address():
    admission, closed = _admission()
    t = _open(admission, closed, "10.0.0.1")
    admission.release(t)
    admission.release(t)
    assert admission.pending == 0
    assert all(_open(admission, closed, "10.0.0.1") is not None for _ in range(2))


def test_a_connection_whose_bytes_wait_to_be_read_is_not_closed_for_a_newcomer():
    admission, closed = _admission()
    joiner = admission.open("10.9.9.9", 0.0, lambda: closed.append("joiner"),
                            pending_bytes=lambda: True)  # its hello came; its task waits
    flood = [_open(admission, closed, f"10.0.0.{i}", now=1 + i) for i in range(20)]
    assert joiner is not None and not joiner.done and "joiner" not in closed
    assert sum(t.done for t in flood) == 13 and admission.pending == 8
