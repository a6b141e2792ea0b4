"""Units: the one pint registry, and fast parsing of quantity strings at the boundary.

Every physical number enters the program as a string with a unit (``"132 kW"``,
``"317 gpm"``, ``"90 degF"``). It is parsed once, at load time, into a float in the
*canonical unit* of its kind (table ``KINDS``); physics and rules compute on those floats,
and the report attaches units again for display.

pint is the source of truth for what a unit means, but importing pint costs about half a
second (it pulls in numpy), which would dominate ``facility check`` on a small site. So the
conversion of each unit string is cached, and the conversions of the unit strings people
commonly write are shipped pre-computed by pint in ``unit_table.json`` (rebuilt with
``python -m facility.units``; a test checks the table against pint). pint is imported only
for a unit string that is not in the table.

Absolute temperatures and temperature differences are distinct kinds: ``32 degC`` is a
``temperature``; ``10 K``, ``10 delta_degC`` and ``18 delta_degF`` are
``temperature_difference``. An offset unit (degC, degF) is refused where a difference is
expected, and a ``delta_`` unit where an absolute temperature is expected.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from facility.messages import Message, message_of
from facility.spelling import found, quoted_choices, suggestions

if TYPE_CHECKING:  # pragma: no cover
    import pint

_DEFINITIONS = Path(__file__).with_name("units.txt")
_TABLE = Path(__file__).with_name("unit_table.json")


@dataclass(frozen=True, slots=True)
class Kind:
    """A kind of physical quantity: its dimensionality, canonical unit and an example."""

    name: str
    dimensionality: str  # pint's dimensionality, as str(), e.g. "[length] ** 3 / [time]"
    canonical: str  # the unit floats of this kind are stored in
    symbol: str  # how the canonical unit is written in reports
    example: str


_POWER = "[mass] * [length] ** 2 / [time] ** 3"
KINDS: dict[str, Kind] = {
    k.name: k
    for k in (
        Kind("power", _POWER, "W", "W", "132 kW"),
        Kind("apparent_power", _POWER, "VA", "VA", "45 kVA"),
        Kind("voltage", "[mass] * [length] ** 2 / [time] ** 3 / [current]", "V", "V", "415 V"),
        Kind("current", "[current]", "A", "A", "63 A"),
        Kind("mass", "[mass]", "kg", "kg", "1500 kg"),
        Kind("length", "[length]", "m", "m", "600 mm"),
        Kind("area", "[length] ** 2", "m**2", "m²", "60 m**2"),
        Kind("volume", "[length] ** 3", "m**3", "m³", "40 L"),
        Kind("pressure", "[mass] / [length] / [time] ** 2", "Pa", "Pa", "2.5 bar"),
        # A pressure on a floor (a uniform rating, a rack's footprint load): shown as a
        # pressure in SI, in psf in the US system, where a pump head is psi.
        Kind("floor_load", "[mass] / [length] / [time] ** 2", "Pa", "Pa", "12 kPa"),
        Kind("force", "[mass] * [length] / [time] ** 2", "N", "N", "4.45 kN"),
        Kind("volumetric_flow", "[length] ** 3 / [time]", "m**3/s", "m³/s", "1200 L/min"),
        # Coolant flow per unit of heat (a vendor's band, e.g. 1.25–2.0 L/min per kW).
        Kind(
            "flow_per_power",
            "[length] * [time] ** 2 / [mass]",
            "m**3/s/W",
            "m³/(s·W)",
            "1.5 L/min/kW",
        ),
        Kind("temperature", "[temperature]", "degC", "°C", "32 degC"),
        Kind("temperature_difference", "[temperature]", "K", "K", "10 K"),
        Kind("fraction", "", "", "", "90 %"),
        Kind("time", "[time]", "s", "s", "90 s"),
        Kind("acceleration", "[length] / [time] ** 2", "m/s**2", "m/s²", "9.81 m/s**2"),
        Kind("density", "[mass] / [length] ** 3", "kg/m**3", "kg/m³", "1000 kg/m**3"),
        # A filter's rating (the particle size it stops) and a solute in the coolant (chloride,
        # mg/L): kinds of their own, so that they are shown in µm and mg/L.
        Kind("particle_size", "[length]", "m", "m", "50 um"),
        Kind("concentration", "[mass] / [length] ** 3", "kg/m**3", "kg/m³", "25 mg/L"),
        Kind("data_size", "[data]", "B", "B", "2 TB"),
        # Two kinds of one dimension, shown differently: network links in Gb/s, storage in GB/s.
        Kind("bit_rate", "[data] / [time]", "B/s", "B/s", "400 Gb/s"),
        Kind("data_rate", "[data] / [time]", "B/s", "B/s", "200 GB/s"),
        Kind("computation", "[compute]", "FLOP", "FLOP", "5e22 FLOP"),
        Kind("computation_rate", "[compute] / [time]", "FLOP/s", "FLOP/s", "2.5 PFLOP/s"),
        Kind(
            "specific_heat",
            "[length] ** 2 / [time] ** 2 / [temperature]",
            "J/(kg*K)",
            "J/(kg·K)",
            "4180 J/(kg*K)",
        ),
    )
}


@dataclass(frozen=True, slots=True)
class UnitConversion:
    """How one unit string converts to the canonical unit of its dimensionality.

    ``canonical = value * factor``, plus ``offset`` for an absolute temperature (degC is
    canonical, so ``offset`` is -273.15 for K and -17.78 for degF). A temperature difference
    uses ``factor`` alone (1 K = 1 delta_degC; 1 delta_degF = 5/9 K).
    """

    dimensionality: str
    factor: float
    offset: float
    is_offset_unit: bool  # degC, degF: absolute temperatures only
    is_delta_unit: bool  # delta_degC, delta_degF: differences only
    is_apparent_power: bool = False  # VA, kVA: apparent power only (W and VA share a dimension)


class QuantityError(ValueError):
    """A quantity string that cannot be read as the kind of quantity expected."""


class UnitError(QuantityError):
    """A unit string refused by the bounded grammar (:func:`check_unit`) before pint sees it.

    Its message names the unit and what is wrong with it, so it is shown as it is."""


# "1200 L/min", "-3.5e2 W", "32 degC", "25%"; no thousands commas (1,5 vs 1,500 is ambiguous).
# Matched on the stripped text, with an atomic number and a greedy unit: linear in the length
# of the text (a lazy unit before "\s*$" took quadratic time on a long run of spaces).
_QUANTITY = re.compile(
    r"(?P<number>(?>[-+]?(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?))\s*+(?P<unit>.*)"
)
_UNICODE = (
    ("° C", "degC"),
    ("° F", "degF"),
    ("°C", "degC"),
    ("°F", "degF"),
    ("℃", "degC"),
    ("℉", "degF"),
    ("²", "**2"),
    ("³", "**3"),
    ("·", "*"),
    ("µ", "u"),
    ("μ", "u"),
)


@cache
def registry() -> pint.UnitRegistry:
    """The one pint registry of the program (imported lazily; see the module docstring)."""
    import pint

    ureg: pint.UnitRegistry = pint.UnitRegistry(autoconvert_offset_to_baseunit=False)
    ureg.load_definitions(str(_DEFINITIONS))
    return ureg


# --- the bounded grammar a unit string must fit before pint sees it ---------------------------
#
# pint reads a unit string as arithmetic: 'kW/0' divides by zero, 'kW**0' fails inside pint
# (KeyError), 'kW**9**9**9' computes a number of 370 million digits (minutes), a few thousand
# parentheses exhaust the stack, and the cost of a string grows with its length. So a unit
# string is first read by this grammar, in time linear in its (bounded) length, and refused
# before pint is imported when it breaks a bound:
#
#     unit     := term (("*" | "/" | "." | nothing) term)*      ("kW h" is kW·h, as in pint)
#     term     := atom [("**" | "^") exponent]                  (never "kW**2**2")
#     atom     := name | "1" | "%" | "(" unit ")"               ("1/s"; pint refuses 2, 1000)
#     exponent := ["+" | "-"] digits | "(" ["+" | "-"] digits ")"
#
# Names are ASCII letters, digits and "_" (°C, ², ³, · and µ are rewritten first: _UNICODE),
# never pint's numbers inf, infinity and nan. A number is refused as pint would read it
# otherwise ("2m" is 2·m to pint, "010" is 0 and 10, "1_0" is 10): a zero (any spelling,
# "1e-400" too) because pint would divide by it, any other number but 1 as an unknown unit.
MAX_UNIT_LENGTH = 64  # characters ("british_thermal_unit/(pound*delta_degree_Fahrenheit)": 52)
MAX_UNIT_NESTING = 3  # levels of parentheses ("J/(kg*K)": 1)
MAX_UNIT_EXPONENTS = 4  # "**" or "^" in one unit ("kg*m**2/(s**3*A)": 2)
MAX_UNIT_POWER = 4  # largest exponent of a unit, parentheses multiplied out ("m**3/s": 3)
# Distinct unit strings remembered per process (conversions and refusals). When the cache is
# full it is emptied, and pint's registry with it: pint keeps caches of its own, keyed by every
# string it has parsed. A site uses a few dozen distinct unit strings.
MAX_CACHED_UNITS = 2048

_UNIT_CHARACTERS = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_ \t*/^().%+-"
)
_UNIT_TOKEN = re.compile(
    r"(?P<space>[ \t]+)"
    r"|(?P<number>(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?)"
    r"|(?P<name>[A-Za-z_][A-Za-z0-9_]*)"
    r"|(?P<op>\*\*|[*/^().%+-])"
)
_POWER_SIGNS = ("**", "^")
_NAME_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.")
_PINT_NUMBERS = ("inf", "infinity", "nan")  # names pint reads as numbers
# Words pint rewrites into powers by text substitution ("m squared" → "m**2", "cubic m" →
# "m**3"), which glues them to what follows ("kW squared1e3" → "kW**21e3"): refused.
_POWER_WORDS_AFTER = ("squared", "cubed")
_POWER_WORDS_BEFORE = ("square", "cubic", "sq")


@lru_cache(maxsize=MAX_CACHED_UNITS)
def _normalise_unit(unit: str) -> str:
    for old, new in _UNICODE:
        unit = unit.replace(old, new)
    return unit.strip()


def _shown_unit(unit: str) -> str:
    """``unit`` for a message: a long one cut short."""
    return unit if len(unit) <= 32 else unit[:32] + "…"


def _check_unit_length(unit: str) -> None:
    if len(unit) > MAX_UNIT_LENGTH:
        raise UnitError(
            Message(
                "unit '%(unit)s' is %(length)s characters long; the limit is %(limit)s",
                unit=_shown_unit(unit),
                length=format(len(unit), ","),
                limit=MAX_UNIT_LENGTH,
            )
        )


def check_unit(unit: str) -> None:
    """Refuse ``unit`` unless it fits the bounded grammar above (UnitError or, for a string
    that is not a unit expression at all, QuantityError 'unknown unit')."""
    _check_unit_length(unit)
    for character in unit:
        if character == "°":  # a degree sign without C or F after it
            raise UnitError(
                Message(
                    "unit '%(unit)s' has a degree sign without C or F; write degC or degF "
                    "(or °C, °F)",
                    unit=_shown_unit(unit),
                )
            )
        if character not in _UNIT_CHARACTERS:
            raise UnitError(
                Message(
                    "unit '%(unit)s' has the character '%(character)s', which is not allowed "
                    "in a unit",
                    unit=unit,
                    character=character,
                )
            )
    tokens: list[tuple[str, str]] = []
    position = 0
    while position < len(unit):
        match = _UNIT_TOKEN.match(unit, position)
        if match is None:  # pragma: no cover - every allowed character starts a token
            raise QuantityError(Message("unknown unit '%(unit)s'", unit=unit))
        position = match.end()
        kind = match.lastgroup or "op"
        if kind == "number" and unit[position : position + 1] in _NAME_CHARACTERS:
            raise QuantityError(Message("unknown unit '%(unit)s'", unit=unit))  # "2m", "0x1"
        if kind == "name" and match[0].lower() in _PINT_NUMBERS:
            raise QuantityError(Message("unknown unit '%(unit)s'", unit=unit))
        if kind == "name" and (
            match[0].startswith(_POWER_WORDS_AFTER) or match[0].endswith(_POWER_WORDS_BEFORE)
        ):
            raise UnitError(
                Message(
                    "unit '%(unit)s' writes a power as a word; write it with ** (m**2, ft**3)",
                    unit=unit,
                )
            )
        if kind != "space":
            tokens.append((kind, match[0]))
    _UnitReader(unit, tokens).read()


class _UnitReader:
    """A recursive-descent reader of the unit grammar; its recursion is bounded by
    MAX_UNIT_NESTING (and by MAX_UNIT_LENGTH)."""

    def __init__(self, unit: str, tokens: list[tuple[str, str]]) -> None:
        self.unit = unit
        self.tokens = tokens
        self.at = 0
        self.exponents = 0

    def read(self) -> None:
        zero, _power = self.product(0, False)
        if self.at != len(self.tokens):  # a stray ")" or sign, or nothing at all
            raise self.unknown()
        if zero:
            raise UnitError(Message("unit '%(unit)s' multiplies by zero", unit=self.unit))

    def unknown(self) -> QuantityError:
        return QuantityError(Message("unknown unit '%(unit)s'", unit=self.unit))

    def peek(self) -> tuple[str, str]:
        return self.tokens[self.at] if self.at < len(self.tokens) else ("end", "")

    def take(self) -> tuple[str, str]:
        token = self.peek()
        self.at += 1
        return token

    def starts_atom(self) -> bool:
        kind, text = self.peek()
        return kind in ("name", "number") or text in ("%", "(")

    def product(self, depth: int, divisor: bool) -> tuple[bool, int]:
        """Terms joined by * / . or side by side: (whether a number zero is among them,
        the largest power)."""
        zero, power = self.term(depth, divisor)
        while True:
            text = self.peek()[1]
            if text in ("*", ".", "/"):
                self.take()
                more = self.term(depth, divisor or text == "/")
            elif self.starts_atom():
                more = self.term(depth, divisor)
            else:
                return zero, power
            zero, power = zero or more[0], max(power, more[1])

    def term(self, depth: int, divisor: bool) -> tuple[bool, int]:
        kind, text = self.take()
        if kind == "name" or text == "%":
            zero, power = False, 1
        elif kind == "number":
            zero, power = float(text) == 0.0, 1  # "0", "0.0", and "1e-400" as well
            if not zero and text != "1":
                raise self.unknown()
        elif text == "(":
            if depth >= MAX_UNIT_NESTING:
                raise UnitError(
                    Message(
                        "unit '%(unit)s' nests parentheses deeper than %(limit)s levels",
                        unit=self.unit,
                        limit=MAX_UNIT_NESTING,
                    )
                )
            zero, power = self.product(depth + 1, divisor)
            if self.take()[1] != ")":
                raise self.unknown()
        else:
            raise self.unknown()
        negative = False
        if self.peek()[1] in _POWER_SIGNS:
            self.take()
            exponent = self.exponent()
            negative = exponent < 0
            power *= abs(exponent)
            if power > MAX_UNIT_POWER:
                raise UnitError(
                    Message(
                        "unit '%(unit)s' has a power larger than %(limit)s",
                        unit=self.unit,
                        limit=MAX_UNIT_POWER,
                    )
                )
            if self.peek()[1] in _POWER_SIGNS:
                raise UnitError(
                    Message("unit '%(unit)s' raises a power to a power", unit=self.unit)
                )
        if zero and (divisor or negative):
            raise UnitError(Message("unit '%(unit)s' divides by zero", unit=self.unit))
        return zero, power

    def exponent(self) -> int:
        self.exponents += 1
        if self.exponents > MAX_UNIT_EXPONENTS:
            raise UnitError(
                Message(
                    "unit '%(unit)s' has more than %(limit)s powers",
                    unit=self.unit,
                    limit=MAX_UNIT_EXPONENTS,
                )
            )
        parenthesised = self.peek()[1] == "("
        if parenthesised:
            self.take()
        sign = -1 if self.peek()[1] == "-" else 1
        if self.peek()[1] in ("+", "-"):
            self.take()
        kind, text = self.take()
        if kind == "number" and text[0] == "0" and text.strip("0").isdigit():
            raise self.unknown()  # "07": pint reads 0, then 7
        whole = kind == "number" and text.isdigit()
        if whole and parenthesised:
            whole = self.take()[1] == ")"
        if not whole:
            if kind not in ("number", "name"):
                raise self.unknown()
            raise UnitError(
                Message("unit '%(unit)s' has a power that is not a whole number", unit=self.unit)
            )
        exponent = sign * int(text)
        if exponent == 0:
            raise UnitError(Message("unit '%(unit)s' has a power of zero", unit=self.unit))
        return exponent


# A data symbol as people write it (b, bit, B, byte, plural, SI or binary prefix) standing alone
# in a unit string: "Gb/s", "GB", "TiB", "kbit". See units.txt for why pint does not read these.
_DATA_SYMBOL = re.compile(
    r"(?<![A-Za-z_])(?P<prefix>k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?"
    r"(?P<symbol>bits?|bytes?|b|B)(?![A-Za-z_])"
)


def _pint_unit(unit: str) -> str:
    """``unit`` with its data symbols renamed to facility's data units ("Gb/s" → "Gdata_bit/s")."""

    def rename(match: re.Match[str]) -> str:
        name = "data_bit" if match["symbol"] in ("b", "bit", "bits") else "data_byte"
        return (match["prefix"] or "") + name

    return _DATA_SYMBOL.sub(rename, unit)


# pint's str() of a dimensionality orders the base dimensions as the unit was written
# ("lbf" gives "[length] * [mass] / ...", "kN" gives "[mass] * [length] / ..."), so the text
# is built here in one fixed order, the order of the strings in KINDS.
_BASE_ORDER = ("[mass]", "[length]", "[time]", "[current]", "[temperature]", "[substance]")


def _dimension_text(dimensionality: Any) -> str:
    """A pint dimensionality as text in a fixed order; "" when dimensionless."""

    def order(name: str) -> tuple[int, str]:
        return (_BASE_ORDER.index(name) if name in _BASE_ORDER else len(_BASE_ORDER), name)

    def term(name: str, power: float) -> str:
        power = abs(power)
        shown = int(power) if float(power).is_integer() else power
        return name if shown == 1 else f"{name} ** {shown}"

    names = sorted(dimensionality, key=order)
    up = [term(n, dimensionality[n]) for n in names if dimensionality[n] > 0]
    down = [term(n, dimensionality[n]) for n in names if dimensionality[n] < 0]
    if not up and not down:
        return ""
    return (" * ".join(up) or "1") + "".join(f" / {t}" for t in down)


def _canonical_for(dimensionality: str) -> str | None:
    for kind in KINDS.values():
        if kind.dimensionality == dimensionality and kind.name != "apparent_power":
            return kind.canonical
    return None


_CACHE: dict[str, UnitConversion] = {}
_REFUSED: dict[str, tuple[type[QuantityError], str]] = {}  # unit → the error it raised
# What pint made of each text it parsed ("kW²" and "kW**2" are one text to pint), False when it
# refused it: pint parses each distinct text once, however it was spelt.
_BY_PINT_TEXT: dict[str, UnitConversion | bool] = {}
_PINT_NAMES: dict[str, str] = {}  # pint's name of each text it parsed ('coulomb' for 'C')


def conversion_by_pint(unit: str) -> UnitConversion:
    """Ask pint how ``unit`` converts to the canonical unit of its dimensionality.

    ``unit`` must fit the bounded grammar (:func:`check_unit`) first: a refused string never
    reaches pint (nor imports it)."""
    if unit:
        check_unit(unit)
    text = _pint_unit(unit)
    seen = _BY_PINT_TEXT.get(text)
    if isinstance(seen, UnitConversion):
        return seen
    if seen is not None:  # pint refused this text before
        raise QuantityError(Message("unknown unit '%(unit)s'", unit=unit))
    import pint

    ureg = registry()
    try:
        parsed = ureg.parse_units(text) if unit else ureg.dimensionless
    except (pint.errors.PintError, AttributeError, TypeError, SyntaxError, ValueError) as exc:
        _BY_PINT_TEXT[text] = False
        raise QuantityError(Message("unknown unit '%(unit)s'", unit=unit)) from exc
    try:
        found = _conversion_of(ureg, parsed)
    except (pint.errors.PintError, AttributeError, TypeError, ValueError, ArithmeticError) as exc:
        # A unit pint parses but cannot scale: a logarithmic unit in a product ('kW*dB').
        _BY_PINT_TEXT[text] = False
        raise UnitError(_not_linear(unit)) from exc
    _BY_PINT_TEXT[text] = found
    _PINT_NAMES[text] = str(parsed)
    return found


def _not_linear(unit: str) -> Message:
    return Message(
        "unit '%(unit)s' is logarithmic (decibels, nepers, octaves and decades are): give the "
        "figure in a linear unit",
        unit=unit,
    )


def _conversion_of(ureg, parsed) -> UnitConversion:
    dimensionality = _dimension_text(ureg.Quantity(1.0, parsed).dimensionality)
    is_delta = any(name.startswith("delta_") for name in parsed._units)
    is_offset = not ureg.Quantity(1.0, parsed)._is_multiplicative
    if is_offset and dimensionality != "[temperature]":
        # Not multiplicative and not an absolute temperature: a logarithmic unit (dB, Np,
        # octave, decade, dBm), which no field of a site is given in.
        raise ValueError("a logarithmic unit")
    if dimensionality == "[temperature]" and not is_delta:
        # An absolute temperature (degC, degF, K, degR): scale and offset to degC.
        zero = float(ureg.Quantity(0.0, parsed).to("degC").magnitude)
        hundred = float(ureg.Quantity(100.0, parsed).to("degC").magnitude)
        factor = float(f"{(hundred - zero) / 100.0:.15g}")  # pint's offset arithmetic is noisy
        return UnitConversion(dimensionality, factor, float(f"{zero:.15g}"), is_offset, False)
    if dimensionality == "[temperature]":
        factor = float(ureg.Quantity(1.0, parsed).to("K").magnitude)
        return UnitConversion(dimensionality, factor, 0.0, False, True)
    canonical = _canonical_for(dimensionality)
    if canonical is None:  # a dimension no field uses: parse_quantity will refuse it
        return UnitConversion(dimensionality, 1.0, 0.0, False, False)
    factor = float(ureg.Quantity(1.0, parsed).to(_pint_unit(canonical)).magnitude)
    is_apparent = any("volt_ampere" in name for name in parsed._units)
    return UnitConversion(dimensionality, factor, 0.0, False, False, is_apparent)


@cache
def _shipped_table() -> dict[str, UnitConversion]:
    try:
        raw = json.loads(_TABLE.read_text(encoding="utf-8"))
    except FileNotFoundError:  # pragma: no cover - only while rebuilding the table
        return {}
    return {unit: UnitConversion(*row) for unit, row in raw["units"].items()}


def conversion(unit: str) -> UnitConversion:
    """The conversion of a unit string, cached; pint is consulted only for unlisted units.

    Refusals are cached too, so a misspelt unit repeated on 100,000 racks asks pint once; at
    most MAX_CACHED_UNITS strings are remembered, none longer than MAX_UNIT_LENGTH."""
    found = _CACHE.get(unit)
    if found is not None:
        return found
    refused = _REFUSED.get(unit)
    if refused is not None:
        raise refused[0](refused[1])
    _check_unit_length(unit)  # before the string is kept anywhere
    if len(_CACHE) + len(_REFUSED) >= MAX_CACHED_UNITS:
        forget_units()
    try:
        found = _shipped_table().get(unit)
        if found is None:
            found = conversion_by_pint(_normalise_unit(unit))
    except QuantityError as exc:
        _REFUSED[unit] = (type(exc), message_of(exc))
        raise
    _CACHE[unit] = found
    return found


def forget_units() -> None:
    """Empty the unit caches, and drop pint's registry with its own caches (the next unit
    outside the shipped table builds it again)."""
    _CACHE.clear()
    _REFUSED.clear()
    _BY_PINT_TEXT.clear()
    _PINT_NAMES.clear()
    _normalise_unit.cache_clear()
    unit_suggestions.cache_clear()
    _read_as.cache_clear()
    registry.cache_clear()


def _describe(conv: UnitConversion) -> str:
    if conv.dimensionality == "[temperature]":
        return kind_phrase(KINDS["temperature_difference" if conv.is_delta_unit else "temperature"])
    for kind in KINDS.values():
        if kind.dimensionality == conv.dimensionality:
            if kind.dimensionality == _POWER:
                return kind_phrase(KINDS["power"])
            return kind_phrase(kind)
    if conv.dimensionality == "[mass] / [length] ** 2":
        return Message("a mass per area (for a floor rating write kgf/m**2, i.e. kilogram-force)")
    named = _OTHER_DIMENSIONS.get(conv.dimensionality)
    if named is not None:
        return named
    return Message("a quantity of dimension %(dimension)s", dimension=conv.dimensionality)


# Dimensions no field has that a misread unit often lands on ('C' is the coulomb, 'F' the
# farad, 'c' the speed of light).
_OTHER_DIMENSIONS: dict[str, Message] = {
    "[time] * [current]": Message("an electric charge"),
    "[mass] * [length] ** 2 / [time] ** 2": Message("an energy"),
    "1 / [time]": Message("a frequency"),
    "[length] / [time]": Message("a speed"),
    "[time] ** 4 * [current] ** 2 / [mass] / [length] ** 2": Message("a capacitance"),
    "[mass] * [length] ** 2 / [time] ** 3 / [current] ** 2": Message("an electrical resistance"),
    "[mass] * [length] ** 2 / [time] ** 2 / [temperature] / [substance]": Message(
        "a molar heat capacity"
    ),
}


def article(kind: Kind) -> str:
    """'a power', 'an apparent power', 'a temperature difference' — for messages."""
    words = kind.name.replace("_", " ")
    return ("an " if words[0] in "aeiou" else "a ") + words


# What article() says of each kind, as messages (translated where they are shown).
_KIND_PHRASES: dict[str, Message] = {
    "power": Message("a power"),
    "apparent_power": Message("an apparent power"),
    "voltage": Message("a voltage"),
    "current": Message("a current"),
    "mass": Message("a mass"),
    "length": Message("a length"),
    "area": Message("an area"),
    "volume": Message("a volume"),
    "pressure": Message("a pressure"),
    "floor_load": Message("a floor load"),
    "force": Message("a force"),
    "volumetric_flow": Message("a volumetric flow"),
    "flow_per_power": Message("a flow per power"),
    "temperature": Message("a temperature"),
    "temperature_difference": Message("a temperature difference"),
    "fraction": Message("a fraction"),
    "time": Message("a time"),
    "acceleration": Message("an acceleration"),
    "particle_size": Message("a particle size"),
    "concentration": Message("a concentration"),
    "density": Message("a density"),
    "specific_heat": Message("a specific heat"),
    "data_size": Message("a data size"),
    "bit_rate": Message("a bit rate"),
    "data_rate": Message("a data rate"),
    "computation": Message("a computation"),
    "computation_rate": Message("a computation rate"),
}


# The kinds' names as words ('apparent power'), as messages.
_KIND_WORDS: dict[str, Message] = {
    "power": Message("power"),
    "apparent_power": Message("apparent power"),
    "voltage": Message("voltage"),
    "current": Message("current"),
    "mass": Message("mass"),
    "length": Message("length"),
    "area": Message("area"),
    "volume": Message("volume"),
    "pressure": Message("pressure"),
    "floor_load": Message("floor load"),
    "force": Message("force"),
    "volumetric_flow": Message("volumetric flow"),
    "flow_per_power": Message("flow per power"),
    "temperature": Message("temperature"),
    "temperature_difference": Message("temperature difference"),
    "fraction": Message("fraction"),
    "time": Message("time"),
    "acceleration": Message("acceleration"),
    "density": Message("density"),
    "specific_heat": Message("specific heat"),
    "data_size": Message("data size"),
    "bit_rate": Message("bit rate"),
    "data_rate": Message("data rate"),
    "computation": Message("computation"),
    "computation_rate": Message("computation rate"),
}


def kind_word(kind_name: str) -> str:
    """The name of a kind as a word: 'apparent power' (zh-CN '视在功率')."""
    return _KIND_WORDS.get(kind_name) or kind_name.replace("_", " ")


def kind_phrase(kind: Kind) -> str:
    """:func:`article` of ``kind`` as a message: 'a power' (zh-CN '功率')."""
    return _KIND_PHRASES.get(kind.name) or article(kind)


def _expected(kind: Kind, got: str) -> Message:
    return Message(
        "expected %(what)s like '%(example)s', got %(text)s",
        what=kind_phrase(kind),
        example=kind.example,
        text=got,
    )


# --- "did you mean": units of the right kind spelt like the one written ----------------------
#
# For a unit that is unknown, or known but of another dimension than the field's ('30 C' is 30
# coulomb), the spellings of the field's kind that are close to it: a common alias (C → degC,
# lpm → L/min, psig → psi, t → ton_of_refrigeration for a power), digits written for powers
# (m3/h → m**3/h), the same unit in another case (kpa → kPa), then close spellings among the
# units below and the shipped table. Each suggestion is checked to be read as the field's kind.

# Spellings offered for each kind, in the order they are offered.
_SPELLINGS: dict[str, tuple[str, ...]] = {
    "power": ("W", "kW", "MW", "BTU/h", "ton_of_refrigeration"),
    "apparent_power": ("VA", "kVA", "MVA"),
    "voltage": ("V", "kV"),
    "current": ("A", "kA"),
    "mass": ("kg", "g", "t", "lb"),
    "length": ("mm", "cm", "m", "in", "ft"),
    "area": ("m**2", "ft**2"),
    "volume": ("L", "m**3", "gal"),
    "pressure": ("Pa", "kPa", "MPa", "bar", "mbar", "psi", "psf", "kgf/m**2", "inch_H2O"),
    "floor_load": ("kPa", "Pa", "psf", "kgf/m**2", "kN/m**2"),
    "force": ("N", "kN", "lbf", "kgf"),
    "volumetric_flow": ("L/min", "L/s", "m**3/h", "m**3/s", "gpm", "cfm"),
    "temperature": ("degC", "degF", "K"),
    "temperature_difference": ("K", "delta_degC", "delta_degF"),
    "fraction": ("%",),
    "time": ("s", "min", "h", "d"),
    "bit_rate": ("Gb/s", "Tb/s", "Mb/s"),
    "data_rate": ("GB/s", "TB/s", "MB/s"),
    "data_size": ("GB", "TB", "PB", "MB"),
}

# What people write (lower case, spaces left out) → what they may have meant; each is offered
# only where it is read as the field's kind ('t' is a tonne for a mass, a ton of refrigeration
# for a power).
_ALIASES: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(
        (
            "c",
            "deg",
            "degs",
            "degree",
            "degrees",
            "degc",
            "deg_c",
            "degreec",
            "degreesc",
            "celsius",
            "centigrade",
            "degcelsius",
        ),
        ("degC", "delta_degC"),
    ),
    **dict.fromkeys(
        ("f", "degf", "deg_f", "degreef", "degreesf", "fahrenheit", "degfahrenheit"),
        ("degF", "delta_degF"),
    ),
    **dict.fromkeys(("k", "kelvin", "degk", "deg_k"), ("K",)),
    **dict.fromkeys(("dc", "deltac", "delta_c", "deltadegc"), ("delta_degC", "K")),
    **dict.fromkeys(("df", "deltaf", "delta_f", "deltadegf"), ("delta_degF",)),
    **dict.fromkeys(("lpm", "l/m", "lmin", "ltr/min", "litre/min", "liter/min"), ("L/min",)),
    **dict.fromkeys(("lps", "l/sec", "ltr/s", "litre/s", "liter/s"), ("L/s",)),
    **dict.fromkeys(("m3/h", "m3/hr", "cmh", "m^3/hr", "m**3/hr", "cbm/h"), ("m**3/h",)),
    **dict.fromkeys(("usgpm", "gal/m", "gpms", "usgal/min"), ("gpm",)),
    **dict.fromkeys(("ft3/min", "cuft/min", "cu_ft/min", "scfm", "acfm", "cfms"), ("cfm",)),
    **dict.fromkeys(("psig", "psia", "lb/in2", "lbf/in2", "lb/in**2"), ("psi",)),
    **dict.fromkeys(("kpag", "kpaa", "kpad"), ("kPa",)),
    **dict.fromkeys(("barg", "bara", "bard"), ("bar",)),
    **dict.fromkeys(("lb/ft2", "lbs/ft2", "lbf/ft2", "lb/sqft", "lbs/sqft"), ("psf",)),
    **dict.fromkeys(("kg/m2", "kgf/m2", "kg/m**2", "kg/m^2", "kg/sqm"), ("kgf/m**2",)),
    **dict.fromkeys(("inh2o", "inwc", "in_wc", "inwg", '"wc', "in.wc"), ("inch_H2O",)),
    "t": ("t", "ton_of_refrigeration"),
    **dict.fromkeys(("ton", "tons", "tr", "rt", "tor"), ("ton_of_refrigeration", "t")),
    **dict.fromkeys(("tonne", "tonnes", "mt"), ("t",)),
    **dict.fromkeys(("btu", "btuh", "btu/hr", "btus/h", "btu/hour"), ("BTU/h",)),
    **dict.fromkeys(("sqft", "sq.ft", "sq_ft", "ft2", "sf"), ("ft**2",)),
    **dict.fromkeys(("sqm", "m2", "sq.m", "sq_m"), ("m**2",)),
    **dict.fromkeys(("m3", "cbm", "cu_m"), ("m**3",)),
    **dict.fromkeys(("ltr", "ltrs", "litres", "liters", "lt"), ("L",)),
    **dict.fromkeys(("kgs", "kilo", "kilos"), ("kg",)),
    **dict.fromkeys(("amp", "amps"), ("A",)),
    **dict.fromkeys(("pct", "percent", "per_cent"), ("%",)),
    **dict.fromkeys(("sec", "secs"), ("s",)),
    **dict.fromkeys(("hr", "hrs"), ("h",)),
    **dict.fromkeys(("mins",), ("min",)),
}

# "Gbps" is gigabits per second, "GBps" gigabytes: case tells bits from bytes, so these are
# read before the aliases, which are compared in lower case.
_PER_SECOND = re.compile(r"(?P<prefix>[kKmMgGtTpP]?)(?P<symbol>[bB])ps")
_PREFIXES = {"k": "k", "K": "k", "m": "M", "M": "M", "g": "G", "G": "G", "t": "T", "T": "T"}
_PREFIXES |= {"p": "P", "P": "P", "": ""}
_SPELT = re.compile(r'[A-Za-z"%][A-Za-z0-9_/*^." ]*')  # a unit written as a name, maybe wrongly
_DIGIT_POWER = re.compile(r"(?<=[A-Za-z])([234])(?![0-9])")  # m3/h → m**3/h


def _fits(unit: str, kind_name: str) -> bool:
    """Whether ``unit`` is read as a quantity of ``kind_name`` (dimension and, for powers and
    temperatures, the finer distinction)."""
    try:
        conv = conversion(_normalise_unit(unit))
    except QuantityError:
        return False
    if conv.dimensionality != KINDS[kind_name].dimensionality:
        return False
    if kind_name == "power":
        return not conv.is_apparent_power
    if kind_name == "apparent_power":
        return conv.is_apparent_power
    if kind_name == "temperature":
        return not conv.is_delta_unit
    if kind_name == "temperature_difference":
        return not conv.is_offset_unit
    return True


@lru_cache(maxsize=MAX_CACHED_UNITS)
def unit_suggestions(unit: str, kind_name: str) -> tuple[str, ...]:
    """Spellings of ``kind_name`` that ``unit`` (refused for that kind) may have meant."""
    if not _SPELT.fullmatch(unit):  # '(kW', 'kW-h', '2kW': malformed, not misspelt
        return ()
    rate = _PER_SECOND.fullmatch(unit.strip())
    if rate is not None:
        spelt = f"{_PREFIXES[rate['prefix']]}{rate['symbol']}/s"
        return (spelt,) if _fits(spelt, kind_name) else ()
    key = unit.replace(" ", "").lower()
    meant = [m for m in _ALIASES.get(key, ()) if _fits(m, kind_name)]
    if meant:
        return tuple(meant[:1])
    powers = _DIGIT_POWER.sub(r"**\1", unit.replace(" ", ""))
    if powers != unit and _fits(powers, kind_name):
        return (powers,)
    shipped = [u for u in _shipped_table() if u and _fits(u, kind_name)]
    candidates = [*_SPELLINGS.get(kind_name, ()), *shipped]
    return tuple(suggestions(unit, candidates, one_edit_from=3))  # 'kg' is not a typo of 'K'


@lru_cache(maxsize=MAX_CACHED_UNITS)
def _read_as(unit: str) -> str | None:
    """pint's name of the unit ``unit`` is read as ('coulomb' for 'C'); None when that is
    ``unit`` itself or cannot be told."""
    try:
        conversion_by_pint(unit)  # pint parses each text once (tests/fuzz/test_units_fuzz.py)
    except QuantityError:
        return None
    name = _PINT_NAMES.get(_pint_unit(unit))
    if name is None:
        return None
    name = name.replace("data_bit", "bit").replace("data_byte", "byte")
    if name == unit or len(name) > 40:
        return None
    return name


def _meant(problem: str, number: str, unit: str, kind_name: str) -> str:
    """``problem`` with "did you mean '30 degC'?" when a spelling of the kind is close."""
    meant = unit_suggestions(unit, kind_name)
    if not meant:
        return problem
    return Message(
        "%(problem)s; did you mean %(choices)s?",
        problem=problem,
        choices=quoted_choices([f"{number} {m}" for m in meant]),
    )


def parse_quantity(text: Any, kind_name: str) -> float:
    """Parse ``text`` (e.g. ``"450000 BTU/h"``) as ``kind_name``; return the canonical magnitude.

    Raises QuantityError with a message that says what was expected and what was found.
    Bare numbers are refused for every kind except ``fraction`` (0..1), because a physical
    number without a unit is exactly the mistake this tool exists to catch.
    """
    kind = KINDS[kind_name]
    if isinstance(text, bool):
        raise QuantityError(_expected(kind, found(text)))
    if isinstance(text, int | float):
        if kind_name == "fraction":
            try:
                value = float(text)
            except OverflowError:  # an int of 309+ digits: beyond any float
                raise QuantityError(
                    Message(
                        "expected a finite number, got a number of %(digits)s digits",
                        digits=f"{len(str(abs(text))):,}",
                    )
                ) from None
            if not math.isfinite(value):
                raise QuantityError(
                    Message("expected a finite number, got %(text)s", text=repr(text))
                )
            return value
        raise QuantityError(
            Message(
                "missing unit: expected %(what)s like '%(example)s', got the bare number %(text)s",
                what=kind_phrase(kind),
                example=kind.example,
                text=repr(text),
            )
        )
    if not isinstance(text, str):
        raise QuantityError(_expected(kind, found(text)))  # null, a list, a mapping
    if "," in text:
        raise QuantityError(
            Message(
                "cannot read '%(text)s': write numbers without thousands or decimal commas "
                "(e.g. '%(example)s')",
                text=text,
                example=kind.example,
            )
        )
    match = _QUANTITY.fullmatch(text.strip())
    if match is None:
        raise QuantityError(
            Message(
                "cannot read '%(text)s' as %(what)s like '%(example)s'",
                text=text,
                what=kind_phrase(kind),
                example=kind.example,
            )
        )
    number = float(match["number"].replace("_", ""))
    if not math.isfinite(number):
        raise QuantityError(Message("'%(text)s' is not a finite number", text=text))
    _check_unit_length(match["unit"])  # before the string is normalised and cached
    unit = _normalise_unit(match["unit"])
    if not unit and kind_name != "fraction":
        raise QuantityError(
            Message(
                "missing unit: expected %(what)s like '%(example)s', got '%(text)s'",
                what=kind_phrase(kind),
                example=kind.example,
                text=text,
            )
        )
    try:
        conv = conversion(unit)
    except UnitError:
        raise  # it names the unit, and the text may be long
    except QuantityError as exc:
        raise QuantityError(
            _meant(
                Message("%(problem)s in '%(text)s'", problem=message_of(exc), text=text),
                match["number"],
                unit,
                kind_name,
            )
        ) from None
    if conv.dimensionality != kind.dimensionality:
        reading = _describe(conv)
        meant = unit_suggestions(unit, kind_name)
        # Named when it surprises: a dimension no field has ('C', the coulomb), or a
        # spelling that means another thing here ('t', a tonne, for a power).
        surprising = reading not in _KIND_PHRASES.values() or (
            bool(meant) and unit.lower() in _ALIASES
        )
        read_as = _read_as(unit) if surprising else None
        if read_as is not None:
            reading = Message(
                "%(found)s ('%(unit)s' is read as %(name)s)", found=reading, unit=unit, name=read_as
            )
        raise QuantityError(
            _meant(
                Message(
                    "expected %(what)s like '%(example)s', got '%(text)s', which is %(found)s",
                    what=kind_phrase(kind),
                    example=kind.example,
                    text=text,
                    found=reading,
                ),
                match["number"],
                unit,
                kind_name,
            )
        )
    if kind_name == "power" and conv.is_apparent_power:
        raise QuantityError(
            Message(
                "expected a real power like '%(example)s', got the apparent power '%(text)s' "
                "(convert VA to W through the power factor)",
                example=kind.example,
                text=text,
            )
        )
    if kind_name == "apparent_power" and not conv.is_apparent_power:
        raise QuantityError(
            Message(
                "expected an apparent power like '%(example)s', got '%(text)s' "
                "(write VA or kVA; W and VA differ by the power factor)",
                example=kind.example,
                text=text,
            )
        )
    if kind_name == "temperature" and conv.is_delta_unit:
        raise QuantityError(
            Message(
                "expected an absolute temperature like '%(example)s', got the temperature "
                "difference '%(text)s'",
                example=kind.example,
                text=text,
            )
        )
    if kind_name == "temperature_difference" and conv.is_offset_unit:
        raise QuantityError(
            Message(
                "expected a temperature difference like '10 K' or '18 delta_degF', got the "
                "absolute temperature '%(text)s'",
                text=text,
            )
        )
    magnitude = (
        number * conv.factor + conv.offset if kind_name == "temperature" else number * conv.factor
    )
    if not math.isfinite(magnitude):  # '1e308 kW' is finite as written, not in W
        raise QuantityError(Message("'%(text)s' is too large", text=text))
    return magnitude


def to_unit(value: float, kind_name: str, unit: str) -> float:
    """Convert a canonical magnitude of ``kind_name`` to ``unit`` (for display)."""
    conv = conversion(_normalise_unit(unit))
    if conv.dimensionality != KINDS[kind_name].dimensionality:
        raise QuantityError(
            Message(
                "cannot show %(what)s in '%(unit)s'", what=kind_phrase(KINDS[kind_name]), unit=unit
            )
        )
    if kind_name == "temperature":
        return (value - conv.offset) / conv.factor
    return value / conv.factor


# Unit strings shipped pre-converted. Anything else still works, through pint.
COMMON_UNITS = (
    "",
    "%",
    "percent",
    "W",
    "kW",
    "MW",
    "BTU/h",
    "Btu/h",
    "BTU/hr",
    "ton_of_refrigeration",
    "VA",
    "kVA",
    "MVA",
    "V",
    "kV",
    "A",
    "kA",
    "g",
    "kg",
    "t",
    "lb",
    "lbs",
    "mm",
    "cm",
    "m",
    "in",
    "ft",
    "m**2",
    "m^2",
    "ft**2",
    "ft^2",
    "sq_ft",
    "L",
    "l",
    "m**3",
    "m^3",
    "gal",
    "gallon",
    "Pa",
    "kPa",
    "MPa",
    "bar",
    "mbar",
    "psi",
    "psf",
    "psid",
    "kgf/m**2",
    "lbf/ft**2",
    "N",
    "kN",
    "lbf",
    "kgf",
    "m**3/s",
    "m^3/s",
    "m**3/h",
    "m^3/h",
    "L/min",
    "l/min",
    "L/s",
    "lpm",
    "gpm",
    "gal/min",
    "cfm",
    "L/min/kW",
    "gpm/kW",
    "degC",
    "degF",
    "K",
    "delta_degC",
    "delta_degF",
    "s",
    "min",
    "h",
    "d",
    "day",
    "days",
    "week",
    "kg/m**3",
    "um",
    "micron",
    "mg/L",
    "mg/l",
    "m/s**2",
    "J/(kg*K)",
    "kJ/(kg*K)",
    "B",
    "kB",
    "MB",
    "GB",
    "TB",
    "PB",
    "KiB",
    "MiB",
    "GiB",
    "TiB",
    "B/s",
    "kB/s",
    "MB/s",
    "GB/s",
    "TB/s",
    "Gb/s",
    "Gbit/s",
    "Tb/s",
    "FLOP",
    "PFLOP",
    "EFLOP",
    "ZFLOP",
    "FLOP/s",
    "TFLOP/s",
    "PFLOP/s",
    "EFLOP/s",
    "PFLOPS",
)


def _rebuild_table() -> None:
    rows = []
    for unit in COMMON_UNITS:
        conv = conversion_by_pint(unit)
        row = [conv.dimensionality, conv.factor, conv.offset]
        row += [conv.is_offset_unit, conv.is_delta_unit, conv.is_apparent_power]
        rows.append(f"  {json.dumps(unit)}: {json.dumps(row)}")
    header = '{"generated_by": "python -m facility.units",\n "units": {\n'
    _TABLE.write_text(header + ",\n".join(rows) + "\n}}\n", encoding="utf-8")


if __name__ == "__main__":
    _rebuild_table()
