"""docs/ops.md lists every op kind's arguments with the types the schema enforces."""

import re
from pathlib import Path

from table.core.ops import SCHEMAS

DOC = Path(__file__).resolve().parents[2] / "docs" / "ops.md"
NAMES = {str: "str", int: "int", bool: "bool", dict: "map", list: "array", tuple: "array",
         type(None): "nil", object: "any"}


def test_every_argument_is_documented_with_its_types():
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("### Argument names and types"):text.index("### Hidden cards")]
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| `(\w+)` \| (.+) \|$", section, re.M)}
    assert set(rows) == set(SCHEMAS)
    for kind, schema in SCHEMAS.items():
        documented = {}
        for m in re.finditer(r"`(\w+)`(\??): ([a-z \\|]+?)(?: \(|,|$)", rows[kind]):
            documented[m.group(1)] = (m.group(2) == "", [t.strip() for t in m.group(3).split("\\|")])
        expected = {arg: (required, list(dict.fromkeys(NAMES[t] for t in types)))
                    for arg, (types, required) in schema.items()}
        assert documented == expected, kind
