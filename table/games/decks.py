"""Deck lists (``decks/*.txt``) and the construction rules from ``[rules.deck]``.

Format, one item a line::

    # comment
    faction: Military          <- header "key: value" (keys declared in [decks.headers])
    [territories]              <- start of a section (declared in [decks] sections)
    1 Watchtower               <- "<count> <card name or id>" (also "3x Iron Wall")

Lines before any section header belong to section ``main``.
"""
from __future__ import annotations

import re
from collections import Counter as Tally
from pathlib import Path
from typing import TYPE_CHECKING

from .model import Deck, DeckRules
from .problems import ModuleError, Problem, ProblemSink

if TYPE_CHECKING:
    from .module import GameModule

_CARD_LINE = re.compile(r"^(-?\d+)\s*[xX]?\s+(.+)$")
_HEADER = re.compile(r"^([A-Za-z][A-Za-z0-9_-]*)\s*:\s*(.*)$")
_SECTION = re.compile(r"^\[\s*([A-Za-z0-9_-]+)\s*\]$")


def parse_deck(module: GameModule, text: str, file: str, sink: ProblemSink,
               name: str | None = None) -> Deck:
    """Parse a deck list; problems (unknown card, bad count, unknown header...) go to ``sink``."""
    sink = sink.for_file(file)
    headers: dict[str, str] = {}
    header_lines: dict[str, int] = {}
    sections: dict[str, list[tuple[str, int]]] = {}
    lines: dict[tuple[str, str], int] = {}
    section = "main"
    if text.startswith("\ufeff"):
        text = text[1:]
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip() if not raw.lstrip().startswith("#") else ""
        if not line:
            continue
        m = _SECTION.match(line)
        if m:
            section = m.group(1).lower()
            if section not in module.deck_sections:
                sink.add(n, f"unknown section [{section}] (this game's deck lists have: "
                         f"{', '.join('[' + s + ']' for s in module.deck_sections)})")
            continue
        m = _CARD_LINE.match(line)
        if m:
            _add_card_line(module, int(m.group(1)), m.group(2).strip(), n, section, sections,
                           lines, sink)
            continue
        m = _HEADER.match(line)
        if m:
            key, value = m.group(1).lower(), m.group(2).strip()
            if key != "name" and key not in module.deck_headers:
                known = ", ".join(["name", *module.deck_headers])
                sink.add(n, f"unknown header '{key}' (this game's deck lists have: {known})")
                continue
            if key in headers:
                sink.add(n, f"header '{key}' given twice (first on line {header_lines[key]})")
                continue
            headers[key] = value
            header_lines[key] = n
            _check_header(module, key, value, n, sink)
            continue
        if re.match(r"^\d", line):
            sink.add(n, f"cannot read '{line}': expected '<count> <card name>'")
        else:
            sink.add(n, f"cannot read '{line}': a card line needs a count first, "
                     f"e.g. '1 {line}'")
    return Deck(name=name or headers.get("name") or Path(file).stem, file=file,
                headers=headers, sections={k: tuple(v) for k, v in sections.items()},
                lines=lines, header_lines=header_lines, text=text)


def _add_card_line(module: GameModule, count: int, ref: str, n: int, section: str,
                   sections: dict[str, list[tuple[str, int]]],
                   lines: dict[tuple[str, str], int], sink: ProblemSink) -> None:
    """One '<count> <card>' line into its section, unless the count or the card is wrong."""
    if count < 1:
        sink.add(n, f"bad count {count} for '{ref}' (it must be 1 or more)")
        return
    found = module.find_cards(ref)
    if not found:
        sink.add(n, f"no card named '{ref}' in {module.id}/cards.csv")
        return
    if len(found) > 1:
        sink.add(n, f"'{ref}' is ambiguous ({', '.join(c.id for c in found)}); use the card id")
        return
    cid = found[0].id
    if (section, cid) in lines:
        sink.add(n, f"'{ref}' is listed twice in [{section}] (first on line "
                 f"{lines[(section, cid)]}); give one line with the total count")
        return
    sections.setdefault(section, []).append((cid, count))
    lines[(section, cid)] = n


def _check_header(module: GameModule, key: str, value: str, line: int,
                  sink: ProblemSink) -> None:
    spec = module.deck_headers.get(key)
    if spec is None:
        return
    if spec.card_type:
        found = module.find_cards(value)
        if len(found) != 1:
            sink.add(line, f"{key}: no card named '{value}'" if not found
                     else f"{key}: '{value}' is ambiguous")
        elif found[0].type != spec.card_type:
            sink.add(line, f"{key}: '{value}' is a {found[0].type}, not a {spec.card_type}")
    if spec.group and value.casefold() not in {g.casefold() for g in module.groups}:
        sink.add(line, f"{key}: unknown {module.group_column} '{value}' "
                 f"(one of: {', '.join(module.groups)})")


def load_deck(module: GameModule, path_or_text: str | Path) -> Deck:
    """Parse a deck list from a file path or from its text; raise ModuleError on problems.

    Construction rules are not checked here: see :func:`deck_problems`.
    """
    if isinstance(path_or_text, Path) or ("\n" not in path_or_text
                                          and path_or_text.endswith(".txt")):
        path = Path(path_or_text)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise ModuleError([Problem(str(path), 0, f"cannot read deck list: {exc}")]) from exc
        file = _display(module, path)
    else:
        text, file = str(path_or_text), "<deck>"
    sink = ProblemSink(file)
    deck = parse_deck(module, text, file, sink)
    if sink.problems:
        raise ModuleError(sink.problems)
    return deck


def _display(module: GameModule, path: Path) -> str:
    try:
        return path.resolve().relative_to(module.path.resolve().parent).as_posix()
    except ValueError:
        return str(path)


def deck_problems(module: GameModule, deck: Deck) -> list[Problem]:
    """The game's construction rules (``[rules.deck.<section>]``) checked against ``deck``."""
    sink = ProblemSink(deck.file)
    head_line = 1 if not deck.header_lines else min(deck.header_lines.values())
    group = module.deck_group(deck)
    _check_headers(module, deck, sink, head_line, group)
    for section in module.deck_sections:
        entries = deck.sections.get(section, ())
        _check_homes(module, deck, section, entries, sink)
        rules = module.deck_rules.get(section)
        if rules is None:
            continue
        first = min((deck.lines[(section, c)] for c, _ in entries), default=head_line)
        label = "the deck" if section == "main" else f"[{section}]"
        _check_size(rules, entries, label, first, sink)
        _check_cards(module, deck, rules, section, entries, group, label, sink)
        _check_totals(module, rules, deck, section, entries, label, first, sink)
    return sink.problems


Entries = tuple[tuple[str, int], ...]


def _check_headers(module: GameModule, deck: Deck, sink: ProblemSink, head_line: int,
                   group: str | None) -> None:
    """Required headers given; cards named by headers belong to the deck's group."""
    for key, spec in module.deck_headers.items():
        if spec.required and key not in deck.headers:
            sink.add(head_line, f"missing header '{key}:'")
    for key, spec in module.deck_headers.items():
        value = deck.headers.get(key)
        if not (spec.card_type and value and group):
            continue
        found = module.find_cards(value)
        if len(found) == 1 and found[0].group not in (group, module.neutral):
            sink.add(deck.header_lines.get(key, head_line),
                     f"{key}: '{found[0].name}' belongs to {found[0].group}, not {group}")


def _check_homes(module: GameModule, deck: Deck, section: str, entries: Entries,
                 sink: ProblemSink) -> None:
    """Every card is of a type that goes in this section."""
    for cid, _ in entries:
        card = module.cards[cid]
        ctype = module.card_types.get(card.type)
        homes = ctype.sections if ctype else ()
        if section not in homes:
            where = ", ".join(f"[{s}]" for s in homes) or "no deck list"
            sink.add(deck.lines[(section, cid)], f"{card.name} is a {card.type}; it cannot "
                     f"be in [{section}] (it goes in {where})")


def _check_size(rules: DeckRules, entries: Entries, label: str, first: int,
                sink: ProblemSink) -> None:
    total = sum(n for _, n in entries)
    if rules.min_cards is not None and rules.min_cards == rules.max_cards \
            and total != rules.min_cards:
        sink.add(first, f"{label} has {total} cards; it must have exactly {rules.min_cards}")
        return
    if rules.min_cards is not None and total < rules.min_cards:
        sink.add(first, f"{label} has {total} cards; it needs at least {rules.min_cards}")
    if rules.max_cards is not None and total > rules.max_cards:
        sink.add(first, f"{label} has {total} cards; it may have at most "
                 f"{rules.max_cards}")


def _check_cards(module: GameModule, deck: Deck, rules: DeckRules, section: str,
                 entries: Entries, group: str | None, label: str, sink: ProblemSink) -> None:
    """Per card: unique cards once, the deck's own group only; per title: copies, distinct."""
    by_name: Tally[str] = Tally()
    name_line: dict[str, int] = {}
    for cid, n in entries:
        card = module.cards[cid]
        key = card.name.casefold()
        by_name[key] += n
        name_line.setdefault(key, deck.lines[(section, cid)])
        line = deck.lines[(section, cid)]
        if rules.unique_flag and card.flag(rules.unique_flag) and n > 1:
            sink.add(line, f"{card.name} is {rules.unique_flag.capitalize()}: at most 1 copy, "
                     f"not {n}")
        if rules.own_group_only and group is not None and card.group != group and not (
                rules.allow_neutral and card.group == module.neutral):
            allowed = f"{group} and {module.neutral}" if rules.allow_neutral and \
                module.neutral else group
            sink.add(line, f"{card.name} is a {card.group} card; this deck may use only "
                     f"{allowed} cards")
    for key, n in by_name.items():
        if rules.max_copies is not None and n > rules.max_copies:
            sink.add(name_line[key], f"{n} copies of {module.find_cards(key)[0].name}; "
                     f"at most {rules.max_copies} allowed")
        if rules.distinct and n > 1:
            sink.add(name_line[key], f"{module.find_cards(key)[0].name} appears {n} times; "
                     f"{label} must all have different titles")


def _check_totals(module: GameModule, rules: DeckRules, deck: Deck, section: str,
                  entries: Entries, label: str, first: int, sink: ProblemSink) -> None:
    """The section's total value and its flagged cards within their limits."""
    if rules.value_field and rules.max_value is not None:
        total_value = sum(module.cards[c].number(rules.value_field) * n for c, n in entries)
        if total_value > rules.max_value:
            sink.add(first, f"{label} has total {rules.value_field} {total_value}; "
                     f"at most {rules.max_value} allowed")
    for flag, limit in rules.max_flagged.items():
        flagged = [(c, n) for c, n in entries if module.cards[c].flag(flag)]
        count = sum(n for _, n in flagged)
        if count > limit:
            line = deck.lines[(section, flagged[-1][0])]
            sink.add(line, f"{label} has {count} {flag.capitalize()} cards; "
                     f"at most {limit} allowed")
