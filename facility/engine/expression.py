"""The rule condition language: tiny, safe, and dimension-checked when rules load.

Grammar (a whitelist over Python's own expression parser; nothing is ever ``eval``-ed):
names (derived quantities and rule parameters), numbers, ``+ - * /``, unary ``-``,
comparisons (``< <= > >= == !=``), ``and`` / ``or`` / ``not``, parentheses, and the calls
``min(...)``, ``max(...)``, ``abs(...)``.

Every name has a :class:`Type` — a dimension vector, whether it is an absolute temperature,
and whether it is a truth value — and the checker refuses what makes no physical sense:
comparing a temperature with a power, adding two absolute temperatures, comparing W with VA
(apparent power is its own base dimension here, so a forgotten power factor fails at load).

A checked expression is compiled into nested closures (no ``eval``) that evaluate on floats.

Parsing, checking and evaluating all recurse as deep as the expression nests, and a literal
becomes a float, so an expression is bounded before it is compiled: at most
MAX_EXPRESSION_LENGTH characters, MAX_EXPRESSION_DEPTH levels of nesting (parentheses, and
operators inside operators: ``a + b + c`` is three levels) and literals of at most
MAX_NUMBER_LENGTH characters. The expressions of the rules shipped are at most 40 characters
and 2 levels.
"""

from __future__ import annotations

import ast
import difflib
import functools
import itertools
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from facility.messages import Message
from facility.units import KINDS, kind_word


class ExpressionError(ValueError):
    """An expression that does not parse, names something unknown, or mixes dimensions."""


MAX_EXPRESSION_LENGTH = 1_000  # characters
MAX_EXPRESSION_DEPTH = 32  # levels of nesting: parentheses, operators and calls
MAX_NUMBER_LENGTH = 32  # characters of a number literal (one beyond a float: 'not a finite number')


@dataclass(frozen=True, slots=True)
class Type:
    """The static type of an expression."""

    dimension: tuple[tuple[str, int], ...] = ()  # sorted (base, exponent) pairs
    absolute: bool = False  # an absolute temperature (°C), not a difference
    boolean: bool = False

    def describe(self) -> str:
        if self.boolean:
            return _TRUTH_VALUE
        if self.absolute:
            return Message("an absolute temperature")
        if not self.dimension:
            return Message("a number")
        for kind in KINDS.values():
            if kind_type(kind.name) == self:
                return kind_word(kind.name)
        return "[" + " ".join(f"{b}^{e}" for b, e in self.dimension) + "]"


_TRUTH_VALUE = Message("a truth value")


BOOLEAN = Type(boolean=True)
NUMBER = Type()

_BASE: dict[str, dict[str, int]] = {
    "power": {"mass": 1, "length": 2, "time": -3},
    "apparent_power": {"mass": 1, "length": 2, "time": -3, "apparent": 1},
    "voltage": {"mass": 1, "length": 2, "time": -3, "current": -1},
    "current": {"current": 1},
    "mass": {"mass": 1},
    "length": {"length": 1},
    "area": {"length": 2},
    "volume": {"length": 3},
    "pressure": {"mass": 1, "length": -1, "time": -2},
    "floor_load": {"mass": 1, "length": -1, "time": -2},
    "force": {"mass": 1, "length": 1, "time": -2},
    "volumetric_flow": {"length": 3, "time": -1},
    "flow_per_power": {"length": 1, "time": 2, "mass": -1},
    "temperature": {"temperature": 1},
    "temperature_difference": {"temperature": 1},
    "fraction": {},
    "time": {"time": 1},
    "density": {"mass": 1, "length": -3},
    "particle_size": {"length": 1},
    "concentration": {"mass": 1, "length": -3},
    "acceleration": {"length": 1, "time": -2},
    "specific_heat": {"length": 2, "time": -2, "temperature": -1},
    "data_size": {"data": 1},
    "bit_rate": {"data": 1, "time": -1},
    "data_rate": {"data": 1, "time": -1},
    "computation": {"computation": 1},
    "computation_rate": {"computation": 1, "time": -1},
}


def _dimension(exponents: Mapping[str, int]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted((b, e) for b, e in exponents.items() if e))


@functools.cache  # a Type is immutable; a rule load asks for each kind hundreds of times
def kind_type(kind: str) -> Type:
    """The type of a quantity kind from ``facility.units.KINDS`` (or 'boolean', 'count')."""
    if kind == "boolean":
        return BOOLEAN
    if kind == "count":
        return NUMBER
    return Type(_dimension(_BASE[kind]), absolute=kind == "temperature")


def _combine(a: Type, b: Type, sign: int) -> Type:
    exps = dict(a.dimension)
    for base, e in b.dimension:
        exps[base] = exps.get(base, 0) + sign * e
    return Type(_dimension(exps))


Evaluator = Callable[[Mapping[str, float]], float]

# Values within one part in 10⁹ compare equal: a limit written in degF or psi converts to SI
# with rounding noise (89.6 degF → 32.000000000000114 °C), and that noise must not decide a
# verdict. Differences an engineer could measure are many orders of magnitude larger.
RELATIVE_TOLERANCE = 1e-9


def _tolerance(a: float, b: float) -> float:
    return RELATIVE_TOLERANCE * max(abs(a), abs(b), 1e-300)


_COMPARE: dict[type, Callable[[float, float], bool]] = {
    ast.Lt: lambda a, b: a < b - _tolerance(a, b),
    ast.LtE: lambda a, b: a <= b + _tolerance(a, b),
    ast.Gt: lambda a, b: a > b + _tolerance(a, b),
    ast.GtE: lambda a, b: a >= b - _tolerance(a, b),
    ast.Eq: lambda a, b: abs(a - b) <= _tolerance(a, b),
    ast.NotEq: lambda a, b: abs(a - b) > _tolerance(a, b),
}
COMPARISON_SYMBOLS: dict[type, str] = {
    ast.Lt: "<",
    ast.LtE: "≤",
    ast.Gt: ">",
    ast.GtE: "≥",
    ast.Eq: "=",
    ast.NotEq: "≠",
}


@dataclass(frozen=True, slots=True)
class Expression:
    """A parsed, checked, compiled expression."""

    text: str
    type: Type
    names: frozenset[str]
    evaluate: Evaluator
    tree: ast.expr


def compile_expression(text: str, names: Mapping[str, Type]) -> Expression:
    """Parse ``text``, check names and dimensions against ``names``, compile it."""
    if len(text) > MAX_EXPRESSION_LENGTH:
        raise ExpressionError(
            Message(
                "the expression is %(length)s characters long; the limit is %(limit)s",
                length=format(len(text), ","),
                limit=format(MAX_EXPRESSION_LENGTH, ","),
            )
        )
    if _bracket_depth(text) > MAX_EXPRESSION_DEPTH:  # before Python's parser recurses on them
        raise _too_deep(text)
    try:
        tree = ast.parse(text.strip(), mode="eval").body
    except SyntaxError as exc:
        raise ExpressionError(
            Message("cannot parse '%(text)s': %(detail)s", text=text, detail=exc.msg)
        ) from None
    except (RecursionError, MemoryError):  # pragma: no cover - the bounds above come first
        raise _too_deep(text) from None
    if _tree_depth(tree) > MAX_EXPRESSION_DEPTH:
        raise _too_deep(text)
    used: set[str] = set()
    checked_type, evaluate = _compile(tree, names, used, text)
    return Expression(text, checked_type, frozenset(used), evaluate, tree)


def _too_deep(text: str) -> ExpressionError:
    return ExpressionError(
        Message(
            "'%(text)s' nests deeper than %(limit)s levels", text=text, limit=MAX_EXPRESSION_DEPTH
        )
    )


def _bracket_depth(text: str) -> int:
    """How deep the brackets of ``text`` nest (the language has no strings to skip)."""
    depth = deepest = 0
    for character in text:
        if character in "([{":
            depth += 1
            deepest = max(deepest, depth)
        elif character in ")]}":
            depth -= 1
    return deepest


def _tree_depth(tree: ast.expr) -> int:
    """How deep the expressions of ``tree`` nest, counted without recursion."""
    deepest = 0
    stack: list[tuple[ast.AST, int]] = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        for child in ast.iter_child_nodes(node):
            stack.append((child, depth + 1 if isinstance(child, ast.expr) else depth))
    return deepest


def _compile(
    node: ast.expr, names: Mapping[str, Type], used: set[str], text: str
) -> tuple[Type, Evaluator]:
    if isinstance(node, ast.Name):
        if node.id not in names:
            close = difflib.get_close_matches(node.id, sorted(names), n=3, cutoff=0.6)
            if close:
                raise ExpressionError(
                    Message(
                        "unknown name '%(name)s' in '%(text)s' (did you mean %(close)s?)",
                        name=node.id,
                        text=text,
                        close=" or ".join(close),
                    )
                )
            raise ExpressionError(
                Message(
                    "unknown name '%(name)s' in '%(text)s' (known here: %(known)s)",
                    name=node.id,
                    text=text,
                    known=", ".join(sorted(names)),
                )
            )
        used.add(node.id)
        key = node.id
        return names[key], lambda env: env[key]
    if isinstance(node, ast.Constant):
        if isinstance(node.value, bool) or not isinstance(node.value, int | float):
            raise ExpressionError(
                Message("only numbers are allowed as constants in '%(text)s'", text=text)
            )
        try:
            value = float(node.value)
        except OverflowError:  # a whole number too large for a float
            value = math.inf
        if not math.isfinite(value):  # '1e999' parses as inf
            number = ast.get_source_segment(text.strip(), node) or ast.unparse(node)
            raise ExpressionError(
                Message(
                    "'%(number)s' is not a finite number in '%(text)s'", number=number, text=text
                )
            )
        length = (node.end_col_offset or 0) - node.col_offset  # a number is ASCII, on one line
        if length > MAX_NUMBER_LENGTH:
            raise ExpressionError(
                Message(
                    "a number of %(length)s characters in '%(text)s' is too long; the limit "
                    "is %(limit)s",
                    length=format(length, ","),
                    text=text,
                    limit=MAX_NUMBER_LENGTH,
                )
            )
        return NUMBER, lambda env: value
    if isinstance(node, ast.UnaryOp):
        operand_type, operand = _compile(node.operand, names, used, text)
        if isinstance(node.op, ast.Not):
            _need_boolean(operand_type, "not", text)
            return BOOLEAN, lambda env: not operand(env)
        if isinstance(node.op, ast.USub | ast.UAdd):
            _need_quantity(operand_type, Message("a sign"), text)
            if operand_type.absolute:
                raise ExpressionError(
                    Message("cannot negate an absolute temperature in '%(text)s'", text=text)
                )
            if isinstance(node.op, ast.UAdd):
                return operand_type, operand
            return operand_type, lambda env: -operand(env)
    if isinstance(node, ast.BoolOp):
        parts = [_compile(v, names, used, text) for v in node.values]
        for part_type, _ in parts:
            _need_boolean(part_type, "and/or", text)
        funcs = [f for _, f in parts]
        if isinstance(node.op, ast.And):
            return BOOLEAN, lambda env: all(f(env) for f in funcs)
        return BOOLEAN, lambda env: any(f(env) for f in funcs)
    if isinstance(node, ast.BinOp):
        return _binary(node, names, used, text)
    if isinstance(node, ast.Compare):
        return _comparison(node, names, used, text)
    if isinstance(node, ast.Call):
        return _call(node, names, used, text)
    raise ExpressionError(
        Message(
            "'%(part)s' is not allowed in a rule expression ('%(text)s')",
            part=ast.unparse(node),
            text=text,
        )
    )


def _need_boolean(t: Type, what: str, text: str) -> None:
    if not t.boolean:
        raise ExpressionError(
            Message(
                "%(what)s needs truth values, got %(found)s in '%(text)s'",
                what=what,
                found=t.describe(),
                text=text,
            )
        )


def _need_quantity(t: Type, what: str, text: str) -> None:
    if t.boolean:
        raise ExpressionError(
            Message(
                "%(what)s needs a quantity, got a truth value in '%(text)s'", what=what, text=text
            )
        )


def _binary(
    node: ast.BinOp, names: Mapping[str, Type], used: set[str], text: str
) -> tuple[Type, Evaluator]:
    lt, left = _compile(node.left, names, used, text)
    rt, right = _compile(node.right, names, used, text)
    arithmetic = Message("arithmetic")
    _need_quantity(lt, arithmetic, text)
    _need_quantity(rt, arithmetic, text)
    where = Message("'%(part)s' in '%(text)s'", part=ast.unparse(node), text=text)
    if isinstance(node.op, ast.Add | ast.Sub):
        if lt.dimension != rt.dimension:
            raise ExpressionError(
                Message(
                    "cannot add or subtract %(left)s and %(right)s: %(where)s",
                    left=lt.describe(),
                    right=rt.describe(),
                    where=where,
                )
            )
        if isinstance(node.op, ast.Add):
            if lt.absolute and rt.absolute:
                raise ExpressionError(
                    Message("cannot add two absolute temperatures: %(where)s", where=where)
                )
            result = Type(lt.dimension, absolute=lt.absolute or rt.absolute)
            return result, lambda env: left(env) + right(env)
        if rt.absolute and not lt.absolute:
            raise ExpressionError(
                Message(
                    "cannot subtract an absolute temperature from a difference: %(where)s",
                    where=where,
                )
            )
        result = Type(lt.dimension, absolute=lt.absolute and not rt.absolute)
        return result, lambda env: left(env) - right(env)
    if isinstance(node.op, ast.Mult | ast.Div):
        if lt.absolute or rt.absolute:
            raise ExpressionError(
                Message("cannot multiply or divide an absolute temperature: %(where)s", where=where)
            )
        if isinstance(node.op, ast.Mult):
            return _combine(lt, rt, 1), lambda env: left(env) * right(env)
        return _combine(lt, rt, -1), lambda env: left(env) / right(env)
    raise ExpressionError(Message("operator not allowed: %(where)s", where=where))


def _comparison(
    node: ast.Compare, names: Mapping[str, Type], used: set[str], text: str
) -> tuple[Type, Evaluator]:
    operands = [_compile(n, names, used, text) for n in (node.left, *node.comparators)]
    for (at, _), (bt, _) in itertools.pairwise(operands):
        if at != bt:
            raise ExpressionError(
                Message(
                    "cannot compare %(left)s with %(right)s: '%(part)s' in '%(text)s'",
                    left=at.describe(),
                    right=bt.describe(),
                    part=ast.unparse(node),
                    text=text,
                )
            )
    ops = []
    for op in node.ops:
        if type(op) not in _COMPARE:
            raise ExpressionError(Message("comparison not allowed in '%(text)s'", text=text))
        ops.append(_COMPARE[type(op)])
    funcs = [f for _, f in operands]
    if len(ops) == 1:
        a, b, compare = funcs[0], funcs[1], ops[0]
        return BOOLEAN, lambda env: compare(a(env), b(env))

    def chained(env: Mapping[str, float]) -> bool:
        values = [f(env) for f in funcs]
        return all(op(values[i], values[i + 1]) for i, op in enumerate(ops))

    return BOOLEAN, chained


def _call(
    node: ast.Call, names: Mapping[str, Type], used: set[str], text: str
) -> tuple[Type, Evaluator]:
    if (
        not isinstance(node.func, ast.Name)
        or node.func.id not in ("min", "max", "abs")
        or node.keywords
    ):
        raise ExpressionError(
            Message("only min(), max() and abs() may be called, in '%(text)s'", text=text)
        )
    args = [_compile(a, names, used, text) for a in node.args]
    if not args:
        raise ExpressionError(
            Message(
                "%(function)s() needs arguments in '%(text)s'", function=node.func.id, text=text
            )
        )
    first = args[0][0]
    _need_quantity(first, node.func.id + "()", text)
    for t, _ in args[1:]:
        if t != first:
            raise ExpressionError(
                Message(
                    "%(function)s() of %(left)s and %(right)s in '%(text)s'",
                    function=node.func.id,
                    left=first.describe(),
                    right=t.describe(),
                    text=text,
                )
            )
    funcs = [f for _, f in args]
    if node.func.id == "abs":
        if len(funcs) != 1:
            raise ExpressionError(Message("abs() takes one argument in '%(text)s'", text=text))
        if first.absolute:
            raise ExpressionError(
                Message("abs() of an absolute temperature makes no sense in '%(text)s'", text=text)
            )
        f0 = funcs[0]
        return first, lambda env: abs(f0(env))
    pick = min if node.func.id == "min" else max
    return first, lambda env: pick(f(env) for f in funcs)


def comparison(op: type) -> Callable[[float, float], bool]:
    """The function a condition compares two figures with for ``op`` (``ast.LtE``: within
    the tolerance of :func:`_tolerance`), as a compiled expression applies it."""
    return _COMPARE[op]


def simple_comparison(expression: Expression) -> tuple[str, type, str] | None:
    """``observed <= limit`` -> ("observed", ast.LtE, "limit"); other shapes -> None."""
    tree = expression.tree
    if (
        isinstance(tree, ast.Compare)
        and len(tree.ops) == 1
        and isinstance(tree.left, ast.Name)
        and isinstance(tree.comparators[0], ast.Name)
    ):
        return tree.left.id, type(tree.ops[0]), tree.comparators[0].id
    return None
