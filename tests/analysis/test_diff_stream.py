"""facility diff of two JSON results read one finding at a time (issue 21): the same output, in
every format, as the two results read whole and compared in memory; a result not laid out as
facility writes it is read whole; a bad finding line is named at its own line and field."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from facility.analysis import diff, result_stream
from facility.analysis.diff import diff_results, diff_states, read_result
from facility.analysis.result_stream import NotLaidOut, open_result
from facility.cli import app
from facility.model.source import InputError
from facility.report.diff_report import diff_json, diff_markdown, diff_text

ROOT = Path(__file__).resolve().parents[2]
HALL = ROOT / "examples" / "hall-b3.yaml"
runner = CliRunner()

# Z-A 25 → 20 kPa (a limit change), Z-B 12 → 16 kPa, TCS-A piping 0.40 → 0.45 bar (observed),
# and the B-side PDUs of row A rated 80 A (A01…A08 pass PWR-001 there).
EDITS = (
    ("    uniform_load_rating: 25 kPa", "    uniform_load_rating: 20 kPa"),
    ("    uniform_load_rating: 12 kPa", "    uniform_load_rating: 16 kPa"),
    ("      piping_pressure_drop: 0.40 bar", "      piping_pressure_drop: 0.45 bar"),
)


def _check(site: Path, out: Path, *options: str) -> Path:
    result = runner.invoke(app, ["check", str(site), "-o", str(out), *options])
    assert result.exit_code in (0, 1), result.output
    return out


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Hall B3 and a variant, each checked: compact (the default) and full; and Hall B3 as
    facility-result/1 wrote it (full, no ``detail``)."""
    tmp = tmp_path_factory.mktemp("stream")
    text = HALL.read_text(encoding="utf-8")
    for old, new in EDITS:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    planned = tmp / "planned.yaml"
    planned.write_text(text, encoding="utf-8")
    out = {
        "hall": _check(HALL, tmp / "hall.json"),
        "hall_full": _check(HALL, tmp / "hall-full.json", "--json-detail", "full"),
        "planned": _check(planned, tmp / "planned.json"),
        "planned_full": _check(planned, tmp / "planned-full.json", "--json-detail", "full"),
    }
    lines = out["hall_full"].read_text(encoding="utf-8").splitlines(keepends=True)
    assert lines.count('  "detail": "full",\n') == 1
    old = [
        line.replace('"schema": "facility-result/3"', '"schema": "facility-result/1"')
        for line in lines
        if line != '  "detail": "full",\n'
    ]
    out["hall_v1"] = tmp / "hall-v1.json"
    out["hall_v1"].write_text("".join(old), encoding="utf-8")
    out["hall_v2"] = _as_v2(out["hall"], tmp / "hall-v2.json")
    return out


def _as_v2(path: Path, to: Path) -> Path:
    """A compact result as facility-result/2 wrote it: each finding on a line of its own (no
    runs), a blank after each ':' and ',', a place with its file, ``"waiver": null`` on a
    failing finding; figures lines as json.dumps writes them."""
    lines = path.read_text(encoding="utf-8").splitlines()
    site = json.loads(path.read_text(encoding="utf-8"))["site"]["file"]
    start, figures = lines.index('  "findings": ['), lines.index('  "figures": [')
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("  ]"))
    out = [line.replace('"facility-result/3"', '"facility-result/2"') for line in lines[:start]]
    entries = []
    for line in lines[start + 1 : end]:
        f = json.loads(line.strip().removesuffix(","))
        if "entities" in f:
            for entity in f["entities"]:
                entries.append(
                    {
                        "id": f"{f['rule']}:{f['kind']}:{entity}",
                        **{k: f[k] for k in ("status", "figures")},
                    }
                )
        else:
            f["source"] = {"file": site, **f["source"]}
            f.setdefault("waiver", None)
            entries.append(f)
    out.append('  "findings": [')
    out += [f"    {json.dumps(f, ensure_ascii=False)}," for f in entries]
    out[-1] = out[-1].removesuffix(",")
    out += lines[end : figures + 1]
    for line in lines[figures + 1 :]:
        if line.startswith("    {"):
            comma = "," if line.endswith(",") else ""
            line = f"    {json.dumps(json.loads(line.strip().removesuffix(',')), ensure_ascii=False)}{comma}"
        out.append(line)
    to.write_text("\n".join(out) + "\n", encoding="utf-8")
    return to


def _in_memory(old: Path, new: Path) -> diff.DiffReport:
    """The comparison as it was: both read whole (read_result), compared in memory."""
    return diff_results(read_result(old, None), read_result(new, None))


def _outputs(report: diff.DiffReport) -> tuple[str, str, str]:
    return diff_text(report), diff_markdown(report), diff_json(report)


def _cli(old: Path, new: Path) -> tuple[str, str, str]:
    out = []
    for fmt in ("text", "markdown", "json"):
        result = runner.invoke(app, ["diff", str(old), str(new), "-f", fmt])
        assert result.exit_code in (0, 1), result.output
        out.append(result.stdout)
    return out[0], out[1], out[2]


PAIRS = [
    ("hall", "planned"),
    ("planned", "hall"),
    ("hall", "planned_full"),
    ("hall_full", "planned"),
    ("hall_v1", "planned"),
    ("hall", "hall_full"),
    ("hall_v1", "hall"),
    ("hall_v2", "planned"),
    ("hall_v2", "hall"),
]


@pytest.mark.parametrize(("old", "new"), PAIRS)
def test_a_streamed_diff_writes_what_the_diff_in_memory_wrote(
    results: dict[str, Path], old: str, new: str
) -> None:
    streamed = diff_states(results[old], results[new], None)
    assert streamed.streamed == 2 and streamed.orders is not None
    whole = _in_memory(results[old], results[new])
    assert _outputs(streamed) == _outputs(whole)
    # The command's output too (the JSON written piece by piece); the renderers do not know
    # which way the report was made but for its orders.
    text, markdown, data = _cli(results[old], results[new])
    assert (text, markdown, data) == (
        diff_text(whole, _titles()),
        diff_markdown(whole, _titles()),
        diff_json(whole),
    )


def _titles() -> dict[str, str]:
    from facility.commands.analyses import _rule_titles

    return _rule_titles("tier-iii")


def test_a_compact_and_a_full_result_of_one_site_differ_in_nothing(
    results: dict[str, Path],
) -> None:
    report = diff_states(results["hall"], results["hall_full"], None)
    assert report.streamed == 2
    assert not (report.new_failures or report.resolved or report.changed or report.added)
    assert report.unchanged == len(read_result(results["hall"], None)["findings"])


def test_the_streamed_path_reads_no_file_whole(
    results: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    def whole(path: Path) -> None:
        raise AssertionError(f"{path} was read whole")

    monkeypatch.setattr(diff, "_read_json_and_digest", whole)
    result = runner.invoke(app, ["diff", str(results["hall"]), str(results["planned"])])
    assert result.exit_code == 1, result.output  # A01…A08 newly fail FLR-001
    streamed = open_result(results["hall"], diff.RESULT_LIMIT)
    entries = list(streamed.findings())
    whole = json.loads(results["hall"].read_text(encoding="utf-8"))
    assert len(entries) == len(diff.full_findings(whole)) > 300
    runs = results["hall"].read_text(encoding="utf-8").count(',"entities":[')
    assert 0 < runs < streamed.count < len(entries)  # passing runs: one line, many findings
    # A finding's line is matched, not parsed, but a waived one's (its waiver) and a run's.
    waived = sum(1 for e in entries if e[4] is not None)
    assert streamed.parsed == waived + runs
    assert any(e[1] == "fail" and e[3][1] > 0 for e in entries)  # (file, line, column)


def test_a_facility_result_2_file_is_streamed_line_by_line(results: dict[str, Path]) -> None:
    # A baseline written before the runs (facility-result/2) is still read as written
    v2 = open_result(results["hall_v2"], diff.RESULT_LIMIT)
    entries = list(v2.findings())
    assert v2.count == len(entries) and v2.parsed == 0  # every line matched by _PLAIN
    assert entries == list(open_result(results["hall"], diff.RESULT_LIMIT).findings())


def test_a_finding_line_read_by_the_pattern_is_read_as_json_reads_it(
    results: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    def written_out(entry: result_stream.Entry, read: result_stream.StreamedResult) -> dict:
        return dict(result_stream.CompactFinding(*entry, read))

    fast = open_result(results["planned"], diff.RESULT_LIMIT)
    read = [written_out(entry, fast) for entry in fast.findings()]
    for pattern in ("_PLAIN", "_PLAIN3"):
        monkeypatch.setattr(result_stream, pattern, result_stream.re.compile(r"(?!)"))
    slow = open_result(results["planned"], diff.RESULT_LIMIT)
    assert read == [written_out(entry, slow) for entry in slow.findings()]
    assert read == diff.full_findings(json.loads(results["planned"].read_text(encoding="utf-8")))
    assert slow.parsed == slow.count > fast.parsed


def _reformatted(path: Path, to: Path, **dumps: object) -> Path:
    to.write_text(json.dumps(json.loads(path.read_text(encoding="utf-8")), **dumps) + "\n")
    return to


@pytest.mark.parametrize(
    "dumps",
    [
        {"indent": 4, "ensure_ascii": False},  # as jq writes it (jq --indent 4)
        {"separators": (",", ":")},  # minified (jq -c)
        {"indent": 2, "ensure_ascii": False},  # two spaces, but every finding over lines
    ],
)
def test_a_result_laid_out_otherwise_is_read_whole_with_the_same_diff(
    results: dict[str, Path], tmp_path: Path, dumps: dict[str, object]
) -> None:
    other = _reformatted(results["hall"], tmp_path / "other.json", **dumps)
    with pytest.raises(NotLaidOut):
        open_result(other, diff.RESULT_LIMIT)
    report = diff_states(other, results["planned"], None)
    assert report.streamed == 1  # the planned side is still streamed
    assert _outputs(report) == _outputs(_in_memory(results["hall"], results["planned"]))


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines(keepends=True)


def _first_finding(lines: list[str]) -> int:
    return lines.index('  "findings": [\n') + 1  # 0-based index of the first finding line


def test_findings_out_of_order_are_compared_in_memory(
    results: dict[str, Path], tmp_path: Path
) -> None:
    lines = _lines(results["hall"])
    first = _first_finding(lines)
    lines[first], lines[first + 1] = lines[first + 1], lines[first]
    swapped = tmp_path / "swapped.json"
    swapped.write_text("".join(lines), encoding="utf-8")
    report = diff_states(swapped, results["planned"], None)
    assert report.streamed == 0 and report.orders is None  # in memory, as before
    assert _outputs(report) == _outputs(_in_memory(results["hall"], results["planned"]))


def _spoiled(results: dict[str, Path], tmp_path: Path, edit) -> tuple[Path, int, int]:
    """Hall B3's result with its 4th finding line edited; (file, its line, the index)."""
    lines = _lines(results["hall"])
    at = _first_finding(lines) + 3
    lines[at] = edit(lines[at])
    path = tmp_path / "spoiled.json"
    path.write_text("".join(lines), encoding="utf-8")
    return path, at + 1, 3


@pytest.mark.parametrize(
    ("edit", "field", "message"),
    [
        (
            lambda line: line.replace('"status"', '"kind":"x","status"', 1),
            "findings[3]",
            "the key 'kind' is given twice in one object",
        ),
        (
            lambda line: line.replace('"figures":', '"figures":NaN,"n":', 1),
            "findings[3]",
            "NaN is not a JSON number",
        ),
        (
            lambda line: line.replace('"figures":3,', '"figures":99999,', 1),
            "findings[3].figures",
            "not a facility result: no such entry in figures",
        ),
        (lambda line: line.replace('","status"', '" "status"', 1), "findings[3]", "invalid JSON"),
        (
            lambda line: line.replace('"status":"pass"', '"status":"passed"', 1),
            "findings[3].status",
            "not a facility result:",
        ),
        (
            lambda line: line.replace('"status"', '"x":' + "[" * 5000 + "]" * 5000 + ',"status"'),
            "findings[3]",
            "the JSON nests too deep to be a facility result",
        ),
        (
            lambda line: line.replace('"entities":["', '"entities":["\\ud800', 1),
            "findings[3]",
            "the escape \\ud800 is half of a UTF-16 surrogate pair",
        ),
        (
            lambda line: line.replace('"rule":"AIR-006"', '"rule":"AIR-999"', 1),
            "findings[3].rule",
            "not a facility result: no rule AIR-999 in rules",
        ),
        (
            lambda line: line.replace('"status":"pass"', '"status":"fail"', 1),
            "findings[3].status",
            "not a facility result:",
        ),
    ],
    ids=[
        "duplicate-key",
        "nan",
        "figures-beyond-the-table",
        "not-json",
        "bad-status",
        "deep",
        "lone-surrogate",
        "unknown-rule",
        "failing-run",
    ],
)
def test_a_bad_finding_line_is_named_at_its_line_and_field(
    results: dict[str, Path], tmp_path: Path, edit, field: str, message: str
) -> None:
    assert _lines(results["hall"])[_first_finding(_lines(results["hall"])) + 3].startswith(
        '    {"rule":"AIR-006","kind":"room","status":"pass","figures":3,"entities":["B3"]}'
    )  # the line the edits are made on: a run
    path, line, _ = _spoiled(results, tmp_path, edit)
    assert open_result(path, diff.RESULT_LIMIT).count > 0  # laid out: the streamed path
    result = runner.invoke(app, ["diff", str(path), str(results["planned"])])
    assert result.exit_code == 2, result.output
    assert f"error: {path}:{line}:" in result.stderr
    assert f": {field}: {message}" in result.stderr, result.stderr
    assert "Traceback" not in result.output


def test_a_file_changed_between_the_two_passes_is_refused(
    results: dict[str, Path], tmp_path: Path
) -> None:
    path = tmp_path / "moving.json"
    path.write_bytes(results["hall"].read_bytes())
    streamed = open_result(path, diff.RESULT_LIMIT)
    path.write_text(path.read_text(encoding="utf-8").replace('"pass"', '"fail"', 1))
    with pytest.raises(InputError, match="the file changed while it was read"):
        list(streamed.findings())
    path.write_bytes(results["hall"].read_bytes())
    streamed = open_result(path, diff.RESULT_LIMIT)
    with path.open("ab") as grown:  # longer: the second pass stops at the first pass's size
        grown.write(b"\n" * 1_000_000)
    with pytest.raises(InputError, match="the file changed while it was read"):
        list(streamed.findings())


@pytest.mark.slow
def test_a_generated_campus_pair_diffs_as_in_memory(tmp_path: Path) -> None:
    """Many changes in runs (the ready campus's 80 A PDUs), gaps between them, both ways."""
    sites = []
    for name, extra in (("campus.yaml", []), ("ready.yaml", ["--ready"])):
        script = ROOT / "benchmarks" / "generate_campus.py"
        subprocess.run([sys.executable, script, "120", tmp_path / name, *extra], check=True)
        sites.append(_check(tmp_path / name, tmp_path / f"{name}.json"))
    for old, new in (sites, sites[::-1]):
        streamed = diff_states(old, new, None)
        assert streamed.streamed == 2 and len(streamed.resolved) + len(streamed.new_failures)
        assert _outputs(streamed) == _outputs(_in_memory(old, new))


# --- a result holds the findings it counts (the runs' amplification bounded) ----------------


def _run_line_grown(line: str, extra: int) -> str:
    """A run line with ``extra`` more entities named (in order): a few bytes, a finding each."""
    named = "".join(f',"Z{n:06}"' for n in range(extra))
    return line.replace('"entities":["B3"', '"entities":["B3"' + named, 1)


@pytest.mark.parametrize("laid_out", [True, False], ids=["streamed", "whole"])
def test_a_run_naming_more_findings_than_counts_is_refused_at_its_line(
    results: dict[str, Path], tmp_path: Path, laid_out: bool
) -> None:
    # A run names an entity in 10 bytes: 200,000 of them (2 MB) stand for 200,000 findings,
    # more than the result counts. Refused at the run, before it is written out.
    path, line, index = _spoiled(results, tmp_path, lambda text: _run_line_grown(text, 200_000))
    if not laid_out:
        path = _reformatted(path, tmp_path / "minified.json", separators=(",", ":"))
    passing = json.loads(results["hall"].read_text(encoding="utf-8"))["counts"]["pass"]
    result = runner.invoke(app, ["diff", str(path), str(results["planned"])])
    assert result.exit_code == 2, result.output
    where = f"{path}:{line}:5" if laid_out else f"{path}:1:1"
    message = f"more findings of status pass than counts.pass gives ({passing:,})"
    assert f"error: {where}: findings[{index}].status: not a facility result: {message}" in (
        result.stderr
    ), result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize("laid_out", [True, False], ids=["streamed", "whole"])
@pytest.mark.parametrize(("status", "by"), [("fail", 1), ("pass", -1), ("waived", 2)])
def test_counts_that_differ_from_the_findings_are_refused(
    results: dict[str, Path], tmp_path: Path, laid_out: bool, status: str, by: int
) -> None:
    # Counts are what the summary and the verdict's readers trust: a result whose counts do
    # not tally with its findings (edited by hand) is not one facility wrote.
    text = results["hall"].read_text(encoding="utf-8")
    held = json.loads(text)["counts"][status]
    count = f'\n    "{status}": {held},\n'  # the line of the head's counts
    assert text.count(count) == 1
    path = tmp_path / "counted.json"
    path.write_text(text.replace(count, f'\n    "{status}": {held + by},\n'), encoding="utf-8")
    if laid_out:
        assert open_result(path, diff.RESULT_LIMIT).count > 0
    else:
        path = _reformatted(path, tmp_path / "indented.json", indent=4)
    result = runner.invoke(app, ["diff", str(path), str(results["planned"])])
    assert result.exit_code == 2, result.output
    if by > 0:  # found short once every finding is read
        message = f"counts.{status} gives {held + by:,}; the result holds {held:,}"
        assert f"error: {path}:1:1: counts.{status}: not a facility result: {message}" in (
            result.stderr
        ), result.stderr
    else:  # at the first finding beyond the count
        message = f"more findings of status {status} than counts.{status} gives ({held + by:,})"
        assert f".status: not a facility result: {message}" in result.stderr, result.stderr
        assert f"error: {path}:{'' if laid_out else '1:1: '}" in result.stderr


def test_counts_beyond_what_facility_reads_are_refused_before_the_file_is_read_whole(
    results: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def whole(path: Path) -> None:
        raise AssertionError(f"{path} was read whole")

    total = sum(
        json.loads(results["hall"].read_text(encoding="utf-8"))["counts"][status]
        for status in ("fail", "pass", "not_evaluated", "waived")
    )
    monkeypatch.setattr(diff, "MAX_RESULT_FINDINGS", total - 1)  # the bound, scaled down
    monkeypatch.setattr(diff, "_read_json_and_digest", whole)
    result = runner.invoke(app, ["diff", str(results["hall"]), str(results["planned"])])
    assert result.exit_code == 2, result.output
    assert (
        f"counts: not a facility result: counts give {total:,} findings; facility reads at "
        f"most {total - 1:,} from a result"
    ) in result.stderr, result.stderr


def test_a_result_read_whole_has_a_lower_bound_than_one_read_line_by_line(
    results: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Read whole, every finding is a dict (a minified 10,000-rack result of 31 MB took 1.7 GB);
    # line by line, only the changes are held: the same file is read, reformatted it is not.
    total = sum(
        json.loads(results["hall"].read_text(encoding="utf-8"))["counts"][status]
        for status in ("fail", "pass", "not_evaluated", "waived")
    )
    monkeypatch.setattr(diff, "MAX_WHOLE_FINDINGS", total - 1)  # the bound, scaled down
    laid_out = runner.invoke(app, ["diff", str(results["hall"]), str(results["planned"])])
    assert laid_out.exit_code == 1, laid_out.output  # read line by line: within its bound
    minified = _reformatted(results["hall"], tmp_path / "minified.json", separators=(",", ":"))
    result = runner.invoke(app, ["diff", str(minified), str(results["planned"])])
    assert result.exit_code == 2, result.output
    assert (
        f"{minified}:1:1: counts: not a facility result: counts give {total:,} findings; "
        f"facility reads at most {total - 1:,} from a result not laid out as it writes one "
        "(reformatted, minified, reordered): write it again with facility check"
    ) in result.stderr, result.stderr


def test_a_result_read_whole_is_refused_by_its_values_before_it_is_parsed(
    results: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Parsed, a JSON value takes 30–120 bytes however few it is written in: a result read
    # whole is bounded by the characters that begin a value (",", ":", "[", "{"), counted
    # before it is parsed — not by its size alone, which lets a 2 GiB file take over 40 GB.
    minified = _reformatted(results["hall"], tmp_path / "minified.json", separators=(",", ":"))
    raw = minified.read_bytes()
    marks = sum(raw.count(mark) for mark in (b",", b":", b"[", b"{"))
    monkeypatch.setattr(diff, "MAX_WHOLE_VALUES", marks)  # at the bound: read
    within = runner.invoke(app, ["diff", str(minified), str(results["planned"])])
    assert within.exit_code == 1, within.output
    monkeypatch.setattr(diff, "MAX_WHOLE_VALUES", marks - 1)  # one past: refused unparsed

    def parsed(*args: object, **kwargs: object) -> None:
        raise AssertionError("parsed whole")

    monkeypatch.setattr(diff.json, "loads", parsed)
    for command in (
        ["diff", str(minified), str(results["planned"])],
        ["check", str(HALL), "--baseline", str(minified)],
    ):
        result = runner.invoke(app, command)
        assert result.exit_code == 2, result.output
        assert (
            f"{minified}:1:1: the JSON holds up to {marks:,} values; facility reads at most "
            f"{marks - 1:,} from a result not laid out as it writes one (reformatted, minified, "
            "reordered): write it again with facility check"
        ) in result.stderr, result.stderr
        assert "Traceback" not in result.output
