"""Rate of heating of a room's air while its cooling is lost (a utility loss, until the air
units and their cooling source are back).

Pure functions on plain floats in SI units: heat [W], heat capacities [J/K], time [s],
temperature differences [K].

Two lumps: the room air (heat capacity C_a = ρ · cp · V_air) takes the IT heat Q that still
reaches the air, and passes it on to the solids it washes (racks, servers, floor, walls: C_s)
through a conductance hA. Both start at the design temperature. Then, with τ = 1 / (hA · (1/C_a
+ 1/C_s)) the time constant of the pair,

    ΔT_air(t) = Q · t / (C_a + C_s) + C_s / (C_a + C_s) · (Q · τ / C_a) · (1 − e^(−t/τ))

The rate of heating starts at Q / C_a (the air alone) and decays towards Q / (C_a + C_s) (all
the mass together) with the time constant τ — the behaviour K. Khankari derived for data
centres during a power shutdown (ASHRAE Transactions 117(1), 2011, LV-11-C026). With no solids
stated (C_s = 0) the rise is Q · t / C_a: the air alone, the fastest rise any room can have,
an upper bound.
"""

from __future__ import annotations

import math

__all__ = ["air_ride_through_time", "air_temperature_rise"]


def _check(heat: float, air_capacity: float, solid_capacity: float, time_constant: float) -> None:
    if not (math.isfinite(heat) and heat >= 0):
        raise ValueError(f"heat must be finite and ≥ 0 W, got {heat!r}")
    if not (math.isfinite(air_capacity) and air_capacity > 0):
        raise ValueError(f"air_capacity must be finite and > 0 J/K, got {air_capacity!r}")
    if not (math.isfinite(solid_capacity) and solid_capacity >= 0):
        raise ValueError(f"solid_capacity must be finite and ≥ 0 J/K, got {solid_capacity!r}")
    if solid_capacity and not (math.isfinite(time_constant) and time_constant > 0):
        raise ValueError(f"time_constant must be finite and > 0 s, got {time_constant!r}")


def air_temperature_rise(
    heat: float, air_capacity: float, solid_capacity: float, time_constant: float, time: float
) -> float:
    """ΔT_air [K] after ``time`` [s] with no cooling (the formula of the module)."""
    _check(heat, air_capacity, solid_capacity, time_constant)
    if not (math.isfinite(time) and time >= 0):
        raise ValueError(f"time must be finite and ≥ 0 s, got {time!r}")
    total = air_capacity + solid_capacity
    rise = heat * time / total
    if solid_capacity:
        excess = heat * time_constant / air_capacity  # air above the solids, in the long run
        rise += solid_capacity / total * excess * -math.expm1(-time / time_constant)
    return rise


def air_ride_through_time(
    heat: float,
    air_capacity: float,
    solid_capacity: float,
    time_constant: float,
    allowed_rise: float,
) -> float:
    """Seconds until the air has risen by ``allowed_rise`` [K]; 0 when none is allowed, ∞ with
    no heat. ΔT_air(t) rises monotonically, so the root is found by bisection between the
    air-alone time Q / C_a (the shortest) and the all-mass time Q / (C_a + C_s) (the longest),
    to 1 ms (or 1e-12 of the time, for a time too long to resolve to 1 ms); a bracket that
    overflows is a ValueError."""
    _check(heat, air_capacity, solid_capacity, time_constant)
    if not math.isfinite(allowed_rise):
        raise ValueError(f"allowed_rise must be finite, got {allowed_rise!r}")
    if allowed_rise <= 0:
        return 0.0
    if heat == 0:
        return math.inf
    low = allowed_rise * air_capacity / heat
    high = allowed_rise * (air_capacity + solid_capacity) / heat
    if not math.isfinite(high):
        raise ValueError(f"the ride-through time overflows: {allowed_rise!r} K over {heat!r} W")
    # Each step halves the bracket: 200 steps take any finite bracket below its resolution,
    # to 1 ms or to 1e-12 of the time, whichever is larger.
    for _ in range(200):
        if high - low <= max(1e-3, 1e-12 * high):
            break
        middle = (low + high) / 2
        rise = air_temperature_rise(heat, air_capacity, solid_capacity, time_constant, middle)
        low, high = (low, middle) if rise >= allowed_rise else (middle, high)
    return (low + high) / 2
