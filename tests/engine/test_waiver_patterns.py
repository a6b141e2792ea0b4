"""Waivers naming several entities: a list, a glob or ``row:``; each match recorded; a pattern
that matches nothing stale; a bad pattern bad input at its file, line and field."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from facility.cli import app
from facility.engine.evaluate import audit
from facility.engine.rules import load_rules
from facility.engine.waivers import apply_waivers, entity_rows, matches, read_waivers
from facility.model.load import load_site
from facility.model.source import InputError

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "hall-b3.yaml"
TODAY = dt.date(2026, 11, 29)
LATER = "2027-01-31"

# Hall B3 as audited under tier-iii (tests/engine/test_hall_b3.py works the figures):
# FLR-001 fails on B01 … B12 (15.0 kPa > 12 kPa) and passes on A01 … A08 (20.4 ≤ 25 kPa);
# PWR-003 fails on all 64 PDUs of row A (8 racks × 4 PDUs × 2 sides) and on none of row B.


def audited(tmp_path: Path, waivers: str):
    path = tmp_path / "waivers.yaml"
    path.write_text("waivers:\n" + waivers, encoding="utf-8")
    site = load_site(EXAMPLE)
    rules = load_rules(profile="tier-iii")
    result = audit(site, rules)
    names = {r.spec.name: r.code for r in rules.rules}
    report = apply_waivers(result, read_waivers(path), TODAY, names, site=site)
    return result, report


def waived(result, rule: str) -> set[str]:
    return {f.entity_id for f in result.findings if f.rule == rule and f.status == "waived"}


def test_a_list_waives_each_entity_it_names_and_reports_the_one_that_matches_nothing(
    tmp_path: Path,
) -> None:
    result, report = audited(
        tmp_path,
        f"  - {{rule: FLR-001, entity: [B01, B02, B99], reason: plates, owner: ops, expires: {LATER}}}\n",
    )
    assert waived(result, "FLR-001") == {"B01", "B02"}
    applied, stale = report.records
    assert applied.state == "applied"
    assert [(m.pattern, m.entity_id) for m in applied.matches] == [("B01", "B01"), ("B02", "B02")]
    assert applied.findings == ("FLR-001:rack:B01", "FLR-001:rack:B02")
    # B99 names no rack: a stale record of the same waiver, at its line, naming just B99
    assert stale.state == "stale" and stale.waiver.entity == "B99"
    assert stale.location == applied.location and stale.location.line == 2
    assert applied.waiver.entity == "B01, B02, B99"  # as every report shows the list


def test_a_glob_is_fnmatch_and_case_sensitive(tmp_path: Path) -> None:
    result, report = audited(
        tmp_path,
        f"  - {{rule: FLR-001, entity: 'B1?', reason: plates, owner: ops, expires: {LATER}}}\n"
        f"  - {{rule: FLR-001, entity: 'b0*', reason: lower case, owner: ops, expires: {LATER}}}\n",
    )
    # B1? is one character after B1: B10, B11, B12 (B1 itself has no such character)
    assert waived(result, "FLR-001") == {"B10", "B11", "B12"}
    assert [r.state for r in report.records] == ["applied", "stale"]  # ids are case-sensitive


def test_a_glob_over_passing_checks_only_is_stale(tmp_path: Path) -> None:
    result, report = audited(
        tmp_path,
        f"  - {{rule: FLR-001, entity: 'A0*', reason: passes, owner: ops, expires: {LATER}}}\n",
    )
    assert waived(result, "FLR-001") == set()
    assert [r.state for r in report.records] == ["stale"]  # A01 … A08 pass: nothing to accept


def test_row_names_the_racks_of_the_row_and_their_pdus(tmp_path: Path) -> None:
    result, report = audited(
        tmp_path,
        f"  - {{rule: PWR-003, entity: 'row:A', reason: rewiring, owner: ops, expires: {LATER}}}\n"
        f"  - {{rule: FLR-001, entity: 'row:B', reason: plates, owner: ops, expires: {LATER}}}\n",
    )
    # 8 racks × (4 + 4) PDUs = 64 PDU findings in row A; the 12 racks of row B
    assert len(waived(result, "PWR-003")) == 64
    assert {f for f in waived(result, "PWR-003") if not f.startswith("A0")} == set()
    assert waived(result, "FLR-001") == {f"B{n:02d}" for n in range(1, 13)}
    pdus, racks = report.records
    assert len(pdus.matches) == 64 and {m.entity_kind for m in pdus.matches} == {"pdu"}
    assert {m.pattern for m in racks.matches} == {"row:B"}


def test_entity_rows_are_racks_and_the_pdus_of_those_racks() -> None:
    site = load_site(EXAMPLE)
    rows = entity_rows(site)
    assert rows[("rack", "A01")] == "A" and rows[("rack", "B12")] == "B"
    assert rows[("pdu", "A01-B4")] == "A" and rows[("pdu", "B01-A1")] == "B"
    assert ("tcs_loop", "TCS-A") not in rows  # a loop serves a row but is not in it
    # 20 racks; 8 × 8 PDUs in row A and 12 × 2 in row B
    assert len(rows) == 20 + 64 + 24


def test_a_row_pattern_without_the_site_matches_nothing_and_fails_safe() -> None:
    assert not matches("row:A", "rack", "A01", {})
    assert matches("row:A", "rack", "A01", {("rack", "A01"): "A"})
    assert not matches("row:A", "rack", "A01", {("rack", "A01"): "AB"})  # a row id, not a prefix


def test_an_id_with_glob_characters_still_matches_itself() -> None:
    assert matches("A[1]", "rack", "A[1]", {})  # the id as written
    assert matches("A[1]", "rack", "A1", {})  # and the glob: documented
    assert matches("Rack [A", "rack", "Rack [A", {})  # an unclosed [ is itself (an id may hold it)
    assert not matches("Rack [A", "rack", "Rack A", {})
    assert not matches("A01", "rack", "A011", {})  # a plain id is never a prefix


def test_an_expired_list_waiver_records_what_fails_again(tmp_path: Path) -> None:
    result, report = audited(
        tmp_path,
        "  - {rule: FLR-001, entity: [B01, 'B1*'], reason: lapsed, owner: ops, expires: 2026-11-28}\n",
    )
    assert waived(result, "FLR-001") == set()
    (record,) = report.records
    assert record.state == "expired"
    assert [m.entity_id for m in record.matches] == ["B01", "B10", "B11", "B12"]


@pytest.mark.parametrize(
    ("entity", "message"),
    [
        ("[]", "waivers[0].entity: an empty list names no entity"),
        ("'row:'", "waivers[0].entity: row: names no row: write row:<row id>, e.g. row:A"),
        ("'row:A*'", "waivers[0].entity: row:A*: a row is named by its id, without * ? or ["),
        ("[A01, A01]", "waivers[0].entity: item 2: A01 is listed twice"),
        ("[A01, 3]", "waivers[0].entity: item 2: expected an entity id or pattern, got 3"),
        ("5", "waivers[0].entity: expected an entity id, a pattern or a list of them, got 5"),
    ],
)
def test_a_bad_pattern_is_bad_input_at_its_line(tmp_path: Path, entity: str, message: str) -> None:
    path = tmp_path / "waivers.yaml"
    path.write_text(
        "waivers:\n"
        f"  - {{rule: FLR-001, entity: B01, reason: ok, owner: ops, expires: {LATER}}}\n"
        f"  - {{rule: FLR-001, entity: {entity}, reason: r, owner: o, expires: {LATER}}}\n",
        encoding="utf-8",
    )
    with pytest.raises(InputError) as caught:
        read_waivers(path)
    text = str(caught.value)
    assert f"{path}:3:" in text
    assert message.replace("[0]", "[1]") in text
    out = tmp_path / "out.html"
    cli = CliRunner().invoke(app, ["check", str(EXAMPLE), "--waivers", str(path), "-o", str(out)])
    assert cli.exit_code == 2 and "Traceback" not in cli.output
    assert not out.exists()


def test_the_json_result_lists_every_match_of_a_waiver(tmp_path: Path) -> None:
    path = tmp_path / "waivers.yaml"
    path.write_text(
        f"waivers:\n  - {{rule: FLR-001, entity: [B01, 'B1?'], reason: plates, owner: ops, expires: {LATER}}}\n",
        encoding="utf-8",
    )
    out = CliRunner().invoke(
        app,
        [
            "check",
            str(EXAMPLE),
            "--waivers",
            str(path),
            "-f",
            "json",
            "--generated-at",
            "2026-11-29T12:00:00Z",
        ],
    )
    assert out.exit_code == 1  # the power and liquid failures remain
    (waiver,) = json.loads(out.stdout)["waivers"]
    assert waiver["state"] == "applied"
    assert waiver["findings"] == [f"FLR-001:rack:{r}" for r in ("B01", "B10", "B11", "B12")]


def test_the_matcher_agrees_with_matches_pattern_by_pattern() -> None:
    import random

    from facility.engine.waivers import EntityMatcher

    pick = random.Random(7)
    ids = [f"{r}{n:02d}" for r in "AB" for n in range(1, 13)] + ["A[1]", "A1", "row:A"]
    rows = {("rack", i): i[0] for i in ids if i[0] in "AB" and i[1:].isdigit()}
    pool = [*ids, "A0*", "A1?", "*", "B[01]?", "A[1]", "row:A", "row:B", "row:C", "[AB]1*"]
    for _ in range(300):
        patterns = tuple(dict.fromkeys(pick.sample(pool, pick.randint(1, 6))))
        matcher = EntityMatcher(patterns, rows)
        for entity in ids:
            expected = [p for p in patterns if matches(p, "rack", entity, rows)]
            assert matcher.naming("rack", entity) == expected, (patterns, entity)


def test_a_long_list_of_ids_is_looked_up_not_scanned(monkeypatch: pytest.MonkeyPatch) -> None:
    # 10,000 plain ids against 20,000 findings: each finding is one look-up by id. Bound by
    # counts, not time: no id list is matched pattern by pattern (that would be 2×10⁸ calls).
    import facility.engine.waivers as waivers
    from facility.engine.waivers import EntityMatcher

    calls = {"glob": 0, "matches": 0}
    real_glob, real_matches = waivers.fnmatchcase, waivers.matches

    def counted_glob(name: str, pattern: str) -> bool:
        calls["glob"] += 1
        return real_glob(name, pattern)

    def counted_matches(*args: object) -> bool:
        calls["matches"] += 1
        return real_matches(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(waivers, "fnmatchcase", counted_glob)
    monkeypatch.setattr(waivers, "matches", counted_matches)
    patterns = tuple(f"R{n}" for n in range(10_000))
    matcher = EntityMatcher(patterns, {})
    named = [matcher.naming("rack", f"R{n}") for n in range(0, 20_000)]
    assert sum(1 for n in named if n) == 10_000  # R0 … R9999, each by its own id
    assert calls == {"glob": 0, "matches": 0}
