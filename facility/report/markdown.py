"""The Markdown readiness report: the HTML report's twin for pull requests and wikis.

GitHub-flavoured Markdown over the same view model. Every value is escaped by the
environment (:func:`escape_markdown`): a rack named ``a | b`` or ``<script>`` cannot break a
table or inject markup.
"""

from __future__ import annotations

from facility.report.context import ReportInput
from facility.report.presenting import for_people
from facility.report.templating import MarkdownText, escape_markdown, render
from facility.report.view import build_view

__all__ = ["MarkdownText", "escape_markdown", "render_markdown"]


def render_markdown(report: ReportInput) -> str:
    """The Markdown report of ``report`` in its language."""
    with for_people(report):
        view = build_view(report)
        return render("markdown", "report.md.j2", report.lang, view=view)
