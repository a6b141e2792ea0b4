"""NetBox's numbers in our units, and the one figure NetBox's REST API does not return.

NetBox stores plain numbers next to a unit choice (``weight_unit`` kg|g|lb|oz, ``outer_unit``
mm|in, ``max_flow_unit`` lpm|m3ph|gpm) and power in watts. Conversions go through the one
registry of :mod:`facility.units` (pint's definitions: 1 lb = 0.45359237 kg, 1 oz = 1/16 lb,
1 in = 25.4 mm, 1 gpm = 1 US gallon per minute = 3.785411784 L/min); nothing here has a
conversion factor of its own except the three-phase √3.
"""

from __future__ import annotations

import math

from facility.units import parse_quantity

# NetBox unit choices → unit strings of our registry.
WEIGHT_UNITS = {"kg": "kg", "g": "g", "lb": "lb", "oz": "oz"}
LENGTH_UNITS = {"mm": "mm", "in": "inch"}
# "gpm" is the US gallon per minute (3.785411784 L), as NetBox itself converts it
# (utilities/conversion.py, to_liters_per_minute); pint's "gallon" is the US gallon too.
FLOW_UNITS = {"lpm": "L/min", "m3ph": "m**3/h", "gpm": "gallon/min"}

SQRT3 = math.sqrt(3.0)


class UnitChoiceError(ValueError):
    """A unit choice this importer does not know (a NetBox newer than 4.7, or a plugin)."""


def _unit(table: dict[str, str], choice: str | None, what: str) -> str:
    if choice not in table:
        raise UnitChoiceError(f"unknown {what} unit {choice!r} (known: {', '.join(table)})")
    return table[choice]


def mass_text(value: float, unit: str | None) -> str:
    """``value`` in NetBox's ``unit`` as a quantity string of our site format (e.g. '3100 lb')."""
    return f"{_number(value)} {_unit(WEIGHT_UNITS, unit, 'weight')}"


def mass_kg(value: float, unit: str | None) -> float:
    """A NetBox weight in kilograms."""
    return parse_quantity(mass_text(value, unit), "mass")


def length_text(value: float, unit: str | None) -> str:
    return f"{_number(value)} {_unit(LENGTH_UNITS, unit, 'dimension')}"


def flow_l_per_min(value: float, unit: str | None) -> float:
    """A NetBox flow (``max_flow`` + ``max_flow_unit``) in litres per minute."""
    text = f"{_number(value)} {_unit(FLOW_UNITS, unit, 'flow')}"
    return parse_quantity(text, "volumetric_flow") * 60_000.0  # m³/s → L/min


def feed_available_power(
    voltage: float, amperage: float, three_phase: bool, max_utilization: float
) -> float:
    """Apparent power a NetBox power feed may carry continuously [VA].

    S_avail = |V| · I · k · u, with
      V  the feed's ``voltage`` [V] (line-to-line for three-phase, as in our site format),
      I  its ``amperage`` [A],
      k  √3 for ``phase: three-phase``, 1 for single-phase,
      u  ``max_utilization`` / 100 (NetBox's default 80 %, the NEC 210.20(A) continuous load).

    NetBox computes the same figure on save (``PowerFeed.available_power``) but with k = 1.732
    and rounded to whole VA, and its REST serializer does not return it; we use the exact √3
    (a difference below 0.01 %: 36 227.6 VA here against NetBox's 36 227 VA for 415 V 63 A, 80 %).
    This is the capacity our audit gives the PDU the feed becomes: √3 · V · I · derating.
    """
    k = SQRT3 if three_phase else 1.0
    return abs(voltage) * amperage * k * (max_utilization / 100.0)


def _number(value: float) -> str:
    """A number as short as it is exact: 140.0 → '140', 28.5 → '28.5'."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"not a finite number: {value!r}")
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text
