"""Generated rule expressions, pathological ones among them, through the rule compiler.

No exception but ExpressionError may escape ``compile_expression``; an expression that
compiles evaluates to a number or a truth value (or divides by zero, which the engine reports
as not evaluated). Work is bounded by the size of the input, checked by counting, not timing:
Python's parser only ever sees text within ``MAX_EXPRESSION_LENGTH`` characters and
``MAX_EXPRESSION_DEPTH`` levels of brackets, and the compiler visits at most one node per
character. Through the rule loader, a bad expression is an InputError located at its rule
file, line, column and field. A short run is in the default suite; ``-m slow`` runs many more.
"""

from __future__ import annotations

import ast

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from facility.engine import expression
from facility.engine.expression import (
    MAX_EXPRESSION_DEPTH,
    MAX_EXPRESSION_LENGTH,
    ExpressionError,
    compile_expression,
    kind_type,
)
from facility.engine.rules import bundled_rules_dir, load_rules
from facility.model.source import InputError

NAMES = {
    "load": kind_type("power"),
    "capacity": kind_type("power"),
    "apparent": kind_type("apparent_power"),
    "supply": kind_type("temperature"),
    "rise": kind_type("temperature_difference"),
    "count": kind_type("count"),
    "share": kind_type("fraction"),
    "wet": kind_type("boolean"),
}
ENV = {
    "load": 90_000.0,
    "capacity": 100_000.0,
    "apparent": 95_000.0,
    "supply": 36.0,
    "rise": 10.0,
    "count": 0.0,  # so that some generated divisions divide by zero
    "share": 0.9,
    "wet": 1.0,
}

LITERALS = [
    "0", "1", "2.5", ".5", "1e3", "1_000", "1e999", "1e-999", "9" * 40, "0x" + "f" * 300,
    "0b101", "1j", "True", "None", "'kW'", "b'x'", "__import__", "x", "observed",
]  # fmt: skip
LEAVES = st.one_of(
    st.sampled_from(sorted(NAMES)),
    st.sampled_from(LITERALS),
    st.integers(-(10**40), 10**40).map(str),
    st.floats(allow_nan=False).map(repr),
)
UNARY = st.sampled_from(["-", "+", "not ", "~"])
BINARY = st.sampled_from(
    [
        " + ", " - ", " * ", " / ", " ** ", " % ", " // ", " < ", " <= ", " > ", " >= ", " == ",
        " != ", " and ", " or ", " in ", " is ", " & ",
    ]
)  # fmt: skip
CALLS = st.sampled_from(["min", "max", "abs", "len", "__import__", "getattr"])


def _combine(children):
    return st.one_of(
        st.tuples(UNARY, children).map("".join),
        st.tuples(children, BINARY, children).map("".join),
        children.map(lambda c: f"({c})"),
        st.tuples(CALLS, st.lists(children, max_size=3)).map(
            lambda t: f"{t[0]}({', '.join(t[1])})"
        ),
        st.tuples(children, children, children).map(lambda t: f"{t[0]} if {t[1]} else {t[2]}"),
        children.map(lambda c: f"{c}.real"),
        children.map(lambda c: f"{c}[0]"),
    )


GRAMMAR = st.recursive(LEAVES, _combine, max_leaves=40)


@st.composite
def pathological(draw) -> str:
    """Deep nesting, long chains, long literals: around the bounds and far past them."""
    n = draw(st.sampled_from([1, 30, 31, 32, 33, 199, 201, 999, 1000, 5000]))
    shape = draw(st.integers(0, 6))
    if shape == 0:
        return "(" * n + "load" + ")" * n + " <= capacity"
    if shape == 1:
        return " + ".join(["load"] * n) + " <= capacity"
    if shape == 2:
        return "-" * n + "load <= capacity"
    if shape == 3:
        return "not " * n + "wet"
    if shape == 4:
        return "1" * n + " * load <= capacity"
    if shape == 5:
        return "min(" * n + "load" + ")" * n + " <= capacity"
    return "(" * n + "load <= capacity"  # unbalanced


EXPRESSIONS = st.one_of(GRAMMAR, pathological(), st.text(max_size=120))


class Counting:
    """What reaches Python's parser, and how many nodes the compiler visits."""

    def __init__(self, monkeypatch):
        self.parsed: list[str] = []
        self.compiled = 0
        real_parse, real_compile = ast.parse, expression._compile

        def parse(source, *args, **kwargs):
            self.parsed.append(source)
            return real_parse(source, *args, **kwargs)

        def compile_node(*args, **kwargs):
            self.compiled += 1
            return real_compile(*args, **kwargs)

        monkeypatch.setattr(expression.ast, "parse", parse)
        monkeypatch.setattr(expression, "_compile", compile_node)


@pytest.fixture
def counting(monkeypatch):
    return Counting(monkeypatch)


def compile_and_evaluate(text: str, counting: Counting) -> None:
    counting.parsed.clear()
    counting.compiled = 0
    try:
        compiled = compile_expression(text, NAMES)
    except ExpressionError as exc:
        assert str(exc)
    else:
        try:
            result = compiled.evaluate(ENV)
        except ZeroDivisionError:  # the engine reports the check as not evaluated
            pass
        else:
            assert isinstance(result, bool | float | int)
    for source in counting.parsed:
        assert len(source) <= MAX_EXPRESSION_LENGTH
        assert expression._bracket_depth(source) <= MAX_EXPRESSION_DEPTH
    assert counting.compiled <= len(text)


fast = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
slow = settings(
    max_examples=10_000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@fast
@given(text=EXPRESSIONS)
def test_any_expression_is_an_expression_error_at_worst(counting, text) -> None:
    compile_and_evaluate(text, counting)


@pytest.mark.slow
@slow
@given(text=EXPRESSIONS)
def test_many_expressions_are_expression_errors_at_worst(counting, text) -> None:
    compile_and_evaluate(text, counting)


# --- through the rule loader: file, line, column and field ----------------------------------------

RULE = """\
code: XYZ-001
name: custom.custom_rule
title: A custom rule
area: power
scope: rack
severity: error
requirement: r
why: w
references: ["x"]
parameters:
  margin: 10 %
observed: {observed}
limit: {limit}
condition: {condition}
"""
FIELDS = ("observed", "limit", "condition")


def load_rule_with(directory, field: str, text: str) -> list[str]:
    values = {"observed": "rack_apparent_power", "limit": "weakest_side_capacity"}
    values["condition"] = "observed <= limit * (1 - margin)"
    # a double-quoted YAML scalar on one line, every odd character escaped
    values[field] = yaml.safe_dump(text, default_style='"', width=1 << 30).strip()
    (directory / "XYZ-001.yaml").write_text(RULE.format(**values), encoding="utf-8")
    try:
        load_rules([bundled_rules_dir(), directory])  # as `--rules DIRECTORY` does
    except InputError as error:
        return [str(problem) for problem in error.problems]
    return []


def check_rule(directory, field: str, text: str) -> None:
    for problem in load_rule_with(directory, field, text):
        where, said = problem.split("XYZ-001.yaml:", 1)[1].split(": ", 1)
        line, column = (int(n) for n in where.split(":"))
        assert line >= 1 and column >= 1
        assert said.split(": ", 1)[0] in (*FIELDS, "parameters.margin"), problem


rule_settings = settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@rule_settings
@given(field=st.sampled_from(FIELDS), text=EXPRESSIONS)
def test_an_expression_in_a_rule_file_is_a_located_input_error(
    tmp_path_factory, field, text
) -> None:
    check_rule(tmp_path_factory.mktemp("rule"), field, text)


@pytest.mark.slow
@settings(rule_settings, max_examples=1000)
@given(field=st.sampled_from(FIELDS), text=EXPRESSIONS)
def test_many_expressions_in_rule_files_are_located_input_errors(
    tmp_path_factory, field, text
) -> None:
    check_rule(tmp_path_factory.mktemp("rule"), field, text)


def test_a_deep_condition_in_a_rule_file(tmp_path) -> None:
    text = "(" * 5000 + "observed" + ")" * 5000 + " <= limit"
    assert [
        p.split("XYZ-001.yaml:", 1)[1] for p in load_rule_with(tmp_path, "condition", text)
    ] == ["14:1: condition: the expression is 10,017 characters long; the limit is 1,000"]
