"""The mapping report of a NetBox import: every object skipped or guessed, and why.

English only (like the site file the import writes); it is for the engineer who completes the
imported file, not for the audit's reader.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Literal

Action = Literal["skipped", "guessed", "gap", "note"]

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
    mapped: Counter[str] = field(default_factory=Counter)  # kind → objects mapped

    def add(self, action: Action, kind: str, name: str, reason: str) -> None:
        self.entries.append(Entry(action, kind, name, reason))

    def count(self, kind: str, n: int = 1) -> None:
        self.mapped[kind] += n

    def of(self, action: Action) -> list[Entry]:
        return [e for e in self.entries if e.action == action]

    def summary(self) -> str:
        """One line: what was mapped, and how many objects were skipped or guessed."""
        mapped = ", ".join(f"{n} {kind}" for kind, n in sorted(self.mapped.items()))
        counts = Counter(e.action for e in self.entries)
        return (
            f"mapped {mapped or 'nothing'}; {counts['skipped']} skipped, "
            f"{counts['guessed']} guessed, {counts['gap']} gaps"
        )

    def text(self) -> str:
        """The whole report as plain text (Markdown)."""
        lines = [f"# NetBox import: {self.source}", "", self.summary()]
        for action, heading in _HEADINGS.items():
            entries = self.of(action)
            if not entries:
                continue
            lines += ["", f"## {heading}", ""]
            for e in sorted(entries, key=lambda e: (e.kind, _natural(e.name), e.reason)):
                lines.append(f"- {e.kind} {e.name}: {e.reason}")
        return "\n".join(lines) + "\n"


def _natural(text: str) -> tuple[object, ...]:
    """Sort key that puts A2 before A10."""
    import re

    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", text))
