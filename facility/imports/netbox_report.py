"""The mapping report of a NetBox import: every object skipped or guessed, and why.

English only (like the site file the import writes); it is for the engineer who completes the
imported file, not for the audit's reader.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Literal

Action = Literal["skipped", "guessed", "gap", "note"]
# What became of one object read from NetBox: in the site file (or in a figure of it), or
# not, with an entry of this report that says why.
Outcome = Literal["mapped", "not mapped"]

_HEADINGS: dict[Action, str] = {
    "skipped": "Skipped (not in the site file)",
    "guessed": "Guessed (mapped by a convention you should confirm)",
    "gap": "Not in NetBox (add it in your own layer: extends:)",
    "note": "Notes",
}


@dataclass(frozen=True, slots=True)
class Entry:
    action: Action
    kind: str  # NetBox object kind, e.g. "power feed"
    name: str  # the object as NetBox shows it, or "*" for all of a kind
    reason: str


@dataclass(slots=True)
class MappingReport:
    source: str  # e.g. "NetBox 4.7.3 at http://127.0.0.1:58001, site hall-b3" (never the token)
    entries: list[Entry] = field(default_factory=list)
    mapped: Counter[str] = field(default_factory=Counter)  # what the site file holds: kind → n
    # Every object read: NetBox kind → object key (its id, or "item N") → what became of it.
    ledger: dict[str, dict[object, Outcome]] = field(default_factory=dict)
    twice: list[tuple[str, object]] = field(default_factory=list)  # settled twice: a defect

    def add(self, action: Action, kind: str, name: str, reason: str) -> None:
        self.entries.append(Entry(action, kind, name, reason))

    def count(self, kind: str, n: int = 1) -> None:
        self.mapped[kind] += n

    def read(self, kind: str, keys: list[object]) -> None:
        """The objects of ``kind`` read from NetBox, none settled yet."""
        self.ledger.setdefault(kind, {}).update(dict.fromkeys(keys))  # type: ignore[arg-type]

    def settle(self, kind: str, key: object, outcome: Outcome) -> None:
        """Record what became of one object read (once; a second time is a defect)."""
        book = self.ledger.setdefault(kind, {})
        if book.get(key) is not None:
            self.twice.append((kind, key))
            return
        book[key] = outcome

    def unsettled(self, kind: str) -> list[object]:
        return [key for key, outcome in self.ledger.get(kind, {}).items() if outcome is None]

    def tally(self) -> dict[str, tuple[int, int, int]]:
        """Per NetBox kind: (read, mapped, not mapped) — read is always the sum of the two."""
        out = {}
        for kind, book in self.ledger.items():
            mapped = sum(1 for o in book.values() if o == "mapped")
            out[kind] = (len(book), mapped, len(book) - mapped)
        return out

    def of(self, action: Action) -> list[Entry]:
        return [e for e in self.entries if e.action == action]

    def summary(self) -> str:
        """One line: what the file holds, what was read, and the report's entries."""
        held = ", ".join(f"{n} {kind}" for kind, n in sorted(self.mapped.items()))
        tally = self.tally()
        read = sum(t[0] for t in tally.values())
        used = sum(t[1] for t in tally.values())
        counts = Counter(e.action for e in self.entries)
        return (
            f"wrote {held or 'nothing'}; read {read} NetBox objects, {used} mapped and "
            f"{read - used} not (each below with the reason); {counts['skipped']} skipped, "
            f"{counts['guessed']} guessed, {counts['gap']} gaps"
        )

    def text(self) -> str:
        """The whole report as Markdown; NetBox's text in it is escaped (no markup, no links)."""
        lines = [f"# NetBox import: {markdown_text(self.source, defang=False)}", "", self.summary()]
        tally = self.tally()
        if tally:
            lines += ["", "| NetBox objects | read | mapped | not mapped |", "|---|--:|--:|--:|"]
            for kind, (read, mapped, not_mapped) in sorted(tally.items()):
                if read:
                    lines.append(f"| {kind} | {read} | {mapped} | {not_mapped} |")
        for action, heading in _HEADINGS.items():
            entries = self.of(action)
            if not entries:
                continue
            lines += ["", f"## {heading}", ""]
            for e in sorted(entries, key=lambda e: (e.kind, _natural(e.name), e.reason)):
                lines.append(f"- {e.kind} {markdown_text(e.name)}: {markdown_text(e.reason)}")
        return "\n".join(lines) + "\n"


_MARKDOWN = re.compile(r"([\\`*\[\]<>~&])")
_LINK = re.compile(r"(?i)(://|\bwww\.)")


def markdown_text(text: str, *, defang: bool = True) -> str:
    """``text`` as literal Markdown: every character Markdown or HTML could act on is
    backslash-escaped, and URLs are defanged (``http[:]//``, ``www[.]``), so a NetBox name
    never becomes a tag, a link or emphasis. (``_`` inside a word, as in our field names,
    is not emphasis in CommonMark and stays.)"""
    if defang:
        text = _LINK.sub(lambda m: "[:]//" if m.group() == "://" else m.group()[:3] + "[.]", text)
    return _MARKDOWN.sub(r"\\\1", text)


def _natural(text: str) -> tuple[object, ...]:
    """Sort key that puts A2 before A10."""
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", text))
