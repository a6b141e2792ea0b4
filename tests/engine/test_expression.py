"""The rule condition language: what it computes, and what it refuses with a clear message.

Names are typed with ``kind_type``; ``compile_expression`` checks names and dimensions before
anything is evaluated, and evaluates on canonical floats (W, VA, °C, K, m³/s, …).
"""

from __future__ import annotations

import math

import pytest

from facility.engine import expression
from facility.engine.expression import (
    BOOLEAN,
    MAX_EXPRESSION_DEPTH,
    MAX_EXPRESSION_LENGTH,
    MAX_NUMBER_LENGTH,
    NUMBER,
    ExpressionError,
    Type,
    compile_expression,
    kind_type,
)

NAMES: dict[str, Type] = {
    "load": kind_type("power"),
    "capacity": kind_type("power"),
    "spare": kind_type("power"),
    "apparent": kind_type("apparent_power"),
    "supply": kind_type("temperature"),
    "facility": kind_type("temperature"),
    "rise": kind_type("temperature_difference"),
    "flow": kind_type("volumetric_flow"),
    "volume": kind_type("volume"),
    "duration": kind_type("time"),
    "count": kind_type("count"),
    "share": kind_type("fraction"),
    "wet": kind_type("boolean"),
    "raised": kind_type("boolean"),
}

ENV = {
    "load": 90_000.0,  # W
    "capacity": 100_000.0,  # W
    "spare": 25_000.0,  # W
    "apparent": 100_000.0,  # VA
    "supply": 36.0,  # °C
    "facility": 32.0,  # °C
    "rise": 10.0,  # K
    "flow": 0.02,  # m³/s
    "volume": 1.2,  # m³
    "duration": 60.0,  # s
    "count": 3.0,
    "share": 0.9,
    "wet": 1.0,
    "raised": 0.0,
}


def value(text: str) -> float:
    return compile_expression(text, NAMES).evaluate(ENV)


def refused(text: str) -> str:
    with pytest.raises(ExpressionError) as info:
        compile_expression(text, NAMES)
    return str(info.value)


# --- what it computes -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("load + spare", 115_000.0),  # 90 kW + 25 kW
        ("capacity - load", 10_000.0),  # 100 kW − 90 kW
        ("load * share", 81_000.0),  # 90 kW × 0.9
        ("load / count", 30_000.0),  # 90 kW / 3
        ("capacity - load * 2 / count", 40_000.0),  # 100 − 90 · 2 / 3 = 40 kW (precedence)
        ("(capacity - load) * 2", 20_000.0),  # parentheses
        ("-load + capacity", 10_000.0),  # unary minus
        ("+load", 90_000.0),  # unary plus
        ("supply + rise", 46.0),  # 36 °C + 10 K = 46 °C
        ("supply - facility", 4.0),  # 36 °C − 32 °C = 4 K
        ("supply - rise", 26.0),  # 36 °C − 10 K = 26 °C
        ("min(load, capacity, spare)", 25_000.0),
        ("max(load, capacity, spare)", 100_000.0),
        ("abs(load - capacity)", 10_000.0),  # |90 − 100| kW
        ("min(supply, facility)", 32.0),
        ("1.5e3 * count", 4_500.0),  # a bare number scales a count
    ],
)
def test_arithmetic(text: str, expected: float) -> None:
    assert value(text) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("load <= capacity", True),  # 90 ≤ 100 kW
        ("load < capacity", True),
        ("load >= capacity", False),
        ("load > capacity", False),
        ("load == load", True),
        ("load != capacity", True),
        ("spare < load < capacity", True),  # chained: 25 < 90 < 100
        ("spare < capacity < load", False),  # 100 < 90 is false
        ("supply <= facility + rise", True),  # 36 °C ≤ 42 °C
        ("supply - facility >= rise", False),  # 4 K ≥ 10 K is false
        ("volume / duration <= flow", True),  # 1.2 m³ / 60 s = 0.02 m³/s ≤ 0.02 m³/s
        ("count >= 2", True),  # a count compares with a bare number
        ("load / capacity <= 0.95", True),  # W / W is a number: 0.9 ≤ 0.95
    ],
)
def test_comparisons(text: str, expected: bool) -> None:
    assert bool(value(text)) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("wet and load <= capacity", True),
        ("raised and load <= capacity", False),
        ("raised or load <= capacity", True),
        ("raised or load > capacity", False),
        ("not raised", True),
        ("not wet", False),
        ("not (wet and raised)", True),
        ("wet and (raised or supply > facility)", True),  # 36 °C > 32 °C
        ("wet == raised", False),  # truth values compare with each other
    ],
)
def test_and_or_not(text: str, expected: bool) -> None:
    assert bool(value(text)) is expected


def test_comparisons_ignore_unit_conversion_noise() -> None:
    # 89.6 degF converts to 32.000000000000114 °C: one part in 10⁹ or less compares equal,
    # so conversion round-off never decides a verdict.
    at = compile_expression("supply <= facility", NAMES)
    noisy = {**ENV, "supply": 32.000000000000114, "facility": 32.0}
    assert at.evaluate(noisy)
    assert compile_expression("supply == facility", NAMES).evaluate(noisy)
    # …but a difference an engineer could measure is not noise: 1 mK above 32 °C
    assert not at.evaluate({**ENV, "supply": 32.001, "facility": 32.0})
    # one part in 10⁶ of a 100 kW limit is 0.1 W over: that fails
    assert not compile_expression("load <= capacity", NAMES).evaluate(
        {**ENV, "load": 100_000.1, "capacity": 100_000.0}
    )


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("load + spare", "power"),
        ("load * share", "power"),
        ("supply - facility", "temperature_difference"),  # two absolutes → a difference
        ("supply + rise", "temperature"),  # absolute + difference → absolute
        ("rise + supply", "temperature"),
        ("supply - rise", "temperature"),
        ("rise * 2", "temperature_difference"),
        ("volume / duration", "volumetric_flow"),  # m³ / s
        ("flow * duration", "volume"),
        ("min(load, capacity)", "power"),
        ("abs(rise)", "temperature_difference"),
    ],
)
def test_result_types(text: str, kind: str) -> None:
    assert compile_expression(text, NAMES).type == kind_type(kind)


def test_ratios_are_numbers_and_comparisons_truth_values() -> None:
    assert compile_expression("load / capacity", NAMES).type == NUMBER
    assert compile_expression("load <= capacity", NAMES).type == BOOLEAN
    assert compile_expression("wet and raised", NAMES).type == BOOLEAN


def test_names_used_are_recorded() -> None:
    expression = compile_expression("min(load, capacity) <= spare * 4", NAMES)
    assert expression.names == {"load", "capacity", "spare"}


# --- what it refuses, and how it says so ---------------------------------------------------


def test_unknown_name_lists_the_known_ones() -> None:
    message = refused("lod <= capacity")
    assert "unknown name 'lod'" in message
    assert "lod <= capacity" in message  # the expression as written
    assert "load" in message and "capacity" in message  # what could have been meant


def test_temperature_compared_with_power() -> None:
    message = refused("supply <= load")
    assert "cannot compare an absolute temperature with power" in message


def test_temperature_compared_with_temperature_difference() -> None:
    # 36 °C ≤ 10 K mixes a reading with a rise
    assert "cannot compare an absolute temperature with temperature difference" in refused(
        "supply <= rise"
    )


def test_two_absolute_temperatures_are_not_added() -> None:
    assert "cannot add two absolute temperatures" in refused("supply + facility <= supply")


def test_absolute_temperature_from_a_difference() -> None:
    assert "cannot subtract an absolute temperature from a difference" in refused("rise - supply")


def test_absolute_temperatures_are_not_multiplied() -> None:
    # 2 × 20 °C is not 40 °C in any physical sense (°C has an offset)
    assert "cannot multiply or divide an absolute temperature" in refused("supply * 2")
    assert "cannot multiply or divide an absolute temperature" in refused("supply / facility")


def test_real_power_compared_with_apparent_power() -> None:
    # W vs VA: a forgotten power factor fails when the rule loads
    assert "cannot compare power with apparent power" in refused("load <= apparent")
    assert "cannot add or subtract power and apparent power" in refused("load + apparent")
    assert "min() of power and apparent power" in refused("min(load, apparent)")


def test_quantity_compared_with_a_bare_number() -> None:
    # a number has no unit: 90 kW ≤ 100 could mean W or kW
    assert "cannot compare power with" in refused("load <= 100")


def test_adding_different_dimensions() -> None:
    assert "cannot add or subtract power and volumetric flow" in refused("load + flow")


@pytest.mark.parametrize(
    "text",
    [
        "round(load) <= capacity",
        "pow(load, 2) <= capacity",
        "sum(load) <= capacity",
        "min(load, capacity, key=spare) <= capacity",  # keywords of an allowed call
        "(lambda: load)() <= capacity",
        "load.real.conjugate() <= capacity",
    ],
)
def test_calls_other_than_min_max_abs(text: str) -> None:
    assert "only min(), max() and abs() may be called" in refused(text)


def test_call_arity() -> None:
    assert "abs() takes one argument" in refused("abs(load, capacity)")
    assert "min() needs arguments" in refused("min()")


@pytest.mark.parametrize(
    "text",
    [
        "load.real <= capacity",  # attribute access
        "load[0] <= capacity",  # subscript
        "lambda: load",  # lambda
        "load if wet else capacity",  # conditional expression
        "[load] <= capacity",  # list display
        "(load := 1) <= capacity",  # assignment expression
    ],
)
def test_syntax_outside_the_language(text: str) -> None:
    assert "is not allowed in a rule expression" in refused(text)


@pytest.mark.parametrize("text", ["'kW' == 'kW'", "load <= '100 kW'", "b'x' == load", "True"])
def test_only_numbers_are_constants(text: str) -> None:
    assert "only numbers are allowed as constants" in refused(text)


@pytest.mark.parametrize(
    "text",
    [
        "__import__('os')",
        "__import__('os').system('true')",
        "__builtins__.eval('1')",
        "getattr(load, '__class__')",
    ],
)
def test_no_escape_to_python(text: str) -> None:
    message = refused(text)
    assert "only min(), max() and abs() may be called" in message


def test_dunder_names_are_just_unknown_names() -> None:
    assert "unknown name '__builtins__'" in refused("__builtins__")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("load ** 2 <= capacity", "operator not allowed"),
        ("load % capacity <= spare", "operator not allowed"),
        ("load // count <= spare", "operator not allowed"),
        ("load in capacity", "comparison not allowed"),
        ("load is capacity", "comparison not allowed"),
        ("load <=", "cannot parse"),
        ("load <= capacity; import os", "cannot parse"),
    ],
)
def test_other_refusals(text: str, words: str) -> None:
    assert words in refused(text)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("not load", "not needs truth values, got power"),
        ("load and capacity", "and/or needs truth values, got power"),
        ("wet or load", "and/or needs truth values, got power"),
        ("wet + 1", "arithmetic needs a quantity, got a truth value"),
        ("-wet", "a sign needs a quantity, got a truth value"),
        ("min(wet, raised)", "min() needs a quantity, got a truth value"),
    ],
)
def test_truth_values_and_quantities_do_not_mix(text: str, words: str) -> None:
    assert words in refused(text)


def test_evaluation_uses_only_the_given_values() -> None:
    expression = compile_expression("load <= capacity * share", NAMES)
    # 90 kW ≤ 100 kW × 0.9 = 90 kW → holds; with 0.8 → 80 kW → does not
    assert expression.evaluate({"load": 90_000.0, "capacity": 100_000.0, "share": 0.9})
    assert not expression.evaluate({"load": 90_000.0, "capacity": 100_000.0, "share": 0.8})
    assert math.isclose(
        compile_expression("capacity * share", NAMES).evaluate(
            {"capacity": 100_000.0, "share": 0.9}
        ),
        90_000.0,
    )


# --- bounds: length, depth, literals --------------------------------------------------------------


def test_the_bounds_are_the_documented_numbers() -> None:
    assert (MAX_EXPRESSION_LENGTH, MAX_EXPRESSION_DEPTH, MAX_NUMBER_LENGTH) == (1_000, 32, 32)


@pytest.mark.parametrize(
    "text",
    [
        "(" * 5_000 + "load" + ")" * 5_000 + " <= capacity",  # a RecursionError in the parser
        " + ".join(["load"] * 5_000) + " <= capacity",  # a RecursionError in ast and _compile
        "-" * 5_000 + "load <= capacity",
        "wet and " * 2_000 + "wet",
        "1" * 5_000 + " * load <= capacity",  # more digits than Python converts (4,300)
    ],
)
def test_an_expression_too_long_is_refused_before_it_is_parsed(text: str, monkeypatch) -> None:
    parsed = []
    real_parse = expression.ast.parse
    monkeypatch.setattr(
        expression.ast, "parse", lambda *a, **k: parsed.append(a) or real_parse(*a, **k)
    )
    assert refused(text) == (f"the expression is {len(text):,} characters long; the limit is 1,000")
    assert parsed == []


def test_an_expression_nested_too_deep_is_refused() -> None:
    parentheses = "(" * 33 + "load" + ")" * 33 + " <= capacity"
    assert refused(parentheses) == f"'{parentheses}' nests deeper than 32 levels"
    terms = " + ".join(["load"] * 33) + " <= capacity"  # 32 additions, inside a comparison
    assert refused(terms) == f"'{terms}' nests deeper than 32 levels"
    signs = "-" * 40 + "load <= capacity"
    assert refused(signs) == f"'{signs}' nests deeper than 32 levels"


def test_an_expression_at_the_bounds_compiles_and_evaluates() -> None:
    parentheses = "(" * 32 + "load" + ")" * 32 + " <= capacity"  # 32 levels of brackets
    assert compile_expression(parentheses, NAMES).evaluate(ENV)
    # a comparison, 30 additions and the names they add: 32 levels; 31 · 90 kW ≥ 100 kW
    terms = " + ".join(["load"] * 31) + " >= capacity"
    assert compile_expression(terms, NAMES).evaluate(ENV)
    # and/or and comparison chains are flat: 45 comparisons joined by 'and' are three levels
    chain = " and ".join(["load <= capacity"] * 45)
    assert len(chain) <= MAX_EXPRESSION_LENGTH
    assert compile_expression(chain, NAMES).evaluate(ENV)


def test_a_number_too_long_is_refused() -> None:
    number = "1" * 33
    text = f"{number} * load <= capacity"
    assert refused(text) == (f"a number of 33 characters in '{text}' is too long; the limit is 32")
    tiny = "0." + "0" * 40 + "1"  # 1e-41, finite, written long
    assert "a number of 43 characters" in refused(f"{tiny} * load <= capacity")
    # beyond a float: not finite, as before (the message of tests/engine/test_rule_loading.py)
    assert "is not a finite number in" in refused("0x" + "f" * 300 + " * load <= capacity")
    assert compile_expression("1" * 32 + " * load >= capacity", NAMES).evaluate(ENV)


def test_non_finite_literals_are_still_refused() -> None:
    assert refused("1e999 * load <= capacity") == (
        "'1e999' is not a finite number in '1e999 * load <= capacity'"
    )
