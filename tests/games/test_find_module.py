"""One way to find a game module, one error when there is none: ModuleNotFound (a LookupError)
whose message says where the search looked."""

import pytest

from table.games import ModuleNotFound, asset_dirs, find_module
from table.games.store import ModuleStore


def test_an_unknown_id_raises_module_not_found_naming_where_it_looked():
    assert find_module("gauntlet").id == "gauntlet"
    with pytest.raises(ModuleNotFound) as caught:
        find_module("no-such-game")
    err = caught.value
    assert isinstance(err, LookupError) and not isinstance(err, KeyError)
    assert err.module_id == "no-such-game"
    assert str(err).startswith("no game module 'no-such-game' (looked in: ")
    assert all(str(folder) in str(err) for folder in asset_dirs())


def test_the_store_raises_the_same_error_for_a_module_it_cannot_find(tmp_path):
    store = ModuleStore(tmp_path / "modules")
    with pytest.raises(ModuleNotFound, match="is not installed"):
        store.resolve("no-such-game", "0" * 64)
    with pytest.raises(ModuleNotFound, match="not in the module cache"):
        store.load("0" * 64)
