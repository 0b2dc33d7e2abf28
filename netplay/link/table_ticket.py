"""A table's invitation over the internet: ``<table id>-<endpoint ticket>``.

The table id lets a joiner refuse a ticket for another table before dialing, and check it
again in the link's handshake; the endpoint ticket (iroh's: endpoint id, relay URL, direct
addresses) is where to dial. A ticket seats no one alone: the table's passphrase still guards
the handshake.
"""
from __future__ import annotations

import string

from netplay.link.quic import TicketError, read_endpoint_ticket

MAX_TABLE_ID = 64


def table_ticket(table_id: str, endpoint_ticket: str) -> str:
    return f"{table_id}-{endpoint_ticket}"


def read_table_ticket(text: str) -> tuple[str, str]:
    """(table id, endpoint ticket); a :class:`TicketError` says what is wrong."""
    table_id, sep, endpoint = text.strip().partition("-")
    if not sep or not 0 < len(table_id) <= MAX_TABLE_ID \
            or any(c not in string.hexdigits for c in table_id):
        raise TicketError("not a Sandtable ticket: expected <table id>-<endpoint ticket>, "
                          "as `sandtable host --internet` prints it")
    try:
        read_endpoint_ticket(endpoint)
    except TicketError as err:
        raise TicketError(f"not a Sandtable ticket: {err}") from None
    return table_id, endpoint
