"""Floor loading by racks: filled mass, weight, footprint pressure, caster and zone loads.

Pure functions on plain floats in canonical SI units: mass [kg], length [m], area [m²],
volume [m³], density [kg/m³], force [N], pressure [Pa].

These are screening loads for comparison with the floor's published ratings; structural
sign-off needs the engineer of record (docs/references.md#ibm-floor-loading).

References
----------
.. [1] CISCA, Recommended Test Procedures for Access Floors (concentrated, uniform and
   rolling load definitions); IBM, Power Systems site and hardware planning, "Floor
   construction and floor loading" (slab and tile methods); ASCE/SEI 7-22 ch. 4 (live
   loads). Notes and worked loads: docs/references.md#cisca-access-floors,
   docs/references.md#ibm-floor-loading, docs/references.md#asce-7-22.
"""

from __future__ import annotations

import math

__all__ = [
    "STANDARD_GRAVITY",
    "caster_load",
    "filled_mass",
    "footprint_pressure",
    "rolling_caster_load",
    "weight",
    "zone_aggregate_pressure",
]

# Standard acceleration of gravity g_n [m/s²], exact by definition:
# declared by the 3rd CGPM (1901); also given in ISO 80000-3:2019 (space and time).
STANDARD_GRAVITY = 9.80665


def _require_positive(value: float, name: str, unit: str) -> None:
    if not (math.isfinite(value) and value > 0.0):
        raise ValueError(f"{name} must be a finite value > 0 {unit}, got {value!r}")


def _require_non_negative(value: float, name: str, unit: str) -> None:
    if not (math.isfinite(value) and value >= 0.0):
        raise ValueError(f"{name} must be a finite value >= 0 {unit}, got {value!r}")


def _require_count(value: int, name: str, minimum: int) -> None:
    whole = (
        isinstance(value, int | float) and not isinstance(value, bool) and float(value).is_integer()
    )
    if not whole or value < minimum:
        raise ValueError(f"{name} must be a whole number >= {minimum}, got {value!r}")


def filled_mass(empty_mass: float, coolant_volume: float, coolant_density: float) -> float:
    r"""Mass of a rack (or CDU, manifold) filled with coolant.

    Parameters
    ----------
    empty_mass : float
        Dry mass of the equipment, :math:`m_{empty}` [kg]. Must be > 0.
    coolant_volume : float
        Coolant volume held by the equipment, :math:`V_c` [m³]. Must be >= 0.
    coolant_density : float
        Coolant density at fill temperature, :math:`\rho_c` [kg/m³] (water ~998, PG25 ~1,019
        at 20 °C, Melinder 2010; docs/references.md#melinder-2010). Must be > 0.

    Returns
    -------
    float
        Filled mass :math:`m` [kg].

    Notes
    -----
    .. math:: m = m_{empty} + V_c \cdot \rho_c

    Use the vendor's filled mass when it is published; this is for equipment whose data
    sheet gives the dry mass and the coolant volume separately.

    References
    ----------
    .. [1] docs/references.md#asce-7-22 (filled CDUs and manifold water add to floor loads).

    Examples
    --------
    A 1,300 kg rack holding 40 L of PG25 at 1,019.3 kg/m³:

    >>> round(filled_mass(1300.0, 0.040, 1019.3), 3)
    1340.772
    """
    _require_positive(empty_mass, "empty_mass", "kg")
    _require_non_negative(coolant_volume, "coolant_volume", "m³")
    _require_positive(coolant_density, "coolant_density", "kg/m³")
    return empty_mass + coolant_volume * coolant_density


def weight(mass: float) -> float:
    r"""Weight (gravitational force) of a mass at standard gravity.

    Parameters
    ----------
    mass : float
        Mass, :math:`m` [kg]. Must be >= 0.

    Returns
    -------
    float
        Weight :math:`F` [N].

    Notes
    -----
    .. math:: F = m \cdot g_n

    with :math:`g_n` = :data:`STANDARD_GRAVITY` = 9.80665 m/s². Local gravity differs from
    :math:`g_n` by less than 0.3 % anywhere on Earth's surface, negligible here.

    References
    ----------
    .. [1] ISO 80000-3:2019, Quantities and units — Part 3: Space and time (g_n).

    Examples
    --------
    >>> weight(1000.0)
    9806.65
    """
    _require_non_negative(mass, "mass", "kg")
    return mass * STANDARD_GRAVITY


def footprint_pressure(mass: float, width: float, depth: float) -> float:
    r"""Uniform pressure of a rack spread over its own footprint.

    Parameters
    ----------
    mass : float
        Filled mass of the rack, :math:`m` [kg]. Must be > 0.
    width : float
        Footprint width, :math:`W` [m]. Must be > 0.
    depth : float
        Footprint depth, :math:`D` [m]. Must be > 0.

    Returns
    -------
    float
        Uniform pressure :math:`p` [Pa], to compare with a uniform-load rating.

    Notes
    -----
    .. math:: p = \frac{m \cdot g_n}{W \cdot D}

    with :math:`g_n` = :data:`STANDARD_GRAVITY`. Assumes the weight is spread evenly over the
    rectangle of the footprint, without service clearances; the IBM method that adds half the
    clearance area and a floor/personnel allowance gives a lower, less conservative figure
    (IBM floor loading). The uniform-load rating of a raised floor is per 1 m² (CISCA).

    References
    ----------
    .. [1] docs/references.md#ibm-floor-loading (worked footprint loads).

    Examples
    --------
    Hall B3 row B: 1,100 kg on 0.6 m x 1.2 m, about 15.0 kPa:

    >>> round(footprint_pressure(1100.0, 0.6, 1.2))
    14982
    """
    _require_positive(mass, "mass", "kg")
    _require_positive(width, "width", "m")
    _require_positive(depth, "depth", "m")
    return mass * STANDARD_GRAVITY / (width * depth)


def caster_load(mass: float, casters: int) -> float:
    r"""Static load on each caster (or levelling foot) of a rack.

    Parameters
    ----------
    mass : float
        Filled mass of the rack, :math:`m` [kg]. Must be > 0.
    casters : int
        Number of casters or feet carrying the rack, :math:`n` [-]. Whole number >= 1.

    Returns
    -------
    float
        Load per caster :math:`F_c` [N], to compare with a panel's concentrated-load rating.

    Notes
    -----
    .. math:: F_c = \frac{m \cdot g_n}{n}

    with :math:`g_n` = :data:`STANDARD_GRAVITY`. Assumes the rack stands still on a level
    floor with its centre of mass over the centroid of the casters, so they share equally.
    While a rack is rolled or tilted one caster can carry up to half of the rack's weight;
    IBM designs tiles for 1/3 of a rack (static) and 1/2 per caster during relocation
    (IBM floor loading), and two racks can each put a caster on one tile.

    References
    ----------
    .. [1] CISCA concentrated load; IBM, "Floor construction and floor loading" (tile rule);
       docs/references.md#cisca-access-floors and docs/references.md#ibm-floor-loading.

    Examples
    --------
    Hall B3 row B: 1,100 kg on 4 casters, about 2.70 kN each:

    >>> round(caster_load(1100.0, 4))
    2697
    """
    _require_positive(mass, "mass", "kg")
    _require_count(casters, "casters", minimum=1)
    return mass * STANDARD_GRAVITY / casters


# Share of a rack's weight one caster may carry while the rack is rolled or tilted over a
# panel edge: IBM's raised-floor planning rule, "up to 1/2 of the rack weight per caster
# during relocation" (IBM Power Systems site preparation, "Floor construction and floor
# loading"). A rule parameter may replace it with the rack vendor's figure.
MOVING_CASTER_SHARE = 0.5


def rolling_caster_load(mass: float, share: float = MOVING_CASTER_SHARE) -> float:
    r"""Load on the most-loaded caster of a rack while it is rolled into place.

    Parameters
    ----------
    mass : float
        Mass of the rack as moved, :math:`m` [kg]. Must be > 0.
    share : float
        Share of the weight on one caster while moving, :math:`s` [-], 0 < s <= 1
        (default :data:`MOVING_CASTER_SHARE`, ½).

    Returns
    -------
    float
        Rolling load :math:`F_r` [N], to compare with a panel's rolling-load rating (the
        CISCA rolling-load test: a loaded wheel rolled over the panel, 10 passes for move-in).

    Notes
    -----
    .. math:: F_r = s \cdot m \cdot g_n

    A rack at rest shares its weight over its casters (:func:`caster_load`); rolled over a
    panel joint or tilted on a ramp, one caster pair takes it and one caster up to half.

    References
    ----------
    .. [1] IBM, Power Systems site and hardware planning, "Floor construction and floor
       loading": tiles designed for ½ of the rack weight per caster during relocation.
    .. [2] CISCA, "Recommended Test Procedures for Access Floors" (rolling load).

    Examples
    --------
    1,500 kg moved on a raised floor: ½ · 1,500 · 9.80665 = 7,355 N:

    >>> round(rolling_caster_load(1500.0))
    7355
    """
    _require_positive(mass, "mass", "kg")
    if not (math.isfinite(share) and 0.0 < share <= 1.0):
        raise ValueError(f"share must be within (0, 1], got {share!r}")
    return share * mass * STANDARD_GRAVITY


def zone_aggregate_pressure(total_mass: float, area: float) -> float:
    r"""Average pressure of all equipment in a floor zone over the zone's area.

    Parameters
    ----------
    total_mass : float
        Sum of the filled masses in the zone, :math:`m_{tot}` [kg]. Must be >= 0.
    area : float
        Floor area of the zone, :math:`A` [m²]. Must be > 0.

    Returns
    -------
    float
        Average pressure :math:`p_{zone}` [Pa], to compare with the slab's design live load.

    Notes
    -----
    .. math:: p_{zone} = \frac{m_{tot} \cdot g_n}{A}

    with :math:`g_n` = :data:`STANDARD_GRAVITY`. An average: it hides concentrations, so it
    complements but never replaces the per-rack footprint and caster checks.

    References
    ----------
    .. [1] ASCE/SEI 7-22 ch. 4 (live loads); hall ratings are practitioner figures,
       docs/references.md#asce-7-22.

    Examples
    --------
    Hall B3 zone Z-A: 8 racks of 1,500 kg on 60 m², about 1.96 kPa:

    >>> round(zone_aggregate_pressure(12_000.0, 60.0), 2)
    1961.33
    """
    _require_non_negative(total_mass, "total_mass", "kg")
    _require_positive(area, "area", "m²")
    return total_mass * STANDARD_GRAVITY / area
