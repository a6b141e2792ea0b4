"""Comparing two states: which findings are new, resolved or changed, with margins before and after.

Either side may be a site file (audited here with the same profile) or a JSON result written
by ``facility check -f json`` — so a planned change can be reviewed against the result that
was signed off.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeAlias

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from facility.messages import Message
from facility.model.errors import validation_message
from facility.model.source import (
    InputError,
    Location,
    Problem,
    decode,
    field_name,
    no_lone_surrogates,
    read_bytes,
    value_marks,
)

if TYPE_CHECKING:
    from facility.analysis.result_stream import StreamedResult

FAILING = ("fail",)


@dataclass(slots=True)
class FindingChange:
    id: str
    before: Mapping[str, Any] | None  # a finding as in a full result's findings[]
    after: Mapping[str, Any] | None
    worse: bool = False  # same status on both sides, the margin lower now (:func:`_worse`)

    @property
    def rule(self) -> str:
        return str((self.after or self.before or {}).get("rule", ""))

    @property
    def entity(self) -> dict[str, Any]:
        return dict((self.after or self.before or {}).get("entity", {}))

    @property
    def limit_changed(self) -> bool:
        """Both sides judged, against another limit (a derating, a rating, a parameter)."""
        return _figure_changed(self.before, self.after, "limit")

    @property
    def observed_changed(self) -> bool:
        return _figure_changed(self.before, self.after, "observed")


def _figure_changed(
    before: Mapping[str, Any] | None, after: Mapping[str, Any] | None, key: str
) -> bool:
    if before is None or after is None:
        return False  # a check on one side only: nothing to compare
    old, new = before.get(key), after.get(key)
    if old is None or new is None:
        return old is not new
    return bool((old.get("value"), old.get("unit")) != (new.get("value"), new.get("unit")))


@dataclass(slots=True)
class DiffReport:
    """Every finding id of either side in exactly one list, or counted as unchanged."""

    old: dict[str, Any]
    new: dict[str, Any]
    new_failures: list[FindingChange] = field(default_factory=list)
    resolved: list[FindingChange] = field(default_factory=list)
    changed: list[FindingChange] = field(default_factory=list)  # same status, another margin
    status_changes: list[FindingChange] = field(default_factory=list)  # other status moves
    added: list[FindingChange] = field(default_factory=list)  # checks only in the new state
    removed: list[FindingChange] = field(default_factory=list)  # checks only in the old state
    unchanged: int = 0  # same status and margin on both sides
    # (rule, entity kind) -> its changed entity ids in natural order, None where entities that
    # did not change lie between two: the order runs are counted in (diff_report), made as a
    # streamed diff goes (it holds no finding that did not change); None: from old and new
    orders: dict[tuple[str, str], list[str | None]] | None = None
    streamed: int = 0  # how many of the two results were read one finding at a time

    @property
    def worse(self) -> list[FindingChange]:
        """Changed findings whose margin is lower now, failing or passing on both sides."""
        return [c for c in self.changed if c.worse]

    @property
    def better(self) -> list[FindingChange]:
        """Changed findings whose margin is higher now."""
        return [c for c in self.changed if not c.worse]

    @property
    def added_passing(self) -> list[FindingChange]:
        """New checks that pass: a reviewer reads their count."""
        return [c for c in self.added if (c.after or {}).get("status") == "pass"]

    @property
    def added_other(self) -> list[FindingChange]:
        """New checks that do not pass (not evaluated, waived): each is shown."""
        return [c for c in self.added if (c.after or {}).get("status") != "pass"]


_STRICT = ConfigDict(extra="allow", strict=True)  # members it does not name: anything
_CODE = r"^[A-Z][A-Z0-9]{0,15}-[0-9A-Za-z_.-]{1,32}$"  # a rule code (PWR-001, XYZ-001)


class _Quantity(BaseModel):
    model_config = _STRICT
    value: float | None  # strict: a number (a whole one too), never a text or a truth value
    unit: str = Field(max_length=64)
    text: str = Field(max_length=1_000)


class _Entity(BaseModel):
    model_config = _STRICT
    kind: str = Field(max_length=64)
    id: str = Field(max_length=1_000)


class _Place(BaseModel):
    model_config = _STRICT
    file: str
    line: int | None = None
    column: int | None = None


class _Finding(BaseModel):
    model_config = _STRICT
    id: str = Field(max_length=2_200)
    rule: str = Field(pattern=_CODE)
    title: str | None = Field(None, max_length=1_000)
    severity: Literal["error", "warning", "info"] | None = None
    status: Literal["fail", "pass", "not_evaluated", "waived"]
    entity: _Entity
    observed: _Quantity | None = None
    limit: _Quantity | None = None
    margin: _Quantity | None = None
    relation: Literal["≤", "≥", "<", ">", "=", "≠", ""] | None = None
    message: str | None = None
    missing: list[str] = []
    source: _Place | None = None
    waiver: dict[str, Any] | None = None


class _Counts(BaseModel):
    model_config = _STRICT
    fail: int = Field(ge=0)
    pass_: int = Field(alias="pass", ge=0)
    not_evaluated: int = Field(ge=0)
    waived: int = Field(ge=0)


class _Site(BaseModel):
    model_config = _STRICT
    name: str
    file: str
    sha256: str


class _Result(BaseModel):
    """What ``facility diff`` trusts of a JSON result (docs/json-result.md), checked before it
    is read, strictly (a count is a whole number, a figure a number, a status one of four);
    members it does not name may be anything (a newer result adds some)."""

    model_config = _STRICT
    schema_: str = Field(alias="schema", pattern=r"^facility-result/[123]$")
    site: _Site
    profile: str
    rules_version: str
    verdict: Literal["ready", "ready-with-warnings", "incomplete", "not-ready"]
    detail: Literal["compact", "full"] = "full"  # absent from facility-result/1: full
    counts: _Counts
    findings: list[_Finding]
    failures: dict[str, Any] | None = None
    fixes: dict[str, Any] | None = None
    waivers: list[Any] = []


class _Rule(BaseModel):
    model_config = _STRICT
    name: str = Field(max_length=1_000)
    title: str = Field(max_length=1_000)
    area: str = Field(max_length=64)
    severity: Literal["error", "warning", "info"]


class _Figures(BaseModel):
    model_config = _STRICT
    observed: _Quantity | None = None
    limit: _Quantity | None = None
    relation: Literal["≤", "≥", "<", ">", "=", "≠", ""] | None = None
    margin: _Quantity | None = None
    message: str | None = None
    how: dict[str, str] | None = None
    missing: list[str] = []


class _CompactPlace(BaseModel):
    """A compact finding's place: since facility-result/3 its ``file`` only when it is not
    the site file (``site.file``), a base of a layered site."""

    model_config = _STRICT
    file: str | None = None
    line: int | None = None
    column: int | None = None


class _CompactFinding(BaseModel):
    model_config = _STRICT
    id: str = Field(max_length=2_200, pattern=r"^[^:]+:[^:]+:")  # RULE:kind:entity
    status: Literal["fail", "pass", "not_evaluated", "waived"]
    figures: int = Field(ge=0)
    source: _CompactPlace | None = None
    waiver: dict[str, Any] | None = None


class _CompactRun(BaseModel):
    """A run of a facility-result/3 compact result: passing or not-evaluated findings of one
    rule and entity kind with the same figures, one per entity named."""

    model_config = _STRICT
    rule: str = Field(pattern=_CODE)
    kind: str = Field(min_length=1, max_length=64)
    status: Literal["pass", "not_evaluated"]
    figures: int = Field(ge=0)
    entities: list[Annotated[str, Field(max_length=1_000)]] = Field(min_length=1)


def _compact_entry(value: Any) -> BaseModel:
    """A compact result's ``findings[]`` entry checked: a run (it names ``entities``) or a
    finding of its own."""
    if isinstance(value, dict) and "entities" in value:
        return _CompactRun.model_validate(value)
    return _CompactFinding.model_validate(value)


class _Compact(BaseModel):
    """What a compact result (``detail: compact``) holds in place of full findings: each rule
    once, the figures identical findings share, and findings that refer to both
    (docs/json-result.md), each checked where it is written (:func:`_compact_entry`)."""

    model_config = _STRICT
    rules: dict[Annotated[str, Field(pattern=_CODE)], _Rule]
    figures: list[_Figures]
    findings: list[Any]


class _BadEntry(Exception):
    """``findings[index]`` of a compact result is not one (the ValidationError says why)."""

    def __init__(self, index: int, error: ValidationError) -> None:
        super().__init__(index)
        self.index, self.error = index, error


class Tally:
    """The findings of each status read so far, against what the result's ``counts`` say: a
    result holds exactly the findings it counts, and at most :data:`MAX_RESULT_FINDINGS` (a
    run of the compact layout names an entity in a few bytes, so a file's size alone does not
    bound what it stands for)."""

    __slots__ = ("counts", "read")

    def __init__(self, counts: Mapping[str, Any]) -> None:
        self.counts: dict[str, int] = {status: counts[status] for status in _COUNTED}
        self.read = dict.fromkeys(self.counts, 0)

    def too_many(self) -> Message | None:
        """Why ``counts`` cannot be read line by line, or None."""
        total = sum(self.counts.values())
        if total <= MAX_RESULT_FINDINGS:
            return None
        return Message(
            "counts give %(total)s findings; facility reads at most %(limit)s from a result",
            total=format(total, ","),
            limit=format(MAX_RESULT_FINDINGS, ","),
        )

    def too_many_whole(self) -> Message | None:
        """Why ``counts`` cannot be read whole, or None: a result read whole holds every
        finding as a dict, about 4 kB each (a minified 10,000-rack result of 31 MB took
        1.7 GB), where one read line by line holds only the changes."""
        total = sum(self.counts.values())
        if total <= MAX_WHOLE_FINDINGS:
            return self.too_many()
        return Message(
            "counts give %(total)s findings; facility reads at most %(limit)s from a result "
            "not laid out as it writes one (reformatted, minified, reordered): write it "
            "again with facility check",
            total=format(total, ","),
            limit=format(MAX_WHOLE_FINDINGS, ","),
        )

    def add(self, status: str, number: int = 1) -> Message | None:
        """Count ``number`` more findings of ``status``; why that is more than ``counts``
        gives, or None."""
        read = self.read[status] = self.read[status] + number
        if read <= self.counts[status]:
            return None
        return Message(
            "more findings of status %(status)s than counts.%(status)s gives (%(count)s)",
            status=status,
            count=format(self.counts[status], ","),
        )

    def short(self) -> tuple[str, Message] | None:
        """Once every finding is read: the count (its key) the findings fall short of, or None."""
        for status, count in self.counts.items():
            if self.read[status] != count:
                message = Message(
                    "counts.%(status)s gives %(count)s; the result holds %(read)s",
                    status=status,
                    count=format(count, ","),
                    read=format(self.read[status], ","),
                )
                return status, message
        return None


_COUNTED = ("fail", "pass", "not_evaluated", "waived")  # each a status and its key in counts
MAX_RESULT_FINDINGS = 10_000_000  # a 100,000-rack campus's result: about 3.6 million
MAX_WHOLE_FINDINGS = 1_000_000  # read whole (not laid out as facility writes): ~4 GB


def _tallied(data: dict[str, Any]) -> Tally | None:
    """The ``counts`` of a result, to tally its findings against; None when they are not
    counts (_Result then names what is wrong with them among the rest)."""
    try:
        counts = _Counts.model_validate(data.get("counts")).model_dump(by_alias=True)
    except ValidationError:
        return None
    tally = Tally(counts)
    problem = tally.too_many_whole()
    if problem is not None:
        raise _Unreadable(("counts",), problem)
    return tally


def _tally(tally: Tally | None, status: Any, number: int, index: int) -> None:
    """Count entry ``index``'s ``number`` findings against ``tally`` (a status that is not one
    of the four is named by the entry's own check)."""
    if tally is None or status not in tally.counts:
        return
    problem = tally.add(status, number)
    if problem is not None:
        raise _Unreadable(("findings", index, "status"), problem)


def full_findings(data: dict[str, Any], tally: Tally | None = None) -> list[dict[str, Any]]:
    """A compact result's findings written out as a full result writes them: the rule's name,
    title, area and severity from ``rules``, the entity from the id, the figures from
    ``figures`` (shared, not copied); a full result's as they are. ValidationError, or
    :class:`_Unreadable` for a reference to nothing or for more findings than ``tally``'s
    counts give, names the field where it is written."""
    if data.get("detail") != "compact":
        return list(data.get("findings", []))
    _Compact.model_validate(data)
    rules, figures = data["rules"], data["figures"]
    site = data.get("site")  # checked with the rest of the result once written out
    site_file = site.get("file") if isinstance(site, dict) else None
    findings = []
    for index, f in enumerate(data["findings"]):
        try:
            entry = _compact_entry(f)
        except ValidationError as exc:
            raise _BadEntry(index, exc) from None
        if isinstance(entry, _CompactRun):
            code, kind, named, place = entry.rule, entry.kind, entry.entities, "rule"
        else:
            code, kind, entity = f["id"].split(":", 2)
            named, place = [entity], "id"
        if code not in rules:
            problem = Message("no rule %(code)s in rules", code=code[:40])
            raise _Unreadable(("findings", index, place), problem)
        if f["figures"] >= len(figures):
            problem = Message("no such entry in figures")
            raise _Unreadable(("findings", index, "figures"), problem)
        _tally(tally, f["status"], len(named), index)  # before a run's millions are written
        source = f.get("source")
        if isinstance(source, dict) and source.get("file") is None:
            source = _in_site_file(source, site_file)
        for entity in named:
            findings.append(
                {
                    "id": f"{code}:{kind}:{entity}",
                    "rule": code,
                    **rules[code],
                    "status": f["status"],
                    "entity": {"kind": kind, "id": entity},
                    **figures[f["figures"]],
                    "source": source,
                    "waiver": f.get("waiver"),
                }
            )
    return findings


def _in_site_file(source: dict[str, Any], site_file: Any) -> dict[str, Any]:
    """A compact finding's place that names no file (facility-result/3) in the site file."""
    return {"file": site_file, **{k: v for k, v in source.items() if k != "file"}}


class _Unreadable(Exception):
    def __init__(self, path: tuple[str | int, ...], problem: Message) -> None:
        super().__init__(problem)
        self.path, self.problem = path, problem


def checked_result(data: dict[str, Any], path: Path) -> dict[str, Any]:
    """``data`` if it has the shape of a JSON result, else InputError naming each field; a
    compact result comes back with its findings written out (:func:`full_findings`)."""
    try:
        tally = _tallied(data)
        if data.get("detail") == "compact":
            data = {**data, "findings": full_findings(data, tally)}
            _Result.model_validate(data)
        else:
            _Result.model_validate(data)  # each finding checked before it is counted
            for index, f in enumerate(data["findings"]):
                _tally(tally, f["status"], 1, index)
        short = None if tally is None else tally.short()
        if short is not None:
            raise _Unreadable(("counts", short[0]), short[1])
    except _BadEntry as exc:
        raise InputError(_invalid(path, exc.error, ("findings", exc.index))) from None
    except _Unreadable as exc:
        raise InputError(
            [
                Problem(
                    Location(str(path), 1, 1),
                    field_name(exc.path),
                    Message("not a facility result: %(problem)s", problem=exc.problem),
                )
            ]
        ) from None
    except ValidationError as exc:
        raise InputError(_invalid(path, exc)) from None
    return data


def _invalid(
    path: Path, error: ValidationError, under: tuple[str | int, ...] = ()
) -> list[Problem]:
    """Each of the first 20 problems pydantic found, its field under ``under``."""
    return [
        Problem(
            Location(str(path), 1, 1),
            field_name((*under, *(p for p in e["loc"] if isinstance(p, str | int)))),
            Message("not a facility result: %(problem)s", problem=validation_message(e)),
        )
        for e in error.errors(include_url=False)[:20]
    ]


MAX_NUMBER_DIGITS = 30  # a result's counts and figures have far fewer
RESULT_LIMIT = 2 * 1024**3  # bytes of a result file (a full one of 100,000 racks: over 1 GB)


class _NotAFigure(ValueError):
    """A JSON number no facility result holds."""

    def __init__(self, message: Message) -> None:
        super().__init__(str(message))
        self.message = message


def _not_a_number(token: str) -> Any:
    """A JSON result never holds NaN or Infinity (facility writes null); refuse one that does."""
    raise _NotAFigure(Message("%(token)s is not a JSON number", token=token))


def _integer(token: str) -> int:
    if len(token) > MAX_NUMBER_DIGITS:
        raise _NotAFigure(
            Message(
                "a number of %(digits)s digits is not a facility figure",
                digits=format(len(token), ","),
            )
        )
    return int(token)


def _finite(token: str) -> float:
    value = float(token)
    if not math.isfinite(value):
        raise _NotAFigure(
            Message("%(number)s is beyond any float", number=token[:MAX_NUMBER_DIGITS])
        )
    return value


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refusing a key given twice (json keeps the last one silently: a result
    could say "verdict": "not-ready" and then "verdict": "ready")."""
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise _NotAFigure(
                Message("the key '%(key)s' is given twice in one object", key=key[:80])
            )
        found[key] = value
    return found


# What a result read whole may hold (model.source.value_marks, counted before it is parsed:
# the file's size alone bounds the memory only at about 20×, a 2 GiB file over 40 GB): a
# compact 10,000-rack result has 3.4 million, a full one 164 a finding; at 40 million a
# result read whole takes at most about 5 GB.
MAX_WHOLE_VALUES = 40_000_000


def _too_many_values(raw: bytes) -> Message | None:
    """Why ``raw`` is too large to be parsed whole, or None."""
    values = value_marks(raw)
    if values <= MAX_WHOLE_VALUES:
        return None
    return Message(
        "the JSON holds up to %(values)s values; facility reads at most %(limit)s from a "
        "result not laid out as it writes one (reformatted, minified, reordered): write it "
        "again with facility check",
        values=format(values, ","),
        limit=format(MAX_WHOLE_VALUES, ","),
    )


def _read_json(path: Path) -> Any:
    """The JSON of ``path``; any failure to read it is bad input at the place JSON names."""
    return _read_json_and_digest(path)[0]


def _read_json_and_digest(path: Path) -> tuple[Any, str]:
    """:func:`_read_json`, and the SHA-256 of the bytes it parsed."""
    # A FIFO, a device or a directory is refused before it is opened (it would block or fail
    # late), and a file over RESULT_LIMIT before it is read: a campus's result is larger than
    # any site file (a full one: 593 MB at 10,000 racks), so its bound is its own.
    raw = read_bytes(path, limit=RESULT_LIMIT)
    too_many = _too_many_values(raw)
    if too_many is not None:
        raise InputError([Problem(Location(str(path), 1, 1), "", too_many)])
    digest = hashlib.sha256(raw).hexdigest()
    text = decode(raw, str(path))
    no_lone_surrogates(text, str(path))  # no output could hold one (was a UnicodeEncodeError)
    line, column = 1, 1
    try:
        data = json.loads(
            text,
            parse_constant=_not_a_number,
            parse_int=_integer,
            parse_float=_finite,
            object_pairs_hook=_no_duplicate_keys,
        )
        return data, digest
    except json.JSONDecodeError as exc:
        line, column = exc.lineno, exc.colno
        detail: Message = Message("invalid JSON: %(detail)s", detail=exc.msg)
    except _NotAFigure as exc:
        detail = exc.message
    except RecursionError:  # arrays or objects nested about a thousand deep
        detail = Message("the JSON nests too deep to be a facility result")
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        detail = Message("cannot read: %(detail)s", detail=str(exc))
    raise InputError([Problem(Location(str(path), line, column), "", detail)])


def read_result(path: Path, profile: str | None) -> dict[str, Any]:
    """A JSON result (facility-result/1 or /2) from a result file, or by checking a site file as
    ``facility check`` does (single failures and the site's waivers included, as of now)."""
    if path.suffix.lower() == ".json":
        data = _read_json(path)
        if isinstance(data, dict) and str(data.get("schema", "")).startswith("facility-result/"):
            return checked_result(data, path)
    import datetime as dt

    from facility.check import run_check
    from facility.engine.evaluate import default_profile
    from facility.engine.rules import load_rules
    from facility.model.load import load_site
    from facility.report.json_report import result_json

    site = load_site(path)
    ruleset = load_rules(profile=profile or default_profile(site))
    now = dt.datetime.now(tz=dt.UTC).replace(microsecond=0)
    return result_json(run_check(site, ruleset, generated_at=now).result)


def _margin(finding: Mapping[str, Any] | None) -> float | None:
    margin = (finding or {}).get("margin")
    return None if margin is None else margin["value"]


def diff_results(old: dict[str, Any], new: dict[str, Any]) -> DiffReport:
    before = {f["id"]: f for f in old["findings"]}
    after = {f["id"]: f for f in new["findings"]}
    report = DiffReport(old, new)
    for fid in sorted(before.keys() | after.keys()):
        _file(report, FindingChange(fid, before.get(fid), after.get(fid)))
    return report


def _file(report: DiffReport, change: FindingChange) -> bool:
    """Put ``change`` in its list of ``report`` (or count it unchanged: False)."""
    b, a = change.before, change.after
    b_fail = b is not None and b["status"] in FAILING
    a_fail = a is not None and a["status"] in FAILING
    if a_fail and not b_fail:
        report.new_failures.append(change)
    elif b_fail and not a_fail:
        report.resolved.append(change)
    elif a is None:
        report.removed.append(change)
    elif b is None:
        report.added.append(change)
    elif a["status"] != b["status"]:
        report.status_changes.append(change)
    elif _margin(a) != _margin(b):
        change.worse = _worse(b, a)
        report.changed.append(change)
    else:
        report.unchanged += 1
        return False
    return True


def _worse(before: Mapping[str, Any] | None, after: Mapping[str, Any] | None) -> bool:
    """Whether ``after``'s margin is lower than ``before``'s: more negative on a failing check,
    less positive on a passing one (same unit; a margin in another unit, or one that is now
    unknown, counts as worse: it cannot be shown not to be)."""
    old, new = (before or {}).get("margin"), (after or {}).get("margin")
    if old is None or old.get("value") is None:
        return False  # nothing to be worse than
    if new is None or new.get("value") is None or new.get("unit") != old.get("unit"):
        return True
    return bool(new["value"] < old["value"])


def read_result_file(path: Path) -> dict[str, Any]:
    """A JSON result (facility-result/1 or /2) from ``path``, checked; InputError otherwise."""
    return read_result_file_and_digest(path)[0]


def read_result_file_and_digest(path: Path) -> tuple[dict[str, Any], str]:
    """:func:`read_result_file`, and the SHA-256 of the bytes read (a baseline is listed
    with it among the files that decided the run)."""
    data, digest = _read_json_and_digest(path)
    if not isinstance(data, dict):
        raise InputError([Problem(Location(str(path), 1, 1), "", Message("not a facility result"))])
    return checked_result(data, path), digest


# --- two results compared as they are read (issue 21) ---------------------------------------------

# (rule, entity kind, entity id): the id split at its first two colons, the order a result's
# findings are written in; the id; the status; the margin's value; what the finding is made of
_Entry = tuple[list[str], str, str, float | None, Any]
_Side: TypeAlias = "dict[str, Any] | StreamedResult"


class _NotSorted(Exception):
    """A side whose findings are not in their order (or whose ids do not name their rule and
    entity): the two are compared in memory (:func:`diff_results`)."""


def diff_states(old: Path, new: Path, profile: str | None) -> DiffReport:
    """:func:`diff_results` of the two states (as :func:`read_result` reads each), a JSON
    result that facility wrote read one finding at a time: what is held is the changes, not
    the findings (a campus's result has millions). The same report, in the same order."""
    from facility.analysis.result_stream import NotLaidOut, open_result

    sides: list[_Side] = []
    for path in (old, new):
        try:
            if path.suffix.lower() != ".json":
                raise NotLaidOut
            sides.append(open_result(path, RESULT_LIMIT))
        except NotLaidOut:
            sides.append(read_result(path, profile))
    if all(isinstance(side, dict) for side in sides):
        return diff_results(*sides)  # type: ignore[arg-type]
    try:
        return _merged(sides[0], sides[1])
    except _NotSorted:
        whole = [
            side if isinstance(side, dict) else read_result(path, profile)
            for side, path in zip(sides, (old, new), strict=True)
        ]
        return diff_results(*whole)


def _entries(side: _Side) -> Iterator[_Entry]:
    """The findings of one side in their order; _NotSorted if they are not."""
    if isinstance(side, dict):  # a site checked here, or a result read whole
        unique = {f["id"]: f for f in side["findings"]}
        for key, fid, f in sorted((fid.split(":", 2), fid, f) for fid, f in unique.items()):
            _consistent(key, f)
            yield key, fid, f["status"], _margin(f), f
        return
    previous: list[str] = []
    margins = side.margins
    for entry in side.findings():
        fid = entry[0]
        key = fid.split(":", 2)
        if key <= previous:
            raise _NotSorted
        previous = key
        if side.compact:
            yield key, fid, entry[1], margins[entry[2]], entry
        else:
            _consistent(key, entry[3])
            yield key, fid, entry[1], _margin(entry[3]), entry[3]


def _consistent(key: list[str], finding: dict[str, Any]) -> None:
    entity = finding.get("entity") or {}
    if key != [finding.get("rule"), entity.get("kind"), entity.get("id")]:
        raise _NotSorted


def _merged(old: _Side, new: _Side) -> DiffReport:
    """A merge of the two sides' findings (both in the order of their keys): every finding
    compared, only the changes kept, each side of one a light view of what was read."""
    from facility.analysis.result_stream import CompactFinding

    def view(side: _Side, entry: _Entry | None) -> Mapping[str, Any] | None:
        if entry is None:
            return None
        if isinstance(side, dict) or not side.compact:
            finding: dict[str, Any] = entry[4]
            return finding
        _, status, figures, source, waiver = entry[4]
        return CompactFinding(entry[1], status, figures, source, waiver, side)

    report = DiffReport(_head(old), _head(new), orders={})
    report.streamed = sum(not isinstance(side, dict) for side in (old, new))
    olds, news = _entries(old), _entries(new)
    a, b = next(olds, None), next(news, None)
    group: list[str] = []
    judged: set[str] = set()
    moved: list[str] = []
    while a is not None or b is not None:
        before, after = a, b
        if b is None or (a is not None and a[0] < b[0]):
            after, a = None, next(olds, None)
        elif a is None or b[0] < a[0]:
            before, b = None, next(news, None)
        else:
            a, b = next(olds, None), next(news, None)
        entry = before or after
        assert entry is not None
        key = entry[0]
        if key[:2] != group:
            _close(report, group, judged, moved)
            group, judged, moved = key[:2], set(), []
        judged.add(key[2])
        if before is not None and after is not None:
            if before[2] == after[2] and before[3] == after[3]:
                report.unchanged += 1  # same status and margin: nothing more to read
                continue
            after = (after[0], before[1], *after[2:])  # one id string for the change
        change = FindingChange(entry[1], view(old, before), view(new, after))
        if _file(report, change):
            moved.append(key[2])
    _close(report, group, judged, moved)
    for changes in (report.new_failures, report.resolved, report.changed):
        changes.sort(key=_by_id)
    for changes in (report.status_changes, report.added, report.removed):
        changes.sort(key=_by_id)
    return report


def _by_id(change: FindingChange) -> str:
    return change.id


def _close(report: DiffReport, group: list[str], judged: set[str], moved: list[str]) -> None:
    """The order of one (rule, kind)'s changed entities (see DiffReport.orders), once all
    its findings are read: every entity judged, in natural order, is what runs count in."""
    if not moved:
        return
    from facility.report.anchors import natural_key  # the order every report writes ids in

    # Sorting every entity judged would hold the natural key of each (a campus's PDUs:
    # 500,000); each one not changed is placed among the changed ones instead, and each key
    # is flattened, ((1, "A"), (0, 1)) -> (1, "A", 0, 1): the same order, a third the bytes.
    def flat(entity: str) -> tuple[int | str, ...]:
        return tuple(chain.from_iterable(natural_key.__wrapped__(entity)))  # not cached

    changed = sorted(set(moved), key=flat)
    keys = [flat(entity) for entity in changed]
    between = [False] * len(changed)  # an entity not changed lies before changed[i]
    for entity in judged.difference(changed):
        at = bisect.bisect_left(keys, flat(entity))
        if 0 < at < len(keys):
            between[at] = True
    order: list[str | None] = []
    for entity, gap in zip(changed, between, strict=True):
        if gap:
            order.append(None)
        order.append(entity)
    assert report.orders is not None
    report.orders[(group[0], group[1])] = order


def _head(side: _Side) -> dict[str, Any]:
    return side if isinstance(side, dict) else side.head
