"""A coolant outside its property correlation is an input error, at the field that says so.

The Melinder (2010) glycol correlations hold up to 60 % glycol by mass; the water fit and the
glycol fits up to 100 °C (facility/physics/coolant.py). Beyond them the loader refuses the
site (exit 2, file:line:column, the field, the valid range in the unit the user wrote) instead
of a traceback later in the physics. A supply at or below the mix's freezing point is not an
input error but a finding (LIQ-017, LIQ-018; tests/engine/cases).

Volume limits worked by hand, φ = (w / ρ_g) / (w / ρ_g + (1 - w) / ρ_w) at w = 0.6 with the
pure densities at 20 °C (PG 1036.1, EG 1113.5, water 998.21 kg/m³):
  PG: (0.6 / 1036.1) / (0.6 / 1036.1 + 0.4 / 998.21) = 5.79095e-4 / 9.79812e-4 = 0.591026
      → "59.1 %" (rounded down, so the stated limit is itself accepted)
  EG: (0.6 / 1113.5) / (0.6 / 1113.5 + 0.4 / 998.21) = 5.38841e-4 / 9.39558e-4 = 0.573505
      → "57.3 %" (57.35 rounds down: 57.4 % by volume is 60.04 % by mass, refused)
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from facility.cli import app

from ._site import load, one_problem, problems, write

runner = CliRunner()


def _loop(coolant: str, setpoint: str = "") -> str:
    extra = f"\n              supply_setpoint: {setpoint}" if setpoint else ""
    return f"""\
        site: {{name: T}}
        cooling:
          cdus: [{{id: C1}}]
          tcs_loops:
            - id: L1
              coolant: {coolant}
              cdus: [C1]{extra}
        """


# --- concentration ---------------------------------------------------------------------


def test_propylene_glycol_over_the_volume_limit_names_the_limit_by_volume(tmp_path):
    line, column, field, message = one_problem(
        tmp_path, _loop("{fluid: propylene_glycol, volume_fraction: 65 %}")
    )
    assert (line, column, field) == (6, 42, "cooling.tcs_loops[0].coolant.volume_fraction")
    assert message == (
        "propylene glycol at 65 % by volume is outside the property correlation "
        "(Melinder 2010), valid up to 59.1 % by volume (60 % by mass)"
    )


def test_ethylene_glycol_over_the_mass_limit_names_the_limit_by_mass(tmp_path):
    line, _, field, message = one_problem(
        tmp_path, _loop("{fluid: ethylene_glycol, mass_fraction: 70 %}")
    )
    assert (line, field) == (6, "cooling.tcs_loops[0].coolant.mass_fraction")
    assert message == (
        "ethylene glycol at 70 % by mass is outside the property correlation "
        "(Melinder 2010), valid up to 60 % by mass"
    )


@pytest.mark.parametrize(
    ("coolant", "limit"),
    [
        # 59.2 % PG by volume: 0.592 · 1036.1 / (0.592 · 1036.1 + 0.408 · 998.21)
        #   = 613.371 / (613.371 + 407.270) = 0.60097 > 0.6 → refused
        (
            "{fluid: propylene_glycol, volume_fraction: 59.2 %}",
            "valid up to 59.1 % by volume (60 % by mass)",
        ),
        # 57.4 % EG by volume: 639.149 / (639.149 + 425.237) = 0.60049 > 0.6 → refused
        (
            "{fluid: ethylene_glycol, volume_fraction: 57.4 %}",
            "valid up to 57.3 % by volume (60 % by mass)",
        ),
        ("{fluid: propylene_glycol, mass_fraction: 60.1 %}", "valid up to 60 % by mass"),
    ],
)
def test_just_over_the_limit_is_refused(tmp_path, coolant, limit):
    _, _, _, message = one_problem(tmp_path, _loop(coolant))
    assert message.endswith(limit)


@pytest.mark.parametrize(
    "coolant",
    [
        # 59.1 % PG: 612.335 / (612.335 + 408.268) = 0.59998 ≤ 0.6 → accepted
        "{fluid: propylene_glycol, volume_fraction: 59.1 %}",
        # 57.3 % EG: 638.036 / (638.036 + 426.236) = 0.59951 ≤ 0.6 → accepted
        "{fluid: ethylene_glycol, volume_fraction: 57.3 %}",
        "{fluid: ethylene_glycol, mass_fraction: 60 %}",
        "{fluid: propylene_glycol, volume_fraction: 25 %}",
        "{fluid: water}",
    ],
)
def test_concentrations_up_to_the_limit_load(tmp_path, coolant):
    site = load(tmp_path, _loop(coolant))
    assert list(site.loops) == ["L1"]


def test_facility_water_coolant_is_checked_too(tmp_path):
    line, _, field, message = one_problem(
        tmp_path,
        """\
        site: {name: T}
        cooling:
          facility_water:
            - id: W1
              coolant: {fluid: propylene_glycol, volume_fraction: 80 %}
        """,
    )
    assert (line, field) == (5, "cooling.facility_water[0].coolant.volume_fraction")
    assert message.startswith("propylene glycol at 80 % by volume is outside")


# --- temperature -------------------------------------------------------------------------


def test_setpoint_above_100_celsius_is_refused_at_the_setpoint(tmp_path):
    line, column, field, message = one_problem(
        tmp_path, _loop("{fluid: propylene_glycol, volume_fraction: 25 %}", "120 degC")
    )
    assert (line, column, field) == (8, 7, "cooling.tcs_loops[0].supply_setpoint")
    assert message == (
        "'120 degC' is above the range of the propylene glycol property correlation "
        "(Melinder 2010), valid up to 100 °C"
    )


def test_facility_supply_above_100_celsius_is_refused_in_the_unit_written(tmp_path):
    # 213 °F = (213 − 32) / 1.8 = 100.56 °C > 100 °C
    line, _, field, message = one_problem(
        tmp_path,
        """\
        site: {name: T}
        cooling:
          facility_water:
            - {id: W1, supply_temperature: 213 degF}
        """,
    )
    assert (line, field) == (4, "cooling.facility_water[0].supply_temperature")
    assert message == (
        "'213 degF' is above the range of the water property correlation "
        "(CoolProp fit to IAPWS-95), valid up to 100 °C"
    )


def test_facility_supply_checked_against_its_own_coolant(tmp_path):
    # coolant is written after supply_temperature here: the field order of the model, not of
    # the file, decides what the validator sees.
    _, _, field, message = one_problem(
        tmp_path,
        """\
        site: {name: T}
        cooling:
          facility_water:
            - id: W1
              supply_temperature: 105 degC
              coolant: {fluid: ethylene_glycol, mass_fraction: 30 %}
        """,
    )
    assert field == "cooling.facility_water[0].supply_temperature"
    assert "ethylene glycol property correlation (Melinder 2010)" in message


def test_100_celsius_and_below_freezing_load(tmp_path):
    # 100 °C is the correlations' upper end, still inside; −40 °C is below PG25's freezing
    # point (−10.2 °C), which is a finding (LIQ-017), not an input error.
    site = load(
        tmp_path,
        """\
        site: {name: T}
        cooling:
          facility_water:
            - {id: W1, supply_temperature: 100 degC}
          cdus: [{id: C1}]
          tcs_loops:
            - id: L1
              coolant: {fluid: propylene_glycol, volume_fraction: 25 %}
              cdus: [C1]
              supply_setpoint: -40 degC
        """,
    )
    assert site.facility_water["W1"].supply_temperature == 100.0
    assert site.loops["L1"].supply_setpoint == pytest.approx(-40.0)


def test_with_the_coolant_refused_its_setpoint_is_not_judged(tmp_path):
    # The setpoint's bound depends on the coolant; with the coolant refused, only its problem.
    found = problems(
        tmp_path, _loop("{fluid: propylene_glycol, volume_fraction: 65 %}", "120 degC")
    )
    assert [field for _, _, field, _ in found] == ["cooling.tcs_loops[0].coolant.volume_fraction"]


# --- through the command line: exit 2, no traceback ---------------------------------------


def _check(path: Path, *args: str):
    return runner.invoke(app, ["check", str(path), *args])


def test_cli_refuses_pg_65_percent_by_volume_with_exit_2(tmp_path):
    path = write(tmp_path, _loop("{fluid: propylene_glycol, volume_fraction: 65 %}"))
    result = _check(path)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        f"error: {path}:6:42: cooling.tcs_loops[0].coolant.volume_fraction: propylene glycol "
        "at 65 % by volume is outside the property correlation (Melinder 2010), valid up to "
        "59.1 % by volume (60 % by mass)",
        "1 problem found; nothing was written.",
    ]
    assert "Traceback" not in result.output


def test_cli_refuses_eg_70_percent_by_mass_with_exit_2(tmp_path):
    path = write(tmp_path, _loop("{fluid: ethylene_glycol, mass_fraction: 70 %}"))
    result = _check(path)
    assert result.exit_code == 2, result.output
    assert f"{path}:6:" in result.stderr
    assert "coolant.mass_fraction" in result.stderr
    assert "valid up to 60 % by mass" in result.stderr
    assert "Traceback" not in result.output


def test_cli_refuses_a_setpoint_above_100_celsius_with_exit_2(tmp_path):
    path = write(tmp_path, _loop("{fluid: water}", "120 degC"))
    result = _check(path)
    assert result.exit_code == 2, result.output
    assert f"{path}:8:7: cooling.tcs_loops[0].supply_setpoint: '120 degC'" in result.stderr
    assert "valid up to 100 °C" in result.stderr
    assert "Traceback" not in result.output


def test_cli_refusal_in_chinese(tmp_path):
    path = write(tmp_path, _loop("{fluid: propylene_glycol, volume_fraction: 65 %}"))
    result = _check(path, "--lang", "zh-CN")
    assert result.exit_code == 2, result.output
    assert "体积分数 65 % 的丙二醇水溶液超出物性关联式（Melinder 2010）的适用范围" in result.stderr
    assert "适用上限为体积分数 59.1 %（质量分数 60 %）" in result.stderr


def test_cli_supply_below_freezing_is_a_finding_not_a_traceback(tmp_path):
    # Facility water at −20 °C + 4 K approach: the PG25 loop is supplied at −16 °C, below its
    # freezing point of −10.2 °C (tests/engine/cases/LIQ-017.yaml works it by hand), and the
    # water itself is below 0 °C: LIQ-017 and LIQ-018 fail; the run ends with exit 1. The flows
    # at those temperatures have no properties (facility.engine.derive_liquid reports them as
    # not evaluated), so nothing raises.
    path = write(
        tmp_path,
        """\
        site: {name: T}
        rack_types:
          - {id: t1, cooling: liquid, nominal_power: 100 kW, peak_power: 100 kW,
             liquid_heat_fraction: 90 %, design_coolant_rise: 10 K}
        cooling:
          facility_water:
            - {id: W1, supply_temperature: -20 degC, primary_rise: 8 K}
          cdus: [{id: C1, facility_water: W1, approach: 4 K, capacity: 500 kW}]
          tcs_loops:
            - id: L1
              coolant: {fluid: propylene_glycol, volume_fraction: 25 %}
              cdus: [C1]
        racks:
          - {id: R1, type: t1, loop: L1}
        """,
    )
    result = _check(path, "-f", "json")
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.exit_code == 1, result.output
    assert '"LIQ-017"' in result.stdout and '"LIQ-018"' in result.stdout
