"""A draft edited during a 3-peer LAN game: every peer's scene re-draws the card with its new
text; a broken edit changes nothing on any peer."""
from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from .lan_drafts_kit import NEW_TEXT, OLD_TEXT, three_peers
from .test_lan_ui import _lan_app, _run


def _append(path: Path, text: str) -> None:
    with open(path, "a", encoding="utf-8") as f:
        f.write(text)

pytestmark = pytest.mark.socket


def test_every_peers_scene_follows_the_draft(qapp, qtbot, tmp_path):  # type: ignore[no-untyped-def]
    lan_app = _lan_app(tmp_path)

    async def scenario() -> None:
        table = await three_peers(tmp_path, lan_app)
        try:
            assert all(OLD_TEXT in t for t in table.texts())
            seconds = await table.edit(OLD_TEXT, NEW_TEXT)
            print(f"file save to every peer's scene: {seconds * 1000:.0f} ms")
            hashes = {t.replica.state.module["hash"] for t in table.tables}
            assert len(hashes) == 1 and all(
                w.ctl.catalog.module.content_hash in hashes for w in table.windows)
            ops = [len(t.replica.records()) for t in table.tables]
            await asyncio.to_thread(_append, table.folder / "cards.csv",
                                    'broken-card,"unterminated\n')
            await asyncio.sleep(1.0)  # the watcher polls every 0.1 s and settles in 0.15 s
            assert [len(t.replica.records()) for t in table.tables] == ops
            assert all(NEW_TEXT in t for t in table.texts())
        finally:
            await table.close()

    _run(qapp, scenario(), 90)
