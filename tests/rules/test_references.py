"""Every citation resolves to a source a reader can open (docs/references.md).

- every rule's ``references`` entry links an entry of docs/references.md;
- every ``docs/references.md#anchor`` link in what ships (rules, the package, examples, docs,
  README, templates) and every ``(#anchor)`` link inside docs/references.md names a heading
  that exists;
- nothing that ships cites the engineers' private notes (``domain.md``, ``../shared/``,
  ``shared/reference``), which do not ship;
- every entry of docs/references.md is cited at least once from outside it (no orphans).

The checks are small functions so that their own tests below can show that each one fails.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

import pytest

from facility.engine.rules import load_rules

ROOT = Path(__file__).resolve().parents[2]
REFERENCES = ROOT / "docs" / "references.md"
SHIPPED = ["rules", "facility", "examples", "docs", "templates", "README.md", "pyproject.toml"]
TEXT_SUFFIXES = {".py", ".yaml", ".yml", ".md", ".j2", ".toml", ".txt", ".json", ".po", ".pot"}

LINK = re.compile(r"docs/references\.md#([A-Za-z0-9_-]+)")
LOCAL_LINK = re.compile(r"\]\(#([A-Za-z0-9_-]+)\)")
HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*$", re.MULTILINE)
ENTRY_LEVEL = 3  # `### anchor`: one entry per source
PRIVATE = re.compile(r"domain\.md|\.\./shared/|shared/reference|/work/shared|shared/scenarios")


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to '-'."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(markdown: str) -> set[str]:
    """Every heading anchor of a Markdown page."""
    return {slug(m.group(2)) for m in HEADING.finditer(markdown)}


def entries(markdown: str) -> list[str]:
    """The anchors of the page's entries (level-3 headings)."""
    return [slug(m.group(2)) for m in HEADING.finditer(markdown) if len(m.group(1)) == ENTRY_LEVEL]


def shipped_files() -> list[Path]:
    files: list[Path] = []
    for name in SHIPPED:
        path = ROOT / name
        if path.is_file():
            files.append(path)
        else:
            files += sorted(p for p in path.rglob("*") if p.is_file() and p.suffix in TEXT_SUFFIXES)
    return [p for p in files if "__pycache__" not in p.parts]


def broken_links(texts: Iterable[tuple[str, str]], known: set[str]) -> list[str]:
    """'where: #anchor' for every docs/references.md link naming no heading."""
    return [
        f"{where}: #{m.group(1)}"
        for where, text in texts
        for m in LINK.finditer(text)
        if m.group(1) not in known
    ]


def private_citations(texts: Iterable[tuple[str, str]]) -> list[str]:
    """'where:line: text' for every mention of a file that does not ship."""
    return [
        f"{where}:{n}: {line.strip()}"
        for where, text in texts
        for n, line in enumerate(text.splitlines(), 1)
        if PRIVATE.search(line)
    ]


def orphans(page: str, texts: Iterable[tuple[str, str]]) -> list[str]:
    """Entries of the page no text links to."""
    cited = {m.group(1) for _, text in texts for m in LINK.finditer(text)}
    return [anchor for anchor in entries(page) if anchor not in cited]


def uncited_references(references: Iterable[tuple[str, str]], known: set[str]) -> list[str]:
    """'CODE: reference' for every rule reference without a link to an existing entry."""
    return [
        f"{code}: {ref}"
        for code, ref in references
        if not any(m.group(1) in known for m in LINK.finditer(ref))
    ]


@pytest.fixture(scope="module")
def page() -> str:
    return REFERENCES.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def texts() -> list[tuple[str, str]]:
    return [
        (str(p.relative_to(ROOT)), p.read_text(encoding="utf-8", errors="replace"))
        for p in shipped_files()
        if p != REFERENCES
    ]


def test_the_page_has_entries_with_unique_anchors(page: str) -> None:
    found = entries(page)
    assert len(found) >= 40
    assert len(found) == len(set(found))


def test_every_rule_reference_links_an_entry(page: str) -> None:
    known = set(entries(page))
    references = [
        (rule.spec.code, ref) for rule in load_rules().rules for ref in rule.spec.references
    ]
    assert len(references) >= 60
    assert uncited_references(references, known) == []


def test_every_link_names_an_existing_anchor(page: str, texts: list[tuple[str, str]]) -> None:
    known = anchors(page)
    assert broken_links(texts, known) == []
    local = [m.group(1) for m in LOCAL_LINK.finditer(page)]
    assert local, "the page links its own entries"
    assert [a for a in local if a not in known] == []


def test_nothing_shipped_cites_the_private_notes(texts: list[tuple[str, str]]) -> None:
    assert private_citations([*texts, ("docs/references.md", REFERENCES.read_text())]) == []


def test_every_entry_is_cited(page: str, texts: list[tuple[str, str]]) -> None:
    assert orphans(page, texts) == []


# --- the checks can fail ----------------------------------------------------------------------

PAGE = "# References\n\n## Codes\n\n### nec-210-20a\n\ntext\n\n### iec-62040-3\n\ntext\n"


def test_a_broken_anchor_is_found() -> None:
    texts = [("rules/x.yaml", '- "NEC 210.20(A) (docs/references.md#nec-210-20b)"')]
    assert broken_links(texts, anchors(PAGE)) == ["rules/x.yaml: #nec-210-20b"]
    assert broken_links([("ok", "docs/references.md#nec-210-20a")], anchors(PAGE)) == []


def test_a_reference_without_a_link_is_found() -> None:
    refs = [("PWR-001", "domain.md §5.4"), ("PWR-002", "NEC (docs/references.md#nec-210-20a)")]
    assert uncited_references(refs, set(entries(PAGE))) == ["PWR-001: domain.md §5.4"]


def test_a_private_citation_is_found() -> None:
    texts = [("a.py", "ok\n.. [1] domain.md §5.1\n"), ("b.yaml", "# see ../shared/x.md\n")]
    assert private_citations(texts) == [
        "a.py:2: .. [1] domain.md §5.1",
        "b.yaml:1: # see ../shared/x.md",
    ]


def test_an_orphan_entry_is_found() -> None:
    assert orphans(PAGE, [("r", "docs/references.md#nec-210-20a")]) == ["iec-62040-3"]
