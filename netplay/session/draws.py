"""A session's joint draws, wired to its mesh: the rounds (``fair``), the replica's seam that
starts them (``draws``), when each other peer could be reached (``reach``) and the judging of
the other peers' draws (``witness``); each fed what the mesh tells."""
from __future__ import annotations

from netplay.draws.joint_draws import LanDraws
from netplay.draws.reach import Reach
from netplay.draws.round_driver import ROUTED, FairDriver
from netplay.draws.witness import DrawWitness
from netplay.mesh.events import MeshEvent, MessageReceived, PeerJoined, PeerLeft, ReachChanged
from netplay.mesh.mesh import Mesh
from netplay.protocol.messages import LiveOp, OpBatch, VersionVector
from table.core.replica import Replica


class SessionDraws:
    def __init__(self, replica: Replica, mesh: Mesh) -> None:
        # through a common peer too, when there is no link (netplay.mesh.routing)
        self.fair = FairDriver(replica, send=mesh.send_to)
        self.draws = LanDraws(replica, self.fair, mesh.reachable)
        replica.joint_draws = self.draws
        self.reach = Reach(lambda: replica.store.delivered(replica.peer_id),
                           replica.store.delivered)
        self.witness = DrawWitness(replica, self.fair.rounds, self.reach)

    def on_mesh_event(self, event: MeshEvent) -> bool:
        """Take what concerns the draws; True if the event was a joint-draw message."""
        if isinstance(event, PeerJoined):
            self.reach.link_opened(event.peer_id)
        elif isinstance(event, PeerLeft):
            self.reach.link_closed(event.peer_id)
            self.witness.link_closed(event.peer_id)
        elif isinstance(event, ReachChanged):  # a round stops waiting for whom it cannot reach
            for peer in self.reach.update(event.reachable):
                self.fair.peer_gone(peer)
        elif isinstance(event, MessageReceived):
            msg, peer = event.message, event.peer_id
            if isinstance(msg, ROUTED):
                self.fair.on_message(peer, msg)
                return True
            if event.via is not None:
                return False
            # the link's first vv says which of the peer's ops came before it (or its ops
            # came first): its draws waiting for that are judged now
            if isinstance(msg, VersionVector):
                settled = self.reach.first_vv(peer, msg.vv.get(peer, 0))
            else:
                settled = isinstance(msg, LiveOp | OpBatch) and self.reach.ops_first(peer)
            if settled:
                self.witness.link_settled(peer)
        return False
