"""The handshake state machine, fed bytes: both key exchanges, every failure, no sockets."""

import secrets

import pytest
from handshake_kit import FakeClock, pair, pump

from netplay.protocol.channel import MessageChannel
from netplay.protocol.handshake import (
    BAD_SIGNATURE,
    CLOSED_EARLY,
    PROBE_ANSWERED,
    PROTOCOL_VERSION,
    TIMED_OUT,
    WRONG_PASSPHRASE,
    AuthError,
    Established,
    Handshake,
    HandshakeError,
    Rejected,
    VersionMismatch,
    is_version_refusal,
)
from netplay.protocol.identity import Identity
from netplay.protocol.messages import Bye, Heartbeat
from netplay.protocol.secure import X25519Exchange
from netplay.protocol.wire import encode_frame, pack, unpack

MODES = [pytest.param(None, id="x25519"), pytest.param("open sesame", id="spake2")]


def _rewrite_hello(data: bytes, **fields) -> bytes:
    """Rewrite fields of the hello frame at the start of ``data``."""
    n = int.from_bytes(data[:4], "big")
    hello = unpack(data[4:4 + n])
    hello.update(fields)
    return encode_frame(pack(hello)) + data[4 + n:]


def _once(direction, rewrite):
    """An edit that rewrites the first chunk travelling in ``direction``."""
    done = []

    def edit(d, data):
        if d == direction and not done:
            done.append(True)
            return rewrite(data)
        return data
    return edit


@pytest.mark.parametrize("passphrase", MODES)
def test_both_sides_establish_the_same_keys(passphrase):
    init, resp = pair(passphrase, passphrase)
    ex = pump(init, resp)
    a, b = ex.initiator, ex.responder
    assert isinstance(a, Established) and isinstance(b, Established)
    assert a.peer_id == resp.identity.peer_id and b.peer_id == init.identity.peer_id
    assert a.peer_key == resp.identity.public_key and b.peer_key == init.identity.public_key
    assert (a.peer_port, b.peer_port) == (4200, 4100)
    assert a.transcript_hash == b.transcript_hash and a.leftover == b.leftover == b""
    ca, cb = MessageChannel(a.cipher), MessageChannel(b.cipher)
    assert [r.message for r in cb.receive(ca.frame(pack({"t": "hb"})))] == [Heartbeat()]
    assert [r.message for r in ca.receive(cb.frame(pack({"t": "bye", "reason": "x"})))] == [Bye("x")]
    if passphrase:
        assert passphrase.encode() not in bytes(ex.c2s) + bytes(ex.s2c)


@pytest.mark.parametrize("passphrase", MODES)
def test_one_byte_at_a_time(passphrase):
    ex = pump(*pair(passphrase, passphrase), chunk=1)
    assert isinstance(ex.initiator, Established) and isinstance(ex.responder, Established)


@pytest.mark.parametrize(("pass_i", "pass_r"), [("right horse", "wrong horse"), ("pw", None),
                                            (None, "pw")])
def test_wrong_passphrase_same_neutral_error_on_both_sides(pass_i, pass_r):
    ex = pump(*pair(pass_i, pass_r))
    for event in (ex.initiator, ex.responder):
        assert isinstance(event, Rejected) and isinstance(event.error, AuthError)
        assert event.reason == WRONG_PASSPHRASE


def test_table_mismatch_rejects_with_the_reason():
    """The responder reads the dialler's hello first and answers another table's with a
    reject in place of its own hello."""
    ex = pump(*pair(table_i="t1", table_r="t2"))
    assert ex.responder.reason == "different table id"
    assert ex.initiator.reason == "peer refused the handshake: different table id"
    assert b"hello" not in bytes(ex.s2c) and b"different table id" in bytes(ex.s2c)


@pytest.mark.parametrize("older", ["initiator", "responder"])
def test_another_version_is_refused_in_words_on_both_sides(older):
    """A peer of protocol 1 and one of this version: each side says which versions met."""
    init, resp = pair()
    old = init if older == "initiator" else resp
    old.version = 1
    ex = pump(init, resp)
    assert isinstance(ex.initiator.error, VersionMismatch)
    assert isinstance(ex.responder.error, VersionMismatch)
    if older == "initiator":  # the table (this version) refuses a dialler of protocol 1
        told = f"this table speaks protocol {PROTOCOL_VERSION}; you have 1"
        assert ex.initiator.reason == "peer refused the handshake: " + told
        assert ex.responder.reason == (f"refused a peer of protocol 1 (this table speaks "
                                       f"protocol {PROTOCOL_VERSION})")
        assert b"hello" not in bytes(ex.s2c)  # the refusal comes in place of its hello
    else:
        told = f"this table speaks protocol 1; you have {PROTOCOL_VERSION}"
        assert ex.initiator.reason == "peer refused the handshake: " + told
        assert is_version_refusal(ex.initiator.reason)


@pytest.mark.parametrize("passphrase", MODES)
@pytest.mark.parametrize("field", ["nonce", "port", "peer"])
def test_tampered_hello_fails_on_both_sides(passphrase, field):
    """A relay that changes anything in a hello changes the transcript: both sides refuse."""
    value = {"nonce": bytes(16), "port": 1, "peer": "0123456789abcdef"}[field]
    ex = pump(*pair(passphrase, passphrase),
              edit=_once("s2c", lambda d: _rewrite_hello(d, **{field: value})))
    assert ex.initiator.reason == ex.responder.reason == WRONG_PASSPHRASE


@pytest.mark.parametrize("passphrase", MODES)
def test_tampered_auth_fails(passphrase):
    def flip_last_byte_of_auth(d, data):
        if d == "c2s" and not flip.get("hello"):
            flip["hello"] = True
            return data
        if d == "c2s" and not flip.get("auth"):
            flip["auth"] = True
            return data[:-1] + bytes([data[-1] ^ 1])
        return data
    flip: dict = {}
    ex = pump(*pair(passphrase, passphrase), edit=flip_last_byte_of_auth)
    assert flip == {"hello": True, "auth": True}
    assert isinstance(ex.responder, Rejected) and ex.responder.reason == WRONG_PASSPHRASE


def test_substituted_kx_in_spake2():
    """A man in the middle who replaces a SPAKE2 message without the passphrase fails."""
    other = Handshake(Identity.generate(), "t", "guess", initiator=True).start()
    forged_kx = unpack(other[4:])["kx"]
    ex = pump(*pair("secret", "secret"), edit=_once("c2s", lambda d: _rewrite_hello(d, kx=forged_kx)))
    assert ex.initiator.reason == ex.responder.reason == WRONG_PASSPHRASE


def test_reflected_spake2_message_is_refused():
    """Sending a peer its own SPAKE2 message back is caught, not answered."""
    init, _resp = pair("pw", "pw")
    mine = init.start()
    mirrored = _rewrite_hello(mine, peer=init.identity.peer_id[::-1])
    event = init.feed(mirrored).event
    assert isinstance(event, Rejected) and "SPAKE2" in event.reason


def test_impersonation_detected_by_signature():
    """A peer that presents someone else's public key cannot sign the transcript."""
    victim, attacker = Identity.generate(), Identity.generate()

    class Forger:
        peer_id, public_key, sign = victim.peer_id, victim.public_key, attacker.sign

    init = Handshake(Forger(), "t", None, initiator=True)
    resp = Handshake(Identity.generate(), "t", None, initiator=False)
    ex = pump(init, resp)
    assert isinstance(ex.responder.error, AuthError) and ex.responder.reason == BAD_SIGNATURE


@pytest.mark.parametrize("passphrase", MODES)
@pytest.mark.parametrize("replayed", ["initiator", "responder"])
def test_replayed_handshake_fails(passphrase, replayed):
    """Bytes recorded from one handshake do not open a second one: fresh keys, new transcript."""
    first = pump(*pair(passphrase, passphrase))
    assert isinstance(first.responder, Established)
    victim = Handshake(Identity.generate(), "t", passphrase, initiator=replayed == "responder")
    victim.start()
    recorded = first.c2s if replayed == "initiator" else first.s2c
    event = victim.feed(bytes(recorded)).event
    assert isinstance(event, Rejected) and event.reason == WRONG_PASSPHRASE


def test_truncation_and_connection_loss():
    init, resp = pair()
    hello = init.start()
    resp.start()
    assert resp.feed(hello[:10]).event is None
    event = resp.connection_lost().event
    assert event.reason.startswith("bad handshake message: connection closed inside a frame (6 of")
    init, resp = pair()
    init.start()
    assert init.connection_lost().event.reason == CLOSED_EARLY


def _split(data: bytes) -> list[bytes]:
    """The whole frames in ``data``."""
    frames = []
    while data:
        n = int.from_bytes(data[:4], "big")
        frames.append(data[:4 + n])
        data = data[4 + n:]
    return frames


def test_the_responder_answers_a_hello_with_its_hello_and_auth():
    init, resp = pair()
    assert resp.start() == b""  # nothing before the dialler's first frame
    hello_r, auth_r = _split(resp.feed(init.start()).send)
    assert unpack(hello_r[4:])["t"] == "hello" and unpack(hello_r[4:])["v"] == PROTOCOL_VERSION
    step = init.feed(hello_r + auth_r)
    assert isinstance(step.event, Established) and step.send  # and its auth went out


def test_a_probe_gets_the_hello_and_nothing_else():
    """A dialler after the table id only (docs/protocol.md, "Manual connect")."""
    _init, resp = pair()
    resp.start()
    step = resp.feed(encode_frame(pack({"t": "probe"})))
    [hello] = _split(step.send)
    assert unpack(hello[4:])["table"] == "t" and step.event.reason == PROBE_ANSWERED


def test_lost_while_waiting_for_auth_is_a_wrong_passphrase():
    """A peer hangs up instead of answering our auth: it could not decrypt it."""
    init, resp = pair()
    resp.start()
    hello_r, _auth_r = _split(resp.feed(init.start()).send)
    step = init.feed(hello_r)
    assert step.send and step.event is None  # our auth went out
    event = init.connection_lost().event
    assert isinstance(event.error, AuthError) and event.reason == WRONG_PASSPHRASE
    init, resp = pair()
    resp.start()
    hello_r, auth_r = _split(resp.feed(init.start()).send)
    init.feed(hello_r)
    assert init.feed(auth_r[:-3]).event is None  # a truncated auth, then the end
    assert "connection closed inside a frame" in init.connection_lost().event.reason


def test_timeout_on_the_injected_clock():
    clock = FakeClock(50.0)
    init = Handshake(Identity.generate(), "t", None, initiator=True, clock=clock, timeout=10.0)
    init.start()
    assert init.deadline == 60.0
    clock.now = 59.999
    assert init.poll().event is None
    clock.now = 60.0
    event = init.poll().event
    assert isinstance(event, Rejected) and event.reason == TIMED_OUT
    assert init.feed(b"late bytes").event is None  # done: nothing more happens


def test_a_silent_connection_loses_its_slot_at_the_hello_deadline():
    clock = FakeClock(50.0)
    idle = Handshake(Identity.generate(), "t", None, initiator=False, clock=clock,
                     timeout=10.0, hello_timeout=2.0)
    idle.start()
    clock.now = 52.0
    event = idle.poll().event
    assert isinstance(event, Rejected) and event.reason == "no hello within 2 s"
    talking = Handshake(Identity.generate(), "t", None, initiator=False, clock=clock,
                        timeout=10.0, hello_timeout=2.0)
    talking.start()
    init = Handshake(Identity.generate(), "t", None, initiator=True, clock=clock)
    first = init.start()
    clock.now = 53.0
    talking.feed(first[:3])  # the hello has begun: the whole handshake timeout applies
    clock.now = 55.0
    assert talking.poll().event is None
    clock.now = 63.0
    assert talking.poll().event.reason == TIMED_OUT


@pytest.mark.parametrize(("fields", "reason"), [
    ({"peer": "XYZ"}, "malformed peer id"),
    ({"key": b"k" * 31}, "malformed key or nonce in hello"),
    ({"nonce": b"n"}, "malformed key or nonce in hello"),
    ({"port": 70000}, "bad port in hello"),
    ({"kx": b"short"}, "bad X25519 public key length"),
    ({"kx": bytes(32)}, "bad X25519 public key"),
    ({"t": "auth", "sig": b""}, "expected hello, got auth"),
    ({"v": "1"}, "bad handshake message: hello: field 'v' should be int, got str"),
])
def test_malformed_hellos(fields, reason):
    init, resp = pair()
    resp.start()
    event = resp.feed(_rewrite_hello(init.start(), **fields)).event
    assert isinstance(event, Rejected) and event.reason == reason


def test_self_connection_and_garbage():
    me = Identity.generate()
    a = Handshake(me, "t", None, initiator=True)
    b = Handshake(me, "t", None, initiator=False)
    b.start()
    assert b.feed(a.start()).event.reason == "connected to itself (same peer id)"
    for junk in (b"\xff" * 8, encode_frame(b"\xc1"), encode_frame(pack([1, 2]))):
        hs = Handshake(Identity.generate(), "t", None, initiator=False)
        hs.start()
        event = hs.feed(junk).event
        assert isinstance(event, Rejected) and event.reason.startswith("bad handshake message")


def test_frames_after_auth_are_handed_to_the_link():
    """Link frames that arrive in the same read as the auth are not lost."""
    init, resp = pair()
    resp.start()
    hello_r, auth_r = _split(resp.feed(init.start()).send)
    step = init.feed(hello_r)
    assert step.event is None
    est_r = resp.feed(step.send).event
    extra = MessageChannel(est_r.cipher).frame(pack({"t": "hb"}))
    est_i = init.feed(auth_r + extra + extra[:5]).event
    assert isinstance(est_i, Established) and est_i.leftover == extra + extra[:5]
    channel = MessageChannel(est_i.cipher)
    assert [r.message for r in channel.receive(est_i.leftover)] == [Heartbeat()]


def test_injected_randomness_is_used():
    nonce = secrets.token_bytes(16)
    kx = X25519Exchange(bytes(range(32)))
    hs = Handshake(Identity.generate(), "t", None, initiator=True, key_exchange=kx, nonce=nonce)
    hello = unpack(hs.start()[4:])
    assert hello["nonce"] == nonce and hello["kx"] == kx.message


def test_errors_are_typed():
    ex = pump(*pair(table_i="a", table_r="b"))
    assert type(ex.initiator.error) is HandshakeError  # not an AuthError: no passphrase issue


def test_hostile_first_frames_end_in_a_rejection_or_a_wait():
    """The listener fuzz cases of test_fuzz.py, fed straight to a responder: each one ends
    the handshake with a Rejected (or leaves it waiting for more bytes), never an exception."""
    import random

    from test_fuzz import pre_handshake_case

    rng = random.Random(20240601)
    for _ in range(1500):
        hs = Handshake(Identity.generate(), "table-1", None, initiator=False)
        hs.start()
        data = pre_handshake_case(rng)
        step = hs.feed(data)
        if step.event is None:
            step = hs.connection_lost()  # the fuzzer hangs up after sending
        assert isinstance(step.event, Rejected), data[:40]
        # at most a reject goes back, or our hello (the answer to a probe, or to a hello in
        # the other passphrase mode, which must fail with the same words on both sides)
        assert not step.send or b"reject" in step.send \
            or step.send == encode_frame(hs.hello_bytes)
