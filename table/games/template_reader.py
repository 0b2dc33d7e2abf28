"""[templates] of a game.toml: how a card's back and front are drawn from its columns (which
column is the title, the stats, the body, the face colours, the labels); [templates.card] and
the face layouts are card_faces'."""
from __future__ import annotations

from .card_faces import read_layouts
from .declarations import check_colour
from .model import BackTemplate, FrontTemplate
from .toml_reader import Table

MAX_SHORT = 4  # letters over a stat's value on the table's small stat line


def read_templates(root: Table, columns: set[str], groups: set[str], types: set[str],
                   group_column: str) -> tuple[BackTemplate, FrontTemplate]:
    back = BackTemplate("#333333", "")
    front = FrontTemplate()
    tt = root.table("templates")
    if tt is None:
        return back, front
    tt.check_keys(("back", "front", "card"))
    b = tt.table("back")
    if b is not None:
        back = _read_back(b, types)
    f = tt.table("front")
    if f is not None:
        front = _read_front(f, columns, groups, types, group_column)
    return back, front


def _read_back(b: Table, types: set[str]) -> BackTemplate:
    """[templates.back]: the colour and label of a card's back, and per card type."""
    b.check_keys(("colour", "label", "by_type"))
    by_type: dict[str, tuple[str, str]] = {}
    bt = b.table("by_type")
    for name, value in (bt.data.items() if bt else []):
        assert bt is not None
        if name not in types:
            bt.problem(name, f"[templates.back.by_type]: unknown card type '{name}'")
            continue
        if not isinstance(value, dict):
            bt.problem(name, f"'{name}' must be a table like {{ colour = .., label = .. }}")
            continue
        st = bt.sub(name, value, f"[templates.back.by_type.{name}]")
        st.check_keys(("colour", "label"))
        by_type[name] = (check_colour(st, "colour", st.str("colour", required=True))
                         or "#333333", st.str("label", default="") or "")
    return BackTemplate(check_colour(b, "colour", b.str("colour", required=True))
                        or "#333333", b.str("label", default="") or "", by_type)


def _read_front(f: Table, columns: set[str], groups: set[str], types: set[str],
                group_column: str) -> FrontTemplate:
    """[templates.front]: which card columns the face shows where, and its colours."""
    f.check_keys(("title", "subtitle", "corner", "stats", "body", "flags", "colour_by",
                  "colours", "default_colour", "labels", "by_type"))

    def col(key: str, value: str | None) -> str | None:
        if value is not None and value not in columns:
            f.problem(key, f"[templates.front] '{key}': no card column '{value}'")
            return None
        return "group" if value == group_column else value

    def cols(key: str) -> tuple[str, ...]:
        return tuple(c for c in (f.str_list(key) or []) if col(key, c))

    colour_by = col("colour_by", f.str("colour_by", default="group")) or "group"
    colours = _read_colours(f, colour_by, groups)
    labels, shorts = _labels(f, columns)
    return FrontTemplate(title=col("title", f.str("title", default="name")) or "name",
                         subtitle=cols("subtitle") if f.has("subtitle") else ("type",),
                         corner=col("corner", f.str("corner")), stats=cols("stats"),
                         body=col("body", f.str("body", default="text")) or "text",
                         flags=cols("flags"), colour_by=colour_by, colours=colours,
                         default_colour=check_colour(f, "default_colour",
                                                     f.str("default_colour"))
                         or "#777777", labels=labels, short_labels=shorts,
                         layouts=read_layouts(f, columns, types))


def _read_colours(f: Table, colour_by: str, groups: set[str]) -> dict[str, str]:
    """[templates.front.colours]: a face colour per value of the colour_by column."""
    colours: dict[str, str] = {}
    ct = f.table("colours")
    for name, value in (ct.data.items() if ct else []):
        assert ct is not None
        if colour_by == "group" and name not in groups:
            ct.problem(name, f"[templates.front.colours]: '{name}' is not a group of this "
                       f"game ({', '.join(sorted(groups))})")
        c = check_colour(ct, name, value if isinstance(value, str) else None)
        if not isinstance(value, str):
            ct.problem(name, f"colour of '{name}' must be a string like \"#a83232\"")
        elif c:
            colours[name] = c
    return colours


def _labels(f: Table, columns: set[str]) -> tuple[dict[str, str], dict[str, str]]:
    """`labels = { cost = "Favor", guard = { name = "Guard", short = "Grd" } }`: what a column
    is called on the face and in the zoom, and (optionally) its short form on the table's small
    stat line."""
    lt = f.table("labels")
    names: dict[str, str] = {}
    shorts: dict[str, str] = {}
    for key, value in (lt.data.items() if lt else []):
        assert lt is not None
        if key not in columns:
            lt.problem(key, f"[templates.front.labels]: no card column '{key}'")
        elif isinstance(value, dict):
            st = lt.sub(key, value, f"[templates.front.labels.{key}]")
            st.check_keys(("name", "short"))
            name, short = st.str("name"), st.str("short")
            if name is not None and name.strip():
                names[key] = name.strip()
            if short is not None and not 1 <= len(short.strip()) <= MAX_SHORT:
                st.problem("short", f"[templates.front.labels.{key}] short must be 1 to "
                           f"{MAX_SHORT} characters (it stands over the value on the table)")
            elif short is not None:
                shorts[key] = short.strip()
        elif not isinstance(value, str) or not value.strip():
            lt.problem(key, f"[templates.front.labels] {key} must be a name like \"Power\" or "
                       f"{{ name = \"Power\", short = \"Pow\" }}")
        else:
            names[key] = value.strip()
    return names, shorts
