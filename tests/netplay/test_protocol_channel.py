"""The open link's encrypted message channel, fed bytes: no sockets."""

import pytest

from netplay.protocol.channel import MessageChannel
from netplay.protocol.messages import encode_message
from netplay.protocol.secure import DecryptError, FrameCipher
from netplay.protocol.wire import FrameError, ProtocolError, WireLimits, encode_frame, pack

K1, K2 = bytes(range(32)), bytes(range(1, 33))
MESSAGES = [{"t": "hb"}, {"t": "priv", "body": {"x": list(range(50))}}, {"t": "bye", "reason": "done"}]


DEFAULT_LIMITS = WireLimits()


def _pair(limits=DEFAULT_LIMITS):
    return MessageChannel(FrameCipher(K1, K2), limits), MessageChannel(FrameCipher(K2, K1), limits)


def _frames(sender, messages=MESSAGES):
    return [sender.frame(pack(m)) for m in messages]


def _receive_into(got, receiver, stream):
    """Decode `stream` into `got` message by message, so a test sees what came before an error."""
    for msg in receiver.receive(stream):
        got.append(encode_message(msg.message))


def test_messages_cross_at_any_split():
    a, _ = _pair()
    frames = _frames(a)
    stream = b"".join(frames)
    for cut in range(len(stream) + 1):
        _, b = _pair()
        got = list(b.receive(stream[:cut])) + list(b.receive(stream[cut:]))
        assert [encode_message(r.message) for r in got] == MESSAGES, cut
        assert [r.payload for r in got] == [pack(m) for m in MESSAGES], cut  # as they came
        b.eof()


@pytest.mark.parametrize("attack", ["flip", "replay", "reorder", "drop", "wrong key"])
def test_tampering_replay_reordering_fail_to_decrypt(attack):
    a, b = _pair()
    f0, f1, _f2 = _frames(a)
    stream = {
        "flip": f0[:-1] + bytes([f0[-1] ^ 0x80]),
        "replay": f0 + f0,
        "reorder": f1 + f0,
        "drop": f1,
        "wrong key": MessageChannel(FrameCipher(K2, K2)).frame(pack({"t": "hb"})),
    }[attack]
    got = []
    with pytest.raises(DecryptError, match="failed to decrypt"):
        _receive_into(got, b, stream)
    assert got == ([MESSAGES[0]] if attack == "replay" else [])


def test_errors_come_after_the_messages_before_them():
    a, b = _pair()
    good = a.frame(pack({"t": "hb"}))
    unknown = a.frame(pack({"t": "format-c"}))
    got = []
    with pytest.raises(ProtocolError, match="unknown message type"):
        _receive_into(got, b, good + unknown + a.frame(pack({"t": "hb"})))
    assert got == [{"t": "hb"}]
    a, b = _pair()
    got = []
    with pytest.raises(FrameError, match="exceeds limit"):
        _receive_into(got, b, a.frame(pack({"t": "hb"})) + (1 << 30).to_bytes(4, "big"))
    assert got == [{"t": "hb"}]


@pytest.mark.parametrize(("payload", "error"), [
    (pack({"t": "bye", "reason": 5}), "should be str"),
    (b"\xc1", "not a valid msgpack"),
    (pack([1]), "not a map"),
    (pack({"t": "hb"}) + b"\x00", "trailing bytes"),
])
def test_bad_messages_inside_good_encryption(payload, error):
    a, b = _pair()
    with pytest.raises(ProtocolError, match=error):
        list(b.receive(a.frame(payload)))


def test_truncated_stream_and_short_ciphertext():
    a, b = _pair()
    frame = a.frame(pack({"t": "hb"}))
    assert list(b.receive(frame[:-2])) == []
    with pytest.raises(FrameError, match="inside a frame"):
        b.eof()
    _, b = _pair()
    with pytest.raises(DecryptError, match="shorter than its tag"):
        list(b.receive(encode_frame(b"tiny")))


def test_size_limit_counts_the_tag():
    a, _ = _pair(WireLimits(max_frame=100))
    assert a.fits(b"x" * 84) and not a.fits(b"x" * 85)
    assert len(a.frame(b"x" * 84)) == 104
    with pytest.raises(FrameError, match="exceeds"):
        a.frame(b"x" * 85)
