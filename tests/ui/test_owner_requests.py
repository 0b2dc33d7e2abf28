"""Asking the owner's peer from a LAN table window (offscreen, 127.0.0.1 only, no zeroconf).

Bob's window draws from Alice's deck (a double-click on it) and shuffles it: each is a JSON-form
op, which the controller hands as a request to Alice's peer (``ask_owner``, set by
table.app.owner_requests), which performs it; the status bar says it asked, then that it was
done or refused. The drawn card reaches Bob's hand as a gift:
Bob's software knows it, Alice's can no longer follow it.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from netplay.link.link import LinkConfig
from netplay.mesh.mesh import MeshConfig
from netplay.replication.replication import ReplicationConfig
from netplay.session.lan_session import SessionOptions
from table import lan
from table.core import actions as act

from .helpers import click
from .test_lan_ui import LOOPBACK, _cards, _run, until


def _options() -> SessionOptions:
    return SessionOptions(interfaces=[LOOPBACK], announce=False, passphrase="pw",
                          mesh=MeshConfig(link=LinkConfig(heartbeat_interval=0.3, dead_after=3),
                                          gossip_interval=0.5, dial_grace=0.3),
                          replication=ReplicationConfig(hash_interval=0.3))


@pytest.mark.socket
def test_bobs_window_asks_alices_peer_to_draw_and_shuffle(qapp, qtbot, tmp_path: Path):  # type: ignore[no-untyped-def]
    from table.app.owner_requests import install_owner_requests
    from table.ui.games import catalog_for
    from table.ui.main_window import TableWindow

    async def scenario() -> None:
        module = lan.module_for("gauntlet")
        alice = await lan.host(module, table_name="asks", seats=2, log_path=tmp_path / "a.log",
                               options=_options())
        bob = await lan.join(log_path=tmp_path / "b.log",
                             connect=f"{LOOPBACK}:{alice.session.port}", options=_options())
        try:
            await lan.take_seat(alice, 1, name="Alice")
            await lan.take_seat(bob, 2, name="Bob")
            await until(lambda: lan.setup_complete(alice.replica)
                        and lan.setup_complete(bob.replica), 20, "the setup")
            ra, rb = alice.replica, bob.replica
            window = TableWindow(rb, catalog_for("gauntlet"), title="Bob")
            qtbot.addWidget(window)
            window.resize(1600, 1000)
            window.show()
            qtbot.waitExposed(window)
            window.view.fit_table()
            messages: list[str] = []
            window.ctl.status.connect(messages.append)
            deck = window.scene.zones["p1.deck"].card_anchor()
            # without the hook, Bob's window only says it cannot
            refused = window.ctl.perform({"op": "draw", "from": "p1.deck", "to": "p2.hand"})
            assert refused.op is None and refused.refused and refused.asked is None
            assert window.ctl.ask_owner is None and messages
            install_owner_requests(window, bob)
            assert window.ctl.ask_owner is not None
            hand_before = len(_cards(rb, "p2.hand"))
            deck_before = len(_cards(ra, "p1.deck"))
            messages.clear()
            click(window.view, deck, double=True)  # a double-click on Alice's deck: draw one
            assert messages == ["Asked Alice's table to draw for you…"]
            await until(lambda: len(messages) == 2, 10, "Alice's answer")
            assert messages[1] == "Alice's table did it (draw)"
            await until(lambda: len(_cards(rb, "p2.hand")) == hand_before + 1
                        and any(rec.op.args.get("why") == "receive" and rec.op.author == rb.peer_id
                                for rec in ra.records()), 10, "the gift and Bob's re-handle")
            hand = _cards(rb, "p2.hand")
            assert all(rb.knowledge.card_of(h) for h in hand)
            await until(lambda: len(_cards(ra, "p1.deck")) == deck_before - 1
                        and not any(ra.knowledge.card_of(h) for h in _cards(ra, "p2.hand")),
                        10, "Alice to see Bob's re-handle")
            # a shuffle of Alice's deck from Bob's window
            messages.clear()
            shuffles = sum(rec.op.args.get("why") == "shuffle" for rec in ra.records())
            asked = window.ctl.perform({"op": "shuffle", "pile": "p1.deck"})
            assert asked.asked == 1 and asked.op is None
            assert messages == ["Asked Alice's table to shuffle for you…"]
            await until(lambda: len(messages) == 2, 10, "Alice's answer to the shuffle")
            assert messages[1] == "Alice's table did it (shuffle)"
            assert sum(rec.op.args.get("why") == "shuffle" for rec in ra.records()) == shuffles + 1
            # a request Alice's peer cannot perform is reported as refused
            messages.clear()
            window.ctl.perform({"op": "draw", "from": "p1.deck", "to": "nowhere"})
            await until(lambda: len(messages) == 2, 10, "the refusal")
            assert messages[1].startswith("Alice's table refused: ") and "nowhere" in messages[1]
            await until(lambda: ra.public_state_hash() == rb.public_state_hash()
                        and ra.version_vector() == rb.version_vector(), 10, "the same state")
            window.shutdown()
        finally:
            await bob.close()
            await alice.close()

    _run(qapp, scenario(), 60)


def test_which_actions_become_requests(qtbot) -> None:  # type: ignore[no-untyped-def]
    from table.ui.controller import TableController
    from table.ui.sample import sample_catalog
    from tests.core.tables import peers, sync_all

    alice, bob = rs = peers(2)
    act.draw(alice, "p1.deck", "p1.hand", 2, seat=1)
    act.draw(bob, "p2.deck", "p2.hand", 2, seat=2)
    act.move(alice, alice.state.objs["p1.hand"].children[0], "play", face_up=False, seat=1)
    sync_all(rs)
    ctl = TableController(bob, sample_catalog())
    asked: list[tuple[dict[str, Any], int]] = []
    ctl.ask_owner = lambda entry, seat: asked.append((entry, seat))
    face_down = next(c for c in bob.state.objs["play"].children if bob.state.objs[c].is_secret)
    theirs = bob.state.objs["p1.hand"].children[0]
    mine = bob.state.objs["p2.hand"].children[0]
    req = ctl.owner_request
    assert req({"op": "draw", "from": "p1.deck", "to": "p2.hand", "count": 1}) == 1
    assert req({"op": "shuffle", "pile": "p1.deck"}) == 1
    assert req({"op": "move", "id": theirs, "to": "play", "face_up": True}) == 1
    assert req({"op": "move", "id": face_down, "to": "discard", "pos": [1.0, 2.0]}) is None  # unseen
    assert req({"op": "move", "id": face_down, "to": "p2.hand"}) == 1  # into a hand: ask
    assert req({"op": "move", "id": mine, "to": "p1.hand"}) is None  # a gift: done here
    assert req({"op": "draw", "from": "p2.deck", "to": "p2.hand"}) is None
    assert req({"op": "flip", "id": face_down}) is None  # not a kind an owner is asked for
    assert ctl.perform({"op": "shuffle", "pile": "p1.deck"}).asked == 1
    assert asked == [({"op": "shuffle", "pile": "p1.deck"}, 1)]
    ctl.ask_owner = None
    moved = ctl.perform({"op": "move", "id": face_down, "to": "discard"})
    assert moved.done and face_down in moved.touched
    assert bob.state.objs[face_down].container == "discard"


def test_a_double_click_on_their_deck_asks_its_owner_in_json_form(qtbot) -> None:  # type: ignore[no-untyped-def]
    from table.ui.main_window import TableWindow
    from table.ui.sample import sample_catalog
    from tests.core.tables import peers, sync_all

    rs = peers(2)
    bob = rs[1]
    sync_all(rs)
    window = TableWindow(bob, sample_catalog())
    qtbot.addWidget(window)
    window.resize(1600, 1000)
    window.show()
    qtbot.waitExposed(window)
    window.view.fit_table()
    asked: list[tuple[dict[str, Any], int]] = []
    window.ctl.ask_owner = lambda entry, seat: asked.append((entry, seat))
    click(window.view, window.scene.zones["p1.deck"].card_anchor(), double=True)
    assert asked == [({"op": "draw", "from": "p1.deck", "to": "p2.hand", "count": 1}, 1)]
    held = len(bob.state.objs["p2.hand"].children)
    click(window.view, window.scene.zones["p2.deck"].card_anchor(), double=True)  # Bob's own
    assert len(asked) == 1 and len(bob.state.objs["p2.hand"].children) == held + 1
    window.shutdown()
