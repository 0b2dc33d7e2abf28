"""Every flag any assist test raises names the cards and the players it is about (checked
after each test, the input ended): assist.testing.missing_names."""
from __future__ import annotations

from collections.abc import Iterator

import pytest

import assist.testing as testing

_TABLES: list[testing.AssistTable] = []
_made = testing.AssistTable.__init__


def _kept(self: testing.AssistTable, *args: object, **kwargs: object) -> None:
    _made(self, *args, **kwargs)  # type: ignore[arg-type]
    _TABLES.append(self)


@pytest.fixture(autouse=True)
def every_message_names_what_it_is_about(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    _TABLES.clear()
    monkeypatch.setattr(testing.AssistTable, "__init__", _kept)
    yield
    unnamed = []
    for t in _TABLES:
        t.end()
        for entry in t.runner.entries(include_acked=True, include_undone=True,
                                      include_resolved=True):
            missing = testing.missing_names(entry.flag, t.replica, t._namer)  # noqa: SLF001
            if missing:
                unnamed.append(f"{entry.flag.rule}: {entry.flag.message!r} names not "
                               f"{', '.join(missing)}")
    _TABLES.clear()
    assert not unnamed, "\n".join(unnamed)
