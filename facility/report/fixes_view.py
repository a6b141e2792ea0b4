"""The fix of each failing finding, in words: one place for every report that shows it.

The search is :mod:`facility.analysis.fixes` (run once per check, when a report first asks:
``ReportInput.fixes``). Here a fix becomes its sentence, with its figures formatted by the
report's formatter (:func:`fix_figure`: the display units and the language in force, so
``--units us`` and zh-CN apply), and the working of the finding re-run on the changed site
(observed against limit, through the reports' :func:`~facility.report.findings_view.working`).
A finding with no computed fix has the note and the rule's ``remediation`` list instead.
The terminal, the HTML and Markdown cards and covers call :func:`finding_fixes` inside
``for_people``; the JSON result calls it inside ``for_machines`` (English and SI).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from facility.messages import localized
from facility.report.findings_view import text_of, working
from facility.report.i18n import _
from facility.report.quantities import format_quantity

if TYPE_CHECKING:
    from facility.analysis.fixes import FindingFixes, Fix
    from facility.engine.findings import Finding
    from facility.report.context import ReportInput

# Kinds whose fix steps are finer than their display precision: an area on the 0.01 m² grid
# (0.91 m² must not read 0.9 m², less than is needed).
_FIX_DECIMALS = {"area": 2}


def fix_figure(value: float, kind: str) -> str:
    """A figure of a fix's sentence, in the display units in force."""
    if kind in _FIX_DECIMALS:
        return format_quantity(value, kind, _FIX_DECIMALS[kind])
    return text_of(value, kind)


@dataclass(frozen=True, slots=True)
class FixLine:
    """One verified fix: what to change, and the finding's working once changed."""

    text: str  # 'PDUs of type pdu-415v-63a rated 80 A (now 63 A)'
    observed: str  # the working of the observed value on the changed site
    limit: str  # and of the limit
    relation: str  # '<=': observed relation limit holds


@dataclass(frozen=True, slots=True)
class FixesView:
    """The fixes of one failing finding; or why there is none, with the remediation list."""

    fixes: list[FixLine]
    note: str  # '' when there is a fix
    remediation: list[str]

    @property
    def first(self) -> str:
        """The first fix's sentence, or the note: one line for a cause."""
        return self.fixes[0].text if self.fixes else self.note


def not_searched() -> str:
    return _("Fixes not computed: --fixes")


def fix_sentence(fix: Fix) -> str:
    return localized(fix.text(fix_figure))


def fix_line(fix: Fix) -> FixLine:
    after = fix.after
    return FixLine(
        text=fix_sentence(fix),
        observed=working(after.observed, after.kind)
        or text_of(_value(after, "observed"), after.kind),
        limit=working(after.limit, after.kind) or text_of(_value(after, "limit"), after.kind),
        relation=after.relation,
    )


def _value(f: Finding, side: str) -> float | None:
    v = getattr(f, side)
    return v.value if v is not None else None


def finding_fixes(report: ReportInput, f: Finding, lang: str | None = None) -> FixesView | None:
    """The fixes of failing finding ``f`` in the current language and units, the remediation
    in ``lang`` (the report's when None); None when ``f`` is not failing. Runs the search the
    first time a report asks."""
    if f.status != "fail":
        return None
    rule = report.ruleset.by_code(f.rule)
    remediation = list(rule.spec.text(lang or report.lang).remediation) if rule is not None else []
    if report.fixes is None:
        return FixesView([], not_searched(), remediation)
    found: FindingFixes | None = report.fixes.get().get(f.id)
    if found is not None and found.fixes:
        return FixesView([fix_line(fix) for fix in found.fixes], "", remediation)
    note = found.note if found is not None else None
    return FixesView([], localized(note) if note else _("no computed fix: see remediation"),
                     remediation)  # fmt: skip
