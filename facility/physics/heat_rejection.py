"""Heat rejection at design ambient: plant capacity, achievable supply, CDU primary flow.

Pure functions on plain floats: heat [W], absolute temperatures [degC], temperature
differences [K], derating [1/K], pressures [Pa], volumetric flow [m³/s].

A dry cooler or an air-cooled chiller rejects heat to the outdoor dry bulb, a cooling tower
to the wet bulb. Capacity is rated at one ambient; above it, the capacity falls. For a dry
cooler at fixed air and fluid flows the heat rejected is q = ε · C_min · (T_fluid,in − T_air,in)
(ε-NTU method, [1]_): it falls linearly with the ambient, by 1 / ITD_rated per K, where
ITD_rated = T_fluid,in − T_air,in at the rating. A chiller's or a tower's fall is the
vendor's figure. The supply the plant can make is the ambient plus the unit's approach.

References
----------
.. [1] F. P. Incropera, D. P. DeWitt, T. L. Bergman, A. S. Lavine, *Fundamentals of Heat and
   Mass Transfer*, 7th ed., Wiley, 2011, §11.4, eq. 11.22 (q = ε · C_min · (T_h,i − T_c,i)).
.. [2] ASHRAE Handbook — Fundamentals (2021), ch. 14, Climatic Design Information (design dry
   bulb and wet bulb; 0.4 % cooling conditions). docs/references.md#ashrae-climatic-design.
.. [3] ASHRAE Handbook — HVAC Systems and Equipment (2020), ch. 40, Cooling Towers (approach
   to the entering wet bulb). docs/references.md#ashrae-cooling-towers.
.. [4] F. M. White, *Fluid Mechanics*, 7th ed., 2011, ch. 6 and 11 (a fixed resistance:
   Δp ∝ V̇²). docs/references.md#pump-affinity.
"""

from __future__ import annotations

import math

__all__ = [
    "achievable_supply_temperature",
    "capacity_at_ambient",
    "flow_at_differential_pressure",
    "plant_capacity",
]


def _require_positive(value: float, name: str, unit: str) -> None:
    if not (math.isfinite(value) and value > 0.0):
        raise ValueError(f"{name} must be a finite value > 0 {unit}, got {value!r}")


def _require_non_negative(value: float, name: str, unit: str) -> None:
    if not (math.isfinite(value) and value >= 0.0):
        raise ValueError(f"{name} must be a finite value >= 0 {unit}, got {value!r}")


def _require_finite(value: float, name: str, unit: str) -> None:
    if not math.isfinite(value):
        raise ValueError(f"{name} must be a finite value in {unit}, got {value!r}")


def capacity_at_ambient(
    rated_capacity: float,
    rated_ambient: float,
    ambient: float,
    derating: float | None,
) -> float:
    r"""Heat one unit rejects at an ambient, from its rating and a linear derating.

    Parameters
    ----------
    rated_capacity : float
        Capacity at the rating ambient, :math:`Q_{rated}` [W]. Must be > 0.
    rated_ambient : float
        Ambient of the rating, :math:`T_{rated}` [degC]: dry bulb for a dry cooler or
        air-cooled chiller, wet bulb for a cooling tower.
    ambient : float
        Design ambient of the same kind, :math:`T_{amb}` [degC].
    derating : float or None
        Capacity lost per kelvin above the rating, as a fraction of :math:`Q_{rated}`,
        :math:`d` [1/K]. Must be >= 0. Only read when :math:`T_{amb} > T_{rated}`.

    Returns
    -------
    float
        :math:`Q` [W], between 0 and :math:`Q_{rated}`.

    Raises
    ------
    ValueError
        When the ambient is above the rating and no derating is given: the capacity there is
        unknown, never assumed.

    Notes
    -----
    .. math::

        Q = \begin{cases}
            Q_{rated} & T_{amb} \le T_{rated} \\
            Q_{rated} \cdot \max\left(0,\ 1 - d \cdot (T_{amb} - T_{rated})\right)
                & T_{amb} > T_{rated}
        \end{cases}

    No credit below the rating ambient (fans, flows and the vendor's rating cap the unit).
    For a dry cooler at fixed flows :math:`d = 1 / ITD_{rated}` (ε-NTU, [1]_): capacity is
    proportional to the entering fluid temperature minus the air temperature. The linear law
    is an approximation for a chiller or a tower; the vendor's curve is better.

    References
    ----------
    .. [1] Incropera et al., Fundamentals of Heat and Mass Transfer, 7th ed., §11.4, eq. 11.22.

    Examples
    --------
    A dry cooler rated 1,000 kW at 35 °C air with 45 °C fluid entering (ITD 10 K, so
    d = 10 %/K), at a 38 °C design ambient: 1,000 · (1 − 0.10 · 3) = 700 kW:

    >>> round(capacity_at_ambient(1_000e3, 35.0, 38.0, 0.10))
    700000
    """
    _require_positive(rated_capacity, "rated_capacity", "W")
    _require_finite(rated_ambient, "rated_ambient", "degC")
    _require_finite(ambient, "ambient", "degC")
    if ambient <= rated_ambient:
        return rated_capacity
    if derating is None:
        raise ValueError("no derating: the capacity above the rating ambient is unknown")
    _require_non_negative(derating, "derating", "1/K")
    return rated_capacity * max(0.0, 1.0 - derating * (ambient - rated_ambient))


def plant_capacity(unit_capacity: float, count: int, out: int) -> float:
    r"""Capacity of ``count`` identical units with ``out`` of them out of service.

    Parameters
    ----------
    unit_capacity : float
        Capacity of one unit at the design ambient, :math:`Q_{unit}` [W]. Must be >= 0.
    count : int
        Units installed, :math:`n`. Must be >= 0.
    out : int
        Units out (the redundant ones: N+1 is 1), :math:`r`. 0 <= r.

    Returns
    -------
    float
        :math:`Q = \max(0, n - r) \cdot Q_{unit}` [W].

    Examples
    --------
    Three 700 kW dry coolers, N+1: (3 − 1) · 700 kW = 1,400 kW:

    >>> plant_capacity(700e3, 3, 1)
    1400000.0
    """
    _require_non_negative(unit_capacity, "unit_capacity", "W")
    if count < 0 or out < 0:
        raise ValueError(f"count and out must be >= 0, got {count!r} and {out!r}")
    return max(0, count - out) * unit_capacity


def achievable_supply_temperature(ambient: float, approach: float) -> float:
    r"""Coldest facility water supply a dry cooler or cooling tower makes at an ambient.

    Parameters
    ----------
    ambient : float
        Design ambient, :math:`T_{amb}` [degC]: dry bulb for a dry cooler, wet bulb for a
        cooling tower.
    approach : float
        The unit's approach, :math:`\Delta T_{app} = T_{supply} - T_{amb}` [K], at its design
        heat. Must be > 0.

    Returns
    -------
    float
        :math:`T_{supply} = T_{amb} + \Delta T_{app}` [degC].

    Notes
    -----
    A tower cannot cool water below the entering wet bulb, a dry cooler below the dry bulb
    ([3]_ of the module); the approach is the vendor's at the design heat and flows. A tower
    behind a plate heat exchanger: give the approach of the two together.

    Examples
    --------
    A cooling tower with a 4 K approach at a 26 °C design wet bulb: 26 + 4 = 30 °C:

    >>> achievable_supply_temperature(26.0, 4.0)
    30.0
    """
    _require_finite(ambient, "ambient", "degC")
    _require_positive(approach, "approach", "K")
    return ambient + approach


def flow_at_differential_pressure(
    rated_flow: float, rated_pressure_drop: float, differential_pressure: float
) -> float:
    r"""Flow through a CDU's primary side at the differential pressure available to it.

    Parameters
    ----------
    rated_flow : float
        Primary flow at the rating, :math:`\dot V_{rated}` [m³/s]. Must be > 0.
    rated_pressure_drop : float
        Primary pressure drop at :math:`\dot V_{rated}`, :math:`\Delta p_{rated}` [Pa]. Must
        be > 0.
    differential_pressure : float
        Differential pressure available across the CDU's primary connections,
        :math:`\Delta p_{avail}` [Pa]. Must be >= 0.

    Returns
    -------
    float
        :math:`\dot V = \dot V_{rated} \cdot \min\left(1, \sqrt{\Delta p_{avail} /
        \Delta p_{rated}}\right)` [m³/s].

    Notes
    -----
    The primary side (plate heat exchanger, strainer, fully open control valve) is a fixed
    resistance, :math:`\Delta p \propto \dot V^2` (turbulent square law, [4]_ of the module),
    so the flow scales with the square root of the differential pressure. No credit above the
    rated flow: the control valve throttles to it, and the rating caps the unit.

    Examples
    --------
    A CDU rated 1,500 L/min at 0.7 bar with 0.5 bar available:
    1,500 · √(0.5 / 0.7) = 1,500 · 0.84515 = 1,267.7 L/min:

    >>> round(flow_at_differential_pressure(1500.0, 0.7e5, 0.5e5), 1)
    1267.7
    """
    _require_positive(rated_flow, "rated_flow", "m³/s")
    _require_positive(rated_pressure_drop, "rated_pressure_drop", "Pa")
    _require_non_negative(differential_pressure, "differential_pressure", "Pa")
    return rated_flow * min(1.0, math.sqrt(differential_pressure / rated_pressure_drop))
