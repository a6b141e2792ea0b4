"""Tests for facility.physics.coolant: fluid properties and the loop heat balance.

Expected values come from CoolProp (a test-only dependency; its values recorded in
data/coolprop.json, checked against it live with ``-m slow``), from the published property
table of Melinder (2010) (docs/references.md#melinder-2010), or are worked by hand in the comments — never from another function
of the project.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from facility.physics.coolant import (
    coolant_temperature_rise,
    density,
    flow_from_supply_table,
    freezing_point,
    mass_fraction_from_volume_fraction,
    required_coolant_flow,
    specific_heat,
    viscosity,
    volume_fraction_from_mass_fraction,
)
from facility.physics.tables import OutsideTableError
from tests.physics import coolprop_table

SECONDS_PER_MINUTE = 60.0
LITRES_PER_CUBIC_METRE = 1000.0
# 1 m³/s = 1000 L/s = 60 000 L/min.
LITRES_PER_MINUTE_PER_CUBIC_METRE_PER_SECOND = LITRES_PER_CUBIC_METRE * SECONDS_PER_MINUTE


def litres_per_minute(flow: float) -> float:
    return flow * LITRES_PER_MINUTE_PER_CUBIC_METRE_PER_SECOND


# --- Against CoolProp's incompressible fluids ---------------------------------------------------
# The values are CoolProp's, recorded in data/coolprop.json (tests/physics/coolprop_table.py);
# the slow test below checks the record against a live CoolProp.

PROPERTIES = [("D", density), ("C", specific_heat), ("V", viscosity)]


@pytest.fixture(scope="module")
def coolprop() -> dict[str, dict[str, list[float]]]:
    return coolprop_table.recorded()


@pytest.mark.parametrize(("coolprop_key", "property_function"), PROPERTIES, ids=["D", "C", "V"])
@pytest.mark.parametrize(
    ("fluid", "mass_fraction", "coolprop_fluid"),
    coolprop_table.MIXTURES,
    ids=[name for _, _, name in coolprop_table.MIXTURES],
)
def test_property_matches_coolprop_incompressible_within_half_a_percent(
    coolprop, fluid, mass_fraction, coolprop_fluid, coolprop_key, property_function
) -> None:
    expected = coolprop[coolprop_fluid][coolprop_key]
    for temperature, value in zip(coolprop_table.TEMPERATURES, expected, strict=True):
        actual = property_function(fluid, mass_fraction, temperature)
        assert actual == pytest.approx(value, rel=5e-3), f"{coolprop_fluid} at {temperature} °C"


@pytest.mark.parametrize(("coolprop_key", "property_function"), PROPERTIES, ids=["D", "C", "V"])
def test_water_is_within_0_6_percent_of_iapws_95(coolprop, coolprop_key, property_function) -> None:
    # CoolProp's 'Water' is the IAPWS-95 reference equation (with IAPWS 2008 viscosity). The
    # INCOMP::Water fit used here deviates from it by at most 0.23 % (ρ), 0.39 % (cp) and
    # 0.54 % (μ) over 10–60 °C; this pins that documented accuracy.
    expected = coolprop["Water"][coolprop_key]
    for temperature, value in zip(coolprop_table.TEMPERATURES, expected, strict=True):
        actual = property_function("water", 0.0, temperature)
        assert actual == pytest.approx(value, rel=6e-3), f"water at {temperature} °C"


@pytest.mark.slow
def test_the_recorded_coolprop_values_are_coolprops() -> None:
    recorded, live = coolprop_table.recorded(), coolprop_table.live()
    assert recorded.keys() == live.keys()
    for fluid, keys in live.items():
        for key, values in keys.items():
            assert recorded[fluid][key] == pytest.approx(values, rel=1e-9), (fluid, key)


# --- Correlations worked by hand ---------------------------------------------------------------


def test_water_density_worked_by_hand_at_35_celsius() -> None:
    # ρ = Σ a_k (t - 100)^k with t - 100 = -65 K (CoolProp INCOMP::Water coefficients):
    # 961.5327 + (-0.7059969)(-65) + (-2.541021e-3)(4225) + (3.442833e-6)(-274625)
    # = 961.5327 + 45.88980 - 10.73581 - 0.94549 = 995.7412 kg/m³
    assert density("water", 0.0, 35.0) == pytest.approx(995.7412, abs=1e-3)


def test_water_specific_heat_worked_by_hand_at_35_celsius() -> None:
    # cp = Σ b_k (t - 100)^k with t - 100 = -65 K:
    # 4199.132 + (1.116817)(-65) + (1.238871e-2)(4225) + (2.770690e-5)(-274625)
    # = 4199.132 - 72.59311 + 52.34230 - 7.60901 = 4171.2722 J/(kg·K)
    assert specific_heat("water", 0.0, 35.0) == pytest.approx(4171.2722, abs=1e-3)


def test_water_properties_at_fit_reference_temperature() -> None:
    # At t = 100 °C every (t - 100) term vanishes: ρ = a_0 = 961.5327, cp = b_0 = 4199.132.
    # μ = exp(A / (T - B) - C) = exp(559.8818 / (373.15 - 141.1882) - 10.58592)
    #   = exp(559.8818 / 231.9618 - 10.58592) = exp(2.413681 - 10.58592) = exp(-8.172239)
    #   = 2.82385e-4 Pa·s
    assert density("water", 0.0, 100.0) == pytest.approx(961.5327, rel=1e-12)
    assert specific_heat("water", 0.0, 100.0) == pytest.approx(4199.132, rel=1e-12)
    assert viscosity("water", 0.0, 100.0) == pytest.approx(2.82385e-4, rel=1e-5)


@pytest.mark.parametrize(
    ("fluid", "mass_fraction", "temperature", "rho", "cp", "log_mu", "freeze"),
    [
        # Melinder's fit centre for PG (x_m = 30.7031 %, t_m = 32.7083 °C): all (x - x_m) and
        # (t - t_m) terms vanish, leaving c_00 of each column: ρ = 1018 kg/m³,
        # cp = 3882 J/(kg·K), ln μ[mPa·s] = 0.6837 → μ = e^0.6837 = 1.98119 mPa·s, t_f = -13.25 °C.
        ("propylene_glycol", 0.307031, 32.7083, 1018.0, 3882.0, 0.6837, -13.25),
        # EG centre (x_m = 30.8462 %, t_m = 31.728 °C): ρ = 1034, cp = 3737,
        # μ = e^0.4705 = 1.60079 mPa·s, t_f = -15.25 °C.
        ("ethylene_glycol", 0.308462, 31.728, 1034.0, 3737.0, 0.4705, -15.25),
    ],
)
def test_melinder_polynomial_reduces_to_constant_term_at_fit_centre(
    fluid, mass_fraction, temperature, rho, cp, log_mu, freeze
) -> None:
    assert density(fluid, mass_fraction, temperature) == pytest.approx(rho, rel=1e-9)
    assert specific_heat(fluid, mass_fraction, temperature) == pytest.approx(cp, rel=1e-9)
    assert viscosity(fluid, mass_fraction, temperature) == pytest.approx(
        math.exp(log_mu) * 1e-3, rel=1e-9
    )
    assert freezing_point(fluid, mass_fraction) == pytest.approx(freeze, abs=1e-9)


@pytest.mark.parametrize(
    ("mass_fraction", "temperature", "rho", "cp", "mu_millipascal_seconds"),
    [
        # Melinder (2010) via Modelica Buildings (docs/references.md#melinder-2010), PG by mass:
        (0.25, 20.0, 1019.3, 3921.0, 2.45),
        (0.25, 35.0, 1012.5, 3957.0, 1.54),
        (0.25, 45.0, 1007.2, 3981.0, 1.20),
        (0.30, 35.0, 1016.2, 3897.0, 1.81),
    ],
)
def test_propylene_glycol_reproduces_domain_table(
    mass_fraction, temperature, rho, cp, mu_millipascal_seconds
) -> None:
    # The table is rounded to 0.1 kg/m³, 1 J/(kg·K) and 0.01 mPa·s; allow half a unit more.
    assert density("propylene_glycol", mass_fraction, temperature) == pytest.approx(rho, abs=0.1)
    assert specific_heat("propylene_glycol", mass_fraction, temperature) == pytest.approx(
        cp, abs=1.0
    )
    assert viscosity("propylene_glycol", mass_fraction, temperature) * 1e3 == pytest.approx(
        mu_millipascal_seconds, abs=0.01
    )


@pytest.mark.parametrize(
    ("mass_fraction", "expected"),
    [(0.25, -9.8), (0.30, -12.8)],  # Melinder (2010): PG 25 % → -9.8 °C, PG 30 % → -12.8 °C
)
def test_propylene_glycol_freezing_point_matches_domain_table(mass_fraction, expected) -> None:
    assert freezing_point("propylene_glycol", mass_fraction) == pytest.approx(expected, abs=0.05)


def test_water_freezes_at_zero_celsius() -> None:
    assert freezing_point("water", 0.0) == 0.0


@pytest.mark.parametrize(
    ("fluid", "volume_fraction", "expected"),
    [
        # w = φ ρ_g / (φ ρ_g + (1 - φ) ρ_w) with ρ_PG = 1036.1, ρ_w = 998.21 kg/m³ at 20 °C:
        # 0.25 · 1036.1 / (0.25 · 1036.1 + 0.75 · 998.21) = 259.025 / (259.025 + 748.6575)
        # = 259.025 / 1007.6825 = 0.257050
        ("propylene_glycol", 0.25, 0.257050),
        # ρ_EG = 1113.5: 278.375 / (278.375 + 748.6575) = 278.375 / 1027.0325 = 0.271048
        ("ethylene_glycol", 0.25, 0.271048),
        # Pure components: φ = 0 → 0, φ = 1 → 1.
        ("propylene_glycol", 0.0, 0.0),
        ("propylene_glycol", 1.0, 1.0),
        ("water", 0.0, 0.0),
    ],
)
def test_mass_fraction_from_volume_fraction(fluid, volume_fraction, expected) -> None:
    assert mass_fraction_from_volume_fraction(fluid, volume_fraction) == pytest.approx(
        expected, abs=1e-6
    )


@pytest.mark.parametrize(
    ("fluid", "mass_fraction", "expected"),
    [
        # φ = (w / ρ_g) / (w / ρ_g + (1 - w) / ρ_w), ρ_PG = 1036.1, ρ_EG = 1113.5,
        # ρ_w = 998.21 kg/m³ at 20 °C. The correlations' limit of 60 % by mass:
        # PG: 0.6 / 1036.1 = 5.79095e-4, 0.4 / 998.21 = 4.00717e-4
        #     φ = 5.79095 / (5.79095 + 4.00717) = 5.79095 / 9.79812 = 0.591026
        ("propylene_glycol", 0.6, 0.591026),
        # EG: 0.6 / 1113.5 = 5.38841e-4; φ = 5.38841 / (5.38841 + 4.00717) = 0.573505
        ("ethylene_glycol", 0.6, 0.573505),
        # PG25 as blended (the mass fraction of the test above): 0.257050 by mass →
        # 0.257050 / 1036.1 = 2.48094e-4, 0.742950 / 998.21 = 7.44282e-4
        # φ = 2.48094 / (2.48094 + 7.44282) = 2.48094 / 9.92376 = 0.250000
        ("propylene_glycol", 0.257050, 0.250000),
        # Pure components: w = 0 → 0, w = 1 → 1.
        ("ethylene_glycol", 0.0, 0.0),
        ("ethylene_glycol", 1.0, 1.0),
        ("water", 0.0, 0.0),
    ],
)
def test_volume_fraction_from_mass_fraction(fluid, mass_fraction, expected) -> None:
    assert volume_fraction_from_mass_fraction(fluid, mass_fraction) == pytest.approx(
        expected, abs=1e-6
    )


@given(
    fluid=st.sampled_from(["propylene_glycol", "ethylene_glycol"]),
    volume_fraction=st.floats(0.0, 1.0),
)
def test_volume_and_mass_fractions_round_trip(fluid, volume_fraction) -> None:
    mass = mass_fraction_from_volume_fraction(fluid, volume_fraction)
    assert volume_fraction_from_mass_fraction(fluid, mass) == pytest.approx(
        volume_fraction, abs=1e-12
    )


@pytest.mark.parametrize(
    ("fluid", "mass_fraction", "message"),
    [
        ("propylene_glycol", 1.1, "mass_fraction of propylene_glycol must be within"),
        ("ethylene_glycol", math.nan, "mass_fraction of ethylene_glycol must be within"),
        ("water", 0.25, "must be 0 for water"),
        ("brine", 0.25, "unknown fluid"),
    ],
)
def test_volume_fraction_from_mass_fraction_rejects_bad_input(fluid, mass_fraction, message):
    with pytest.raises(ValueError, match=message):
        volume_fraction_from_mass_fraction(fluid, mass_fraction)


# --- Heat balance worked by hand (ρ, cp from the published table, Melinder 2010) ------------


def test_required_flow_for_row_a_pg25_matches_reference_scenario() -> None:
    # Hall B3, TCS-A: 8 racks · 135 kW · 0.9 liquid = 972 kW, PG25 (mass) at ~41 °C mean, 10 K.
    # ρ, cp at 41 °C, interpolated by hand between the 35 and 45 °C rows of Melinder (2010):
    #   ρ  = 1012.5 + 0.6 · (1007.2 - 1012.5) = 1012.5 - 3.18 = 1009.32 kg/m³
    #   cp = 3957 + 0.6 · (3981 - 3957) = 3957 + 14.4 = 3971.4 J/(kg·K)
    # V̇ = 60000 · Q / (ρ · cp · ΔT) = 60000 · 972000 / (1009.32 · 3971.4 · 10)
    #   = 5.832e10 / 40084134.5 = 1454.94 L/min (scenario: ≈1,455 L/min > 1,200 L/min)
    flow = required_coolant_flow(972_000.0, 10.0, 1009.32, 3971.4)
    assert litres_per_minute(flow) == pytest.approx(1454.94, abs=0.01)
    assert litres_per_minute(flow) == pytest.approx(1455.0, rel=1e-3)


def test_required_flow_for_row_b_water_matches_reference_scenario() -> None:
    # Hall B3, TCS-B: 12 · 32 kW · 0.85 = 326.4 kW of water at 35 °C (ρ = 994.4 kg/m³,
    # cp = 4179 J/(kg·K), IAPWS-95), 8 K rise:
    # V̇ = 60000 · 326400 / (994.4 · 4179 · 8) = 1.9584e10 / 33244780.8 = 589.08 L/min
    # (scenario: ≈590 L/min ≤ 900 L/min)
    flow = required_coolant_flow(326_400.0, 8.0, 994.4, 4179.0)
    assert litres_per_minute(flow) == pytest.approx(589.08, abs=0.01)
    assert litres_per_minute(flow) == pytest.approx(590.0, rel=2e-3)


def test_required_flow_per_kilowatt_matches_rule_of_thumb() -> None:
    # From Melinder (2010) at 35 °C: PG25 (mass) at a 10 K rise needs 1.50 L/min per kW.
    # 60000 · 1000 / (1012.5 · 3957 · 10) = 6e7 / 40064625 = 1.4976 L/min
    flow = required_coolant_flow(1000.0, 10.0, 1012.5, 3957.0)
    assert litres_per_minute(flow) == pytest.approx(1.4976, abs=1e-4)


def test_coolant_temperature_rise_for_lenovo_gb300_at_45_celsius() -> None:
    # Lenovo LP2357 (docs/references.md#lenovo-lp2357): 90 % of 135 kW = 121.5 kW to liquid at 177 L/min, 45 °C water
    # (ρ = 990.5, cp = 4179, IAPWS-95). V̇ = 177 / 60000 = 0.00295 m³/s.
    # ΔT = Q / (ρ · V̇ · cp) = 121500 / (990.5 · 0.00295 · 4179) = 121500 / 12210.94 = 9.950 K
    # (Lenovo LP2357: "≈10 K at 45 °C")
    rise = coolant_temperature_rise(121_500.0, 177.0 / 60_000.0, 990.5, 4179.0)
    assert rise == pytest.approx(9.950, abs=1e-3)


def test_pg25_needs_3_7_percent_more_flow_than_water_at_35_celsius() -> None:
    # the property tables at 35 °C (IAPWS-95 water, Melinder 2010 PG25): water ρ·cp = 994.4 · 4179 = 4155597.6; PG25 ρ·cp =
    # 1012.5 · 3957 = 4006462.5. Flow ratio = 4155597.6 / 4006462.5 = 1.03722 (≈ +3.7 %).
    water = required_coolant_flow(100_000.0, 10.0, 994.4, 4179.0)
    glycol = required_coolant_flow(100_000.0, 10.0, 1012.5, 3957.0)
    assert glycol / water == pytest.approx(1.03722, abs=1e-5)


def test_correlations_reproduce_glycol_effect_at_35_celsius() -> None:
    # From the tables: PG25 needs ≈3.7 % more flow than water (ρ·cp ratio 1.037) and has ≈2.1×
    # its viscosity (1.54 / 0.72 = 2.14). The correlations (CoolProp's water fit, Melinder's PG)
    # must reproduce both effects.
    volumetric_heat_capacity_ratio = (
        density("water", 0.0, 35.0)
        * specific_heat("water", 0.0, 35.0)
        / (density("propylene_glycol", 0.25, 35.0) * specific_heat("propylene_glycol", 0.25, 35.0))
    )
    viscosity_ratio = viscosity("propylene_glycol", 0.25, 35.0) / viscosity("water", 0.0, 35.0)
    assert volumetric_heat_capacity_ratio == pytest.approx(1.037, abs=0.002)
    assert viscosity_ratio == pytest.approx(2.14, abs=0.03)


def test_zero_heat_needs_zero_flow_and_gives_zero_rise() -> None:
    assert required_coolant_flow(0.0, 10.0, 994.4, 4179.0) == 0.0
    assert coolant_temperature_rise(0.0, 0.001, 994.4, 4179.0) == 0.0


@given(
    heat=st.floats(1.0, 1e7),
    temperature_rise=st.floats(0.1, 50.0),
    rho=st.floats(900.0, 1200.0),
    cp=st.floats(3000.0, 4300.0),
)
def test_flow_and_rise_round_trip(heat, temperature_rise, rho, cp) -> None:
    flow = required_coolant_flow(heat, temperature_rise, rho, cp)
    assert coolant_temperature_rise(heat, flow, rho, cp) == pytest.approx(
        temperature_rise, rel=1e-12
    )


@given(
    fluid=st.sampled_from(["propylene_glycol", "ethylene_glycol"]),
    mass_fraction=st.floats(0.0, 0.6),
    temperature=st.floats(10.0, 59.0),
    step=st.floats(0.5, 41.0),
)
def test_glycol_viscosity_falls_as_temperature_rises(
    fluid, mass_fraction, temperature, step
) -> None:
    warmer = min(temperature + step, 100.0)
    assert viscosity(fluid, mass_fraction, warmer) < viscosity(fluid, mass_fraction, temperature)


@given(
    fluid=st.sampled_from(["propylene_glycol", "ethylene_glycol"]),
    mass_fraction=st.floats(0.0, 0.59),
    extra=st.floats(0.01, 0.6),
    temperature=st.floats(10.0, 60.0),
)
def test_more_glycol_is_denser_and_freezes_lower(fluid, mass_fraction, extra, temperature) -> None:
    richer = min(mass_fraction + extra, 0.6)
    assert density(fluid, richer, temperature) > density(fluid, mass_fraction, temperature)
    assert freezing_point(fluid, richer) < freezing_point(fluid, mass_fraction)


def test_properties_work_elementwise_on_arrays() -> None:
    numpy = pytest.importorskip("numpy")
    temperatures = numpy.array([20.0, 35.0, 45.0])
    for fluid, mass_fraction in (("water", 0.0), ("propylene_glycol", 0.25)):
        for function in (density, specific_heat, viscosity):
            values = function(fluid, mass_fraction, temperatures)
            expected = [function(fluid, mass_fraction, float(t)) for t in temperatures]
            assert values.tolist() == pytest.approx(expected, rel=1e-14)
    flows = required_coolant_flow(numpy.array([1e5, 2e5]), 10.0, 994.4, 4179.0)
    assert flows[1] == pytest.approx(2 * flows[0], rel=1e-14)


# --- Vendor flow table (Lenovo GB300 NVL72, LP2357 Table 27) -------------------------------------

LENOVO_GB300_TABLE = [
    (temperature, litres / LITRES_PER_MINUTE_PER_CUBIC_METRE_PER_SECOND)
    for temperature, litres in [
        (25.0, 59.0),
        (30.0, 71.0),
        (35.0, 89.0),
        (40.0, 119.0),
        (45.0, 177.0),
    ]
]


def test_flow_from_supply_table_interpolates_lenovo_gb300() -> None:
    # 37.5 °C is midway between 35 °C (89 L/min) and 40 °C (119 L/min): (89 + 119) / 2 = 104.
    flow = flow_from_supply_table(37.5, LENOVO_GB300_TABLE)
    assert litres_per_minute(flow) == pytest.approx(104.0, rel=1e-12)
    # At the 45 °C row the table's 177 L/min comes back.
    assert litres_per_minute(flow_from_supply_table(45.0, LENOVO_GB300_TABLE)) == pytest.approx(
        177.0, rel=1e-12
    )


@pytest.mark.parametrize("supply_temperature", [20.0, 24.99, 45.01, 50.0, math.nan])
def test_flow_from_supply_table_does_not_extrapolate(supply_temperature) -> None:
    with pytest.raises(OutsideTableError, match=r"outside the vendor flow table.*not extrapolated"):
        flow_from_supply_table(supply_temperature, LENOVO_GB300_TABLE)


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ([(25.0, 0.001), (30.0, 0.0)], "finite and > 0"),
        ([(25.0, 0.001), (30.0, -0.001)], "finite and > 0"),
        ([(25.0, 0.001, 2.3), (30.0, 0.0012, 3.2)], "pair"),
        ([(30.0, 0.0012), (25.0, 0.001)], "strictly increasing"),
        ([(25.0, 0.001)], "at least two points"),
    ],
)
def test_flow_from_supply_table_rejects_malformed_tables(table, message) -> None:
    with pytest.raises(ValueError, match=message):
        flow_from_supply_table(27.0, table)


# --- Error cases --------------------------------------------------------------------------------


@pytest.mark.parametrize("fluid", ["glycol", "PG25", "Water", "", "INCOMP::MPG"])
@pytest.mark.parametrize("function", [density, specific_heat, viscosity])
def test_unknown_fluid_is_rejected(function, fluid) -> None:
    with pytest.raises(ValueError, match="unknown fluid"):
        function(fluid, 0.25, 35.0)


@pytest.mark.parametrize("fluid", ["glycol", "brine"])
def test_unknown_fluid_is_rejected_by_composition_functions(fluid) -> None:
    with pytest.raises(ValueError, match="unknown fluid"):
        freezing_point(fluid, 0.25)
    with pytest.raises(ValueError, match="unknown fluid"):
        mass_fraction_from_volume_fraction(fluid, 0.25)


@pytest.mark.parametrize("function", [density, specific_heat, viscosity])
def test_water_with_glycol_fraction_is_rejected(function) -> None:
    with pytest.raises(ValueError, match="must be 0 for water"):
        function("water", 0.25, 35.0)


@pytest.mark.parametrize("temperature", [-0.1, 100.1, math.nan, math.inf])
@pytest.mark.parametrize("function", [density, specific_heat, viscosity])
def test_water_temperature_outside_0_to_100_celsius_is_rejected(function, temperature) -> None:
    with pytest.raises(ValueError, match=r"temperature of water.*0.0–100.0 °C"):
        function("water", 0.0, temperature)


@pytest.mark.parametrize("fluid", ["propylene_glycol", "ethylene_glycol"])
@pytest.mark.parametrize("mass_fraction", [-0.01, 0.61, 1.0, math.nan])
def test_glycol_mass_fraction_outside_0_to_0_6_is_rejected(fluid, mass_fraction) -> None:
    with pytest.raises(ValueError, match=r"mass_fraction of .*0.0–0.6"):
        density(fluid, mass_fraction, 35.0)
    with pytest.raises(ValueError, match=r"mass_fraction of .*0.0–0.6"):
        freezing_point(fluid, mass_fraction)


@pytest.mark.parametrize("function", [density, specific_heat, viscosity])
def test_glycol_below_its_freezing_point_is_rejected(function) -> None:
    # PG25 (mass) freezes at -9.8 °C (Melinder 2010): -9 °C is liquid, -11 °C is not.
    function("propylene_glycol", 0.25, -9.0)
    with pytest.raises(ValueError, match="below the freezing point"):
        function("propylene_glycol", 0.25, -11.0)


@pytest.mark.parametrize("temperature", [100.5, math.nan])
def test_glycol_above_100_celsius_is_rejected(temperature) -> None:
    with pytest.raises(ValueError, match="temperature of propylene_glycol"):
        viscosity("propylene_glycol", 0.25, temperature)


@pytest.mark.parametrize("volume_fraction", [-0.1, 1.1, math.nan])
def test_volume_fraction_outside_0_to_1_is_rejected(volume_fraction) -> None:
    with pytest.raises(ValueError, match="volume_fraction"):
        mass_fraction_from_volume_fraction("propylene_glycol", volume_fraction)
    with pytest.raises(ValueError, match="volume_fraction must be 0 for water"):
        mass_fraction_from_volume_fraction("water", 0.25)


@pytest.mark.parametrize(
    ("heat", "temperature_rise", "rho", "cp", "message"),
    [
        (1e5, 0.0, 994.4, 4179.0, "temperature_rise"),
        (1e5, -5.0, 994.4, 4179.0, "temperature_rise"),
        (1e5, math.nan, 994.4, 4179.0, "temperature_rise"),
        (1e5, math.inf, 994.4, 4179.0, "temperature_rise"),
        (1e5, 10.0, 0.0, 4179.0, "density"),
        (1e5, 10.0, 994.4, -4179.0, "specific_heat"),
        (-1.0, 10.0, 994.4, 4179.0, "heat"),
        (math.nan, 10.0, 994.4, 4179.0, "heat"),
    ],
)
def test_required_coolant_flow_rejects_non_positive_inputs(
    heat, temperature_rise, rho, cp, message
) -> None:
    with pytest.raises(ValueError, match=message):
        required_coolant_flow(heat, temperature_rise, rho, cp)


@pytest.mark.parametrize(
    ("heat", "flow", "rho", "cp", "message"),
    [
        (1e5, 0.0, 994.4, 4179.0, "flow"),
        (1e5, -0.001, 994.4, 4179.0, "flow"),
        (1e5, 0.001, -994.4, 4179.0, "density"),
        (1e5, 0.001, 994.4, 0.0, "specific_heat"),
        (-1e5, 0.001, 994.4, 4179.0, "heat"),
    ],
)
def test_coolant_temperature_rise_rejects_non_positive_inputs(heat, flow, rho, cp, message) -> None:
    with pytest.raises(ValueError, match=message):
        coolant_temperature_rise(heat, flow, rho, cp)
