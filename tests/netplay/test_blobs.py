"""The content-addressed transfer, fed messages (no sockets): chunks checked one by one,
resumable from another peer, nothing used until the whole matches its hash."""
from __future__ import annotations

import dataclasses
import hashlib
import os

from netplay.blobs.transfer import (
    CHUNK,
    Blob,
    BlobFetch,
    BlobServer,
    Complete,
    NoHave,
    PeerFailed,
    Progress,
    Want,
)
from netplay.protocol.messages import decode_message, encode_message


def _blob(size: int) -> tuple[str, bytes]:
    data = os.urandom(size)
    return hashlib.sha256(data).hexdigest(), data


def _fetch(digest: str, **kw) -> BlobFetch:  # type: ignore[no-untyped-def]
    return BlobFetch(digest, lambda d: hashlib.sha256(d).hexdigest() == digest, **kw)


def _run(fetch: BlobFetch, servers: dict[str, BlobServer], peers: list[str],
         stop_after: dict[str, int] | None = None) -> list[object]:
    """Drive a fetch to its end; `stop_after`: a peer leaves after serving that many chunks."""
    events: list[object] = []
    served = {p: 0 for p in servers}
    asked = fetch.ask(peers)
    while asked is not None:
        peer, request = asked
        while request is not None:
            if stop_after and served[peer] >= stop_after.get(peer, 1 << 30):
                new = fetch.peer_gone(peer)
                events += new
                break
            # through the wire form and back, as the protocol decodes it from a link
            wanted = decode_message(encode_message(request))
            assert isinstance(wanted, Want)
            reply = decode_message(encode_message(servers[peer].answer(wanted)))
            assert isinstance(reply, Blob | NoHave)
            served[peer] += 1
            new = fetch.on_message(peer, reply)
            events += new
            if any(isinstance(e, (Complete, PeerFailed)) for e in new):
                break
            request = fetch.next_request()
        if fetch.done:
            return events
        asked = fetch.ask(peers)
    return events


def test_a_blob_arrives_in_checked_chunks() -> None:
    digest, data = _blob(3 * CHUNK + 17)
    fetch = _fetch(digest)
    events = _run(fetch, {"a": BlobServer({digest: data}.get)}, ["a"])
    assert [e.done for e in events if isinstance(e, Progress)] == \
        [CHUNK, 2 * CHUNK, 3 * CHUNK, 3 * CHUNK + 17]
    assert isinstance(events[-1], Complete) and events[-1].data == data


def test_a_transfer_resumes_from_another_peer() -> None:
    digest, data = _blob(5 * CHUNK)
    fetch = _fetch(digest)
    servers = {"a": BlobServer({digest: data}.get), "b": BlobServer({digest: data}.get)}
    events = _run(fetch, servers, ["a", "b"], stop_after={"a": 2})
    failed = [e for e in events if isinstance(e, PeerFailed)]
    assert [(e.peer, e.reason) for e in failed] == [("a", "left before the transfer ended")]
    assert isinstance(events[-1], Complete) and events[-1].data == data
    # b was asked from the third chunk on, not from the start
    assert [e.done for e in events if isinstance(e, Progress)][2] == 3 * CHUNK


def test_a_tampered_chunk_names_the_peer_and_another_completes() -> None:
    digest, data = _blob(3 * CHUNK)
    tampered = bytearray(data)
    tampered[CHUNK + 5] ^= 1

    class Liar(BlobServer):
        def answer(self, msg):  # type: ignore[no-untyped-def]
            reply = super().answer(msg)
            if isinstance(reply, Blob):  # the honest chunk list, a lying chunk
                reply = dataclasses.replace(reply, data=bytes(tampered[msg.off:msg.off + CHUNK]))
            return reply

    fetch = _fetch(digest)
    events = _run(fetch, {"liar": Liar({digest: data}.get),
                          "b": BlobServer({digest: data}.get)}, ["liar", "b"])
    failed = [e for e in events if isinstance(e, PeerFailed)]
    assert failed[0].peer == "liar" and "chunk 2 of 3 does not match" in failed[0].reason
    assert isinstance(events[-1], Complete) and events[-1].data == data


def test_a_consistent_wrong_blob_is_never_used() -> None:
    digest, data = _blob(2 * CHUNK + 3)
    _, other = _blob(2 * CHUNK + 3)
    fetch = _fetch(digest)
    events = _run(fetch, {"wrong": BlobServer({digest: other}.get),
                          "b": BlobServer({digest: data}.get)}, ["wrong", "b"])
    failed = [e for e in events if isinstance(e, PeerFailed)]
    assert failed[0].peer == "wrong" and "does not match the hash" in failed[0].reason
    completes = [e for e in events if isinstance(e, Complete)]
    assert len(completes) == 1 and completes[0].data == data


def test_truncated_and_oversized_transfers_give_up_with_the_reasons() -> None:
    digest, data = _blob(4 * CHUNK)
    fetch = _fetch(digest)
    events = _run(fetch, {"a": BlobServer({digest: data}.get)}, ["a"], stop_after={"a": 1})
    assert not fetch.done and fetch.ask(["a"]) is None
    assert "a: left before the transfer ended" in fetch.why_failed()
    assert not any(isinstance(e, Complete) for e in events)
    small = _fetch(digest, max_size=CHUNK)
    _run(small, {"a": BlobServer({digest: data}.get)}, ["a"])
    assert "MiB limit" in small.why_failed()
    refusing = _fetch(digest)
    _run(refusing, {"a": BlobServer({digest: data}.get, max_size=CHUNK)}, ["a"])
    assert "cannot serve it (over the" in refusing.why_failed()
    nobody = _fetch(digest)
    _run(nobody, {"a": BlobServer({}.get)}, ["a"])
    assert "cannot serve it (not here)" in nobody.why_failed()
