"""The receive and send paths' shortcuts give what the plain paths give, fed bytes: no sockets.

A whole frame fed to an empty decoder is taken as it is (no copy into the buffer); a frame is
sealed with its header in one buffer; a message is decoded from a schema walked once; the
depth and key-order checks walk without recursion; the verifier's hooks are looked up once
per type. Each is compared here with the slower way it replaced."""
from __future__ import annotations

import pytest

from netplay.protocol.channel import MessageChannel
from netplay.protocol.messages import SCHEMAS, decode_message, encode_message
from netplay.protocol.secure import FrameCipher
from netplay.protocol.wire import (
    FrameDecoder,
    FrameError,
    ProtocolError,
    WireLimits,
    check_depth,
    encode_frame,
    pack,
)
from netplay.replication.canonical import _keys_sorted
from netplay.replication.opsign import OpVerifier
from netplay.replication.seam import ReceivingVerifier, receiving_hooks

K1, K2 = bytes(range(32)), bytes(range(1, 33))


def test_a_whole_frame_alone_is_the_frame_the_buffer_would_give() -> None:
    payloads = [b"a", b"x" * 300, bytes(range(256))]
    fast, slow = FrameDecoder(), FrameDecoder()
    for p in payloads:
        frame = encode_frame(p)
        assert fast.feed(frame) == [p]  # an empty buffer, one whole frame: the shortcut
        got = slow.feed(frame[:1]) + slow.feed(frame[1:])  # through the buffer
        assert got == [p]
    assert fast.buffered == slow.buffered == 0


@pytest.mark.parametrize("header", [b"\x00\x00\x00\x00", (2000).to_bytes(4, "big")])
def test_a_bad_length_alone_is_refused_as_through_the_buffer(header: bytes) -> None:
    limits = WireLimits(max_frame=1000)
    data = header + b"x" * 8
    errors = []
    for feed in (lambda d: FrameDecoder(limits).feed(d),
                 lambda d: (lambda dec: dec.feed(d[:2]) + dec.feed(d[2:]))(FrameDecoder(limits))):
        with pytest.raises(FrameError) as caught:
            feed(data)
        errors.append(caught.value.reason)
    assert errors[0] == errors[1]


def test_a_frame_sealed_with_its_header_is_the_sealed_frame(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import netplay.protocol.secure as secure

    one, other = FrameCipher(K1, K2), FrameCipher(K1, K2)
    payloads = (b"m", pack({"t": "hb"}), b"z" * 5000)
    direct = []
    for payload in payloads:
        direct.append(one.seal_frame(payload))
        assert direct[-1] == encode_frame(other.seal(payload))
    # without the direct libsodium call (nacl's checked binding): the same frames
    monkeypatch.setattr(secure, "_AEAD_ENCRYPT", None)
    bound = FrameCipher(K1, K2)
    assert [bound.seal_frame(payload) for payload in payloads] == direct
    channel, peer = MessageChannel(FrameCipher(K1, K2)), MessageChannel(FrameCipher(K2, K1))
    got = list(peer.receive(channel.frame(pack({"t": "bye", "reason": "done"}))))
    assert encode_message(got[0].message) == {"t": "bye", "reason": "done"}


def _slow_depth(value, max_depth, depth=1):  # the check as recursion, for comparison
    if type(value) is dict or type(value) is list:
        if depth > max_depth:
            raise FrameError(f"nesting deeper than {max_depth}")
        if type(value) is dict:
            if any(type(k) is not str for k in value):
                raise FrameError("map key is not a string")
            value = list(value.values())
        for v in value:
            _slow_depth(v, max_depth, depth + 1)


VALUES = [{"t": "op", "op": ["a", 1, 2, "note", {"text": "x", "z": [1, {"q": []}]}, {}, 1.0, None]},
          [[[[[]]]]], {"a": {"b": {"c": {"d": 1}}}}, {1: "x"}, {"a": [{"b": 1}, {2: 3}]}, 5, "s"]


@pytest.mark.parametrize("value", VALUES)
@pytest.mark.parametrize("max_depth", [1, 2, 3, 4, 16])
def test_the_depth_check_says_what_the_recursive_one_says(value, max_depth) -> None:
    outcomes = []
    for check in (check_depth, _slow_depth):
        try:
            check(value, max_depth)
            outcomes.append(None)
        except FrameError as exc:
            outcomes.append(exc.reason)
    assert outcomes[0] == outcomes[1]


def _slow_sorted(value) -> bool:
    if type(value) is dict:
        keys = list(value)
        return keys == sorted(keys) and all(_slow_sorted(v) for v in value.values())
    if type(value) is list:
        return all(_slow_sorted(v) for v in value)
    return True


@pytest.mark.parametrize("value", [
    ["a", 1, {"a": 1, "b": {"c": 1, "d": 2}}, {}], ["a", {"b": 1, "a": 2}], [{"a": [{"z": 1, "y": 2}]}],
    [[{"b": [1, {"d": 0, "c": 1}]}]], [{"é": 1, "e": 2}], []])
def test_the_key_order_check_says_what_the_recursive_one_says(value) -> None:
    assert _keys_sorted(value) == _slow_sorted(value)


def test_every_kind_decodes_as_its_schema_says() -> None:
    """Each registered kind: a map with its required fields decodes to the same fields, a
    missing or mistyped field is refused with the same words as before."""
    samples = {"str": "s", "int": 3, "bool": True, "bin": b"b", "map": {}, "list": [], "any": 1}
    for t, schema in SCHEMAS.items():
        msg = {"t": t, **{name: samples[f.kind] for name, f in schema.items() if f.required}}
        try:
            decoded = decode_message(msg)
        except Exception:  # a kind's own check (a version vector, say) may refuse the sample
            continue
        assert encode_message(decoded) == msg
        for name, f in schema.items():
            if f.kind == "any":
                continue
            wrong = {**msg, name: object()}
            with pytest.raises(Exception, match=f"{t}: field {name!r} should be {f.kind}"):
                decode_message(wrong)


def test_the_verifier_hooks_are_found_as_isinstance_finds_them() -> None:
    verifier = OpVerifier(lambda _p: None)
    assert receiving_hooks(verifier) is verifier
    assert receiving_hooks(verifier) is verifier  # asked again: from the cache
    plain = lambda op, key: True  # noqa: E731 - a bare verifier, no hooks
    assert receiving_hooks(plain) is None
    assert receiving_hooks(None) is None
    assert isinstance(verifier, ReceivingVerifier) and not isinstance(plain, ReceivingVerifier)


OP = ["a" * 16, 1, 1, "note", {"text": "x"}, {}, 1.0, None, bytes(64)]


def test_more_says_the_next_message_is_here_and_of_the_same_kind() -> None:
    sender, receiver = MessageChannel(FrameCipher(K1, K2)), MessageChannel(FrameCipher(K2, K1))
    kinds = [{"t": "hb"}, {"t": "op", "op": OP}, {"t": "op", "op": OP}, {"t": "op", "op": OP},
             {"t": "priv", "body": {}}, {"t": "op", "op": OP}]
    chunk = b"".join(sender.frame(pack(m)) for m in kinds)
    got = list(receiver.receive(chunk))
    assert [r.message.T for r in got] == ["hb", "op", "op", "op", "priv", "op"]
    assert [r.more for r in got] == [False, True, True, False, False, False]


def test_a_bad_frame_after_a_run_comes_after_the_run_and_ends_it() -> None:
    sender, receiver = MessageChannel(FrameCipher(K1, K2)), MessageChannel(FrameCipher(K2, K1))
    good = [sender.frame(pack({"t": "op", "op": OP})) for _ in range(2)]
    bad = bytearray(sender.frame(pack({"t": "op", "op": OP})))
    bad[-1] ^= 1  # tampered: fails to decrypt
    got: list[bool] = []

    def take_all() -> None:
        for received in receiver.receive(b"".join(good) + bytes(bad)):
            got.append(received.more)

    with pytest.raises(ProtocolError):
        take_all()
    assert got == [True, False]  # both handed over, the last without more, then the error
