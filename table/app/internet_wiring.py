"""Internet play in the app: the endpoint's settings for a LAN table that also invites over the
internet, and the invite (open the endpoint if it is not yet, show the ticket with a Copy
button). The relay mode is the app's (``default``: n0's public relays; tests pass ``off``)."""
from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

from netplay.link.quic import QuicSettings
from netplay.session.lan_session import SessionOptions
from table import lan
from table.ui.lan import InviteDialog

log = logging.getLogger(__name__)


def internet_settings(relay: str, interfaces: list[str] | None) -> QuicSettings:
    return QuicSettings(relay=relay, bind_host=interfaces[0] if interfaces else "0.0.0.0")


def with_internet(opts: SessionOptions, relay: str, interfaces: list[str] | None) -> SessionOptions:
    """The options with an internet endpoint (kept if the options already name one)."""
    if opts.mesh.quic is None:
        opts.mesh = replace(opts.mesh, quic=internet_settings(relay, interfaces))
    return opts


async def invite(t: lan.LanTable, parent: Any, relay: str,
                 interfaces: list[str] | None) -> InviteDialog:
    """Open the table's internet endpoint (if not yet) and show its ticket."""
    settings = t.session.mesh.config.quic or internet_settings(relay, interfaces)
    ticket = await t.invite_over_internet(settings)
    dialog = InviteDialog(ticket, passphrase=bool(t.session.options.passphrase), parent=parent)
    dialog.open()
    return dialog
