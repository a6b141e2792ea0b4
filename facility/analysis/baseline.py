"""``facility check --baseline``: this run's findings against a previous JSON result's.

A failing finding that did not fail there, or fails by a more negative margin, fails the run;
the others are known. An error-severity check not evaluated now, and evaluated there, is a new
gap. Of the previous result only what can decide that is kept — its failing findings' margins
and the ids it did not evaluate — and a result facility wrote is read one finding at a time
(facility/analysis/result_stream.py): comparing a campus's result with its baseline held both
whole, every finding as a dict (1.1 GB more at 10,000 racks, issue 21).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from facility.analysis.diff import (
    FAILING,
    RESULT_LIMIT,
    _worse,
    read_result_file_and_digest,
)
from facility.engine.findings import AuditResult, Baseline, Finding

# (id, status, severity, its margin as the JSON result writes it: asked only of a finding that
# fails on both sides) of one finding of the current run
_Current = tuple[str, str, str, Callable[[], Mapping[str, Any] | None]]


@dataclass(slots=True)
class Previous:
    """What a previous result says that a baseline comparison reads."""

    file: str
    digest: str  # SHA-256 of its bytes: the file is listed among the run's inputs
    failing: dict[str, Mapping[str, Any] | None] = field(default_factory=dict)  # id -> margin
    not_evaluated: set[str] = field(default_factory=set)

    def add(self, fid: str, status: str, margin: Mapping[str, Any] | None) -> None:
        """One finding (its margin kept only if it fails); a later one of the same id
        replaces it, as a result read whole does."""
        self.failing.pop(fid, None)
        self.not_evaluated.discard(fid)
        if status in FAILING:
            self.failing[fid] = margin
        elif status == "not_evaluated":
            self.not_evaluated.add(fid)


def read_previous(path: Path) -> Previous:
    """The previous result at ``path``, checked as ``facility diff`` checks one (InputError
    naming the line and field of a bad finding); streamed when facility wrote it."""
    from facility.analysis.result_stream import NotLaidOut, open_result

    try:
        side = open_result(path, RESULT_LIMIT)
    except NotLaidOut:  # reformatted, minified…: read whole, with the whole reader's messages
        data, digest = read_result_file_and_digest(path)
        return previous_of(data, str(path), digest)
    previous = Previous(str(path), side.digest)
    for fid, status, index, detail, _waiver in side.findings():
        if status not in FAILING:
            previous.add(fid, status, None)
        elif side.compact:  # the margin is in the figures entry ``index``
            previous.add(fid, status, side.figures(index).get("margin"))
        else:  # a full finding: the finding itself
            previous.add(fid, status, detail.get("margin"))
    return previous


def previous_of(data: dict[str, Any], file: str, digest: str = "") -> Previous:
    """A previous result already read whole (its findings written out)."""
    previous = Previous(file, digest)
    for f in data["findings"]:
        previous.add(f["id"], f["status"], f.get("margin"))
    return previous


def against_previous(previous: Previous, current: Iterable[_Current]) -> Baseline:
    """The current findings (in the order the result writes them) against ``previous``."""
    new: list[str] = []
    worse: list[str] = []
    gaps: list[str] = []
    known = 0
    for fid, status, severity, margin in current:
        if status in FAILING:
            if fid not in previous.failing:
                new.append(fid)
            elif _margin_worse(previous.failing[fid], margin()):
                worse.append(fid)
            else:
                known += 1
        elif (
            status == "not_evaluated" and severity == "error" and fid not in previous.not_evaluated
        ):
            gaps.append(fid)
    return Baseline(previous.file, tuple(sorted(new)), tuple(sorted(worse)), known, tuple(gaps))


def _margin_worse(before: Mapping[str, Any] | None, after: Mapping[str, Any] | None) -> bool:
    """A margin changed (its value) and lower now (``facility diff``'s *worse*)."""
    if _value(before) == _value(after):
        return False
    return _worse({"margin": before}, {"margin": after})


def _value(margin: Mapping[str, Any] | None) -> Any:
    return None if margin is None else margin.get("value")


def against_baseline(baseline: dict[str, Any], current: dict[str, Any], file: str) -> Baseline:
    """Two results read whole (their findings written out): ``current`` against ``baseline``."""
    return against_previous(previous_of(baseline, file), _current_of_json(current))


def current_of_result(result: AuditResult) -> Iterator[_Current]:
    """This run's findings, in the JSON result's order, each margin made only when asked."""
    from facility.report.json_report import in_result_order

    for f in in_result_order(result):
        yield f.id, f.status, f.severity, partial(_margin_of, f)


def _margin_of(f: Finding) -> dict[str, Any] | None:
    from facility.report.json_report import margin_json
    from facility.report.presenting import for_machines

    with for_machines():  # in SI, as the result writes it
        return margin_json(f)


def _current_of_json(data: dict[str, Any]) -> Iterator[_Current]:
    for f in data["findings"]:
        yield f["id"], f["status"], f.get("severity", ""), partial(f.get, "margin")
