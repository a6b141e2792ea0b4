"""Generated unit strings, pathological ones among them, through parse_quantity and a site file.

No exception but QuantityError may escape ``parse_quantity`` (InputError from ``load_site``,
each problem at its file, line, column and field), and pint never sees a string the bounded
grammar refuses — checked by counting what reaches it, not by timing: every string pint
parses is at most ``MAX_UNIT_LENGTH`` characters with at most ``MAX_UNIT_EXPONENTS`` powers,
and each distinct string is parsed once. A short run is in the default suite; ``-m slow`` runs
many more examples.
"""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from facility import units
from facility.model.load import load_site
from facility.model.source import InputError
from facility.units import KINDS, QuantityError, parse_quantity

# Pieces of unit strings: real units, pint's number words and power words, numbers that pint
# would divide by or scale with, operators, powers, parentheses, odd characters.
ATOMS = st.sampled_from(
    [
        "kW", "W", "kVA", "BTU/h", "m", "mm", "s", "min", "h", "kg", "lb", "L", "gal", "degC",
        "degF", "K", "delta_degC", "delta_degF", "%", "percent", "bar", "psi", "Gb", "GB",
        "FLOP", "J", "N", "A", "V", "kilowatz", "inf", "nan", "infinity", "dimensionless",
        "squared", "cubic", "sq", "per", "e", "x", "_", "1", "0", "0.0", "2", "10", "1e3",
        "1e-400", "1e400", "010", "0x1", "1_0", "1j", "dB", "dBm", "Np", "octave", "decade",
        "bel",
    ]
)  # fmt: skip
JOINS = st.sampled_from(["*", "/", ".", " ", "", "  ", "\t", "·", "-", "+", ","])
POWERS = st.sampled_from(
    [
        "", "", "", "**2", "**-1", "^3", "**0", "**-0", "**9", "**9**9**9", "**2**2", "^2^2",
        "**0.5", "**(1/2)", "**(2)", "**(-3)", "**07", "**", "²", "³", "⁹", "⁻¹", "**1e300",
    ]
)  # fmt: skip
ODD = st.sampled_from(["(", ")", "((((", "))))", "\x00", "\x1b[2J", "\u202e", "°", "µ", "Å", "℃"])


@st.composite
def unit_strings(draw) -> str:
    """A unit string built from the pieces above, sometimes wrapped or mangled."""
    parts = [draw(ATOMS) + draw(POWERS)]
    for _ in range(draw(st.integers(0, 6))):
        parts.append(draw(JOINS) + draw(ATOMS) + draw(POWERS))
    unit = "".join(parts)
    for _ in range(draw(st.integers(0, 3))):
        where = draw(st.integers(0, len(unit)))
        unit = unit[:where] + draw(ODD) + unit[where:]
    wrap = draw(st.integers(0, 3))
    if wrap == 1:
        unit = "(" * draw(st.integers(1, 6)) + unit + ")" * draw(st.integers(0, 6))
    elif wrap == 2:
        unit = unit * draw(st.integers(2, 40))  # long ones
    return unit


PATHOLOGICAL = st.sampled_from(
    [
        "kW/0", "kW**0", "kW**9**9**9", "(" * 5000 + "kW" + ")" * 5000, "kW" * 500,
        "kW" + " " * 100_000 + "h", "m" + "**2" * 1000, "1/" * 2000 + "s", "kW/(1-1)",
        "kW/(m/0)", "kW*(0)**-1", "kW squared1e3", "cubic%squared1e3delta_degF", "%squared",
        "1e302^3degR", "percent/1e310**-1", "kg**01", "(kW**4)**4", "kW/(1/inf)",
    ]
)  # fmt: skip
UNITS = st.one_of(unit_strings(), PATHOLOGICAL, st.text(max_size=80))
KIND_NAMES = st.sampled_from(sorted(KINDS))


class CountingRegistry:
    """Wraps pint's registry: what reaches ``parse_units``, one entry per call."""

    def __init__(self, real):
        self.real = real
        self.parsed: list[str] = []

    def __getattr__(self, name):
        return getattr(self.real, name)

    def parse_units(self, unit, *args, **kwargs):
        self.parsed.append(unit)
        return self.real.parse_units(unit, *args, **kwargs)


@pytest.fixture
def counted(monkeypatch):
    """pint's registry behind a counter; the caches large enough not to be emptied meanwhile."""
    monkeypatch.setattr(units, "MAX_CACHED_UNITS", 1_000_000)
    counting = CountingRegistry(units.registry())

    def registry():
        return counting

    registry.cache_clear = lambda: None  # type: ignore[attr-defined]
    monkeypatch.setattr(units, "registry", registry)
    return counting


def assert_pint_saw_only_bounded_strings(counting: CountingRegistry) -> None:
    assert len(counting.parsed) == len(set(counting.parsed))  # each distinct string once
    for unit in counting.parsed:
        assert len(unit) <= units.MAX_UNIT_LENGTH + 16, unit  # + the data renames (Gb → Gdata_bit)
        assert len(re.findall(r"\*\*|\^", unit)) <= units.MAX_UNIT_EXPONENTS, unit
        assert "(" * (units.MAX_UNIT_NESTING + 1) not in unit, unit


def parse_everything(unit: str, kind: str) -> None:
    for text in (f"1 {unit}", f"-2.5e3{unit}", unit):
        try:
            value = parse_quantity(text, kind)
        except QuantityError as exc:
            assert str(exc)  # a message, never an empty one
        else:
            assert isinstance(value, float)


fast = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
slow = settings(
    max_examples=5000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@fast
@given(unit=UNITS, kind=KIND_NAMES)
def test_any_unit_string_is_a_quantity_error_at_worst(counted, unit, kind) -> None:
    parse_everything(unit, kind)
    assert_pint_saw_only_bounded_strings(counted)


@pytest.mark.slow
@slow
@given(unit=UNITS, kind=KIND_NAMES)
def test_many_unit_strings_are_quantity_errors_at_worst(counted, unit, kind) -> None:
    parse_everything(unit, kind)
    assert_pint_saw_only_bounded_strings(counted)


# --- through a site file: file, line, column and field ------------------------------------------


def load_with_unit(directory, unit: str):
    site = directory / "site.json"
    document = {
        "site": {"name": "T"},
        "rack_types": [{"id": "t1", "catalog": "gb300-nvl72", "peak_power": f"150 {unit}"}],
    }
    # ASCII with \u escapes: a raw control character is refused for the whole file, before any
    # field is read; escaped, it reaches the field.
    site.write_text(json.dumps(document, indent=1), encoding="utf-8")
    try:
        load_site(site)
    except InputError as error:
        return [str(problem) for problem in error.problems]
    return []


def check_site(directory, unit: str) -> None:
    for problem in load_with_unit(directory, unit):
        # site.json:9:4: rack_types[0].peak_power: …  (json.dumps puts the field on line 9)
        assert problem.startswith(f"{directory / 'site.json'}:"), problem
        where, field, message = problem.rsplit("site.json:", 1)[1].split(": ", 2)
        line, column = (int(n) for n in where.split(":"))
        assert line >= 1 and column >= 1
        assert field == "rack_types[0].peak_power", problem
        assert message


site_settings = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@site_settings
@given(unit=UNITS)
def test_a_unit_string_in_a_site_file_is_a_located_input_error(
    tmp_path_factory, counted, unit
) -> None:
    check_site(tmp_path_factory.mktemp("unit"), unit)
    assert_pint_saw_only_bounded_strings(counted)


@pytest.mark.slow
@settings(site_settings, max_examples=1000)
@given(unit=UNITS)
def test_many_unit_strings_in_a_site_file_are_located_input_errors(
    tmp_path_factory, counted, unit
) -> None:
    check_site(tmp_path_factory.mktemp("unit"), unit)
    assert_pint_saw_only_bounded_strings(counted)


def test_the_exponent_tower_in_a_site_file(tmp_path) -> None:
    assert [p.rsplit("site.json:", 1)[1] for p in load_with_unit(tmp_path, "kW**9**9**9")] == [
        "9:4: rack_types[0].peak_power: unit 'kW**9**9**9' has a power larger than 4"
    ]
