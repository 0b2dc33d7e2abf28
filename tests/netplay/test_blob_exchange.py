"""A module archive crosses real loopback links: fetched in checked chunks from any peer that
has it, resumed from another when one lies, nothing used unless it verifies."""
from __future__ import annotations

import hashlib
import os

import pytest
from netplay_testkit import LOOPBACK, run, start_meshes, stop_all, wait_until

from netplay.blobs.exchange import BlobExchange, TransferFailed
from netplay.blobs.transfer import CHUNK

pytestmark = pytest.mark.socket


def _verify(digest: str):  # type: ignore[no-untyped-def]
    return lambda data: hashlib.sha256(data).hexdigest() == digest


def test_a_joiner_fetches_a_blob_from_the_table_and_survives_a_liar(caplog) -> None:  # type: ignore[no-untyped-def]
    data = os.urandom(5 * CHUNK + 99)
    digest = hashlib.sha256(data).hexdigest()
    tampered = bytearray(data)
    tampered[3 * CHUNK] ^= 0x55

    async def scenario() -> None:
        honest, liar, joiner = await start_meshes(3)
        exchanges = [BlobExchange(honest, {digest: data}.get),
                     BlobExchange(liar, {digest: bytes(tampered)}.get),
                     BlobExchange(joiner, {}.get)]
        for m in (liar, joiner):
            await m.connect(LOOPBACK, honest.port)
        assert await wait_until(lambda: len(joiner.peers()) == 2, 10)
        seen: list[tuple[int, int]] = []
        # ask the liar first: its copy fails its whole-hash check, the honest peer completes
        joiner.peers = lambda: sorted([liar.peer_id, honest.peer_id],  # type: ignore[method-assign]
                                      key=lambda p: p != liar.peer_id)
        got = await exchanges[2].fetch(digest, _verify(digest),
                                       progress=lambda d, t: seen.append((d, t)))
        assert got == data
        assert seen[-1] == (len(data), len(data))
        named = [r.getMessage() for r in caplog.records if "blob" in r.getMessage()]
        assert any(liar.peer_id in m and "does not match the hash" in m for m in named), named
        # the liar's five good-looking chunks; then the honest peer's chunk list shows the
        # fourth differs: three chunks kept, the rest fetched from it (not from the start)
        assert [d for d, _ in seen] == [CHUNK, 2 * CHUNK, 3 * CHUNK, 4 * CHUNK, 5 * CHUNK,
                                        3 * CHUNK, 4 * CHUNK, 5 * CHUNK, len(data)]
        with pytest.raises(TransferFailed) as err:
            await exchanges[2].fetch("0" * 64, _verify("0" * 64))
        assert "cannot serve it (not here)" in str(err.value)
        for ex in exchanges:
            ex.close()
        await stop_all([honest, liar, joiner])

    run(scenario())
