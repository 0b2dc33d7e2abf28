"""A lossy, slow hub standing for the internet between namespaces (run inside the hub's own
namespace): every Ethernet frame that arrives on one of its ports leaves on every other port
after ``delay`` ± ``jitter`` ms, or is lost with probability ``loss``. This kernel has no netem
qdisc, so the shaping is done here, on raw packet sockets.

    python wan_hub.py DELAY_MS JITTER_MS LOSS IFACE...
"""
from __future__ import annotations

import contextlib
import heapq
import random
import select
import socket
import sys
import time

ETH_P_ALL = 0x0003
PACKET_OUTGOING = 4


def _sum16(data: bytes) -> int:
    if len(data) % 2:
        data += b"\0"
    total = sum(int.from_bytes(data[i:i + 2], "big") for i in range(0, len(data), 2))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return total


def with_checksum(frame: bytes) -> bytes:
    """A veth leaves TCP/UDP checksums to "hardware" (to be filled in later); a frame copied
    off one by a packet socket carries none, so fill it in here (IPv4 only)."""
    if len(frame) < 34 or frame[12:14] != b"\x08\x00":
        return frame
    ihl = (frame[14] & 0x0F) * 4
    proto, start = frame[23], 14 + ihl
    total = int.from_bytes(frame[16:18], "big")
    offset = {6: 16, 17: 6}.get(proto)
    if offset is None or len(frame) < 14 + total:
        return frame
    segment = bytearray(frame[start:14 + total])
    segment[offset:offset + 2] = b"\0\0"
    pseudo = frame[26:34] + bytes([0, proto]) + len(segment).to_bytes(2, "big")
    value = 0xFFFF - _sum16(pseudo + bytes(segment))
    segment[offset:offset + 2] = (value or 0xFFFF).to_bytes(2, "big")
    return frame[:start] + bytes(segment) + frame[14 + total:]


def main(argv: list[str]) -> None:
    delay, jitter, loss = float(argv[0]) / 1000, float(argv[1]) / 1000, float(argv[2])
    ports = {}
    for name in argv[3:]:
        sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
        sock.bind((name, ETH_P_ALL))
        sock.setblocking(False)
        ports[sock] = name
    due: list[tuple[float, int, socket.socket, bytes]] = []
    seq = 0
    print("HUB READY", flush=True)
    while True:
        timeout = max(0.0, due[0][0] - time.monotonic()) if due else 1.0
        readable, _, _ = select.select(list(ports), [], [], timeout)
        for sock in readable:
            try:
                frame, address = sock.recvfrom(65535)
            except OSError:
                continue
            if address[2] == PACKET_OUTGOING:  # our own sends, seen on the way out
                continue
            frame = with_checksum(frame)
            for other in ports:
                if other is not sock and random.random() >= loss:
                    seq += 1
                    at = time.monotonic() + max(0.0, random.uniform(delay - jitter, delay + jitter))
                    heapq.heappush(due, (at, seq, other, frame))
        now = time.monotonic()
        while due and due[0][0] <= now:
            _, _, other, frame = heapq.heappop(due)
            with contextlib.suppress(OSError):  # a port taken down (a home cut off): lost
                other.send(frame)


if __name__ == "__main__":
    main(sys.argv[1:])
