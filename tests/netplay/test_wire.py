"""Framing and message decoding, fed bytes: no sockets."""

import asyncio
import contextlib
import itertools

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from netplay.link.framing import read_frame
from netplay.protocol.messages import Bye, StateHash, check_message, decode_message, encode_message
from netplay.protocol.wire import (
    FrameDecoder,
    FrameError,
    ProtocolError,
    WireLimits,
    encode_frame,
    pack,
    unpack,
)

PAYLOADS = [b"a", b"\x00" * 3, bytes(range(256)), pack({"t": "hb"}), b"z" * 1000]
STREAM = b"".join(encode_frame(p) for p in PAYLOADS)


def test_roundtrip_and_frame():
    msg = {"t": "bye", "reason": "done", "extra": [1, b"\x00", {"a": None}]}
    assert unpack(pack(msg)) == msg
    frame = encode_frame(pack(msg))
    assert int.from_bytes(frame[:4], "big") == len(frame) - 4


def test_limits_and_depth():
    limits = WireLimits(max_frame=1000, max_str_len=10, max_depth=4)
    with pytest.raises(FrameError, match="exceeds"):
        unpack(b"\x00" * 1001, limits)
    with pytest.raises(FrameError):
        unpack(pack({"t": "x" * 11}), limits)
    deep: object = 1
    for _ in range(5):
        deep = [deep]
    with pytest.raises(FrameError, match="nesting"):
        unpack(pack(deep), limits)
    with pytest.raises(FrameError, match="nesting"):
        unpack(b"\x91" * 5000 + b"\x00")
    with pytest.raises(FrameError, match="trailing"):
        unpack(pack(1) + pack(2))
    with pytest.raises(FrameError):
        unpack(msgpack.packb(msgpack.ExtType(5, b"abc")))
    with pytest.raises(FrameError):
        unpack(msgpack.packb({1: 2}))  # strict_map_key
    with pytest.raises(FrameError, match="empty"):
        encode_frame(b"")


def test_schema():
    assert check_message({"t": "hb"}) == {"t": "hb"}
    with pytest.raises(ProtocolError, match="unknown message type"):
        check_message({"t": "nope"})
    with pytest.raises(ProtocolError, match="missing field"):
        check_message({"t": "bye"})
    with pytest.raises(ProtocolError, match="should be str"):
        check_message({"t": "bye", "reason": 3})
    with pytest.raises(ProtocolError, match="should be int"):
        check_message({"t": "hello", "v": True, "table": "", "peer": "", "key": b"", "pake": False,
                       "kx": b"", "nonce": b"", "port": 0})
    with pytest.raises(ProtocolError, match="not a map"):
        check_message([1])


def test_a_message_decodes_to_its_kind_checked_once():
    # fields not in the schema are ignored (room for compatible additions)
    assert decode_message({"t": "bye", "reason": "done", "later": 1}) == Bye("done")
    hashed = decode_message({"t": "hash", "vv": {"a" * 16: 2}, "h": "ff"})
    assert hashed == StateHash({"a" * 16: 2}, "ff") and hashed.heads is None
    assert encode_message(hashed) == {"t": "hash", "vv": {"a" * 16: 2}, "h": "ff"}
    # a kind's own checks run in the same place as the field types
    with pytest.raises(ProtocolError, match="vv: bad version vector entry"):
        decode_message({"t": "vv", "vv": {"a": -1}})
    with pytest.raises(ProtocolError, match="caught_up: bad version vector entry for 'a'"):
        decode_message({"t": "caught_up", "vv": {"a": "x"}})
    with pytest.raises(ProtocolError, match="should be map"):
        decode_message({"t": "vv", "vv": [1]})


def test_read_frame_errors():
    async def scenario():
        r = asyncio.StreamReader()
        r.feed_data((2**31).to_bytes(4, "big"))
        with pytest.raises(FrameError, match="exceeds"):
            await read_frame(r)
        r = asyncio.StreamReader()
        r.feed_data(b"\x00\x00\x00\x05ab")
        r.feed_eof()
        with pytest.raises(FrameError, match="inside a frame"):
            await read_frame(r)
        r = asyncio.StreamReader()
        r.feed_eof()
        with pytest.raises(EOFError):
            await read_frame(r)
    asyncio.run(scenario())


def test_decoder_splits_anywhere():
    """Every split of a stream into two reads, and byte-by-byte, gives the same frames."""
    for cut in range(len(STREAM) + 1):
        decoder = FrameDecoder()
        got = decoder.feed(STREAM[:cut]) + decoder.feed(STREAM[cut:])
        assert got == PAYLOADS, cut
        assert decoder.buffered == 0
        decoder.eof()
    decoder = FrameDecoder()
    got = []
    for i in range(len(STREAM)):
        got += decoder.feed(STREAM[i:i + 1])
    assert got == PAYLOADS


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, len(STREAM)), max_size=12))
def test_decoder_any_chunking(cuts):
    decoder = FrameDecoder()
    bounds = [0, *sorted(cuts), len(STREAM)]
    got = []
    for lo, hi in itertools.pairwise(bounds):
        got += decoder.feed(STREAM[lo:hi])
    assert got == PAYLOADS


def test_decoder_limits_and_bad_lengths():
    limits = WireLimits(max_frame=100)
    decoder = FrameDecoder(limits)
    assert decoder.feed(encode_frame(b"x" * 100, limits)) == [b"x" * 100]
    big = encode_frame(b"y" * 900_000)  # a large frame in network-sized reads
    decoder_big = FrameDecoder()
    assert [f for i in range(0, len(big), 65536) for f in decoder_big.feed(big[i:i + 65536])] \
        == [b"y" * 900_000]
    with pytest.raises(FrameError, match="frame length 101 exceeds limit 100"):
        decoder.feed((101).to_bytes(4, "big"))  # refused from the header alone
    with pytest.raises(FrameError, match="exceeds"):  # the stream stays broken
        decoder.feed(encode_frame(b"ok"))
    with pytest.raises(FrameError, match="exceeds"):
        decoder.eof()
    with pytest.raises(FrameError, match="empty frame"):
        FrameDecoder().feed(b"\x00\x00\x00\x00")
    with pytest.raises(FrameError, match="exceeds limit"):
        FrameDecoder().feed(b"\xff\xff\xff\xff")


def test_frames_before_a_bad_header_come_first():
    """A reader handles what the peer sent before the bad frame, then the error."""
    decoder = FrameDecoder()
    data = encode_frame(b"one") + encode_frame(b"two") + (1 << 30).to_bytes(4, "big")
    assert decoder.feed(data) == [b"one", b"two"]
    with pytest.raises(FrameError, match="exceeds"):
        decoder.feed(b"")
    decoder = FrameDecoder()
    assert decoder.feed(encode_frame(b"one") + b"\x00\x00\x00\x00") == [b"one"]
    with pytest.raises(FrameError, match="empty"):
        decoder.eof()


def test_decoder_truncation_at_eof():
    decoder = FrameDecoder()
    decoder.eof()  # nothing held: a clean end
    decoder.feed(b"\x00\x00")
    with pytest.raises(FrameError, match="inside a frame header"):
        decoder.eof()
    decoder = FrameDecoder()
    assert decoder.feed(b"\x00\x00\x00\x05ab") == []
    assert decoder.buffered == 6
    with pytest.raises(FrameError, match=r"inside a frame \(2 of 5 bytes\)"):
        decoder.eof()
    decoder = FrameDecoder()
    assert decoder.feed(encode_frame(b"abc") + b"\x00\x00\x00\x09rest") == [b"abc"]
    assert decoder.take_buffered() == b"\x00\x00\x00\x09rest" and decoder.buffered == 0


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=200), st.integers(1, 64))
def test_garbage_gives_frames_or_a_frame_error(garbage, max_frame):
    """Random bytes never crash the decoder, and no frame it returns breaks the limit."""
    decoder = FrameDecoder(WireLimits(max_frame=max_frame))
    try:
        frames = decoder.feed(garbage) + decoder.feed(b"")
        decoder.eof()
    except FrameError:
        return
    assert all(1 <= len(f) <= max_frame for f in frames)
    for frame in frames:  # decoding garbage fails only with ProtocolError (FrameError too)
        with contextlib.suppress(ProtocolError):
            check_message(unpack(frame))
