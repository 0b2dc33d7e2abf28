"""The Host dialog says what the session is: a playtest group, an event and tags typed into
its fields (real clicks and keys) open the table with a `tag` op saying so, which the
designer's report slices by (`report --by group`)."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from tests.ui.test_lan_ui import _lan_app, _run, closing, until

pytestmark = pytest.mark.socket


def test_the_host_dialog_tags_the_session(qapp, qtbot, tmp_path):  # type: ignore[no-untyped-def]
    lan_app = _lan_app(tmp_path)

    async def scenario() -> None:
        dialog = lan_app.open_host_dialog()
        qtbot.addWidget(dialog)
        dialog.game.setCurrentIndex(dialog.game.findData("gauntlet"))
        for field, text in ((dialog.group, "Tuesday club"), (dialog.event_name, "Spring con"),
                            (dialog.tags, "blind, first time")):
            qtbot.mouseClick(field, Qt.MouseButton.LeftButton, pos=field.rect().center())
            qtbot.keyClicks(field, text)
        qtbot.mouseClick(dialog.host_button, Qt.MouseButton.LeftButton,
                         pos=dialog.host_button.rect().center())
        await until(lambda: lan_app.tables, 15, "the host's table window")
        t = lan_app.tables[0]
        assert t.replica.state.tags == {"group": "Tuesday club", "event": "Spring con",
                                        "tags": ["blind", "first time"]}
        assert any(r.op.kind == "tag" for r in t.replica.records())
        lan_app.shell.tables[0].close()
        await until(lambda: not lan_app.tables, 10, "the host to leave")

    _run(qapp, closing(scenario(), lambda: [lan_app]), 60)
