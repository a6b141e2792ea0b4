"""The worst single failure of the single-failure analysis, for the report's charts.

The utilisation charts show each element after the one failure its own check assumes (the
other power side lost, the largest CDU out, the redundant air units out). When the
single-failure analysis ran (:mod:`facility.analysis.failures`), the report also names the
one failure that does the most harm, chosen here and nowhere else:

1. the most checks at error severity that pass in normal operation and fail after the loss;
2. of equals, the most newly failing checks of any severity;
3. of equals, the deepest cut: the highest utilisation the loss leaves on a check it moves
   (no capacity left at all is the deepest);
4. of equals, the first in the analysis's order (sources, distribution, rack sides, CDUs,
   pumps, facility water, air units; each by id).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from facility.analysis.failures import FailureReport, ScenarioResult
from facility.messages import localized
from facility.report.i18n import _, ngettext
from facility.report.quantities import format_quantity


@dataclass(frozen=True, slots=True)
class WorstFailure:
    scenario: str  # the scenario's id: "facility_water:FW-1"
    element: str  # the element out of service: "FW-1"
    description: str  # "facility water FW-1 lost", in the report's language
    new_failures: int
    new_errors: int
    percent: str  # the highest utilisation it leaves: "121.4 %", "no capacity", or ""
    detail: str  # where: "LIQ-001 TCS-A", or ""
    sentence: str  # the whole statement, as the charts show it


def _rank(result: ScenarioResult) -> tuple[int, int, float]:
    errors = sum(1 for f in result.new_failures if f.severity == "error")
    u = result.worst_utilisation
    return errors, len(result.new_failures), -1.0 if u is None else u


def worst_single_failure(failures: FailureReport | None) -> WorstFailure | None:
    """The failure that does the most harm (see the module's order), or None when the
    analysis did not run or no failure moves any check."""
    if failures is None:
        return None
    best: ScenarioResult | None = None
    for result in failures.results:  # the first of equals stays
        if best is None or _rank(result) > _rank(best):
            best = result
    if best is None or (not best.new_failures and best.worst is None):
        return None
    errors, count, u = _rank(best)
    worst = best.worst
    if worst is None or u < 0:
        percent, detail = "", ""
    else:
        percent = _("no capacity") if math.isinf(u) else format_quantity(u, "fraction")
        detail = f"{worst.rule} {worst.entity_id}"
    description = localized(best.scenario.description)
    if count:
        fails = _("%(checks)s (%(errors)s at error severity)") % {
            "checks": ngettext(
                "%(n)s check that passes in normal operation fails",
                "%(n)s checks that pass in normal operation fail",
                count,
            )
            % {"n": f"{count:,}"},
            "errors": f"{errors:,}",
        }
    else:
        fails = _("no check that passes in normal operation fails")
    sentence = _(
        "Worst single failure of the analysis: %(failure)s (element %(element)s): %(fails)s."
    ) % {
        "failure": description,
        "element": best.scenario.element,
        "fails": fails,
    }
    if worst is not None and u >= 0:
        second = (
            _("It leaves no capacity at all for %(where)s.") % {"where": detail}
            if math.isinf(u)
            else _("Highest utilisation it leaves: %(percent)s (%(where)s).")
            % {"percent": percent, "where": detail}
        )
        sentence = _("%(first)s %(second)s") % {"first": sentence, "second": second}
    return WorstFailure(
        best.scenario.id,
        best.scenario.element,
        description,
        count,
        errors,
        percent,
        detail,
        sentence,
    )
