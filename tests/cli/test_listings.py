"""The listings people script (issue 17): ``rules list``, ``rules explain``, ``catalog`` and
``inventory`` — header rows, aligned columns, ``-f json``, the profile in force, codes in any
letter case."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from facility import catalog
from facility.cli import app
from facility.engine.rules import load_rules
from facility.model.load import load_site

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
HALL_B3 = EXAMPLES / "hall-b3.yaml"  # design_intent: Tier III
runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


def starts(header: str) -> list[int]:
    """Where each column of ``header`` starts."""
    return [header.index(word) for word in header.split()]


def cells(line: str, at: list[int]) -> list[str]:
    return [line[a:b].strip() for a, b in zip(at, [*at[1:], None], strict=True)]


def severities(*args: str) -> dict[str, str]:
    result = run("rules", "list", "-f", "json", *args)
    assert result.exit_code == 0, result.output
    return {rule["code"]: rule["severity"] for rule in json.loads(result.stdout)}


# --- rules list ---------------------------------------------------------------------------


def test_rules_list_has_a_header_row_and_aligned_columns():
    result = run("rules", "list", "--profile", "tier-iii")
    assert result.exit_code == 0, result.output
    header, *lines = result.stdout.splitlines()
    assert header.split() == ["CODE", "SEVERITY", "SCOPE", "TITLE"]
    at = starts(header)
    ruleset = load_rules(profile="tier-iii")
    assert len(lines) == len(ruleset.rules)
    for line, rule in zip(lines, ruleset.rules, strict=True):
        # every row's cells sit under the header's words, and no line ends in spaces
        assert cells(line, at) == [rule.code, rule.severity, rule.spec.scope, rule.spec.title]
        assert line == line.rstrip()
        assert all(line[a - 2 : a] == "  " for a in at[1:])


def test_rules_list_shows_the_severities_of_the_profile_given():
    supernode, tier_iii = severities("--profile", "supernode"), severities("--profile", "tier-iii")
    assert supernode.keys() == tier_iii.keys()
    expected = {r.code: r.severity for r in load_rules(profile="tier-iii").rules}
    assert tier_iii == expected
    # the bundled profiles differ in the single-failure rules' severities (RED-001 ...)
    assert {c for c in supernode if supernode[c] != tier_iii[c]}, "profiles should differ"


def test_rules_list_for_a_site_uses_the_profile_its_design_intent_selects(tmp_path):
    assert severities("--site", str(HALL_B3)) == severities("--profile", "tier-iii")
    plain = tmp_path / "plain.yaml"  # no design intent: supernode, as check
    plain.write_text("schema_version: 1\nsite: {name: Plain}\n", encoding="utf-8")
    assert severities("--site", str(plain)) == severities("--profile", "supernode")
    # --profile wins over the site's choice, as in check
    assert severities("--site", str(HALL_B3), "--profile", "supernode") == severities()
    rows = json.loads(run("rules", "list", "-f", "json", "--site", str(HALL_B3)).stdout)
    assert {row["profile"] for row in rows} == {"tier-iii"}


def test_rules_list_json_is_a_sorted_stable_array():
    result = run("rules", "list", "-f", "json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert result.stdout == json.dumps(rows, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    keys = {"aliases", "area", "code", "name", "profile", "requirement", "scope", "severity"}
    assert {frozenset(row) for row in rows} == {frozenset(keys | {"tags", "title"})}
    assert [row["code"] for row in rows] == [r.code for r in load_rules().rules]
    power = next(row for row in rows if row["code"] == "PWR-001")
    assert power["name"] == "power.side_cannot_carry_rack" and power["area"] == "power"


def test_rules_list_with_a_bad_site_exits_2_naming_it(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("site: {name: T}\nunknown: 1\n", encoding="utf-8")
    result = run("rules", "list", "--site", str(bad))
    assert result.exit_code == 2
    assert "bad.yaml" in result.stderr and "unknown" in result.stderr
    assert "Traceback" not in result.output and result.stdout == ""


def test_rules_list_refuses_a_format_it_cannot_write():
    result = run("rules", "list", "-f", "html")
    assert result.exit_code == 2
    assert result.stdout == ""


# --- rules explain: any letter case --------------------------------------------------------


@pytest.mark.parametrize(
    "code",
    [
        "PWR-001",
        "pwr-001",
        " Pwr-001 ",
        "power.side_cannot_carry_rack",
        "POWER.SIDE_cannot_carry_RACK",
    ],
)
def test_rules_explain_takes_codes_and_names_in_any_letter_case(code):
    result = run("rules", "explain", code)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("PWR-001 power.side_cannot_carry_rack\n")


def test_rules_explain_under_a_site_names_its_profile():
    result = run("rules", "explain", "red-001", "--site", str(HALL_B3))
    assert result.exit_code == 0, result.output
    assert "(profile tier-iii)" in result.stdout


def test_rules_explain_of_an_unknown_code_exits_2():
    result = run("rules", "explain", "pwr-999")
    assert result.exit_code == 2
    assert "no rule 'pwr-999'" in result.stderr


# --- catalog -------------------------------------------------------------------------------


def test_catalog_has_a_header_row_and_aligned_columns():
    result = run("catalog")
    assert result.exit_code == 0
    header, *lines = result.stdout.splitlines()
    assert header.split() == ["ID", "KIND", "NAME"]
    at = starts(header)
    entries = sorted(catalog.entries().values(), key=lambda e: (e.kind, e.id))
    assert [cells(line, at) for line in lines] == [[e.id, e.kind, e.name] for e in entries]


def test_catalog_json_lists_every_entry():
    result = run("catalog", "-f", "json")
    assert result.exit_code == 0
    rows = json.loads(result.stdout)
    assert len(rows) == len(catalog.entries())
    assert {frozenset(row) for row in rows} == {frozenset({"id", "kind", "name", "summary"})}
    assert result.stdout == json.dumps(rows, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


@pytest.mark.parametrize("entry_id", ["gb300-nvl72", "GB300-NVL72", "Gb300-Nvl72"])
def test_catalog_entry_in_any_letter_case(entry_id):
    text = run("catalog", entry_id)
    assert text.exit_code == 0, text.output
    assert text.stdout.startswith("gb300-nvl72 — ")
    found = json.loads(run("catalog", entry_id, "-f", "json").stdout)
    assert found["id"] == "gb300-nvl72" and found["kind"] == "rack_type"
    peak = found["figures"]["peak_power"]
    assert (peak["value"], peak["confidence"], peak["assumption"]) == ("155 kW", "M", False)
    assert peak["source"].startswith("Lenovo LP2357")
    assert found["figures"]["power_factor"]["assumption"] is True


def test_catalog_unknown_entry_exits_2_in_json_too():
    result = run("catalog", "nope", "-f", "json")
    assert result.exit_code == 2
    assert "no catalog entry 'nope'" in result.stderr and result.stdout == ""


# --- inventory -----------------------------------------------------------------------------


def test_inventory_json_counts_and_account():
    result = run("inventory", str(HALL_B3), "-f", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert result.stdout == json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    assert data["schema"] == "facility-inventory/1"
    assert data["site"] == "Hall B3" and data["file"].endswith("hall-b3.yaml")
    assert data["counts"] == load_site(HALL_B3).summary()
    assert (data["counts"]["racks"], data["counts"]["pdus"]) == (20, 88)  # 8·4·2 + 12·1·2 = 88
    power = data["account"]["power"]
    # Peak IT load: 8 GB300 racks · 155 kW + 12 Atlas cabinets · 38 kW = 1240 + 456 = 1696 kW,
    # half on each side (every rack has as many PDUs on A as on B): 848 kW each.
    assert power["basis"] == "peak"
    assert power["total"]["value"] == pytest.approx(1696.0)
    sides = power["parts"]["power_side"]
    assert {s: v["value"] for s, v in sides.items()} == pytest.approx({"A": 848.0, "B": 848.0})
    # Installed mass: 8 · 1500 kg + 12 · 1100 kg = 12,000 + 13,200 = 25,200 kg.
    assert data["account"]["mass"]["total"]["value"] == pytest.approx(25200.0)


def test_inventory_text_is_unchanged_by_the_json_option():
    text = run("inventory", str(HALL_B3))
    assert text.exit_code == 0
    assert "IT load at peak power: 1,696.0 kW" in text.stdout


def test_inventory_json_of_a_bad_site_exits_2_writing_nothing(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("site: {name: T}\nracks: 3\n", encoding="utf-8")
    result = run("inventory", str(bad), "-f", "json")
    assert result.exit_code == 2
    assert result.stdout == "" and "bad.yaml" in result.stderr
