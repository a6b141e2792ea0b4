"""Tests for facility.units: parsing quantity strings into canonical magnitudes.

Expected values are worked by hand from the exact definitions of the units:
1 lb = 0.45359237 kg; 1 in = 0.0254 m; 1 ft = 0.3048 m; g_n = 9.80665 m/s²;
1 lbf = 0.45359237 · 9.80665 = 4.4482216152605 N; 1 US gal = 3.785411784 L;
1 Btu = 1055.056 J (pint's Btu, ISO 31-4); °F = °C · 9/5 + 32.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from facility import units
from facility.units import (
    COMMON_UNITS,
    KINDS,
    QuantityError,
    conversion,
    conversion_by_pint,
    parse_quantity,
    to_unit,
)

EXACT = 1e-12  # relative: float round-off only

LBF = 0.45359237 * 9.80665  # N, exact by definition
PSI = LBF / 0.0254**2  # Pa
PSF = LBF / 0.3048**2  # Pa


# --- the unit strings the README promises ------------------------------------------------

PROMISED = [
    # 132 kW = 132 · 1000 W
    ("132 kW", "power", 132_000.0),
    # 450000 BTU/h = 450000 · 1055.056 J / 3600 s = 474,775,200 / 3600 = 131,882.0 W
    ("450000 BTU/h", "power", 131_882.0),
    # 1200 L/min = 1.2 m³ / 60 s = 0.02 m³/s
    ("1200 L/min", "volumetric_flow", 0.02),
    # 317 gpm = 317 · 3.785411784e-3 m³ / 60 s = 1.199975535528 / 60 = 0.0199995922588 m³/s
    ("317 gpm", "volumetric_flow", 0.0199995922588),
    # 2.5 bar = 2.5 · 100,000 Pa
    ("2.5 bar", "pressure", 250_000.0),
    # 36 psi = 36 · 4.4482216152605 N / 0.00064516 m² = 36 · 6,894.757293168 = 248,211.2625541 Pa
    ("36 psi", "pressure", 36 * PSI),
    # 32 degC is canonical (°C)
    ("32 degC", "temperature", 32.0),
    # 90 degF = (90 − 32) · 5/9 = 58 · 5/9 = 32.2222… °C
    ("90 degF", "temperature", 290.0 / 9.0),
    ("1400 kg", "mass", 1400.0),
    # 3100 lb = 3100 · 0.45359237 = 1,406.136347 kg
    ("3100 lb", "mass", 1406.136347),
    ("12 kPa", "pressure", 12_000.0),
    # 250 psf = 250 · 4.4482216152605 / 0.09290304 = 250 · 47.88025898 = 11,970.06474508 Pa
    ("250 psf", "pressure", 250 * PSF),
    # 90 % = 0.90
    ("90 %", "fraction", 0.9),
    # 10 K is a temperature difference of 10 K
    ("10 K", "temperature_difference", 10.0),
    # 18 delta_degF = 18 · 5/9 = 10 K
    ("18 delta_degF", "temperature_difference", 10.0),
]


@pytest.mark.parametrize(("text", "kind", "expected"), PROMISED)
def test_promised_unit_strings_parse_to_canonical_values(text, kind, expected):
    assert parse_quantity(text, kind) == pytest.approx(expected, rel=EXACT)


def test_hand_worked_constants():
    # guard the constants above against a typo: 1 psi = 6,894.757293168 Pa; 1 psf = 47.88025898 Pa
    assert pytest.approx(6894.757293168, rel=1e-12) == PSI
    assert pytest.approx(47.88025898034, rel=1e-12) == PSF


@pytest.mark.parametrize(
    ("text", "kind", "expected"),
    [
        # 4.45 kN = 4,450 N
        ("4.45 kN", "force", 4450.0),
        # 1000 lbf = 1000 · 4.4482216152605 = 4,448.2216152605 N
        ("1000 lbf", "force", 4448.2216152605),
        # 2 kgf = 2 · 9.80665 = 19.6133 N
        ("2 kgf", "force", 19.6133),
        # 600 mm = 0.6 m; 47.24409449 in = 47.24409449 · 0.0254 = 1.2 m (to 1e-10)
        ("600 mm", "length", 0.6),
        ("47.24409449 in", "length", 1.2),
        # 645.834625 ft² = 645.834625 · 0.09290304 = 60.0000 m²
        ("645.834625 ft**2", "area", 60.0),
        # 40 L = 0.04 m³
        ("40 L", "volume", 0.04),
        # 1 ton_of_refrigeration = 12,000 BTU/h = 12,000 · 1055.056 / 3600 = 3,516.853333 W
        ("1 ton_of_refrigeration", "power", 3516.8533333333),
        ("45 kVA", "apparent_power", 45_000.0),
        ("415 V", "voltage", 415.0),
        ("63 A", "current", 63.0),
        # 300 K as an absolute temperature: 300 − 273.15 = 26.85 °C
        ("300 K", "temperature", 26.85),
        # 10 delta_degC = 10 K
        ("10 delta_degC", "temperature_difference", 10.0),
        ("90 s", "time", 90.0),
        # a bare number is accepted only for a fraction (0..1)
        (0.95, "fraction", 0.95),
        (1, "fraction", 1.0),
    ],
)
def test_other_units(text, kind, expected):
    assert parse_quantity(text, kind) == pytest.approx(expected, rel=1e-9)


@pytest.mark.parametrize(
    ("text", "kind", "expected"),
    [
        ("32 °C", "temperature", 32.0),
        # 89.6 °F = (89.6 − 32) · 5/9 = 32 °C
        ("89.6 °F", "temperature", 32.0),
        ("60 m²", "area", 60.0),
        ("1.5 m³", "volume", 1.5),
        ("  132kW  ", "power", 132_000.0),
        ("1_200 L/min", "volumetric_flow", 0.02),
        ("1.32e2 kW", "power", 132_000.0),
        (".5 bar", "pressure", 50_000.0),
    ],
)
def test_spellings(text, kind, expected):
    assert parse_quantity(text, kind) == pytest.approx(expected, rel=EXACT)


# --- refusals ---------------------------------------------------------------------------------


def refused(text, kind) -> str:
    with pytest.raises(QuantityError) as info:
        parse_quantity(text, kind)
    return str(info.value)


def test_wrong_dimension_names_both_kinds():
    assert refused("132 kg", "power") == (
        "expected a power like '132 kW', got '132 kg', which is a mass"
    )
    assert "which is a power" in refused("4.45 kW", "force")
    assert "which is a volumetric flow" in refused("317 gpm", "pressure")


def test_mass_per_area_floor_rating_suggests_kilogram_force():
    assert "kgf/m**2" in refused("1200 kg/m**2", "pressure")


@pytest.mark.parametrize("bare", [132, 132.0, "132", " 132 "])
def test_bare_number_is_refused(bare):
    assert refused(bare, "power").startswith("missing unit: expected a power like '132 kW'")


@pytest.mark.parametrize("value", [True, None, [1, "kW"], {"kW": 1}])
def test_non_text_is_refused(value):
    assert "expected a power" in refused(value, "power")


def test_absolute_temperature_refused_as_a_difference():
    assert refused("10 degC", "temperature_difference") == (
        "expected a temperature difference like '10 K' or '18 delta_degF', got the absolute "
        "temperature '10 degC'"
    )
    assert "absolute temperature '18 degF'" in refused("18 degF", "temperature_difference")


def test_difference_refused_as_an_absolute_temperature():
    assert refused("32 delta_degC", "temperature") == (
        "expected an absolute temperature like '32 degC', got the temperature difference "
        "'32 delta_degC'"
    )
    assert "difference '90 delta_degF'" in refused("90 delta_degF", "temperature")


def test_watts_and_volt_amperes_are_not_interchangeable():
    assert "apparent power '45 kVA'" in refused("45 kVA", "power")
    assert "W and VA differ by the power factor" in refused("45 kW", "apparent_power")


@pytest.mark.parametrize("text", ["1,200 L/min", "1,5 bar", "1,464.0 kW"])
def test_commas_are_refused(text):
    assert "without thousands or decimal commas" in refused(text, "volumetric_flow")


@pytest.mark.parametrize("text", ["nan kW", "inf kW", "-inf kW", "NaN W"])
def test_nan_and_infinity_words_are_refused(text):
    assert "cannot read" in refused(text, "power")


def test_overflowing_number_is_refused():
    assert refused("1e999 kW", "power") == "'1e999 kW' is not a finite number"


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_non_finite_bare_fraction_is_refused(value):
    assert "finite number" in refused(value, "fraction")


def test_unknown_unit_is_refused():
    assert refused("132 kilowatz", "power") == "unknown unit 'kilowatz' in '132 kilowatz'"


# --- the shipped table and pint ----------------------------------------------------------------


def test_shipped_table_lists_every_common_unit():
    raw = json.loads(Path(units.__file__).with_name("unit_table.json").read_text())
    assert list(raw["units"]) == list(COMMON_UNITS)


@pytest.mark.parametrize("unit", COMMON_UNITS)
def test_shipped_table_equals_what_pint_computes_now(unit):
    shipped = units._shipped_table()[unit]
    fresh = conversion_by_pint(unit)
    assert shipped.dimensionality == fresh.dimensionality
    assert shipped.factor == pytest.approx(fresh.factor, rel=EXACT)
    assert shipped.offset == pytest.approx(fresh.offset, rel=EXACT, abs=1e-12)
    assert (shipped.is_offset_unit, shipped.is_delta_unit, shipped.is_apparent_power) == (
        fresh.is_offset_unit,
        fresh.is_delta_unit,
        fresh.is_apparent_power,
    )


@pytest.mark.parametrize("unit", COMMON_UNITS)
def test_every_shipped_unit_has_the_dimension_of_a_kind(unit):
    # A unit whose dimension text matches no kind could never be accepted (a pint ordering
    # of the dimension text once made "lbf" and "kgf" useless that way).
    dimensions = {kind.dimensionality for kind in KINDS.values()}
    assert units._shipped_table()[unit].dimensionality in dimensions


def test_units_outside_the_table_fall_back_to_pint():
    table = units._shipped_table()
    assert "hp" not in table
    assert "kcal/h" not in table
    # 1 hp (mechanical) = 550 ft·lbf/s = 550 · 0.3048 · 4.4482216152605 = 745.69987158227 W
    assert parse_quantity("1 hp", "power") == pytest.approx(745.69987158227, rel=EXACT)
    # 1 kcal/h = 4184 J / 3600 s = 1.162222… W (thermochemical calorie)
    assert parse_quantity("3600 kcal/h", "power") == pytest.approx(4184.0, rel=EXACT)
    # 1 m**3/min = 1/60 m³/s
    assert parse_quantity("1.2 m**3/min", "volumetric_flow") == pytest.approx(0.02, rel=EXACT)


def test_conversion_is_cached():
    assert conversion("kW") is conversion("kW")


def test_to_unit_is_the_inverse_of_parsing():
    assert to_unit(32.0, "temperature", "degF") == pytest.approx(89.6, rel=EXACT)
    assert to_unit(0.02, "volumetric_flow", "L/min") == pytest.approx(1200.0, rel=EXACT)
    assert to_unit(10.0, "temperature_difference", "delta_degF") == pytest.approx(18.0, rel=EXACT)
    with pytest.raises(QuantityError):
        to_unit(1.0, "power", "kg")


# --- the bounded unit grammar: refused before pint is asked ------------------------------------


class PintMustNotBeAsked:
    """Stands in for ``units.registry``: counts the calls (a refused unit makes none)."""

    def __init__(self):
        self.calls = 0

    def __call__(self):
        self.calls += 1
        raise AssertionError("pint was asked")

    def cache_clear(self):  # forget_units() drops the registry with the caches
        pass


@pytest.fixture
def no_pint(monkeypatch):
    fake = PintMustNotBeAsked()
    monkeypatch.setattr(units, "registry", fake)
    return fake


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1 kW/0", "unit 'kW/0' divides by zero"),
        ("1 kW/(m*0.0)", "unit 'kW/(m*0.0)' divides by zero"),
        ("1 kW/1e-400", "unit 'kW/1e-400' divides by zero"),  # 1e-400 is 0.0 as a float
        ("1 kW*(0)**-1", "unit 'kW*(0)**-1' divides by zero"),
        ("1 kW*0", "unit 'kW*0' multiplies by zero"),
        ("1 kW**0", "unit 'kW**0' has a power of zero"),
        ("1 kW ^ -0", "unit 'kW ^ -0' has a power of zero"),
        ("1 kW**9**9**9", "unit 'kW**9**9**9' has a power larger than 4"),
        ("1 kW**5", "unit 'kW**5' has a power larger than 4"),
        ("1 (kW**3)**2", "unit '(kW**3)**2' has a power larger than 4"),
        ("1 kW**2**2", "unit 'kW**2**2' raises a power to a power"),
        ("1 kW^2^-1", "unit 'kW^2^-1' raises a power to a power"),
        ("1 kW**0.5", "unit 'kW**0.5' has a power that is not a whole number"),
        ("1 kW**(1/2)", "unit 'kW**(1/2)' has a power that is not a whole number"),
        (
            "1 W*m**1/m**1*s**1/s**1*A**1",
            "unit 'W*m**1/m**1*s**1/s**1*A**1' has more than 4 powers",
        ),
        ("1 ((((kW))))", "unit '((((kW))))' nests parentheses deeper than 3 levels"),
        (
            "1 kW m squared",
            "unit 'kW m squared' writes a power as a word; write it with ** (m**2, ft**3)",
        ),
        (
            "1 kW squared1e3",
            "unit 'kW squared1e3' writes a power as a word; write it with ** (m**2, ft**3)",
        ),
        ("1 kW⁹⁹", "unit 'kW⁹⁹' has the character '⁹', which is not allowed in a unit"),
        (
            "1 kW\u202e",
            "unit 'kW\u202e' has the character '\u202e', which is not allowed in a unit",
        ),
        # not a unit expression at all: pint's own words, unchanged
        ("1 kW**", "unknown unit 'kW**' in '1 kW**'"),
        ("1 (kW", "unknown unit '(kW' in '1 (kW'"),
        ("1 kW-h", "unknown unit 'kW-h' in '1 kW-h'"),
        ("1 kW/inf", "unknown unit 'kW/inf' in '1 kW/inf'"),  # pint reads inf as a number
        ("1 2kW", "unknown unit '2kW' in '1 2kW'"),  # pint reads 2·kW, a scaling factor
        ("1 kW**07", "unknown unit 'kW**07' in '1 kW**07'"),  # pint reads 0, then 7
    ],
)
def test_a_unit_outside_the_grammar_is_refused_before_pint(text, message, no_pint):
    assert refused(text, "power") == message
    assert refused(text, "power") == message  # the refusal is remembered
    assert no_pint.calls == 0


def test_the_grammar_bounds_are_the_documented_numbers():
    assert (units.MAX_UNIT_LENGTH, units.MAX_UNIT_NESTING) == (64, 3)
    assert (units.MAX_UNIT_EXPONENTS, units.MAX_UNIT_POWER) == (4, 4)
    assert units.MAX_CACHED_UNITS == 2048


def test_a_unit_at_the_bounds_still_reaches_pint():
    # 3 levels, 4 powers, a power of 4 (m⁴·s⁴ / ((m·s)²)²): dimensionless
    assert parse_quantity("50 m**4*s**4/(((m*s)**2))**2 percent", "fraction") == 0.5
    assert parse_quantity("3 1/s*min", "fraction") == pytest.approx(180.0, rel=EXACT)  # 1/s·60 s
    unit = "mm/mm *m" + "*s/s" * 14  # 64 characters
    assert len(unit) == units.MAX_UNIT_LENGTH
    assert parse_quantity(f"2 {unit}", "length") == 2.0


def test_a_unit_too_long_is_refused_without_being_kept(no_pint):
    long_units = [f"k{i:04d}" + "W" * 1000 for i in range(1000)]  # 1,000 distinct 1 kB units
    kept = len(units._CACHE) + len(units._REFUSED)
    normalised = units._normalise_unit.cache_info().currsize
    for unit in long_units:
        assert refused(f"1 {unit}", "power") == (
            f"unit '{unit[:32]}…' is 1,005 characters long; the limit is 64"
        )
    assert no_pint.calls == 0
    assert len(units._CACHE) + len(units._REFUSED) == kept  # nothing long is remembered
    assert units._normalise_unit.cache_info().currsize == normalised


def test_the_unit_caches_are_bounded(monkeypatch, no_pint):
    monkeypatch.setattr(units, "MAX_CACHED_UNITS", 50)
    units.forget_units()
    for i in range(500):  # refused by the grammar, so remembered without asking pint
        refused(f"1 kW**{5 + i}", "power")
        assert len(units._CACHE) + len(units._REFUSED) <= 50
    assert no_pint.calls == 0
    assert parse_quantity("132 kW", "power") == 132_000.0  # the shipped table, again


def test_a_refusal_by_pint_is_asked_once(monkeypatch):
    asked = []
    real = units.conversion_by_pint

    def counting(unit):
        asked.append(unit)
        return real(unit)

    monkeypatch.setattr(units, "conversion_by_pint", counting)
    for _ in range(1000):
        assert refused("132 kilowatz", "power") == "unknown unit 'kilowatz' in '132 kilowatz'"
    assert asked.count("kilowatz") <= 1  # 0 when an earlier test asked already


def test_a_long_run_of_spaces_is_read_in_linear_time():
    # The quantity pattern once matched a lazy unit before "\s*$": quadratic in a run of
    # spaces (200,000 of them: hours). Now one pass; refused by the unit's length bound.
    text = "1 k" + " " * 200_000 + "W"
    assert refused(text, "power").endswith("is 200,002 characters long; the limit is 64")
    assert parse_quantity(" " * 200_000 + "132 kW" + " " * 200_000, "power") == 132_000.0


def test_parameter_and_display_units_go_through_the_grammar(no_pint):
    with pytest.raises(QuantityError, match="divides by zero"):
        conversion("kW/0")
    with pytest.raises(QuantityError, match="has a power larger than 4"):
        to_unit(1.0, "power", "kW**9**9**9")
    assert no_pint.calls == 0


def test_spellings_of_one_unit_reach_pint_once(monkeypatch):
    # "dm²", "dm**2 " and "dm**2" normalise to one text; pint parses it once, and a text pint
    # refused is refused again without asking it.
    real = units.registry()
    asked: list[str] = []

    class Counting:
        def __getattr__(self, name):
            return getattr(real, name)

        def parse_units(self, text, *args, **kwargs):
            asked.append(text)
            return real.parse_units(text, *args, **kwargs)

    counting = Counting()

    def registry():
        return counting

    registry.cache_clear = lambda: None  # type: ignore[attr-defined]
    units.forget_units()
    monkeypatch.setattr(units, "registry", registry)
    for text in ("2 dm²", "2 dm**2 ", "2 dm**2"):
        assert parse_quantity(text, "area") == pytest.approx(0.02, rel=EXACT)  # 2 · 0.1² m²
    for text in ("1 kilowatz", "1 kilowatz "):
        with pytest.raises(QuantityError, match="unknown unit 'kilowatz'"):
            parse_quantity(text, "power")
    assert asked == ["dm**2", "kilowatz"]
    units.forget_units()
