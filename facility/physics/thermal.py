"""Temperature chain from facility water to the rack: W classes, approach, loop rise.

Pure functions on plain floats: absolute temperatures in [degC], temperature differences in
[K], heat in [W].

Facility water (FWS, primary) is bounded by the plant's ASHRAE W class; the CDU adds its
approach to give the technology cooling system (TCS, secondary) supply at the racks; the racks
add the loop temperature rise to give the return.

References
----------
.. [1] ASHRAE TC 9.9, "Thermal Guidelines for Data Processing Environments", 5th ed., 2021,
   liquid-cooling classes W17–W+.
.. [2] Vertiv, CoolChip CDU family data sheet SL-80005 (capacity at a rated 4 K approach);
   CoolIT CHx2000 product page (5 K approach). Notes on the W classes, approach, loop ΔT
   and CDU capacity: docs/references.md#ashrae-liquid-classes,
   docs/references.md#vertiv-coolchip-sl-80005, docs/references.md#resistancezero-cdu-checklist.
"""

from __future__ import annotations

import math
from types import MappingProxyType

from facility.messages import Message

__all__ = [
    "ABSOLUTE_ZERO",
    "W_CLASS_MAX_SUPPLY_TEMPERATURE",
    "cdu_capacity_at_approach",
    "return_temperature",
    "tcs_supply_temperature",
    "w_class_max_supply_temperature",
]

# Absolute zero on the Celsius scale [degC]: t/°C = T/K - 273.15 by definition
# (BIPM, The International System of Units, 9th ed., 2019, §2.3.1). Lower bound for inputs.
ABSOLUTE_ZERO = -273.15

# ASHRAE TC 9.9 liquid-cooling classes: maximum facility water supply temperature [degC].
# 5th edition (2021) naming; every class has a 2 °C lower bound. W+ is "> 45 °C" with no upper
# limit. Class names per ASHRAE; maximum temperatures read from secondary summaries of the
# standard and Lenovo product guides (confidence M; docs/references.md#ashrae-liquid-classes).
W_CLASS_MAX_SUPPLY_TEMPERATURE = MappingProxyType(
    {
        "W17": 17.0,
        "W27": 27.0,
        "W32": 32.0,
        "W40": 40.0,
        "W45": 45.0,
        "W+": math.inf,
    }
)

# Newer "S" spellings of the same classes ("ASHRAE S45, formerly W45", Lenovo GB200 NVL4 product
# guide, as transcribed; confidence L; docs/references.md#ashrae-liquid-classes). Mapped onto
# the W names.
_S_CLASS_ALIASES = MappingProxyType(
    {"S" + name[1:]: name for name in W_CLASS_MAX_SUPPLY_TEMPERATURE}
)


def _require_positive(value: float, name: str, unit: str) -> None:
    if not (math.isfinite(value) and value > 0.0):
        raise ValueError(f"{name} must be a finite value > 0 {unit}, got {value!r}")


def _require_non_negative(value: float, name: str, unit: str) -> None:
    if not (math.isfinite(value) and value >= 0.0):
        raise ValueError(f"{name} must be a finite value >= 0 {unit}, got {value!r}")


def _require_temperature(value: float, name: str) -> None:
    if not (math.isfinite(value) and value > ABSOLUTE_ZERO):
        raise ValueError(
            f"{name} must be a finite temperature above {ABSOLUTE_ZERO} degC, got {value!r}"
        )


def w_class_max_supply_temperature(name: str) -> float:
    r"""Maximum facility water supply temperature of an ASHRAE liquid-cooling class.

    Parameters
    ----------
    name : str
        Class name: ``W17``, ``W27``, ``W32``, ``W40``, ``W45`` or ``W+``, or the newer
        spellings ``S17`` … ``S45``, ``S+``. Case and surrounding spaces are ignored.

    Returns
    -------
    float
        Maximum facility water supply temperature :math:`T_{FWS,max}` [degC];
        ``math.inf`` for W+ (above 45 °C, no upper limit).

    Raises
    ------
    ValueError
        For an unknown class name; the message lists the valid names.

    Notes
    -----
    The classes bound the **facility** water supply. Every class has a 2 °C lower bound. The
    rack sees the TCS supply, warmer by the CDU approach (:func:`tcs_supply_temperature`).

    ===== ================ =====================================
    Class Supply (degC)    Typical plant
    ===== ================ =====================================
    W17   2–17             chiller, water-side economizer
    W27   2–27             chiller + water-side economizer
    W32   2–32             cooling tower, chiller optional
    W40   2–40             tower / dry cooler, chiller for peaks
    W45   2–45             dry cooler or tower, no chiller
    W+    > 45             dry cooler; heat re-use possible
    ===== ================ =====================================

    References
    ----------
    .. [1] ASHRAE TC 9.9, "Thermal Guidelines for Data Processing Environments", 5th ed.,
       2021 (liquid classes).
    .. [2] docs/references.md#ashrae-liquid-classes (the table and the "S" spelling).

    Examples
    --------
    >>> w_class_max_supply_temperature("W32")
    32.0
    >>> w_class_max_supply_temperature("s45")
    45.0
    """
    key = name.strip().upper() if isinstance(name, str) else name
    key = _S_CLASS_ALIASES.get(key, key)
    try:
        return W_CLASS_MAX_SUPPLY_TEMPERATURE[key]
    except (KeyError, TypeError):
        valid = ", ".join([*W_CLASS_MAX_SUPPLY_TEMPERATURE, *_S_CLASS_ALIASES])
        raise ValueError(
            Message(
                "unknown ASHRAE liquid class %(name)s; valid names: %(valid)s",
                name=repr(name),
                valid=valid,
            )
        ) from None


def tcs_supply_temperature(facility_supply_temperature: float, approach: float) -> float:
    r"""Technology cooling system (secondary) supply temperature delivered by a CDU.

    Parameters
    ----------
    facility_supply_temperature : float
        Facility water supply temperature at the CDU's primary inlet, :math:`T_{FWS}` [degC].
    approach : float
        CDU approach temperature difference :math:`ATD = T_{TCS} - T_{FWS}` [K] at the operating
        point (typically 3–5 K; use the vendor's figure). Must be > 0.

    Returns
    -------
    float
        TCS supply temperature :math:`T_{TCS}` [degC].

    Notes
    -----
    .. math:: T_{TCS} = T_{FWS} + ATD

    Liquid-to-liquid CDU at steady state; the approach is the rated one only at the rated heat
    load and flows (it grows with load). The TCS supply must also stay above the room dew point
    plus 2–3 K (docs/references.md#resistancezero-cdu-checklist).

    References
    ----------
    .. [1] docs/references.md#ashrae-liquid-classes (a W32 plant + 4 K approach ≈ 36 °C at
       the racks) and docs/references.md#vertiv-coolchip-sl-80005 (rated approach).

    Examples
    --------
    Hall B3: FW-1 at 32 °C through a 4 K-approach CDU:

    >>> tcs_supply_temperature(32.0, 4.0)
    36.0
    """
    _require_temperature(facility_supply_temperature, "facility_supply_temperature")
    _require_positive(approach, "approach", "K")
    return facility_supply_temperature + approach


def return_temperature(supply_temperature: float, temperature_rise: float) -> float:
    r"""Return temperature of a coolant loop from its supply temperature and rise.

    Parameters
    ----------
    supply_temperature : float
        Loop supply temperature, :math:`T_s` [degC].
    temperature_rise : float
        Temperature rise across the load (racks or CDUs), :math:`\Delta T` [K]. Must be >= 0.

    Returns
    -------
    float
        Return temperature :math:`T_r` [degC].

    Notes
    -----
    .. math:: T_r = T_s + \Delta T

    Steady state, all heat picked up by the loop at the stated rise (a design rise, or the
    rise from :math:`\Delta T = Q / (\rho \dot V c_p)` at the actual flow). Typical TCS rise is
    8–12 K (docs/references.md#resistancezero-cdu-checklist).

    References
    ----------
    .. [1] Steady-flow energy balance Q = ṁ·cp·ΔT (docs/references.md#energy-balance); loop
       ΔT band: docs/references.md#resistancezero-cdu-checklist.

    Examples
    --------
    Hall B3 TCS-A: 36 °C supply with a 10 K design rise:

    >>> return_temperature(36.0, 10.0)
    46.0
    """
    _require_temperature(supply_temperature, "supply_temperature")
    _require_non_negative(temperature_rise, "temperature_rise", "K")
    return supply_temperature + temperature_rise


def cdu_capacity_at_approach(
    rated_capacity: float, rated_approach: float, approach: float
) -> float:
    r"""Approximate CDU heat capacity at an approach other than its rating point.

    Parameters
    ----------
    rated_capacity : float
        Heat capacity at the rating point, :math:`Q_{rated}` [W]. Must be > 0.
    rated_approach : float
        Approach at which the capacity is rated, :math:`ATD_{rated}` [K]. Must be > 0.
    approach : float
        Approach available on site, :math:`ATD = T_{TCS,target} - T_{FWS}` [K]. May be zero or
        negative (facility water as warm as or warmer than the TCS target), which gives 0.

    Returns
    -------
    float
        Estimated capacity :math:`Q` [W], between 0 and :math:`Q_{rated}`.

    Notes
    -----
    .. math::

        Q = Q_{rated} \cdot \min\left(1,\ \max\left(0,\ \frac{ATD}{ATD_{rated}}\right)\right)

    **Approximation** (the project's, confidence L–M): for a fixed heat exchanger and fixed
    flows, the heat transferred scales roughly with the available temperature difference.
    Replace it with the vendor's derating curve for the actual unit and coolant as soon as one
    is available. Deliberate limits:

    * no credit above the rated capacity for a larger approach (pumps, flows and the vendor's
      rating cap the unit; extrapolating up would not be conservative);
    * zero capacity when no positive approach is available (the CDU cannot reach the target);
    * same coolants as at the rating point: running PG25 where the rating is for water lowers
      capacity further, which this function does not model.

    References
    ----------
    .. [1] docs/references.md#vertiv-coolchip-sl-80005 (capacity at a rated approach and
       coolant; the scaling is the project's approximation, not a vendor curve).
    .. [2] Vertiv CoolChip CDU family data sheet SL-80005 (ratings at 4 K ATD).

    Examples
    --------
    A 1,350 kW CDU rated at 4 K, with only 3 K available:

    >>> cdu_capacity_at_approach(1_350e3, 4.0, 3.0)
    1012500.0
    """
    _require_positive(rated_capacity, "rated_capacity", "W")
    _require_positive(rated_approach, "rated_approach", "K")
    if not math.isfinite(approach):
        raise ValueError(f"approach must be a finite value in K, got {approach!r}")
    ratio = min(1.0, max(0.0, approach / rated_approach))
    return rated_capacity * ratio
