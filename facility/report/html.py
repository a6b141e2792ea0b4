"""The HTML readiness report: one self-contained file an auditor can sign.

Inline CSS and SVG only: no script, no web fonts, no external images, and a
Content-Security-Policy that forbids any fetch, so the page is the same offline, in an
air-gapped hall and printed to PDF.
"""

from __future__ import annotations

from facility.report.context import ReportInput
from facility.report.floor_plan import MAX_TABLE_ROWS
from facility.report.presenting import for_people
from facility.report.templating import render
from facility.report.view import MAX_CARD_ENTITIES, build_view


def render_html(report: ReportInput) -> str:
    """The HTML report of ``report`` in its language."""
    with for_people(report):
        view = build_view(report, MAX_CARD_ENTITIES, MAX_TABLE_ROWS)
        return render("html", "report.html.j2", report.lang, view=view)
