"""Air side of a liquid-cooled rack: residual heat to room air and the airflow it needs.

Pure functions on plain floats in canonical SI units: heat [W], temperature difference [K],
volumetric airflow [m³/s], density [kg/m³], specific heat [J/(kg·K)], fractions [0..1].

References
----------
.. [1] ASHRAE Handbook — Fundamentals, 2021, ch. 1, Psychrometrics (dry-air specific heat,
   standard air); steady-flow energy balance. Notes: docs/references.md#ashrae-fundamentals-ch1,
   docs/references.md#energy-balance.
"""

from __future__ import annotations

import math

__all__ = [
    "AIR_DENSITY",
    "AIR_SPECIFIC_HEAT",
    "required_airflow",
    "residual_air_heat",
]

# Density of room air [kg/m³]: dry air near 20 °C at sea-level pressure (101.325 kPa),
# rounded (standard air, ASHRAE Handbook — Fundamentals, ch. 1;
# docs/references.md#ashrae-fundamentals-ch1). Lower at altitude and in hot aisles.
AIR_DENSITY = 1.2

# Isobaric specific heat of room air [J/(kg·K)], 1.006 kJ/(kg·K), dry air as in the ASHRAE
# psychrometric enthalpy relation (ASHRAE Handbook — Fundamentals, ch. 1).
AIR_SPECIFIC_HEAT = 1006.0


def _require_positive(value: float, name: str, unit: str) -> None:
    if not (math.isfinite(value) and value > 0.0):
        raise ValueError(f"{name} must be a finite value > 0 {unit}, got {value!r}")


def _require_non_negative(value: float, name: str, unit: str) -> None:
    if not (math.isfinite(value) and value >= 0.0):
        raise ValueError(f"{name} must be a finite value >= 0 {unit}, got {value!r}")


def _require_fraction(value: float, name: str) -> None:
    if not (math.isfinite(value) and 0.0 <= value <= 1.0):
        raise ValueError(f"{name} must be a fraction in [0, 1], got {value!r}")


def residual_air_heat(heat: float, liquid_fraction: float) -> float:
    r"""Heat a liquid-cooled rack still rejects to room air.

    Parameters
    ----------
    heat : float
        Total heat load of the rack, :math:`Q` [W]; equal to its electrical input power, since
        IT equipment turns essentially all of it into heat. Must be >= 0.
    liquid_fraction : float
        Share of the heat captured by the liquid loop (cold plates), :math:`f` [0..1].

    Returns
    -------
    float
        Residual heat to air :math:`Q_{air}` [W].

    Notes
    -----
    .. math:: Q_{air} = Q \cdot (1 - f)

    Assumes the vendor's capture ratio holds at the operating point; capture falls when the
    coolant runs warmer than the rating, so use the fraction stated for the actual supply
    temperature where the vendor gives one.

    References
    ----------
    .. [1] docs/references.md#energy-balance (heat load = electrical load, split into liquid
       and air fractions).

    Examples
    --------
    Hall B3 row A: a 135 kW rack with 90 % liquid capture leaves 13.5 kW to air:

    >>> round(residual_air_heat(135e3, 0.90))
    13500
    """
    _require_non_negative(heat, "heat", "W")
    _require_fraction(liquid_fraction, "liquid_fraction")
    return heat * (1.0 - liquid_fraction)


def required_airflow(
    heat: float,
    air_temperature_rise: float,
    density: float = AIR_DENSITY,
    specific_heat: float = AIR_SPECIFIC_HEAT,
) -> float:
    r"""Volumetric airflow that carries a heat load at a given air temperature rise.

    Parameters
    ----------
    heat : float
        Heat to be removed by air, :math:`Q` [W]. Must be >= 0.
    air_temperature_rise : float
        Air temperature rise across the equipment (or cooling unit), :math:`\Delta T` [K].
        Must be > 0.
    density : float, default :data:`AIR_DENSITY`
        Air density :math:`\rho` [kg/m³]. Must be > 0.
    specific_heat : float, default :data:`AIR_SPECIFIC_HEAT`
        Isobaric specific heat of air :math:`c_p` [J/(kg·K)]. Must be > 0.

    Returns
    -------
    float
        Volumetric airflow :math:`\dot V` [m³/s].

    Notes
    -----
    .. math:: \dot V = \frac{Q}{\rho \cdot c_p \cdot \Delta T}

    Sensible heat only (no condensation), steady state, properties constant over the
    temperature rise, all heat picked up by the stated flow (no bypass or recirculation).
    The density refers to the air where the flow is counted; the defaults fit room air near
    20 °C at sea level. Typical :math:`\Delta T`: 10–15 K.

    References
    ----------
    .. [1] docs/references.md#ashrae-fundamentals-ch1: 0.083 m³/s per kW at 10 K, 0.069 at
       12 K, 0.055 at 15 K (the project's arithmetic).

    Examples
    --------
    One kilowatt at a 10 K rise needs about 0.083 m³/s (176 CFM):

    >>> round(required_airflow(1e3, 10.0), 3)
    0.083
    """
    _require_non_negative(heat, "heat", "W")
    _require_positive(air_temperature_rise, "air_temperature_rise", "K")
    _require_positive(density, "density", "kg/m³")
    _require_positive(specific_heat, "specific_heat", "J/(kg·K)")
    return heat / (density * specific_heat * air_temperature_rise)
