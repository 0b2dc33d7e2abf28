"""A peer of protocol 1, as the earlier protocol page wrote it (a test fixture): both sides of a
handshake send their ``hello`` (``v`` = 1) at once, then read the other side's first frame; a
``reject`` ends the handshake with its reason, a ``hello`` of another version is refused with
protocol 1's words (``protocol version mismatch (ours 1, theirs N)``). Its own msgpack
(independent_msgpack) and key exchange (libsodium); nothing of the project's code.

It goes no further than that first exchange, which is all a peer of another version ever has
with this one. ``frames`` keeps every plaintext frame it read, in order.
"""
from __future__ import annotations

import asyncio
import contextlib
import secrets
from dataclasses import dataclass, field
from typing import Any

import nacl.bindings as sodium
from independent_msgpack import decode, encode
from nacl.signing import SigningKey


@dataclass
class OldPeer:
    table: str
    peer_id: str = field(default_factory=lambda: secrets.token_hex(8))
    frames: list[dict[str, Any]] = field(default_factory=list)
    said: str = ""  # what it concluded: "refused: REASON" or "refused the other: REASON"

    def hello(self) -> bytes:
        key = bytes(SigningKey.generate().verify_key)
        kx = sodium.crypto_scalarmult_base(secrets.token_bytes(32))
        payload = encode({"t": "hello", "v": 1, "table": self.table, "peer": self.peer_id,
                          "key": key, "pake": False, "kx": kx,
                          "nonce": secrets.token_bytes(16), "port": 0})
        return len(payload).to_bytes(4, "big") + payload

    async def _frame(self, reader: asyncio.StreamReader) -> dict[str, Any] | None:
        """The next plaintext frame, or None once the stream ended (the other side hung up)."""
        try:
            n = int.from_bytes(await reader.readexactly(4), "big")
            frame: dict[str, Any] = decode(await reader.readexactly(n))
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            return None
        self.frames.append(frame)
        return frame

    async def talk(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Protocol 1's first steps on a fresh connection, either role."""
        writer.write(self.hello())
        await writer.drain()
        first = await self._frame(reader) or {}
        if first.get("t") == "reject":
            self.said = f"refused: {first.get('reason')}"
        elif first.get("t") == "hello" and first.get("v") != 1:
            reason = f"protocol version mismatch (ours 1, theirs {first.get('v')})"
            payload = encode({"t": "reject", "reason": reason})
            with contextlib.suppress(ConnectionError, OSError):
                writer.write(len(payload).to_bytes(4, "big") + payload)
                await writer.drain()
            self.said = f"refused the other: {reason}"
        while await self._frame(reader) is not None:  # what else it says before it hangs up
            pass
        writer.close()

    async def dial(self, host: str, port: int) -> None:
        reader, writer = await asyncio.open_connection(host, port)
        await self.talk(reader, writer)
