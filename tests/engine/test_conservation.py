"""Conservation (issue 13): every rack's load, heat and mass lands somewhere the engine judges,
exactly once — on every bundled example and on generated campuses.

The totals are added up here from the racks' own figures, independently of the engine; the
parts are what the rules judge (a loop's liquid heat is LIQ-001's observed value, a room's air
heat AIR-001's, a zone's mass FLR-003's), and what lands on nothing must be a failing finding.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

import pytest

from facility.engine.evaluate import audit
from facility.engine.findings import AuditResult
from facility.model.load import load_site
from facility.model.site import Site
from facility.physics.structural import STANDARD_GRAVITY

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from generate_campus import write_campus  # noqa: E402

EXAMPLES = sorted(
    p
    for p in (ROOT / "examples").rglob("*.yaml")
    # bases that are not sites on their own (a CSV import's racks, a layer's base), and netbox/,
    # which extends an import that is not shipped
    if p.name not in ("racks.yaml", "hall-b3-base.yaml") and "netbox" not in p.parts
)


def sites() -> list[tuple[str, Site]]:
    return [(p.relative_to(ROOT).as_posix(), load_site(p)) for p in EXAMPLES]


@pytest.fixture(
    scope="module", params=[(120, 0), (300, 1), (300, 7)], ids=lambda p: f"{p[0]}-racks-seed-{p[1]}"
)
def campus(request, tmp_path_factory) -> Site:
    n, seed = request.param
    path = tmp_path_factory.mktemp("campus") / f"campus-{n}-{seed}.yaml"
    write_campus(n, path, seed=seed)
    return load_site(path)


def observed(result: AuditResult, rule: str) -> dict[str, float]:
    return {
        f.entity_id: f.observed.value
        for f in result.findings
        if f.rule == rule and f.observed is not None and f.observed.value is not None
    }


def check_conservation(site: Site) -> None:
    result = audit(site)
    account = result.account
    assert account is not None
    basis = result.assumptions

    # --- power: Σ racks (electrical basis) = Σ sides + racks on no side
    electrical = basis["electrical_power_basis"]
    powers = {r.id: getattr(r.type.figures, f"{electrical}_power") for r in site.racks}
    known = {k: v for k, v in powers.items() if v is not None}
    assert account.power.total == pytest.approx(sum(known.values()))
    on_sides = sum(account.power.parts.get("power_side", {}).values())
    unfed = {r.id: known[r.id] for r in site.racks if r.id in known and not r.pdus}
    assert on_sides == pytest.approx(sum(known.values()) - sum(unfed.values()))
    assert {e for (_, e) in account.power.nowhere} == set(unfed)
    # each unfed rack is also a failing PWR-009
    failing = {f.entity_id for f in result.findings if f.rule == "PWR-009" and f.status == "fail"}
    assert set(unfed) <= failing

    # --- heat: Σ racks (thermal basis) = Σ loops + Σ rooms + what lands nowhere
    thermal = basis["thermal_power_basis"]
    liquid_by_loop: dict[str, float] = defaultdict(float)
    air_total = 0.0
    total = 0.0
    for rack in site.racks:
        f = rack.type.figures
        power = getattr(f, f"{thermal}_power")
        share = f.liquid_heat_fraction if rack.type.is_liquid else 0.0
        if power is None or share is None:
            continue
        total += power
        air_total += power * (1 - share)
        if rack.loop is not None:
            liquid_by_loop[rack.loop] += power * share
    assert account.heat.total == pytest.approx(total)
    loops = account.heat.parts.get("tcs_loop", {})
    for loop_id, heat in liquid_by_loop.items():
        assert loops[loop_id] == pytest.approx(heat)
    judged = observed(result, "LIQ-001")  # what the CDU check judges is the same number
    for loop_id in judged:
        assert judged[loop_id] == pytest.approx(loops.get(loop_id, 0.0), abs=1e-6)
    rooms = account.heat.parts.get("room", {})
    lost = account.heat.nowhere
    assert sum(rooms.values()) + sum(v for (k, _), v in lost.items() if k == "room") == (
        pytest.approx(air_total)
    )
    for room_id, heat in observed(result, "AIR-001").items():
        assert heat == pytest.approx(rooms[room_id])
    assert account.heat.landed() + account.heat.lost() == pytest.approx(total)

    # --- loop heat: Σ loops = Σ facility water + shares of CDUs on no facility water
    landed_water = account.loop_heat.parts.get("facility_water", {})
    assert sum(landed_water.values()) + account.loop_heat.lost() == pytest.approx(
        sum(loops.values())
    )

    # --- mass: Σ racks = Σ zones + racks in no zone; a zone's FLR-003 load is its racks' mass
    masses = {r.id: r.type.figures.filled_mass for r in site.racks}
    zone_mass: dict[str, float] = defaultdict(float)
    for rack in site.racks:
        if masses[rack.id] is not None and rack.zone is not None:
            zone_mass[rack.zone] += masses[rack.id]
    for zone_id, pressure in observed(result, "FLR-003").items():
        area = site.zones[zone_id].area
        assert pressure * area / STANDARD_GRAVITY == pytest.approx(zone_mass[zone_id])
    assert account.mass.landed() + account.mass.lost() == pytest.approx(
        sum(m for m in masses.values() if m is not None)
    )


@pytest.mark.parametrize(("name", "site"), sites(), ids=[n for n, _ in sites()])
def test_every_example_conserves_its_load_heat_and_mass(name: str, site: Site) -> None:
    check_conservation(site)


def test_generated_campuses_conserve_their_load_heat_and_mass(campus: Site) -> None:
    assert campus.sources and campus.distribution  # campuses model busways and UPS
    check_conservation(campus)


def test_the_terminal_prints_the_sums() -> None:
    from typer.testing import CliRunner

    from facility.cli import app

    out = CliRunner().invoke(app, ["check", str(ROOT / "examples" / "hall-b3.yaml")]).stdout
    # 8 · 155 + 12 · 38 = 1,696 kW = 848 + 848 kW on the two sides
    assert "IT load at peak power: 1,696.0 kW = 1,696.0 kW on power sides" in out
    # 8 · 135 + 12 · 32 = 1,464 kW = 972.0 + 326.4 (liquid) + 165.6 (air)
    assert (
        "Heat at nominal power: 1,464.0 kW = 1,298.4 kW to TCS loops (TCS-A 972.0 kW, "
        "TCS-B 326.4 kW) + 165.6 kW to room air (B3 165.6 kW)"
    ) in out
