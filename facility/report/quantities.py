"""Formatting quantities for people: the one place that turns canonical floats into text."""

from __future__ import annotations

import math

from facility.units import to_unit

# kind -> (display unit as pint reads it, symbol printed, decimals)
DISPLAY: dict[str, tuple[str, str, int]] = {
    "power": ("kW", "kW", 1),
    "apparent_power": ("kVA", "kVA", 1),
    "voltage": ("V", "V", 0),
    "current": ("A", "A", 0),
    "mass": ("kg", "kg", 0),
    "length": ("mm", "mm", 0),
    "area": ("m**2", "m²", 1),
    "volume": ("L", "L", 0),
    "pressure": ("kPa", "kPa", 1),
    "force": ("kN", "kN", 2),
    "volumetric_flow": ("L/min", "L/min", 0),
    "temperature": ("degC", "°C", 1),
    "temperature_difference": ("K", "K", 1),
    "fraction": ("%", "%", 1),
    "time": ("s", "s", 0),
    "density": ("kg/m**3", "kg/m³", 1),
    "acceleration": ("m/s**2", "m/s²", 3),
    "specific_heat": ("kJ/(kg*K)", "kJ/(kg·K)", 3),
}


def display_value(value: float, kind: str) -> float:
    """The canonical ``value`` of ``kind`` in its display unit."""
    unit, _, _ = DISPLAY[kind]
    return to_unit(value, kind, unit)


def format_quantity(value: float | None, kind: str, decimals: int | None = None) -> str:
    """``132000.0, "power"`` -> ``"132.0 kW"``; ``None`` -> ``"—"``."""
    if value is None:
        return "—"
    unit, symbol, default_decimals = DISPLAY[kind]
    shown = to_unit(value, kind, unit)
    if not math.isfinite(shown):
        return f"{shown} {symbol}"
    places = default_decimals if decimals is None else decimals
    text = f"{shown:,.{places}f}"
    return f"{text} {symbol}" if symbol != "%" else f"{text} %"
