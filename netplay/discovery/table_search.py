"""Tables on the LAN through discovery: every table listed after a wait, or the one with a
given name as soon as it is listed. ``interfaces=None`` browses every interface (the product);
tests and demos pass ``["127.0.0.1"]``."""


from __future__ import annotations

from collections.abc import Callable
from typing import Any

from netplay.discovery.listing import TableListing
from netplay.discovery.mdns import TableBrowser


def interface_choice(interfaces: list[str] | None) -> Any:
    from zeroconf import InterfaceChoice

    return InterfaceChoice.All if interfaces is None else list(interfaces)


async def browse_tables(interfaces: list[str] | None, wait: float,
                        until: Callable[[list[TableListing]], bool] | None = None
                        ) -> list[TableListing]:
    """Tables announced on the LAN, after ``wait`` seconds (or as soon as ``until`` holds)."""
    browser = TableBrowser(interfaces=interface_choice(interfaces), verify=True)
    await browser.start()
    try:
        await browser.wait_until(until or (lambda ts: False), wait)
        return browser.tables()
    finally:
        await browser.stop()


async def find_table(name: str, interfaces: list[str] | None, timeout: float) -> TableListing | None:
    """The table with this name (or table id), as soon as discovery lists it."""
    def match(tables: list[TableListing]) -> bool:
        return any(t.name == name or t.table_id == name for t in tables)

    tables = await browse_tables(interfaces, timeout, match)
    found = [t for t in tables if t.name == name or t.table_id == name]
    return found[0] if found else None
