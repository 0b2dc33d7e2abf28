"""A round trip over UDP between two namespaces (no ping on every machine): ``serve HOST PORT``
echoes datagrams until killed; ``probe HOST PORT COUNT`` sends COUNT datagrams one by one and
prints the median round trip in ms."""
from __future__ import annotations

import socket
import statistics
import sys
import time


def main() -> None:
    mode, host, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    if mode == "serve":
        sock.bind((host, port))
        print("READY", flush=True)
        while True:
            data, sender = sock.recvfrom(2048)
            sock.sendto(data, sender)
    sock.settimeout(1.0)
    times = []
    for i in range(int(sys.argv[4])):
        sent = time.perf_counter()
        sock.sendto(str(i).encode(), (host, port))
        try:
            while sock.recv(2048) != str(i).encode():
                pass
        except TimeoutError:
            continue  # a lost datagram (the hub drops some)
        times.append((time.perf_counter() - sent) * 1000)
        time.sleep(0.05)
    print(f"{statistics.median(times):.1f}" if times else "none", flush=True)


if __name__ == "__main__":
    main()
