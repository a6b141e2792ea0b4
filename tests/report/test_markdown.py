"""The Markdown report and its escape filter."""

from __future__ import annotations

import pytest

from facility.report.markdown import MarkdownText, escape_markdown, render_markdown


def table_rows(markdown: str) -> list[list[list[str]]]:
    """The tables of a GFM document: each a list of rows, each row its cells.

    Splits on unescaped pipes, as GFM does (a backslash escapes the next character).
    """
    tables: list[list[list[str]]] = []
    current: list[list[str]] = []
    for line in markdown.split("\n"):
        if not line.startswith("|"):
            if current:
                tables.append(current)
                current = []
            continue
        cells, cell, i = [], "", 0
        while i < len(line):
            c = line[i]
            if c == "\\" and i + 1 < len(line):
                cell += line[i : i + 2]
                i += 2
                continue
            if c == "|":
                cells.append(cell)
                cell = ""
            else:
                cell += c
            i += 1
        cells.append(cell)
        current.append(cells[1:-1])  # outside the leading and trailing pipes
    if current:
        tables.append(current)
    return tables


def assert_tables_keep_their_columns(markdown: str) -> None:
    tables = table_rows(markdown)
    assert tables
    for table in tables:
        widths = {len(row) for row in table}
        assert len(widths) == 1, table


# --- the escape filter -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "escaped"),
    [
        ("plain A01-A1", "plain A01-A1"),
        ("a | b", r"a \| b"),
        ("*bold* _it_", r"\*bold\* \_it\_"),
        ("`code`", r"\`code\`"),
        ("[x](http://e)", r"\[x\](http://e)"),
        ("![img](x.png)", r"!\[img\](x.png)"),
        ("<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"),
        ("a & b", "a &amp; b"),
        ("&lt;", "&amp;lt;"),
        ("back\\slash", r"back\\slash"),
        ("~~gone~~", r"\~\~gone\~\~"),
        ("line one\nline two\r\nthree\u2028four", "line one line two three four"),
        ("# heading", r"\# heading"),
        ("- item", r"\- item"),
        ("+ item", r"\+ item"),
        ("1. first", r"1\. first"),
        ("---", r"\---"),
        ("-18.2 kVA", "-18.2 kVA"),  # a negative margin is not a list item
        ("135.0 kW", "135.0 kW"),
    ],
)
def test_escape_markdown(text, escaped):
    assert escape_markdown(text) == escaped


def test_escaped_text_is_not_escaped_twice():
    once = escape_markdown("a|b")
    assert isinstance(once, MarkdownText)
    assert escape_markdown(once) == once


def test_escaped_text_cannot_break_a_table_row():
    hostile = "x | y\n| z | w |\n`a` [b](c) <i>"
    row = f"| {escape_markdown(hostile)} | second |"
    assert_tables_keep_their_columns(f"| a | b |\n|---|---|\n{row}\n")
    assert "\n" not in escape_markdown(hostile)


# --- the report ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def b3_md(hall_b3):
    return render_markdown(hall_b3)


def test_the_report_has_verdict_counts_findings_details_not_evaluated_and_waivers(hall_b3, b3_md):
    headings = [line for line in b3_md.split("\n") if line.startswith("#")]
    assert headings[0] == "# Readiness report: Hall B3"
    for heading in (
        "## Verdict and counts",
        "## Key figures",
        "## Findings",
        "## Single failures",
        "## Not evaluated",
        "## Waivers",
        "## Passed checks",
        "## Assumptions and catalog figures",
        "## Sign-off",
    ):
        assert heading in headings
    assert "#### PWR-003 — A rack PDU is overloaded after its rack's other side is lost" in headings
    c = hall_b3.result.counts()
    total = len(hall_b3.result.findings)
    row = f"| {c['fail']} | {c['waived']} | {c['not_evaluated']} | {c['pass']} | {total} |"
    assert row in b3_md  # failing, waived, not evaluated, passed, all checks
    assert c["fail"] == 107  # 87 in normal operation + 20 single points of failure (RED-001)


def test_every_failing_entity_is_listed(hall_b3, b3_md):
    for f in hall_b3.result.findings:
        if f.status == "fail":  # (Markdown escapes the "_" of rack_side:A01:A)
            assert f.entity_id.replace("_", "\\_") in b3_md, f.id


def test_the_tables_keep_their_columns(b3_md, small_ready):
    assert_tables_keep_their_columns(b3_md)
    assert_tables_keep_their_columns(render_markdown(small_ready))


def test_the_findings_table_has_one_row_per_card(b3_md):
    findings = next(t for t in table_rows(b3_md) if t[0][1].strip() == "Status")
    rules = [row[2].strip() for row in findings[2:]]
    # RED-001 ×4: its 20 single points of failure have 4 causes (a row-A rack side, CDU-A1 or
    # CDU-A2, CDU-B1, FW-1), one card each
    assert rules == [
        "PWR-001", "PWR-003", "LIQ-002", "LIQ-004", "LIQ-004", "FLR-001", *["RED-001"] * 4
    ]  # fmt: skip


def test_the_markdown_renders_as_intended(b3_md):
    markdown_it = pytest.importorskip("markdown_it")
    html = markdown_it.MarkdownIt("commonmark").enable("table").render(b3_md)
    assert html.count("<table>") == len(table_rows(b3_md))
    assert "<h2>Verdict and counts</h2>" in html
    assert "<strong>Verdict: Not ready</strong>" in html
