"""A flood of idle connections, in its own process: one connection from each of N loopback
addresses (127.0.0.2 on: 127.0.0.0/8 is all loopback inside a network namespace), each opened
again as soon as the table closes it, never sending a byte.

Usage: idle_flood.py --port P --addresses N. Prints ``FLOODING`` once every address holds a
connection (or tried to), ``REOPENED n`` when stdin closes, then exits.
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import ipaddress
import sys


async def hold(host: str, port: int, source: str, counts: list[int]) -> None:
    while True:
        try:
            reader, writer = await asyncio.open_connection(host, port, local_addr=(source, 0))
        except OSError:
            await asyncio.sleep(0.05)
            continue
        with contextlib.suppress(ConnectionError, OSError):
            await reader.read()  # until the table hangs up (or resets)
        writer.close()
        counts[0] += 1


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--addresses", type=int, required=True)
    args = parser.parse_args()
    first = ipaddress.IPv4Address("127.0.0.2")
    counts = [0]
    tasks = [asyncio.ensure_future(hold("127.0.0.1", args.port, str(first + i), counts))
             for i in range(args.addresses)]
    await asyncio.sleep(1.0)
    sys.stdout.write("FLOODING\n")
    sys.stdout.flush()
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    sys.stdout.write(f"REOPENED {counts[0]}\n")
    sys.stdout.flush()
    for task in tasks:
        task.cancel()


if __name__ == "__main__":
    asyncio.run(main())
