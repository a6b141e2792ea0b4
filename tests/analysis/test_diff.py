"""facility diff: new, resolved and changed findings between two states."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

from facility.analysis.diff import diff_results, read_result
from facility.cli import app

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
HALL = (EXAMPLES / "hall-b3.yaml").read_text(encoding="utf-8")


def variant(tmp_path: Path, name: str, *edits: tuple[str, str]) -> Path:
    text = HALL
    for old, new in edits:
        assert old in text
        text = text.replace(old, new)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_stronger_floor_resolves_row_b_and_a_weaker_slab_fails_row_a(tmp_path: Path) -> None:
    planned = variant(
        tmp_path,
        "planned.yaml",
        ("    uniform_load_rating: 12 kPa", "    uniform_load_rating: 16 kPa"),  # Z-B: 15.0 ≤ 16
        ("    uniform_load_rating: 25 kPa", "    uniform_load_rating: 20 kPa"),  # Z-A: 20.4 > 20
    )
    report = diff_results(read_result(EXAMPLES / "hall-b3.yaml", None), read_result(planned, None))
    resolved = {c.id for c in report.resolved}
    new = {c.id for c in report.new_failures}
    assert resolved == {f"FLR-001:rack:B{n:02d}" for n in range(1, 13)}
    assert new == {f"FLR-001:rack:A{n:02d}" for n in range(1, 9)}
    # zone Z-A still passes its aggregate (1.96 kPa ≤ 20 kPa) but with less margin: 25 − 1.96 → 20 − 1.96
    changed = {c.id: c for c in report.changed}
    za = changed["FLR-003:floor_zone:Z-A"]
    assert za.before["margin"]["value"] - za.after["margin"]["value"] == 5.0  # kPa


def test_a_json_result_diffs_against_a_site_file(tmp_path: Path) -> None:
    runner = CliRunner()
    result = tmp_path / "signed.json"
    runner.invoke(app, ["check", str(EXAMPLES / "hall-b3.yaml"), "-o", str(result)])
    same = runner.invoke(app, ["diff", str(result), str(EXAMPLES / "hall-b3.yaml")])
    assert same.exit_code == 0 and "No finding changed." in same.output
    worse = variant(
        tmp_path,
        "worse.yaml",
        ("    piping_pressure_drop: 0.40 bar", "    piping_pressure_drop: 1.40 bar"),
    )
    out = runner.invoke(app, ["diff", str(result), str(worse), "-f", "json"])
    assert out.exit_code == 1
    data = json.loads(out.output)
    # TCS-A head: 1.27 + 1.40 = 2.67 bar > 2.5 bar → LIQ-009 newly fails, margin +0.83 → −0.17 bar
    (change,) = data["new_failures"]
    assert change["id"] == "LIQ-009:tcs_loop:TCS-A"
    assert (
        change["before"]["margin"]["value"] == 83.0 and change["after"]["margin"]["value"] == -17.0
    )


def test_bad_input_is_exit_2(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("site: [", encoding="utf-8")
    out = CliRunner().invoke(app, ["diff", str(EXAMPLES / "hall-b3.yaml"), str(broken)])
    assert out.exit_code == 2 and "broken.yaml:2:1: invalid YAML" in out.output


def test_a_result_with_a_non_json_number_is_refused(tmp_path: Path) -> None:
    # An older facility wrote Infinity for an unbounded limit; JSON has no such number.
    old = tmp_path / "old.json"
    old.write_text('{"schema": "facility-result/1", "findings": [{"margin": Infinity}]}\n')
    result = CliRunner().invoke(app, ["diff", str(old), str(old)])
    assert result.exit_code == 2
    assert "Infinity is not a JSON number" in result.stderr
    assert "Traceback" not in result.output


def test_a_result_file_is_checked_before_it_is_trusted(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(
        '{"schema": "facility-result/1", "site": {"name": "x"}, "findings": [{"id": 3}]}'
    )
    result = CliRunner().invoke(app, ["diff", str(bad), str(bad)])
    assert result.exit_code == 2
    assert f"{bad}:1:1: findings[0].id: not a facility result:" in result.stderr
    assert "Traceback" not in result.output


def test_a_deeply_nested_or_huge_result_file_is_refused_where_json_says(tmp_path: Path) -> None:
    cases = {
        "deep.json": (
            "[" * 5000 + "]" * 5000,
            "1:1: the JSON nests too deep to be a facility result",
        ),
        "huge.json": ("9" * 5001, "1:1: a number of 5,001 digits is not a facility figure"),
        "inf.json": ("1e999", "1:1: 1e999 is beyond any float"),
        "broken.json": ("[1,\n 2,]", "2:4: invalid JSON: Expecting value"),
    }
    for name, (value, message) in cases.items():
        path = tmp_path / name
        path.write_text('{"schema": "facility-result/1", "x": ' + value + "}")
        result = CliRunner().invoke(app, ["diff", str(path), str(path)])
        assert result.exit_code == 2, result.output
        assert f"error: {path}:{message}\n" in result.stderr
        assert "Traceback" not in result.output


def test_a_fifo_as_a_state_is_refused_before_it_is_opened(tmp_path: Path) -> None:
    # Opening a FIFO to read blocks until something writes to it: the state is refused by its
    # type first. A writer waits on the FIFO; had the run opened it, the writer would have got
    # through (and unblocked the run with "{}") before the run returned.
    fifo = tmp_path / "old.json"
    os.mkfifo(fifo)
    opened = threading.Event()

    def writer() -> None:
        with open(fifo, "w", encoding="utf-8") as end:
            opened.set()
            end.write("{}")

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    result = CliRunner().invoke(app, ["diff", str(fifo), str(EXAMPLES / "small-ready.yaml")])
    assert result.exit_code == 2, result.output
    assert f"{fifo}: a FIFO, not a file" in result.stderr  # a whole file: no line
    assert not opened.is_set()  # never opened by the run
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # let the writer finish
    thread.join()
    os.close(reader)


def _hall_result(tmp_path: Path, detail: str = "full") -> dict:
    out = tmp_path / "good.json"
    site = Path(__file__).resolve().parents[2] / "examples" / "small-ready.yaml"
    args = ["check", str(site), "-o", str(out), "--json-detail", detail]
    assert CliRunner().invoke(app, args).exit_code == 0
    return json.loads(out.read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("spoil", "message"),
    [
        (lambda d: d["counts"].update({"fail": "many"}), "counts.fail: not a facility result: expected a whole number, got 'many'"),
        (lambda d: d["findings"][0].update({"severity": "catastrophic"}), "findings[0].severity: not a facility result: must be 'error', 'warning' or 'info'"),
        (lambda d: d["findings"][0]["observed"].update({"value": True}), "findings[0].observed.value: not a facility result"),
        (lambda d: d["findings"][0]["margin"].update({"value": "1"}), "findings[0].margin.value: not a facility result"),
        (lambda d: d["findings"][0].update({"message": 7}), "findings[0].message: not a facility result"),
        (lambda d: d["findings"][0].update({"source": {"file": 1, "line": "a"}}), "findings[0].source.file: not a facility result"),
        (lambda d: d["findings"][0].update({"rule": "X" * 100_000}), "findings[0].rule: not a facility result"),
        (lambda d: d["findings"][0].update({"relation": "=>"}), "findings[0].relation: not a facility result"),
        (lambda d: d.update({"fixes": 5}), "fixes: not a facility result"),
    ],
    ids=["count-text", "severity", "value-bool", "value-text", "message-int", "source", "long-code", "relation", "fixes"],
)  # fmt: skip
def test_a_result_of_wrong_types_is_refused(tmp_path: Path, spoil, message) -> None:
    # Found by testing from outside: each of these was accepted and diffed as if true
    data = _hall_result(tmp_path)
    spoil(data)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    result = CliRunner().invoke(app, ["diff", str(bad), str(bad)])
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("spoil", "message"),
    [
        (lambda d: d["rules"]["AIR-001"].update({"severity": "catastrophic"}), "rules.AIR-001.severity: not a facility result: must be 'error', 'warning' or 'info'"),
        (lambda d: d["figures"][0]["observed"].update({"value": True}), "figures[0].observed.value: not a facility result"),
        (lambda d: d["figures"][0].update({"message": 7}), "figures[0].message: not a facility result"),
        (lambda d: d["findings"][0].update({"figures": 10**6}), "findings[0].figures: not a facility result: no such entry in figures"),
        (lambda d: d["findings"][0].update({"figures": -1}), "findings[0].figures: not a facility result"),
        (lambda d: d["findings"][0].update({"rule": "ZZZ-999"}), "findings[0].rule: not a facility result: no rule ZZZ-999 in rules"),
        (lambda d: d["findings"].__setitem__(0, {"id": "ZZZ-999:rack:A01", "status": "fail", "figures": 0}), "findings[0].id: not a facility result: no rule ZZZ-999 in rules"),
        (lambda d: d["findings"].__setitem__(0, {"id": "AIR-001", "status": "fail", "figures": 0}), "findings[0].id: not a facility result"),
        (lambda d: d["findings"][0].update({"status": "fine"}), "findings[0].status: not a facility result"),
        (lambda d: d["findings"][0].update({"status": "fail"}), "findings[0].status: not a facility result"),
        (lambda d: d["findings"][0].update({"entities": []}), "findings[0].entities: not a facility result"),
        (lambda d: d["findings"][0].update({"entities": ["B3", 7]}), "findings[0].entities[1]: not a facility result"),
        (lambda d: d["findings"][0].pop("kind"), "findings[0].kind: not a facility result"),
        (lambda d: d.update({"detail": "some"}), "detail: not a facility result"),
        (lambda d: d.pop("figures"), "figures: not a facility result"),
        (lambda d: d.update({"site": {"a": "x"}}), "site.file: not a facility result"),  # was KeyError (fuzz)
        (lambda d: d.update({"site": 5}), "site: not a facility result"),
    ],
    ids=["severity", "value-bool", "message-int", "index-beyond", "index-negative", "unknown-rule", "unknown-rule-alone", "bare-code", "status", "failing-run", "empty-run", "entity-int", "no-kind", "detail", "no-figures", "site-without-file", "site-not-object"],
)  # fmt: skip
def test_a_compact_result_of_wrong_types_is_refused_where_written(
    tmp_path: Path, spoil, message
) -> None:
    # The compact result's rules, shared figures and references are checked where they are
    # written, before any finding is written out from them
    data = _hall_result(tmp_path, "compact")
    assert data["detail"] == "compact" and data["findings"][0]["rule"] == "AIR-001"  # a run
    spoil(data)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    result = CliRunner().invoke(app, ["diff", str(bad), str(bad)])
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert "Traceback" not in result.output


def test_a_compact_and_a_full_result_of_one_site_differ_in_nothing(tmp_path: Path) -> None:
    compact, full = tmp_path / "compact.json", tmp_path / "full.json"
    compact.write_text(json.dumps(_hall_result(tmp_path, "compact")), encoding="utf-8")
    full.write_text(json.dumps(_hall_result(tmp_path, "full")), encoding="utf-8")
    out = CliRunner().invoke(app, ["diff", str(compact), str(full), "-f", "json"])
    assert out.exit_code == 0, out.output
    counts = json.loads(out.stdout)["counts"]
    assert counts["unchanged"] > 200
    assert {k: v for k, v in counts.items() if k != "unchanged"} == dict.fromkeys(
        ("new_failures", "worse", "resolved", "better", "status_changes", "added",
         "added_passing", "removed"), 0
    )  # fmt: skip


def test_a_key_given_twice_is_refused(tmp_path: Path) -> None:
    # json keeps the last of two keys: "not-ready" then "ready" read as ready
    text = json.dumps(_hall_result(tmp_path)).replace(
        '"verdict": "ready"', '"verdict": "not-ready", "verdict": "ready"', 1
    )
    bad = tmp_path / "bad.json"
    bad.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(app, ["diff", str(bad), str(bad)])
    assert result.exit_code == 2
    assert "the key 'verdict' is given twice in one object" in result.stderr


def test_a_result_file_over_the_limit_is_refused_before_it_is_read(tmp_path, monkeypatch) -> None:
    from facility.analysis import diff

    good = tmp_path / "good.json"
    good.write_text(json.dumps(_hall_result(tmp_path)), encoding="utf-8")
    monkeypatch.setattr(diff, "RESULT_LIMIT", 1_000)  # the bound, scaled down: bytes, not time
    result = CliRunner().invoke(app, ["diff", str(good), str(good)])
    assert result.exit_code == 2
    assert "the limit is 0 MB" in result.stderr or "the limit is" in result.stderr
