"""Derived quantities of a single failure: what one element out of service makes fail.

The entities of the ``single_failure`` scope are the scenarios of the single-failure analysis
(:mod:`facility.analysis.failures`): each power source, distribution element, rack side, CDU,
CDU pump, facility water loop and air unit out of service in turn. A site holds none of them;
the check (:func:`facility.check.run_check`) evaluates the scope's rules on the
analysis's results, after the normal-operation audit they are compared with. Rule RED-001
judges each one: an error-severity check that passed before the loss and fails after it
makes the element a single point of failure; one that cannot be evaluated with the element
out leaves the loss not shown to be survived (not evaluated, never a pass).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from facility.engine.quantities import Context, Value, quantity, scope
from facility.messages import Message
from facility.model.site import Site


@scope("single_failure", "Single failure")
def _scenarios(site: Site) -> Iterable[tuple[str, Any]]:
    return ()  # made by the single-failure analysis, not held by the site


@quantity(
    "single_failure",
    "new_failing_checks",
    "count",
    "Error-severity checks that pass in normal operation and fail with the element out of service",
    reads=(),
)
def new_failing_checks(ctx: Context, outcome: Any) -> Value:
    failing = [f for f in outcome.new_failures if f.severity == "error"]
    if failing:
        return Value(
            float(len(failing)),
            Message("%(checks)s fail after the loss, passing before", checks=_by_rule(failing)),
            (),
        )
    # Nothing fails, but a check the loss touches could not be judged: the loss is not shown
    # to be survived (the count is unknown, not 0).
    unknown = [f for f in outcome.findings if f.status == "not_evaluated" and f.severity == "error"]
    if unknown:
        return Value.unknown(
            Message(
                "%(checks)s not evaluated after the loss (%(reason)s)",
                checks=_by_rule(unknown),
                reason=unknown[0].missing[0] if unknown[0].missing else "",
            )
        )
    return Value(0.0, Message("no check fails after the loss that passed before"), ())


def _by_rule(findings: list[Any]) -> str:
    """'PWR-002 ×4, LIQ-001 ×1': the rules and how many of their checks. Entity names stay
    out, so losses with one cause (each side of identical racks) read, and group, alike."""
    counts: dict[str, int] = {}
    for f in findings:
        counts[f.rule] = counts.get(f.rule, 0) + 1
    return ", ".join(f"{rule} ×{n:,}" for rule, n in sorted(counts.items()))
