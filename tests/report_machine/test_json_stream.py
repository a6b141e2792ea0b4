"""The JSON result as `facility check` writes it: streamed line by line, each finding's line
assembled from reused parts. With ``--json-detail full`` it must be exactly the document built
the plain way (every finding as a dict, encoded whole) — same text, byte for byte; the compact
result (the default), written out by the reader `facility diff` uses, must be the same
findings."""

from __future__ import annotations

import json
from dataclasses import replace

from facility.report.context import ReportInput
from facility.report.json_report import (
    _line,
    finding_json,
    iter_report_json,
    render_report_json,
    result_json,
    waiver_json,
)


def _plain_lines(report: ReportInput) -> list[str]:
    """Each finding's line the plain way: finding_json, plus its waiver, encoded whole."""
    lines = []
    for f in sorted(report.result.findings, key=lambda f: (f.rule, f.entity_kind, f.entity_id)):
        data = finding_json(f)
        waiver = report.waivers.by_finding.get(f.id)
        data["waiver"] = None if waiver is None else waiver_json(waiver)
        lines.append(_line(data))
    return lines


def _streamed_lines(text: str) -> list[str]:
    body = text.split('\n  "findings": [\n', 1)[1]
    return [line.strip().removesuffix(",") for line in body.splitlines()[:-2]]


def _full(report: ReportInput) -> ReportInput:
    return replace(report, presentation=replace(report.presentation, json_detail="full"))


def test_every_finding_line_is_the_plain_encoding(report: ReportInput) -> None:
    text = "".join(iter_report_json(_full(report)))
    streamed = _streamed_lines(text)
    plain = _plain_lines(report)
    assert len(streamed) == len(report.result.findings) == len(plain)
    assert streamed == plain
    # Hall B3 has waived, failing, passing and not-evaluated findings: every kind of line.
    statuses = {json.loads(line)["status"] for line in streamed}
    assert statuses == {"pass", "fail", "waived", "not_evaluated"}


def test_the_document_is_the_result_json_plus_the_report_fields(report: ReportInput) -> None:
    data = json.loads(render_report_json(replace(_full(report), failures=None)))
    plain = result_json(report.result)
    for finding in data["findings"]:
        finding.pop("waiver")
    assert data["findings"] == plain["findings"]
    report_fields = ("generated_at", "waivers", "inputs", "fixes", "detail", "rules")
    assert {k: v for k, v in data.items() if k not in report_fields} == plain


def test_printable_text_needs_no_json_escaping() -> None:
    # The finding lines skip json_inert for printable ids: sound only if every character it
    # escapes is one str.isprintable() rejects. Checked over all of Unicode.
    from facility.printable import _JSON_RAW

    escaped = [c for c in map(chr, range(0x110000)) if _JSON_RAW.match(c)]
    assert escaped and not [c for c in escaped if c.isprintable()]


def test_a_layered_site_lists_every_file_with_its_hash() -> None:
    import hashlib
    from pathlib import Path

    from typer.testing import CliRunner

    from facility.cli import app

    result = CliRunner().invoke(app, ["check", "examples/layered/cooling.yaml", "-f", "json"])
    site = json.loads(result.stdout)["site"]
    files = ["examples/layered/hall-b3-base.yaml", "examples/layered/cooling.yaml"]
    assert [layer["file"] for layer in site["layers"]] == files  # bases first
    for layer in site["layers"]:
        assert layer["sha256"] == hashlib.sha256(Path(layer["file"]).read_bytes()).hexdigest()
    plain = CliRunner().invoke(app, ["check", "examples/hall-b3.yaml", "-f", "json"])
    assert "layers" not in json.loads(plain.stdout)["site"]  # one file: as before


def test_the_compact_result_holds_the_full_results_findings(report: ReportInput) -> None:
    # The default result, written out as `facility diff` and `--baseline` read it, is the full
    # result's findings, but the place of the findings nobody acts on (passing, not evaluated).
    from pathlib import Path

    from facility.analysis.diff import checked_result

    compact = json.loads(render_report_json(report))
    full = json.loads(render_report_json(_full(report)))
    assert (compact["detail"], full["detail"]) == ("compact", "full")
    expanded = checked_result(compact, Path("result.json"))["findings"]
    assert len(compact["figures"]) < len(expanded)  # identical racks share figures
    # Passing and not-evaluated findings come in runs, one line each; the others alone.
    runs = [f for f in compact["findings"] if "entities" in f]
    assert len(runs) < sum(f["status"] in ("pass", "not_evaluated") for f in expanded)
    assert {f["status"] for f in runs} == {"pass", "not_evaluated"}
    assert all(f["status"] in ("fail", "waived") for f in compact["findings"] if "id" in f)
    for f in full["findings"]:
        if f["status"] not in ("fail", "waived"):
            f["source"] = None
    assert expanded == full["findings"]
    # A scenario says how many findings its loss moved, and names its new failures.
    for scenario, whole in zip(
        compact["failures"]["scenarios"], full["failures"]["scenarios"], strict=True
    ):
        assert scenario["moved"] == len(whole.pop("findings"))
        assert scenario.pop("moved") >= len(scenario["new_failures"])
        # kind, element and description follow from the id: in the full result only
        kind, element = scenario["id"].split(":", 1)
        assert (whole.pop("kind"), whole.pop("element")) == (kind, element)
        assert whole.pop("description")
        assert scenario == whole
    assert {
        k: v for k, v in compact.items() if k not in ("detail", "findings", "figures", "failures")
    } == {k: v for k, v in full.items() if k not in ("detail", "findings", "failures")}
