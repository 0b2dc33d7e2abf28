"""Finding and reaching a table: by name through discovery, or at HOST:PORT; dialing its peers,
and asking again while a table is busy (its handshake slots full), with backoff."""


from __future__ import annotations

import asyncio
import logging

from netplay.discovery.mdns import probe_table_id
from netplay.discovery.table_search import find_table
from netplay.link.link import CONNECT_FAILED
from netplay.link.quic import NO_ENDPOINT, TicketError
from netplay.link.table_ticket import read_table_ticket
from netplay.mesh.admission import BUSY_REASON
from netplay.protocol.handshake import CLOSED_EARLY, is_version_refusal
from table.lan.table import LanError, LanTable

log = logging.getLogger(__name__)


async def resolve(*, table: str | None = None, connect: str | None = None,
                  interfaces: list[str] | None = None, timeout: float = 10.0,
                  ticket: str | None = None) -> tuple[str, list[tuple[str, int]], str]:
    """(table id, addresses to dial, table name) from a table name (discovery), host:port or
    an internet ticket (its endpoint ticket is the address, port 0)."""
    if ticket:
        try:
            table_id, endpoint = read_table_ticket(ticket)
        except TicketError as err:
            raise LanError(str(err)) from None
        return table_id, [(endpoint, 0)], ""
    if connect:
        host_, _, port_text = connect.rpartition(":")
        if not host_ or not port_text.isdigit():
            raise LanError(f"cannot read {connect!r}: expected HOST:PORT")
        table_id = await _probe_retrying(host_, int(port_text), timeout)
        return table_id, [(host_, int(port_text))], ""
    if not table:
        raise LanError("name a table or give HOST:PORT")
    listing = await find_table(table, interfaces, timeout)
    if listing is None:
        raise LanError(f"no table named {table!r} found on the LAN (try HOST:PORT)")
    return listing.table_id, [(p.host, p.port) for p in listing.peers], listing.name


async def _probe_retrying(host_: str, port: int, timeout: float) -> str:
    """The table id at host:port; a busy table is asked again until ``timeout``, and so is
    one that took the connection and closed it without a word: under a flood of idle
    connections the table sheds the longest-waiting ones (netplay.mesh.admission), and a joiner
    caught in that churn is there to try again."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    delay = 0.3
    while True:
        try:
            return await probe_table_id(host_, port, max(0.5, min(timeout, deadline - loop.time())))
        except Exception as err:
            again = busy(str(err)) or isinstance(err, (EOFError, ConnectionResetError))
            if again and loop.time() + delay < deadline:
                log.warning("the table is busy, retrying")
                await asyncio.sleep(delay)
                delay = min(2.0, delay * 2)
                continue
            if busy(str(err)):
                raise LanError(f"the table at {host_}:{port} stayed busy; try again") from None
            if is_version_refusal(str(err)):
                raise LanError(f"cannot join the table at {host_}:{port}: {err}") from None
            raise LanError(f"no table answers at {host_}:{port}: {err}") from None


def busy(reason: str | None) -> bool:
    return bool(reason) and BUSY_REASON in str(reason)


def not_reached_yet(reason: str | None) -> bool:
    """An internet dial that found no stream to the table (no answer yet, no path yet): worth
    another try. Not a joiner without an internet endpoint, nor a table that answered."""
    text = str(reason or "")
    return text.startswith(CONNECT_FAILED) and NO_ENDPOINT not in text


def shed(reason: str | None) -> bool:
    """The table took the connection and closed it before its hello: what a table under a
    flood does to the longest-waiting connections (a wrong passphrase fails later, at auth)."""
    return bool(reason) and CLOSED_EARLY in str(reason)


async def dial(t: LanTable, addresses: list[tuple[str, int]], timeout: float) -> None:
    if not addresses:
        raise LanError("could not join the table (no address)")
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    delay = 0.3
    while True:
        for host_, port in addresses:
            if await t.session.connect(host_, port) or t.session.mesh.peers():
                return
        failures = [t.session.mesh.dial_failures.get(a) for a in addresses]
        # A busy table (its handshake slots are full) is there: wait and try again. So is a
        # path across the internet that is still being found (a dial that timed out, a hole
        # not yet punched): tried again until the deadline. A table that answered and refused
        # (a passphrase, a version) is not.
        unreached = all(port == 0 for _, port in addresses) and all(
            not_reached_yet(f) for f in failures)
        if not (unreached or any(busy(f) or shed(f) for f in failures)) or \
                loop.time() + delay > deadline:
            break
        log.warning("the table is busy or not reached yet, retrying")
        await asyncio.sleep(delay)
        delay = min(2.0, delay * 2)
    refused = next((f for f in failures if f and is_version_refusal(f)), None)
    if refused is not None:  # another protocol version: no retry, no passphrase to blame
        raise LanError(f"could not join the table: {refused}")
    if all(port == 0 for _, port in addresses):  # internet: the link's own reason says why
        reason = next((f for f in failures if f), "no answer")
        raise LanError(f"could not join the table over the internet: {reason}")
    # Did the table answer at all? Then the handshake failed: the passphrase.
    for host_, port in addresses:
        try:
            await probe_table_id(host_, port, min(timeout, 3.0))
        except Exception:
            continue
        if t.session.options.passphrase:
            raise LanError("could not join the table: wrong passphrase")
        raise LanError("could not join the table: it needs a passphrase")
    raise LanError("could not join the table: it is gone (no answer at "
                   + ", ".join(f"{h}:{p}" for h, p in addresses) + ")")
