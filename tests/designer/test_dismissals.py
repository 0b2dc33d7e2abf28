"""Dismissals read from where a designer keeps them: a `dismissals.toml` beside the logs (or in
a folder under them) or in a game module's folder, and `--dismiss`; a malformed one is named
with its file and entry, never half-read."""
from __future__ import annotations

from pathlib import Path

import pytest

from table.dataset.dismissals import Dismissal, DismissalError, gather, parse


def test_rules_and_single_flags_from_files_and_the_command_line(tmp_path: Path) -> None:
    logs, module = tmp_path / "logs" / "tuesday", tmp_path / "my-game"
    logs.mkdir(parents=True)
    module.mkdir()
    (logs / "dismissals.toml").write_text(
        '[[dismiss]]\nflag = "GAU-HAND-LIMIT@5f3a9c0d#123"\nwhy = "Hoarder\'s Satchel"\n',
        encoding="utf-8")
    (module / "dismissals.toml").write_text(
        '[[dismiss]]\nrule = "DTR-CROWNING"\nwhy = "misreads a Pact"\n', encoding="utf-8")
    found = gather([tmp_path / "logs"], [module], ["MAN-RANGE"])
    assert [(d.rule, d.session, d.op, d.why) for d in found] == [
        ("GAU-HAND-LIMIT", "5f3a9c0d", 123, "Hoarder's Satchel"),
        ("DTR-CROWNING", "", None, "misreads a Pact"),
        ("MAN-RANGE", "", None, "")]
    assert found[2] == Dismissal("MAN-RANGE", source="--dismiss")
    assert str(logs / "dismissals.toml") in found[0].source


@pytest.mark.parametrize(("text", "says"), [
    ('[[dismiss]]\nwhy = "x"\n', "[[dismiss]] 1: names neither a rule nor a flag"),
    ('[[dismiss]]\nflag = "GAU-X@abc"\n', "one flag is written RULE@SESSION#OP"),
    ('[[dismiss]\nrule = 1\n', "dismissals.toml"),
])
def test_a_malformed_dismissal_names_its_file_and_entry(tmp_path: Path, text: str,
                                                        says: str) -> None:
    (tmp_path / "dismissals.toml").write_text(text, encoding="utf-8")
    with pytest.raises(DismissalError, match=r"dismissals\.toml") as err:
        gather([tmp_path])
    assert says in str(err.value)
    with pytest.raises(DismissalError, match="--dismiss"):
        parse("not a rule", "--dismiss")
