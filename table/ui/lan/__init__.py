"""LAN play widgets: the host, join, rejoin, invite and consent dialogs and the peers panel.

They know nothing of the network: they take plain data (:mod:`.model`) and callables (some of
them coroutine functions, run on the qasync loop so nothing blocks the UI thread). The wiring
to :mod:`netplay` lives outside ``table.ui`` (``table/app/lan_wiring.py``).
"""
from .consent_dialog import ConsentDialog
from .host_dialog import HostDialog
from .invite_dialog import InviteDialog
from .join_dialog import JoinDialog
from .model import (
                    WATCH_SEAT,
                    HostRequest,
                    JoinedTable,
                    JoinRequest,
                    LanProblem,
                    NetworkOption,
                    NoPeersFound,
                    PeerRow,
                    RejoinOffer,
                    RejoinRequest,
                    TableEntry,
)
from .peers_panel import PeersPanel
from .rejoin_dialog import RejoinDialog

__all__ = [
                    "WATCH_SEAT",
                    "ConsentDialog",
                    "HostDialog",
                    "HostRequest",
                    "InviteDialog",
                    "JoinDialog",
                    "JoinRequest",
                    "JoinedTable",
                    "LanProblem",
                    "NetworkOption",
                    "NoPeersFound",
                    "PeerRow",
                    "PeersPanel",
                    "RejoinDialog",
                    "RejoinOffer",
                    "RejoinRequest",
                    "TableEntry",
]
