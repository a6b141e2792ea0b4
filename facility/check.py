"""One check of a site, as ``facility check`` runs it: audit, single failures, waivers.

1. the normal-operation audit (every rule but those of the ``single_failure`` scope);
2. when the rule set judges single failures (RED-001 in both bundled profiles), the
   single-failure analysis against that audit (starting from the audit's own context: its
   normal values are not derived again), and its rules on each scenario: a single
   point of failure is a finding like any other, and sets the verdict;
3. the coverage, now with the scenarios; then the waivers, on every finding.

The command line and the tests call :func:`run_check`; nothing else strings these together.
It sits above the engine, the analyses and the reports: it returns what a report is made of.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from facility.analysis.failures import (
    FAILURE_SCOPE,
    FailureReport,
    analyse_failures,
    single_failure_findings,
)
from facility.engine.coverage import coverage
from facility.engine.evaluate import audit_in_context
from facility.engine.rules import RuleSet
from facility.engine.waivers import apply_waivers
from facility.inputs import InputFile
from facility.model.site import Site
from facility.report.context import FixSearch, Presentation, ReportInput

if TYPE_CHECKING:
    from facility.analysis.baseline import Previous
    from facility.analysis.fixes import FindingFixes


def run_check(
    site: Site,
    ruleset: RuleSet,
    *,
    waivers: list[Any] | None = None,
    generated_at: dt.datetime | None,
    lang: str = "en",
    progress: Callable[[str, int, int], None] | None = None,
    baseline: Previous | None = None,
    input_files: Sequence[InputFile] = (),
    presentation: Presentation | None = None,
    fixes: bool = False,
) -> ReportInput:
    """Check ``site`` under ``ruleset``: everything a report is made from.

    ``waivers`` are (waiver, location) pairs (the site's own when None); their expiry and
    the age of evidence are judged on ``generated_at``'s date (None, a library call with no
    report date: ages are not evaluated, waivers expire against the current date; the
    command line always has one). ``progress(phase, done, total)`` follows the audit's
    rules ("rules") and the failure scenarios ("failures"). ``baseline``: a previous JSON
    result (facility.analysis.baseline.read_previous) to compare the findings with, after the
    waivers (``result.baseline``).
    ``input_files``: the files read besides the site and the rules (waiver files, the
    configuration file), each with its SHA-256, for the sign-off and the JSON result.
    ``presentation``: how the reports show it (the defaults when None). ``fixes``: search the
    fix of each finding still failing after the waivers (:mod:`facility.analysis.fixes`),
    when a report first shows it (``ReportInput.fixes``; ``facility check --fixes``); False,
    the default: not searched, and the reports say so."""
    today = generated_at.date() if generated_at is not None else None
    judging = [r for r in ruleset.rules if r.spec.scope == FAILURE_SCOPE]
    # The audit finds no entity of the single_failure scope; the analysis leaves out every
    # rule tagged single-failure (RED-001 among them), which already assume one failure.
    result, normal = audit_in_context(
        site,
        ruleset,
        as_of=today,
        progress=None if progress is None else lambda done, total: progress("rules", done, total),
        with_coverage=False,  # made below, with the scenarios
    )
    failures: FailureReport | None = None
    if judging:
        if progress is not None:
            progress("failures", 0, 1)
        failures = analyse_failures(site, ruleset, result, normal=normal)
        result.findings += single_failure_findings(site, ruleset, judging, failures)
        result.coverage = coverage(
            site, ruleset, result.findings, [r.scenario.id for r in failures.results]
        )
    else:
        result.coverage = coverage(site, ruleset, result.findings, None)
    del normal  # every value of the audit: not held while the reports are written
    names = {alias: r.code for r in ruleset.rules for alias in (r.spec.name, *r.spec.aliases)}
    waiver_list = list(site.waivers) if waivers is None else waivers
    moment = generated_at or dt.datetime.now(tz=dt.UTC).replace(microsecond=0)
    waiver_report = apply_waivers(result, waiver_list, moment.date(), names, site=site)
    if baseline is not None:
        from facility.analysis.baseline import against_previous, current_of_result

        result.baseline = against_previous(baseline, current_of_result(result))
    inputs = (
        *(InputFile("site", layer.file, layer.sha256) for layer in site.layers),
        *input_files,
        *ruleset.files,
    )
    search = None
    if fixes:
        # after the waivers: a waived finding is not failing, and gets no fix
        search = FixSearch(lambda: _fixes_of(site, ruleset, result, today))
    return ReportInput(
        result,
        site,
        ruleset,
        waiver_report,
        moment,
        lang=lang,
        failures=failures,
        inputs=inputs,
        presentation=presentation or Presentation(),
        fixes=search,
    )


# The fix search costs some fifteen whole checks; a process that checks the same inputs again
# (a test suite, a library caller writing several reports) gets the same answer. The key is
# everything the search reads: the site's content, each rule's content (its file, spec,
# severity, parameters; the expressions are compiled from the spec), the profile's assumptions,
# the report date and the failing findings with their figures. Inputs that cannot be pickled
# are not remembered.
_MEMO: OrderedDict[bytes, dict[str, FindingFixes]] = OrderedDict()
_MEMO_SIZE = 16


def _fixes_of(
    site: Site, ruleset: RuleSet, result: Any, as_of: dt.date | None
) -> dict[str, FindingFixes]:
    from facility.analysis.fixes import fixes as find_fixes

    key = _memo_key(site, ruleset, result, as_of)
    if key is not None and key in _MEMO:
        _MEMO.move_to_end(key)
        return _MEMO[key]
    found = find_fixes(site, ruleset, result, as_of=as_of)
    if key is not None:
        _MEMO[key] = found
        while len(_MEMO) > _MEMO_SIZE:
            _MEMO.popitem(last=False)
    return found


def _memo_key(site: Site, ruleset: RuleSet, result: Any, as_of: dt.date | None) -> bytes | None:
    import pickle  # only a fix search (--fixes) needs it

    rules = [(r.file, r.spec, r.severity, r.parameters, r.kind) for r in ruleset.rules]
    failing = [
        (f.id, f.rule, f.severity, f.entity_kind, f.entity_id, f.observed, f.limit, f.margin)
        for f in result.findings
        if f.status == "fail"
    ]
    try:
        data = pickle.dumps(
            (site, rules, ruleset.profile, ruleset.assumptions, as_of, failing), protocol=5
        )
    except (pickle.PicklingError, AttributeError, TypeError):
        return None
    return hashlib.sha256(data).digest()
