"""The portfolio of a run over several sites, formatted: the text summary, the JSON document
(``facility-portfolio/1``, docs/json-result.md) and the SARIF log with one run per site.

The outcomes come from :mod:`facility.portfolio`; each site's own reports were made by its
renderers, and are put together here as they are.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Sequence
from typing import Any

from facility import __version__
from facility.messages import localized
from facility.portfolio import SiteOutcome, Skipped, worst_exit, worst_verdict
from facility.printable import json_inert, printable
from facility.report.i18n import _, ngettext, pgettext

PORTFOLIO_SCHEMA = "facility-portfolio/1"


def verdict_text(key: str) -> str:
    """A verdict as the terminal report writes it ('NOT READY'; the same words and
    translations as its verdict line), or 'BAD INPUT' for a site that was not checked."""
    return {
        "ready": pgettext("terminal verdict", "READY"),
        "ready-with-warnings": pgettext("terminal verdict", "READY WITH WARNINGS"),
        "incomplete": pgettext("terminal verdict", "INCOMPLETE"),
        "not-ready": pgettext("terminal verdict", "NOT READY"),
        "error": pgettext("terminal verdict", "BAD INPUT"),
    }[key]


def _width(text: str) -> int:
    """Columns ``text`` takes in a terminal (a CJK character takes two)."""
    return sum(2 if unicodedata.east_asian_width(c) in ("W", "F") else 1 for c in text)


def _pad(text: str, width: int, right: bool = False) -> str:
    space = " " * max(0, width - _width(text))
    return space + text if right else text + space


def bad_input_block(outcome: SiteOutcome) -> str:
    """The text report of a site whose input could not be checked: its name, and each
    problem as stderr lists it."""
    count = len(outcome.problems)
    lines = [
        printable(
            ngettext(
                "%(site)s — bad input, not checked: %(n)s problem",
                "%(site)s — bad input, not checked: %(n)s problems",
                count,
            )
            % {"site": outcome.name, "n": count}
        )
    ]
    for problem in outcome.problems:
        shown = problem.localized() if hasattr(problem, "localized") else localized(problem)
        lines.append("  " + printable(shown))
    return "\n".join(lines) + "\n"


def summary_text(outcomes: Sequence[SiteOutcome], skipped: Sequence[Skipped]) -> str:
    """The portfolio summary: one row per site (verdict, counts, what it adds to the exit
    code), the files left out, and the portfolio's verdict and exit code."""
    head = [
        _("site"),
        _("verdict"),
        _("failed"),
        _("passed"),
        _("not evaluated"),
        _("waived"),
        _("exit"),
    ]
    rows = [head]
    for o in outcomes:
        counts = [
            str(o.counts[key]) if o.verdict != "error" else "—"
            for key in ("fail", "pass", "not_evaluated", "waived")
        ]
        rows.append([printable(o.name), verdict_text(o.verdict), *counts, str(o.exit_code)])
    widths = [max(_width(row[i]) for row in rows) for i in range(len(head))]
    n = len(outcomes)
    lines = [
        ngettext("PORTFOLIO: %(n)s site", "PORTFOLIO: %(n)s sites", n) % {"n": n},
    ]
    for row in rows:
        cells = [_pad(row[0], widths[0]), _pad(row[1], widths[1])]
        cells += [_pad(cell, widths[i + 2], right=True) for i, cell in enumerate(row[2:])]
        lines.append(("  " + "  ".join(cells)).rstrip())
    if skipped:
        lines.append("")
    for s in skipped:
        lines.append(
            printable(
                _("not checked alone: %(file)s, a base of %(site)s (checked with it)")
                % {"file": s.path, "site": s.by}
            )
        )
    tally = _tally(outcomes)
    lines.append("")
    lines.append(
        _("portfolio: %(verdict)s — %(tally)s; exit %(code)s")
        % {
            "verdict": verdict_text(worst_verdict(outcomes)),
            "tally": tally,
            "code": worst_exit(outcomes),
        }
    )
    return "\n".join(lines) + "\n"


def _tally(outcomes: Sequence[SiteOutcome]) -> str:
    """'1 ready, 1 not ready, 1 bad input', in the order of the verdicts, worst first."""
    words = {
        "error": lambda n: ngettext("%(n)s bad input", "%(n)s bad input", n),
        "not-ready": lambda n: ngettext("%(n)s not ready", "%(n)s not ready", n),
        "incomplete": lambda n: ngettext("%(n)s incomplete", "%(n)s incomplete", n),
        "ready-with-warnings": lambda n: ngettext(
            "%(n)s ready with warnings", "%(n)s ready with warnings", n
        ),
        "ready": lambda n: ngettext("%(n)s ready", "%(n)s ready", n),
    }
    parts = []
    for key, word in words.items():
        count = sum(1 for o in outcomes if o.verdict == key)
        if count:
            parts.append(word(count) % {"n": count})
    return pgettext("list separator", ", ").join(parts)


def portfolio_json(
    outcomes: Sequence[SiteOutcome], documents: Sequence[str], skipped: Sequence[Skipped]
) -> str:
    """The ``facility-portfolio/1`` document: its summary, then each site's JSON result (or
    error result) as that site's own JSON text, in input order (docs/json-result.md)."""
    head = {
        "schema": PORTFOLIO_SCHEMA,
        "tool": {"name": "facility", "version": __version__},
        "verdict": worst_verdict(outcomes),
        "exit_code": worst_exit(outcomes),
        "summary": [
            {
                "site": o.name,
                "name": o.title,
                "verdict": o.verdict,
                "counts": (
                    {k: o.counts[k] for k in ("fail", "pass", "not_evaluated", "waived")}
                    if o.verdict != "error"
                    else None
                ),
                "exit_code": o.exit_code,
            }
            for o in outcomes
        ],
        "skipped": [{"file": str(s.path), "base_of": str(s.by)} for s in skipped],
    }
    text = json_inert(json.dumps(head, indent=2, ensure_ascii=False, allow_nan=False))
    # Each result is already JSON text (inert, no raw newline in a string): indented as a
    # member of "sites", its text is otherwise as `facility check -f json` writes it.
    sites = ",\n".join("    " + doc.rstrip("\n").replace("\n", "\n    ") for doc in documents)
    return text[:-2] + ',\n  "sites": [\n' + sites + "\n  ]\n}\n"


def sarif_runs(outcomes: Sequence[SiteOutcome]) -> list[dict[str, Any]]:
    """One SARIF run per site, in input order, each with a category of its own
    (``automationDetails.id`` ``facility/<site>/``): GitHub code scanning refuses a file with
    several runs of one tool in one category."""
    runs = []
    for o in outcomes:
        assert o.sarif_run is not None
        runs.append({**o.sarif_run, "automationDetails": {"id": f"facility/{o.key}/"}})
    return runs
