"""Ride-through of a liquid loop while its heat rejection is lost.

Pure functions on plain floats in SI units: volume [m³], density [kg/m³], specific heat
[J/(kg·K)], temperature differences [K], heat [W], time [s].

With the pumps still running and no heat leaving the loop, the racks' heat warms the whole
coolant inventory (piping, CDUs, racks, buffer tanks) as one well-mixed mass: an energy
balance, Q · t = m · cp · ΔT (first law for a closed system at constant pressure). The loop
rides through until its supply reaches the racks' maximum allowed supply:

    t = V · ρ · cp · ΔT_allow / Q

This is the lumped (well-mixed) estimate: it neglects the heat taken up by the metal of
pipes and cold plates (which lengthens t) and the stratification of a tank (which a buffer
tank piped in series can use to shorten or lengthen t, depending on its design). Thermal
storage for data centres is sized the same way (ASHRAE Handbook — HVAC Applications, ch. 51
Thermal Storage: the sensible storage capacity of a water volume, m · cp · ΔT).
"""

from __future__ import annotations

import math

from facility.messages import Message

__all__ = ["ride_through_time"]


def _require_positive(value: float, name: str, unit: str) -> None:
    if not math.isfinite(value) or value <= 0:
        raise ValueError(
            Message(
                "%(name)s must be positive [%(unit)s], got %(value)s",
                name=name,
                unit=unit,
                value=value,
            )
        )


def ride_through_time(
    volume: float, density: float, specific_heat: float, allowed_rise: float, heat: float
) -> float:
    """Seconds until a well-mixed coolant inventory of ``volume`` [m³] warms by
    ``allowed_rise`` [K] under ``heat`` [W]: t = V · ρ · cp · ΔT / Q.

    An allowed rise at or below zero means the supply is already at (or past) the racks'
    limit: no ride-through, 0 s. No heat: the loop never warms (infinite time).
    """
    if not math.isfinite(volume) or volume < 0:
        raise ValueError(Message("volume must not be negative [m³], got %(value)s", value=volume))
    _require_positive(density, "density", "kg/m³")
    _require_positive(specific_heat, "specific_heat", "J/(kg·K)")
    if not math.isfinite(allowed_rise) or not math.isfinite(heat) or heat < 0:
        raise ValueError(Message("heat must be a finite, non-negative figure [W]"))
    if allowed_rise <= 0:
        return 0.0
    if heat == 0:
        return math.inf
    return volume * density * specific_heat * allowed_rise / heat
