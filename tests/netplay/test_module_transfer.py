"""A draft that only the host has reaches a joiner over real loopback links: cached by hash,
art included, and a module that is too large or does not load is refused with a clear message
and never stored."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from netplay_testkit import LOOPBACK, run, start_meshes, stop_all, wait_until

from netplay.blobs.exchange import BlobExchange
from table.core.replica import Replica
from table.games import load_module
from table.games.archive import read_folder
from table.games.store import ModuleStore
from table.lan.modules import ModuleTransferError, blob_lookup, obtain_module

pytestmark = pytest.mark.socket

REPO = Path(__file__).resolve().parents[2]


def _draft(tmp_path: Path, art: bytes = b"") -> Path:
    root = tmp_path / "designer" / "gauntlet"
    shutil.copytree(REPO / "assets" / "gauntlet", root)
    text = (root / "game.toml").read_text(encoding="utf-8")
    (root / "game.toml").write_text(text.replace("hand_limit = 3", "hand_limit = 4"),
                                    encoding="utf-8")
    if art:
        (root / "art").mkdir()
        (root / "art" / "back.png").write_bytes(art)
    return root


def _exchange(tmp_path: Path, host_store: ModuleStore, joiner_store: ModuleStore,
              body) -> None:  # type: ignore[no-untyped-def]
    async def scenario() -> None:
        host, joiner = await start_meshes(2)
        replica = Replica("t", "host")
        serving = BlobExchange(host, blob_lookup(replica, host_store))
        asking = BlobExchange(joiner, blob_lookup(Replica("t", "joiner"), joiner_store))
        await joiner.connect(LOOPBACK, host.port)
        assert await wait_until(lambda: joiner.peers() == [host.peer_id], 10)
        try:
            await body(asking)
        finally:
            serving.close()
            asking.close()
            await stop_all([host, joiner])

    run(scenario())


def test_a_joiner_receives_the_hosts_draft_with_its_art(tmp_path: Path) -> None:
    art = bytes(range(256)) * 4096  # 1 MiB of "art"
    folder = _draft(tmp_path, art)
    host_store = ModuleStore(tmp_path / "host-cache")
    archive, _data = host_store.add_folder(folder)
    joiner_store = ModuleStore(tmp_path / "joiner-cache")
    said: list[str] = []

    async def body(asking: BlobExchange) -> None:
        module = await obtain_module(asking, archive.hash, store=joiner_store,
                                     report=said.append)
        assert module.content_hash == archive.hash and module.rules["hand_limit"] == 4

    _exchange(tmp_path, host_store, joiner_store, body)
    shutil.rmtree(tmp_path / "designer")
    assert joiner_store.has(archive.hash)
    cached = joiner_store.load(archive.hash)
    assert (cached.path / "art" / "back.png").read_bytes() == art
    assert any("receiving the table's module" in s for s in said)
    assert any(s.startswith("received the table's module Gauntlet") for s in said)


def test_a_module_that_does_not_load_is_refused_and_not_stored(tmp_path: Path) -> None:
    folder = _draft(tmp_path)
    host_store = ModuleStore(tmp_path / "host-cache")
    _archive, _data = host_store.add_folder(folder)
    # a host whose draft broke after it was archived: it serves a game.toml that does not parse
    with open(folder / "game.toml", "a", encoding="utf-8") as f:
        f.write("\n[rules\n")
    broken = read_folder(folder)
    packed = broken.pack()
    joiner_store = ModuleStore(tmp_path / "joiner-cache")

    async def body(asking: BlobExchange) -> None:
        with pytest.raises(ModuleTransferError, match=r"unusable: .*game.toml:\d+"):
            await obtain_module(asking, broken.hash, store=joiner_store)

    host_store.archive_bytes = {broken.hash: packed}.get  # type: ignore[method-assign]
    _exchange(tmp_path, host_store, joiner_store, body)
    assert not joiner_store.has(broken.hash)
    assert load_module(REPO / "assets" / "gauntlet")  # nothing else was touched


def test_too_much_art_is_refused_before_it_is_fetched(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    folder = _draft(tmp_path, art=b"x" * 4096)
    host_store = ModuleStore(tmp_path / "host-cache")
    archive, _ = host_store.add_folder(folder)
    monkeypatch.setattr("table.lan.modules.MAX_ART_BYTES", 1024)
    joiner_store = ModuleStore(tmp_path / "joiner-cache")

    async def body(asking: BlobExchange) -> None:
        with pytest.raises(ModuleTransferError, match="of art, over the"):
            await obtain_module(asking, archive.hash, store=joiner_store)

    _exchange(tmp_path, host_store, joiner_store, body)
    assert not joiner_store.has(archive.hash)
