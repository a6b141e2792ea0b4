"""Removing an input never helps (issue 13): a property over generated sites.

Each example is run with one to three inputs removed — a figure set to null (which also removes
a catalog figure), or a rack's loop, zone or PDUs dropped. Then:

- the verdict is never better: a failing verdict (incomplete, not-ready) stays failing, and
  ready-with-warnings never becomes ready;
- with a figure removed, no check that failed or was not evaluated passes;
- dropping a rack's loop, zone or PDUs never lowers the load, heat or mass the report accounts
  for: it moves to "on nothing", and the rack fails a rule of its own.

"Inputs" are the figures whose absence makes a check unknown. Left out on purpose, each a
documented default rather than a missing figure: ``approach`` (the rated approach),
``rated_approach`` (the capacity as given), ``supply_setpoint`` (what the CDUs reach),
``derating`` (the site convention), ``power_inputs_per_side`` (one input per PDU),
``flow_table`` and ``design_flow`` (the design-rise rule and the drop as given), and
``clear_height`` (a declaration that turns the height check on: its absence is stated in the
report's coverage).
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from facility.engine.evaluate import audit
from facility.engine.findings import VERDICT_ORDER, AuditResult
from facility.engine.rules import load_rules
from facility.model.document import SiteDocument
from facility.model.load import resolve
from facility.model.source import SourceMap

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from generate_campus import write_campus  # noqa: E402

FIGURES: dict[str, tuple[str, ...]] = {
    "rack_types": (
        "nominal_power", "peak_power", "power_factor", "liquid_heat_fraction",
        "allowed_supply_temperature", "design_coolant_rise", "pressure_drop", "filled_mass",
        "footprint", "casters", "max_payload", "height", "flow_table_coolant",
    ),
    "floor_zones": (
        "uniform_load_rating", "concentrated_load_rating", "rolling_load_rating", "area",
    ),
    "facility_water": (
        "supply_temperature", "primary_rise", "available_flow", "differential_pressure",
        "ashrae_class",
    ),
    "cdus": (
        "capacity", "rated_flow", "available_head", "pumps", "primary_pressure_drop",
        "max_racks", "facility_water",
    ),
    "tcs_loops": ("piping_pressure_drop",),
    "sources": ("capacity", "power_factor", "real_power_capacity"),
    "pdu_types": ("voltage", "phases", "breaker_rating"),
}  # fmt: skip
PLACEMENT = ("loop", "zone", "pdus")
RULES = load_rules(profile="tier-iii")


def _example(name: str) -> dict[str, Any]:
    return yaml.safe_load((ROOT / "examples" / name).read_text(encoding="utf-8"))


BASES = {
    "hall-b3": _example("hall-b3.yaml"),
    "small-ready": _example("small-ready.yaml"),
    "cluster": _example("hall-b3-cluster.yaml"),
}


def _sections(doc: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    power, cooling = doc.get("power", {}), doc.get("cooling", {})
    return {
        "rack_types": doc.get("rack_types", []),
        "floor_zones": doc.get("floor_zones", []),
        "facility_water": cooling.get("facility_water", []),
        "cdus": cooling.get("cdus", []),
        "tcs_loops": cooling.get("tcs_loops", []),
        "sources": power.get("sources", []),
        "pdu_types": power.get("pdu_types", []),
    }


def removals(doc: dict[str, Any]) -> list[tuple[str, int, str]]:
    """Every (section, index, field) this document lets one remove."""
    found = []
    for section, items in _sections(doc).items():
        for i, item in enumerate(items):
            for name in FIGURES[section]:
                if item.get(name) is not None or "catalog" in item:
                    found.append((section, i, name))
    for section in ("rows", "racks"):
        for i, item in enumerate(doc.get(section, [])):
            for name in PLACEMENT:
                if item.get(name):
                    found.append((section, i, name))
    return found


def removed(doc: dict[str, Any], picks: list[tuple[str, int, str]]) -> dict[str, Any]:
    out = copy.deepcopy(doc)
    for section, i, name in picks:
        if section in ("rows", "racks"):
            out[section][i].pop(name, None)
        else:
            _sections(out)[section][i][name] = None  # null: also no catalog figure
    return out


def run(doc: dict[str, Any]) -> AuditResult:
    site = resolve(SiteDocument.model_validate(doc), SourceMap("t.yaml"), "0" * 64)
    return audit(site, RULES)


BEFORE = {name: run(doc) for name, doc in BASES.items()}


@st.composite
def cases(draw) -> tuple[str, list[tuple[str, int, str]]]:
    name = draw(st.sampled_from(sorted(BASES)))
    options = removals(BASES[name])
    picks = draw(st.lists(st.sampled_from(options), min_size=1, max_size=3, unique=True))
    return name, picks


# A failing check whose input is removed becomes not evaluated: not-ready may become
# incomplete, both of which fail the run. What must never happen is a better class.
RANK = {"ready": 0, "ready-with-warnings": 1, "incomplete": 2, "not-ready": 2}
assert set(RANK) == set(VERDICT_ORDER)


def _check(before: AuditResult, after: AuditResult, placement: str) -> None:
    """``placement``: 'none' (figures removed), 'only' (loops, zones, PDUs) or 'mixed'."""
    assert RANK[after.verdict] >= RANK[before.verdict], (before.verdict, after.verdict)
    if placement == "none":
        # A dropped loop or zone moves its racks' figures off it (the entity then passes with
        # less on it, and the racks fail LIQ-015 / FLR-005 instead); a removed figure moves
        # nothing, so no check it touched may pass.
        now = {f.id: f.status for f in after.findings}
        for f in before.findings:
            if f.status in ("fail", "not_evaluated") and f.id in now:
                assert now[f.id] != "pass", (f.id, f.status)
    elif placement == "only":
        for old, new in zip(before.account.ledgers[:2], after.account.ledgers[:2], strict=True):
            assert new.total == pytest.approx(old.total), new.name  # power and heat
        assert after.account.mass.total == pytest.approx(before.account.mass.total)


def _removing_never_helps(case: tuple[str, list[tuple[str, int, str]]]) -> None:
    name, picks = case
    after = run(removed(BASES[name], picks))
    moved = [section in ("rows", "racks") for section, _, _ in picks]
    _check(BEFORE[name], after, "only" if all(moved) else "mixed" if any(moved) else "none")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_removing_inputs_never_improves_the_verdict(case) -> None:
    _removing_never_helps(case)


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_removing_inputs_never_improves_the_verdict_long(case) -> None:
    _removing_never_helps(case)


@pytest.mark.slow  # a generated campus (the examples' removals run by default)
def test_a_campus_with_inputs_removed_never_reads_better(tmp_path: Path) -> None:
    path = tmp_path / "campus.yaml"
    write_campus(60, path, seed=3)  # 60 racks with busways, UPS, CDUs and zones
    base = yaml.safe_load(path.read_text(encoding="utf-8"))
    before = run(base)
    options = removals(base)
    # every kind of removal once, on the first entity that has it
    seen: set[tuple[str, str]] = set()
    for section, i, name in options:
        if (section, name) in seen:
            continue
        seen.add((section, name))
        placement = "only" if section in ("rows", "racks") else "none"
        _check(before, run(removed(base, [(section, i, name)])), placement)
    assert len(seen) > 20
