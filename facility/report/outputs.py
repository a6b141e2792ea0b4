"""The output formats of `facility check`, and which renderer makes each.

Renderers are imported only when their format is asked for, so a plain terminal run does not
pay for Jinja2 or XML.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from pathlib import Path

from facility.messages import Message
from facility.report.context import ReportInput

# format -> "module:function"; each function takes a ReportInput and returns the text.
RENDERERS: dict[str, str] = {
    "text": "facility.report.terminal:render_text",
    "json": "facility.report.json_report:render_report_json",
    "html": "facility.report.html:render_html",
    "markdown": "facility.report.markdown:render_markdown",
    "sarif": "facility.report.sarif:render_sarif",
    "junit": "facility.report.junit:render_junit",
}

SUFFIXES: dict[str, str] = {
    ".txt": "text",
    ".json": "json",
    ".html": "html",
    ".htm": "html",
    ".md": "markdown",
    ".sarif": "sarif",
    ".xml": "junit",
    ".pdf": "pdf",
}

# format -> "module:function" returning bytes, not text (kept apart from RENDERERS: the PDF
# needs Chromium, which the text renderers' tests and fuzz runs do not start).
BINARY_RENDERERS: dict[str, str] = {
    "pdf": "facility.report.pdf:render_pdf",
}


def renderer(fmt: str) -> Callable[[ReportInput], str]:
    module, function = RENDERERS[fmt].split(":")
    try:
        return getattr(importlib.import_module(module), function)  # type: ignore[no-any-return]
    except (ImportError, AttributeError):
        raise ValueError(
            Message("the %(format)s report is not available in this version", format=fmt)
        ) from None


# format -> "module:function" yielding the text in pieces (large reports stream to disk).
STREAMERS: dict[str, str] = {
    "json": "facility.report.json_report:iter_report_json",
}


def render_pieces(
    fmt: str, report: ReportInput, made: dict[str, str] | None = None
) -> str | bytes | Iterable[str]:
    """The report of ``fmt``: in pieces where the format streams, bytes for a binary format
    (PDF), else as one string. ``made``: the HTML report of ``report`` once made, kept there
    for the next format that prints it (``-o report.html -o report.pdf`` renders it once)."""
    if made is not None and fmt in ("html", "pdf"):
        html = made.get("html")
        if html is None:
            html = made["html"] = renderer("html")(report)
        if fmt == "html":
            return html
        from facility.report.pdf import render_pdf

        return render_pdf(report, html)
    if fmt in BINARY_RENDERERS:
        module, function = BINARY_RENDERERS[fmt].split(":")
        document: bytes = getattr(importlib.import_module(module), function)(report)
        return document
    if fmt in STREAMERS:
        module, function = STREAMERS[fmt].split(":")
        pieces: Iterable[str] = getattr(importlib.import_module(module), function)(report)
        return pieces
    return renderer(fmt)(report)


def format_for(path: Path) -> str | None:
    """The format a file name asks for by its suffix (``.sarif`` -> ``sarif``)."""
    return SUFFIXES.get(path.suffix.lower())
