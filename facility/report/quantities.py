"""Formatting quantities for people: the one place that turns canonical floats into text.

Two display systems (``facility check --units``): ``si`` (:data:`DISPLAY`) and ``us``
(:data:`DISPLAY_US`: lb, in, ft², gal, gpm, psi, lbf, °F). The system in force is a context
(:func:`using_units`), as the language is: a renderer sets it once, every figure it formats
follows. Electrical figures stay in kW, kVA, V and A in both (as US practice writes them). In
the US system a pressure is psi, except a floor load, which is psf (:func:`floor_loads`: a
uniform rating of 12 kPa reads 250.6 psf, a pump head of 150 kPa 21.8 psi). Machine formats
(JSON) stay SI whatever the system.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import math
from collections.abc import Iterator

from facility.report.i18n import _
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
    "floor_load": ("kPa", "kPa", 1),
    "force": ("kN", "kN", 2),
    "volumetric_flow": ("L/min", "L/min", 0),
    "flow_per_power": ("L/min/kW", "L/min/kW", 2),
    "temperature": ("degC", "°C", 1),
    "temperature_difference": ("K", "K", 1),
    "fraction": ("%", "%", 1),
    "time": ("s", "s", 0),
    "density": ("kg/m**3", "kg/m³", 1),
    "particle_size": ("um", "µm", 0),
    "concentration": ("mg/L", "mg/L", 1),
    "acceleration": ("m/s**2", "m/s²", 3),
    "specific_heat": ("kJ/(kg*K)", "kJ/(kg·K)", 3),
    "data_size": ("GB", "GB", 1),
    "bit_rate": ("Gb/s", "Gb/s", 0),
    "data_rate": ("GB/s", "GB/s", 1),
    "computation": ("FLOP", "FLOP", 0),
    "computation_rate": ("PFLOP/s", "PFLOP/s", 2),
}

# The US customary system: the kinds it shows differently (the others as DISPLAY).
DISPLAY_US: dict[str, tuple[str, str, int]] = {
    **DISPLAY,
    "mass": ("lb", "lb", 0),
    "length": ("in", "in", 1),
    "area": ("ft**2", "ft²", 1),
    "volume": ("gallon", "gal", 1),
    "pressure": ("psi", "psi", 1),
    "floor_load": ("lbf/ft**2", "psf", 1),
    "force": ("lbf", "lbf", 0),
    "volumetric_flow": ("gallon/minute", "gpm", 1),
    "flow_per_power": ("gallon/minute/kW", "gpm/kW", 3),
    "temperature": ("degF", "°F", 1),
    "temperature_difference": ("delta_degF", "Δ°F", 1),
    "density": ("lb/ft**3", "lb/ft³", 2),
    "acceleration": ("ft/s**2", "ft/s²", 2),
    "specific_heat": ("Btu/(lb*delta_degF)", "Btu/(lb·°F)", 3),
}
SYSTEMS = ("si", "us")

_SYSTEM: contextvars.ContextVar[str] = contextvars.ContextVar("display_units", default="si")


@contextlib.contextmanager
def using_units(system: str) -> Iterator[None]:
    """Format every figure in ``system`` ("si" or "us") inside the block."""
    if system not in SYSTEMS:
        raise ValueError(f"unknown display units {system!r}")
    token = _SYSTEM.set(system)
    try:
        yield
    finally:
        _SYSTEM.reset(token)


def current_units() -> str:
    return _SYSTEM.get()


def display_unit(kind: str) -> tuple[str, str, int]:
    """(unit as pint reads it, symbol, decimals) of ``kind`` in the system in force."""
    return DISPLAY[kind] if _SYSTEM.get() == "si" else DISPLAY_US[kind]


# Kinds whose figures span many orders of magnitude are shown in the largest unit that keeps
# the number at 1 or more (a 3-minute checkpoint write and a 30-day training run; a 150 kB
# switch buffer and a 1 TB checkpoint): (unit as pint reads it, symbol, decimals), smallest first.
# Their JSON value stays in the DISPLAY unit. Computation is shown as a power of ten.
ADAPTIVE: dict[str, tuple[tuple[str, str, int], ...]] = {
    "time": (("s", "s", 0), ("min", "min", 1), ("h", "h", 1), ("d", "d", 1)),
    "data_size": (("B", "B", 0), ("kB", "kB", 0), ("MB", "MB", 1), ("GB", "GB", 1),
                  ("TB", "TB", 2), ("PB", "PB", 2)),
    "data_rate": (("B/s", "B/s", 0), ("kB/s", "kB/s", 0), ("MB/s", "MB/s", 1),
                  ("GB/s", "GB/s", 1), ("TB/s", "TB/s", 2)),
}  # fmt: skip


def _adaptive(value: float, kind: str) -> str:
    if kind == "computation":
        mantissa, exponent = f"{value:.2e}".split("e")
        return f"{mantissa}e{int(exponent)} FLOP"
    units = ADAPTIVE[kind]
    chosen = units[0]
    for candidate in units:
        # times switch to the next unit at twice it (90 s, 1.5 h), sizes at the unit itself
        switch = 2.0 if kind == "time" else 1.0
        if abs(value) >= switch / to_unit(1.0, kind, candidate[0]):  # 1 unit in canonical
            chosen = candidate
    unit, symbol, places = chosen
    return f"{to_unit(value, kind, unit):,.{places}f} {symbol}"


def display_value(value: float, kind: str) -> float:
    """The canonical ``value`` of ``kind`` in its display unit (of the system in force)."""
    unit, _, _ = display_unit(kind)
    return to_unit(value, kind, unit)


def format_quantity(value: float | None, kind: str, decimals: int | None = None) -> str:
    """``132000.0, "power"`` -> ``"132.0 kW"``; ``None`` -> ``"—"``."""
    if value is None:
        return "—"
    if math.isinf(value):
        return unbounded_text(value)
    if decimals is None:
        return _format_default(value, kind, display_unit(kind) if kind in DISPLAY else None)
    return _format(value, kind, decimals)


def unbounded_text(value: float) -> str:
    """An infinite limit (ASHRAE W+ has no maximum supply) or margin in words, never 'inf'."""
    return _("no upper limit") if value > 0 else _("no lower limit")


def _format(value: float, kind: str, decimals: int | None) -> str:
    if decimals is None and (kind in ADAPTIVE or kind == "computation") and math.isfinite(value):
        return _adaptive(value, kind)
    unit, symbol, default_decimals = display_unit(kind)
    shown = to_unit(value, kind, unit)
    if not math.isfinite(shown):
        return f"{shown} {symbol}"
    places = default_decimals if decimals is None else decimals
    text = f"{shown:,.{places}f}"
    return f"{text} {symbol}" if symbol != "%" else f"{text} %"


# A campus repeats the same few hundred figures across 100,000s of findings (identical racks,
# PDUs and limits): format each (value, kind) once per display unit. Bounded, and pure (no
# language involved; the display unit in force is part of the key).
@functools.lru_cache(maxsize=1 << 16)
def _format_default(value: float, kind: str, _unit: tuple[str, str, int] | None) -> str:
    return _format(value, kind, None)
