"""Golden files: the HTML and Markdown reports of the examples, byte for byte.

Update them only on purpose: ``uv run pytest tests/report --update-golden`` (or
``FACILITY_UPDATE_GOLDEN=1``), then read the diff. See conftest.py.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from facility.report.html import render_html
from facility.report.markdown import render_markdown
from tests.report.conftest import GOLDEN

RENDERERS = {"html": render_html, "md": render_markdown}
CASES = [
    ("hall-b3", "html"),
    ("hall-b3", "md"),
    ("small-ready", "html"),
    ("small-ready", "md"),
]


@pytest.mark.parametrize(("site", "fmt"), CASES, ids=[f"{s}.{f}" for s, f in CASES])
def test_report_matches_its_golden_file(site, fmt, request, update_golden):
    report = request.getfixturevalue(site.replace("-", "_"))
    text = RENDERERS[fmt](report)
    golden = GOLDEN / f"{site}.{fmt}"
    if update_golden:
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_bytes(text.encode("utf-8"))
    assert golden.is_file(), f"{golden} is missing: run pytest tests/report --update-golden"
    expected = golden.read_bytes().decode("utf-8")
    assert text == expected, (
        f"{site}.{fmt} differs from {golden.name}; if the change is intended, "
        "regenerate with: uv run pytest tests/report --update-golden"
    )


@pytest.mark.parametrize("fmt", ["html", "md"])
def test_two_renders_are_identical(hall_b3, fmt):
    assert RENDERERS[fmt](hall_b3) == RENDERERS[fmt](hall_b3)


@pytest.mark.parametrize("fmt", ["html", "md"])
def test_the_order_of_findings_does_not_change_the_report(hall_b3, fmt):
    shuffled = list(hall_b3.result.findings)
    random.Random(4).shuffle(shuffled)
    other = replace(hall_b3.result, findings=shuffled)
    assert RENDERERS[fmt](replace(hall_b3, result=other)) == RENDERERS[fmt](hall_b3)


def test_the_generation_time_is_the_input_not_the_clock(hall_b3):
    assert "2026-11-29T12:00:00+00:00" in render_html(hall_b3)
    assert "2026-11-29T12:00:00+00:00" in render_markdown(hall_b3)
