"""A wrong passphrase ends with the documented error even when the other side resets the
connection (real sockets on 127.0.0.1): a reset or broken pipe after our auth is the peer
failing to decrypt it, never "Broken pipe"."""
from __future__ import annotations

import asyncio
import socket
import struct

import pytest
from netplay_testkit import LOOPBACK, run

from netplay.link.streams import perform_handshake
from netplay.protocol.handshake import WRONG_PASSPHRASE, AuthError, Handshake
from netplay.protocol.identity import Identity

pytestmark = pytest.mark.socket


def test_a_reset_after_our_auth_reads_as_the_wrong_passphrase() -> None:
    async def scenario() -> str:
        async def host(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            # another implementation, with another passphrase: it reads the joiner's hello,
            # answers with its own, reads the joiner's auth, cannot decrypt that and resets
            # without an auth of its own
            shake = Handshake(Identity.generate(), "t", "right", initiator=False,
                              clock=asyncio.get_running_loop().time)
            shake.start()
            answer = shake.feed(await reader.read(65536)).send  # its hello, then its auth
            writer.write(answer[:4 + int.from_bytes(answer[:4], "big")])
            await writer.drain()
            await reader.read(65536)
            sock = writer.get_extra_info("socket")
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            writer.transport.abort()

        server = await asyncio.start_server(host, LOOPBACK, 0)
        port = server.sockets[0].getsockname()[1]
        reader, writer = await asyncio.open_connection(LOOPBACK, port)
        try:
            await perform_handshake(reader, writer, Identity.generate(), "t", "wrong", True)
        except AuthError as err:
            return str(err)
        finally:
            writer.close()
            server.close()
        return "established"

    for _ in range(5):  # reset or end of stream, whichever the kernel gives: the same words
        assert run(scenario(), 20) == WRONG_PASSPHRASE
