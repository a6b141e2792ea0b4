"""The PDF report: the HTML report printed by headless Chromium.

Why Chromium and not a Python library such as WeasyPrint: Chromium is already what the
project's browser tests print the HTML report with (and a CI dependency), it implements the
CSS the report's print layout uses (``@page`` margin boxes for the running header, the footer
and "n / N" page numbers, grid, fragmentation), and it adds no Python dependency with system
libraries of its own (WeasyPrint needs Pango). So the PDF is exactly what an auditor gets by
printing the HTML report from a browser.

Chromium runs with no network (the page is self-contained, and every host name resolves to
nothing), in a profile directory of its own that is removed afterwards, and is stopped after
:func:`timeout` seconds. It is found by ``FACILITY_CHROMIUM``, else as ``chromium``,
``chromium-browser`` or ``google-chrome`` on ``PATH``.

Reproducible: Chromium stamps the PDF with the time it printed it; that time is replaced by
the report's ``generated_at`` (same length, so no offset in the file moves). The same HTML
printed by the same Chromium with the same fonts then gives the same bytes; another Chromium
version or other fonts may give other bytes (the HTML report is reproducible everywhere).
"""

from __future__ import annotations

import datetime as dt
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from facility.messages import Message
from facility.report.context import ReportInput
from facility.report.html import render_html

# How long Chromium may take [s]: a minute, plus a minute per MB of HTML. Measured on two
# shared cores: Hall B3 (0.17 MB of HTML, 27 A4 pages) takes 16 s for the whole run; a
# 2,000-rack campus (2.3 MB of HTML, 321 pages) prints in 77 s, within its 198 s.
TIMEOUT_BASE = 60.0
TIMEOUT_PER_MB = 60.0
NAMES = ("chromium", "chromium-browser", "google-chrome")
FLAGS = (
    "--headless",
    "--no-sandbox",  # as root (CI, containers) Chromium refuses to start without it
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--no-first-run",
    "--no-default-browser-check",
    "--host-resolver-rules=MAP * ~NOTFOUND",  # no request leaves the machine
    "--no-pdf-header-footer",  # the page's own @page margin boxes are the header and footer
)
_STAMP = re.compile(rb"/(CreationDate|ModDate) \(D:\d{14}[+-]\d\d'\d\d'\)")


def find_chromium() -> str:
    """The Chromium to print with: ``FACILITY_CHROMIUM``, else the first of :data:`NAMES`."""
    given = os.environ.get("FACILITY_CHROMIUM")
    if given:
        found = shutil.which(given)
        if found is None:
            raise ValueError(
                Message(
                    "FACILITY_CHROMIUM is %(path)s, which is not an executable program",
                    path=given,
                )
            )
        return found
    for name in NAMES:
        found = shutil.which(name)
        if found is not None:
            return found
    raise ValueError(Message("PDF output needs Chromium: install it or set FACILITY_CHROMIUM"))


def render_pdf(report: ReportInput, html: str | None = None) -> bytes:
    """The PDF report of ``report``: its HTML report (``html``, when it is already made)
    printed on ``report.presentation.paper``."""
    chromium = find_chromium()
    if html is None:
        html = render_html(report)
    seconds = timeout(len(html.encode("utf-8")))
    with tempfile.TemporaryDirectory(prefix="facility-pdf-") as work:
        page = Path(work) / "report.html"
        out = Path(work) / "report.pdf"
        page.write_text(html, encoding="utf-8")
        command = [
            chromium,
            *FLAGS,
            f"--user-data-dir={Path(work) / 'profile'}",
            f"--print-to-pdf={out}",
            page.as_uri(),
        ]
        try:
            done = subprocess.run(
                command,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                timeout=seconds,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise ValueError(
                Message(
                    "Chromium (%(path)s) did not print the PDF report within %(seconds)s s",
                    path=chromium,
                    seconds=f"{seconds:.0f}",
                )
            ) from None
        except OSError as error:
            raise ValueError(
                Message(
                    "cannot run Chromium (%(path)s): %(reason)s",
                    path=chromium,
                    reason=error.strerror or str(error),
                )
            ) from None
        if done.returncode != 0 or not out.is_file() or out.stat().st_size == 0:
            last = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:]
            raise ValueError(
                Message(
                    "Chromium (%(path)s) could not print the PDF report (exit status "
                    "%(status)s): %(reason)s",
                    path=chromium,
                    status=done.returncode,
                    reason=last[0] if last else "no PDF was written",
                )
            )
        return stamped(out.read_bytes(), report)


def timeout(html_bytes: int) -> float:
    """The seconds Chromium may take to print an HTML report of ``html_bytes`` bytes."""
    return TIMEOUT_BASE + TIMEOUT_PER_MB * html_bytes / 1e6


def stamped(pdf: bytes, report: ReportInput) -> bytes:
    """``pdf`` with its creation and modification times set to the report's generation time."""
    moment = report.generated_at  # a time without a zone is taken as UTC, as elsewhere
    if moment.utcoffset() is not None:
        moment = moment.astimezone(dt.UTC)
    date = moment.strftime("%Y%m%d%H%M%S").encode("ascii") + b"+00'00'"
    return _STAMP.sub(lambda m: b"/" + m.group(1) + b" (D:" + date + b")", pdf)
