"""Known problems of the engine, pinned as strict expected failures.

Each test states the behaviour that is right; it is marked ``xfail(strict=True)`` with the
reason, so it fails loudly ("XPASS(strict)") the day the problem is fixed and the marker can go.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from facility.engine.evaluate import audit
from facility.engine.findings import Finding
from facility.engine.rules import bundled_rules_dir, load_rules
from facility.model.load import load_site
from facility.model.source import InputError


def findings(tmp_path: Path, site: dict, rule: str, profile: str = "supernode") -> list[Finding]:
    path = tmp_path / "site.yaml"
    path.write_text(yaml.safe_dump(site, sort_keys=False), encoding="utf-8")
    result = audit(load_site(path), load_rules(profile=profile))
    return [f for f in result.findings if f.rule == rule]


def statuses(found: list[Finding]) -> dict[str, str]:
    return {f.entity_id: f.status for f in found}


def test_condition_may_use_a_derived_quantity(tmp_path: Path) -> None:
    root = tmp_path / "rules"
    (root / "profiles").mkdir(parents=True)
    shutil.copy(bundled_rules_dir() / "profiles" / "supernode.yaml", root / "profiles")
    (root / "LIQ-900.yaml").write_text(
        "code: LIQ-900\nname: liquid.probe\ntitle: t\narea: liquid\nscope: tcs_loop\n"
        "severity: error\nobserved: liquid_heat\nlimit: cdu_capacity\n"
        "condition: observed <= limit and racks_on_loop <= 8\n"
        "requirement: r\nwhy: w\nreferences: [r]\n",
        encoding="utf-8",
    )
    ruleset = load_rules(directories=[root])  # loads: the condition's names are checked
    site = {
        "site": {"name": "t"},
        "rack_types": [
            {
                "id": "gpu",
                "cooling": "liquid",
                "nominal_power": "100 kW",
                "liquid_heat_fraction": "90 %",
            }
        ],
        "cooling": {
            "cdus": [{"id": "c", "capacity": "200 kW"}],
            "tcs_loops": [{"id": "L", "coolant": {"fluid": "water"}, "cdus": ["c"]}],
        },
        "racks": [{"id": "r1", "type": "gpu", "loop": "L"}],
    }
    path = tmp_path / "site.yaml"
    path.write_text(yaml.safe_dump(site), encoding="utf-8")
    result = audit(load_site(path), ruleset)
    # 90 kW ≤ 200 kW and 1 rack ≤ 8 → pass
    assert [(f.entity_id, f.status) for f in result.findings] == [("L", "pass")]


def test_rack_on_a_loop_with_unknown_liquid_fraction_is_not_a_pass(tmp_path: Path) -> None:
    site = {
        "site": {"name": "t"},
        "rack_types": [{"id": "unknown-cooling", "nominal_power": "100 kW"}],
        "cooling": {
            "cdus": [{"id": "c", "capacity": "10 kW"}],
            "tcs_loops": [{"id": "L", "coolant": {"fluid": "water"}, "cdus": ["c"]}],
        },
        "racks": [{"id": "r1", "type": "unknown-cooling", "loop": "L"}],
    }
    # today: Σ P · f_liq = 0 W ≤ 10 kW → pass; a 100 kW rack on a 10 kW CDU
    assert statuses(findings(tmp_path, site, "LIQ-001")) == {"L": "not_evaluated"}


def test_source_feeding_both_sides_carries_the_rack_once(tmp_path: Path) -> None:
    site = {
        "site": {"name": "t"},
        "rack_types": [{"id": "gpu", "peak_power": "95 kW", "power_factor": 0.95}],
        "power": {
            "sources": [{"id": "ups", "kind": "ups", "capacity": "150 kVA"}],
            "pdu_types": [{"id": "p", "voltage": "415 V", "phases": 3, "breaker_rating": "250 A"}],
        },
        "racks": [
            {
                "id": "r1",
                "type": "gpu",
                "pdus": {"A": {"type": "p", "fed_by": "ups"}, "B": {"type": "p", "fed_by": "ups"}},
            }
        ],
    }
    # whatever side is lost, the UPS carries the whole rack once: 95 / 0.95 = 100 ≤ 150 kVA
    assert statuses(findings(tmp_path, site, "PWR-007")) == {"ups": "pass"}


def test_pdu_share_follows_the_sides(tmp_path: Path) -> None:
    site = {
        "site": {"name": "t"},
        "rack_types": [{"id": "gpu", "peak_power": "60 kW", "power_factor": 0.95}],
        "power": {
            "pdu_types": [{"id": "p63", "voltage": "415 V", "phases": 3, "breaker_rating": "63 A"}]
        },
        "racks": [
            {
                "id": "r1",
                "type": "gpu",
                "pdus": {"A": {"type": "p63", "count": 2}, "B": {"type": "p63"}},
            }
        ],
    }
    # 63.2 kVA: side B's one PDU carries half, 31.6 kVA (today 63.2 / 3 = 21.1 kVA);
    # side A's two carry 15.8 kVA each. All ≤ 36.2 kVA, so all pass either way: compare loads.
    loads = {
        f.entity_id: f.observed.value
        for f in findings(tmp_path, site, "PWR-002")
        if f.observed is not None
    }
    assert loads["r1-B1"] == pytest.approx(60_000 / 0.95 / 2)
    assert loads["r1-A1"] == pytest.approx(60_000 / 0.95 / 4)


def test_ups_module_rule_skips_sources_without_modules(tmp_path: Path) -> None:
    site = {
        "site": {"name": "t"},
        "rack_types": [{"id": "gpu", "peak_power": "95 kW", "power_factor": 0.95}],
        "power": {
            "sources": [{"id": "utility", "kind": "utility", "capacity": "2000 kVA"}],
            "pdu_types": [{"id": "p", "voltage": "415 V", "phases": 3, "breaker_rating": "250 A"}],
        },
        "racks": [{"id": "r1", "type": "gpu", "pdus": {"A": {"type": "p", "fed_by": "utility"}}}],
    }
    assert findings(tmp_path, site, "PWR-008", profile="tier-iii") == []


def test_unknown_rule_is_reported_in_the_profile_that_names_it(tmp_path: Path) -> None:
    root = tmp_path / "rules"
    (root / "profiles").mkdir(parents=True)
    shutil.copytree(bundled_rules_dir() / "air", root / "air")
    (root / "profiles" / "base.yaml").write_text(
        "name: base\ndescription: b\nseverity:\n  AIR-999: error\n", encoding="utf-8"
    )
    (root / "profiles" / "child.yaml").write_text(
        "name: child\ndescription: c\nextends: base\n", encoding="utf-8"
    )
    with pytest.raises(InputError) as info:
        load_rules(directories=[root], profile="child")
    (problem,) = info.value.problems
    assert problem.location.file == str(root / "profiles" / "base.yaml")
    assert (problem.location.line, problem.field) == (4, "severity.AIR-999")
