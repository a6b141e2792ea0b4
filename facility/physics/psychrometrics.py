"""Moist air: the dew point of a room's design condition.

Pure functions on plain floats: temperatures in [degC], relative humidity as a fraction of 1.

The dew point is the temperature at which the room's water vapour saturates: a surface colder
than it (a pipe, a manifold, a cold plate) collects condensate. It is computed with PsychroLib
(Meyer and Thevenard 2019), the implementation of the ASHRAE Handbook — Fundamentals,
chapter 1 [1]_: the vapour pressure is p_w = φ · p_ws(t_db) (ch. 1 eq. 12 and 22) and the dew
point t_d solves p_ws(t_d) = p_w, with p_ws the Hyland–Wexler saturation pressure over liquid
water above the triple point and over ice below it (ch. 1 eq. 5 and 6), inverted by
Newton–Raphson to 0.001 K.

The dew point from dry bulb and relative humidity does not depend on the barometric pressure:
φ is a ratio of vapour pressures, and the enhancement factor (about 1.004 at 101.325 kPa) is
neglected, as in the Handbook's ideal-gas relations. So a site's altitude does not change it.

References
----------
.. [1] ASHRAE Handbook — Fundamentals (SI), 2017, chapter 1, Psychrometrics: eq. 5 and 6
   (saturation pressure, −100 to 200 °C), eq. 12 and 22 (relative humidity), Table 3
   (p_ws(25 °C) = 3.1697 kPa). D. Meyer and D. Thevenard, "PsychroLib: a library of
   psychrometric functions to calculate thermodynamic properties of air", Journal of Open
   Source Software 4(33), 1137, 2019. docs/references.md#ashrae-fundamentals-ch1-dew-point.
.. [2] O. A. Alduchov and R. E. Eskridge, "Improved Magnus form approximation of saturation
   vapor pressure", Journal of Applied Meteorology 35(4), 601–609, 1996: the cross-check in the
   tests (docs/references.md#alduchov-eskridge-1996).
"""

from __future__ import annotations

import math

__all__ = [
    "PSYCHROMETRIC_MAXIMUM_TEMPERATURE",
    "PSYCHROMETRIC_MINIMUM_TEMPERATURE",
    "dew_point",
]

# Validity of the Hyland–Wexler saturation pressure as the Handbook states it (ASHRAE
# Handbook — Fundamentals 2017, ch. 1, eq. 5 and 6: −100 to 200 °C) [degC]; PsychroLib
# refuses temperatures outside it.
PSYCHROMETRIC_MINIMUM_TEMPERATURE = -100.0
PSYCHROMETRIC_MAXIMUM_TEMPERATURE = 200.0


def dew_point(dry_bulb: float, relative_humidity: float) -> float:
    """Dew point [degC] of moist air at a dry bulb temperature and relative humidity.

    Parameters
    ----------
    dry_bulb : float
        Dry bulb temperature t_db [degC], from −100 to 200 °C.
    relative_humidity : float
        Relative humidity φ [fraction of 1], above 0 and at most 1.

    Returns
    -------
    float
        The dew point t_d [degC], solving p_ws(t_d) = φ · p_ws(t_db), where p_ws is the
        saturation vapour pressure (ASHRAE Handbook — Fundamentals 2017, ch. 1 eq. 5 and 6);
        never above t_db. At φ = 1 it is t_db.

    Raises
    ------
    ValueError
        Outside the ranges above, or when the dew point falls below −100 °C (the equations'
        lower bound: very dry, very cold air).

    Independent of pressure (see the module docstring). PsychroLib's unit system is a global
    of that library: it is set to SI here before each use, so a caller that set IP elsewhere
    cannot change the result.
    """
    if not (
        math.isfinite(dry_bulb)
        and PSYCHROMETRIC_MINIMUM_TEMPERATURE <= dry_bulb <= PSYCHROMETRIC_MAXIMUM_TEMPERATURE
    ):
        raise ValueError(
            f"dry bulb must be from {PSYCHROMETRIC_MINIMUM_TEMPERATURE:g} to "
            f"{PSYCHROMETRIC_MAXIMUM_TEMPERATURE:g} degC, got {dry_bulb!r}"
        )
    if not (math.isfinite(relative_humidity) and 0.0 < relative_humidity <= 1.0):
        raise ValueError(
            f"relative humidity must be above 0 and at most 1, got {relative_humidity!r}"
        )
    import psychrolib  # here, not at import: only a site that states a room condition pays

    if psychrolib.GetUnitSystem() is not psychrolib.SI:
        psychrolib.SetUnitSystem(psychrolib.SI)
    try:
        return float(psychrolib.GetTDewPointFromRelHum(dry_bulb, relative_humidity))
    except ValueError:
        raise ValueError(
            f"the dew point of {dry_bulb!r} degC at {relative_humidity!r} is below "
            f"{PSYCHROMETRIC_MINIMUM_TEMPERATURE:g} degC, outside the psychrometric equations"
        ) from None
