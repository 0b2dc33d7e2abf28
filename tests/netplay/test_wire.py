import asyncio

import msgpack
import pytest

from netplay.messages import check_message
from netplay.wire import (FrameError, ProtocolError, WireLimits, encode_frame, pack, read_frame,
                          unpack)


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
