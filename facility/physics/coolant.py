"""Coolant properties and the heat balance of a liquid cooling loop.

Pure functions in canonical SI units: absolute temperature in degC [°C], temperature rise in
[K], density [kg/m³], specific heat [J/(kg·K)], dynamic viscosity [Pa·s], heat [W], volumetric
flow [m³/s], and glycol content as a **mass** fraction [0..1] unless a name says otherwise.
Property and heat-balance functions also accept numpy arrays elementwise (numpy is not
imported here); table lookup takes scalars only.

Fluids
------
``"water"``
    Pure water; ``mass_fraction`` must be 0. Polynomial fits of CoolProp's incompressible
    ``INCOMP::Water`` [2]_ to IAPWS-95 [3]_ and the IAPWS 2008 viscosity formulation [4]_.
``"propylene_glycol"``, ``"ethylene_glycol"``
    Aqueous solutions of 1,2-propanediol (PG) or ethylene glycol (EG), by mass fraction. The
    Melinder (2010) polynomials [1]_, the same fits CoolProp uses for ``INCOMP::MPG`` and
    ``INCOMP::MEG`` and Modelica Buildings/IBPSA for its antifreeze media.

Engineers write "PG25" for 25 % propylene glycol **by volume** (Dow's DOWFROST LC 25 is
25 vol %); convert with :func:`mass_fraction_from_volume_fraction` before calling the property
functions. Inhibited commercial fluids differ from plain glycol and water: against DOWFROST
LC 25's data sheet [7]_ these correlations for PG at 25 vol % read about 1.2 %
lower in density, 1 % higher in cp and 11–13 % lower in viscosity at 25–40 °C. When the vendor's
data sheet is available, its ρ, cp and μ take precedence.

References
----------
.. [1] Å. Melinder, *Properties of Secondary Working Fluids (Secondary Refrigerants or
   Coolants, Heat Transfer Fluids) for Indirect Systems*, International Institute of
   Refrigeration (IIR/IIF), Paris, 2010. Polynomial coefficient tables for aqueous
   propylene glycol and ethylene glycol (coefficients as transcribed in CoolProp,
   ``dev/incompressible_liquids/CPIncomp/MelinderFluids.py``, classes ``PGSolution`` and
   ``EGSolution``, and in IBPSA ``Media.Antifreeze.PropyleneGlycolWater``).
.. [2] I. H. Bell, J. Wronski, S. Quoilin, V. Lemort, "Pure and Pseudo-pure Fluid
   Thermophysical Property Evaluation and the Open-Source Thermophysical Property Library
   CoolProp", *Ind. Eng. Chem. Res.* 53(6), 2498–2508, 2014, doi:10.1021/ie4033999.
   Incompressible water fit: ``dev/incompressible_liquids/json/Water.json`` ("Fit of EOS from
   1 bar to 100 bar", 0–200 °C).
.. [3] W. Wagner, A. Pruß, "The IAPWS Formulation 1995 for the Thermodynamic Properties of
   Ordinary Water Substance for General and Scientific Use", *J. Phys. Chem. Ref. Data*
   31(2), 387–535, 2002.
.. [4] M. L. Huber et al., "New International Formulation for the Viscosity of H2O",
   *J. Phys. Chem. Ref. Data* 38(2), 101–125, 2009.
.. [5] W. M. Haynes (ed.), *CRC Handbook of Chemistry and Physics*, 97th ed., 2016,
   "Physical Constants of Organic Compounds" (densities of 1,2-propanediol and
   1,2-ethanediol at 20 °C).
.. [6] Steady-flow energy balance, e.g. F. P. Incropera et al., *Fundamentals of Heat and
   Mass Transfer*, 7th ed., Wiley, 2011, §1.3. Property table, heat balance and glycol
   effect as the project uses them: docs/references.md#energy-balance,
   docs/references.md#melinder-2010.
.. [7] Dow, DOWFROST LC 25 Heat Transfer Fluid, product data (docs/references.md#dow-dowfrost-lc25).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

from facility.physics.tables import OutsideTableError, interpolate_linear

__all__ = [
    "CELSIUS_TO_KELVIN_OFFSET",
    "ETHYLENE_GLYCOL_DENSITY_20C",
    "ETHYLENE_GLYCOL_MELINDER",
    "FLUIDS",
    "GLYCOL_MAXIMUM_MASS_FRACTION",
    "GLYCOL_MAXIMUM_TEMPERATURE",
    "PROPYLENE_GLYCOL_DENSITY_20C",
    "PROPYLENE_GLYCOL_MELINDER",
    "WATER_DENSITY_20C",
    "WATER_DENSITY_COEFFICIENTS",
    "WATER_FREEZING_POINT",
    "WATER_MAXIMUM_TEMPERATURE",
    "WATER_MINIMUM_TEMPERATURE",
    "WATER_REFERENCE_TEMPERATURE",
    "WATER_SPECIFIC_HEAT_COEFFICIENTS",
    "WATER_VISCOSITY_COEFFICIENTS",
    "MelinderFit",
    "coolant_temperature_rise",
    "density",
    "flow_from_supply_table",
    "flow_in_other_coolant",
    "freezing_point",
    "mass_fraction_from_volume_fraction",
    "required_coolant_flow",
    "specific_heat",
    "viscosity",
    "volume_fraction_from_mass_fraction",
]

FLUIDS = ("water", "propylene_glycol", "ethylene_glycol")

# T[K] = t[°C] + 273.15, by definition of the Celsius scale (SI Brochure, 9th ed., 2019, §2.3.1).
CELSIUS_TO_KELVIN_OFFSET = 273.15


# --- Water: CoolProp INCOMP::Water fits [2] -----------------------------------------------
# Source: CoolProp/CoolProp dev/incompressible_liquids/json/Water.json (Tbase = 373.15 K),
# fitted by CoolProp to IAPWS-95 [3] and IAPWS 2008 viscosity [4] between 0 and 200 °C,
# 1–100 bar. Over 10–60 °C they deviate from IAPWS-95 at 1 atm by +0.17..+0.23 % (ρ),
# -0.18..-0.39 % (cp) and -0.12..+0.54 % (μ) (checked against CoolProp's 'Water' HEOS).
WATER_REFERENCE_TEMPERATURE = 100.0  # [°C], the fit's Tbase of 373.15 K
# ρ = Σ_k a_k (t - 100 °C)^k, k = 0..3 [kg/m³]
WATER_DENSITY_COEFFICIENTS = (961.5327, -0.7059969, -2.541021e-3, 3.442833e-6)
# cp = Σ_k b_k (t - 100 °C)^k, k = 0..3 [J/(kg·K)]
WATER_SPECIFIC_HEAT_COEFFICIENTS = (4199.132, 1.116817, 1.238871e-2, 2.770690e-5)
# μ = exp(A / (T - B) - C), T in kelvin, μ in Pa·s: (A [K], B [K], C [-]). CoolProp stores
# the coefficients as (A, -B, C) of its "exponential" type.
WATER_VISCOSITY_COEFFICIENTS = (559.8818, 141.1882, 10.58592)
# Range accepted here: liquid water at atmospheric pressure. The fit itself spans 0–200 °C
# at 1–100 bar; direct-liquid-cooling loops run far below 100 °C (Lenovo GB300: 2–50 °C).
WATER_MINIMUM_TEMPERATURE = 0.0  # [°C]
WATER_MAXIMUM_TEMPERATURE = 100.0  # [°C]
# Ice point at 101.325 kPa: 0 °C by the historical definition of the Celsius scale (air-free
# water melts about 0.003 K higher; negligible here).
WATER_FREEZING_POINT = 0.0  # [°C]


# --- Aqueous glycols: Melinder (2010) polynomials [1] ---------------------------------------
class MelinderFit(NamedTuple):
    """Coefficients of Melinder's double polynomial for one aqueous solution.

    A property f is :math:`f = \\sum_i \\sum_j c_{ij} (x - x_m)^i (t - t_m)^j` with :math:`x`
    the additive's mass fraction in **percent**, :math:`t` the temperature in °C, and
    :math:`i = 0..5`, :math:`j = 0..\\min(3, 5 - i)` (18 coefficients). Each property is a tuple
    of rows, row :math:`i` holding :math:`c_{i0}, c_{i1}, ...` in increasing powers of
    :math:`(t - t_m)`.
    """

    reference_mass_percent: float
    """x_m, concentration at the centre of the fit [mass %]."""
    reference_temperature: float
    """t_m, temperature at the centre of the fit [°C]."""
    freezing_point: tuple[float, ...]
    """Freezing point [°C]: coefficients c_i0 of (x - x_m)^i only (concentration-only)."""
    density: tuple[tuple[float, ...], ...]
    """Density [kg/m³]."""
    specific_heat: tuple[tuple[float, ...], ...]
    """Specific heat capacity [J/(kg·K)]."""
    log_viscosity: tuple[tuple[float, ...], ...]
    """Natural logarithm of dynamic viscosity in mPa·s, ln(μ / (mPa·s))."""


# Source: Melinder 2010 [1], propylene glycol (1,2-propanediol) / water, as transcribed in
# CoolProp MelinderFluids.PGSolution (x_m = 30.7031 %, t_m = 32.7083 °C; IBPSA's transcription
# gives t_m = 32.7089 °C, a 0.0006 K difference worth < 1e-6 in ρ and cp, < 4e-5 in μ).
# The freezing-point column of Melinder's table also has tiny temperature terms; like CoolProp,
# only the concentration terms are used (their effect is < 0.01 K).
PROPYLENE_GLYCOL_MELINDER = MelinderFit(
    reference_mass_percent=30.7031,
    reference_temperature=32.7083,
    freezing_point=(-13.25, -0.6631, -1.094e-2, -2.283e-4, -3.409e-6, 1.465e-8),
    density=(
        (1018.0, -0.5406, -2.666e-3, 1.347e-5),
        (0.7604, -9.45e-3, 5.541e-5, -1.343e-7),
        (-2.498e-3, 2.7e-5, -4.018e-7, 3.376e-9),
        (-1.55e-4, 2.829e-6, -7.175e-9),
        (-1.131e-6, -2.221e-8),
        (2.342e-8,),
    ),
    specific_heat=(
        (3882.0, 2.699, -1.659e-3, -1.032e-5),
        (-13.04, 5.07e-2, -4.752e-5, 1.522e-6),
        (-0.1598, 9.534e-5, 1.167e-5, -4.87e-8),
        (3.539e-4, 3.102e-5, -2.95e-7),
        (5.0e-5, -7.135e-7),
        (-4.959e-7,),
    ),
    log_viscosity=(
        (0.6837, -3.045e-2, 2.525e-4, -1.399e-6),
        (3.328e-2, -3.984e-4, 4.332e-6, -1.86e-8),
        (5.453e-5, -8.6e-8, -1.593e-8, -4.465e-11),
        (-3.9e-6, 1.054e-7, -1.589e-9),
        (-1.587e-8, 4.475e-10),
        (3.564e-9,),
    ),
)

# Source: Melinder 2010 [1], ethylene glycol / water, as transcribed in CoolProp
# MelinderFluids.EGSolution (x_m = 30.8462 %, t_m = 31.728 °C).
ETHYLENE_GLYCOL_MELINDER = MelinderFit(
    reference_mass_percent=30.8462,
    reference_temperature=31.728,
    freezing_point=(-15.25, -0.808, -1.334e-2, -7.293e-5, 1.006e-6, 1.14e-9),
    density=(
        (1034.0, -0.4781, -2.692e-3, 4.725e-6),
        (1.311, -6.876e-3, 4.805e-5, 1.69e-8),
        (7.49e-5, 7.855e-5, -3.995e-7, 4.982e-9),
        (-1.062e-4, 1.229e-6, -1.153e-8),
        (-9.623e-7, -7.211e-8),
        (4.891e-8,),
    ),
    specific_heat=(
        (3737.0, 2.93, -4.675e-3, -1.389e-5),
        (-17.99, 0.1046, -4.147e-4, 1.847e-7),
        (-9.933e-2, 3.516e-4, 5.109e-6, -7.138e-8),
        (2.61e-3, -1.189e-6, -1.643e-7),
        (1.537e-5, -4.272e-7),
        (-1.618e-6,),
    ),
    log_viscosity=(
        (0.4705, -2.55e-2, 1.782e-4, -7.669e-7),
        (2.471e-2, -1.171e-4, 1.052e-6, -1.634e-8),
        (3.328e-6, 1.086e-6, 1.051e-8, -6.475e-10),
        (1.659e-6, 3.157e-9, 4.063e-10),
        (3.089e-8, 1.831e-10),
        (-1.865e-9,),
    ),
)

# Validity range of the Melinder fits as implemented in CoolProp [2] (xmax = 0.6,
# Tmax = 373.15 K); the lower temperature bound is the solution's freezing point.
GLYCOL_MAXIMUM_MASS_FRACTION = 0.6
GLYCOL_MAXIMUM_TEMPERATURE = 100.0  # [°C]

# Pure-component densities at 20 °C, 101.325 kPa, for volume → mass fraction conversion.
# Water: IAPWS-95 [3] (998.207 kg/m³). 1,2-Propanediol: CRC Handbook [5], 1.0361 g/cm³
# (consistent with the specific gravity 1.038 at 20/20 °C quoted for USP-grade PG). Ethylene
# glycol: CRC Handbook [5], 1.1135 g/cm³ (industry data sheets quote 1.115 g/cm³).
WATER_DENSITY_20C = 998.21  # [kg/m³]
PROPYLENE_GLYCOL_DENSITY_20C = 1036.1  # [kg/m³]
ETHYLENE_GLYCOL_DENSITY_20C = 1113.5  # [kg/m³]

_MELINDER_FITS = {
    "propylene_glycol": PROPYLENE_GLYCOL_MELINDER,
    "ethylene_glycol": ETHYLENE_GLYCOL_MELINDER,
}
_GLYCOL_DENSITIES_20C = {
    "propylene_glycol": PROPYLENE_GLYCOL_DENSITY_20C,
    "ethylene_glycol": ETHYLENE_GLYCOL_DENSITY_20C,
}
_PASCAL_SECONDS_PER_MILLIPASCAL_SECOND = 1.0e-3


# --- Coolant properties -----------------------------------------------------------------------
def density(fluid: str, mass_fraction: float, temperature: float) -> float:
    r"""Density of water or an aqueous glycol solution at atmospheric pressure.

    Parameters
    ----------
    fluid : str
        ``"water"``, ``"propylene_glycol"`` or ``"ethylene_glycol"``.
    mass_fraction : float or array
        Glycol mass fraction :math:`w` [0..1]; 0 for water, 0–0.6 for the glycols.
    temperature : float or array
        Liquid temperature :math:`t` [°C]. Water: 0–100 °C. Glycols: from the solution's
        :func:`freezing_point` up to 100 °C.

    Returns
    -------
    float or array
        Density :math:`\rho` [kg/m³].

    Raises
    ------
    ValueError
        For an unknown fluid, or a mass fraction or temperature outside the validity range.

    Notes
    -----
    Water [2]_:

    .. math:: \rho = \sum_{k=0}^{3} a_k \, (t - t_b)^k

    with :math:`t_b = 100` °C and :math:`a_k` = ``WATER_DENSITY_COEFFICIENTS``.

    Glycols, Melinder [1]_:

    .. math:: \rho = \sum_{i=0}^{5} \sum_{j=0}^{\min(3, 5-i)} c_{ij} \,
              (100\,w - x_m)^i \, (t - t_m)^j

    with :math:`x_m` [mass %] and :math:`t_m` [°C] the fit's centre and :math:`c_{ij}` the
    ``density`` rows of ``PROPYLENE_GLYCOL_MELINDER`` or ``ETHYLENE_GLYCOL_MELINDER``.

    Assumes the liquid is incompressible (pressure effect below 0.05 % per 10 bar) and
    uninhibited: DOWFROST LC 25 (Dow product data) is about 1.2 % denser than this gives for
    PG at 25 vol % (0.257 by mass).
    Agrees with CoolProp ``INCOMP::Water``, ``INCOMP::MPG`` and ``INCOMP::MEG`` to better
    than 1e-6 (same coefficients); the water fit is within 0.25 % of IAPWS-95 over 10–60 °C.

    References
    ----------
    .. [1] Melinder (2010), see the module references.
    .. [2] CoolProp ``INCOMP::Water`` fit (Bell et al. 2014), see the module references.

    Examples
    --------
    PG25 by mass at 35 °C; Melinder's correlation gives 1012.5 kg/m³:

    >>> round(density("propylene_glycol", 0.25, 35.0), 1)
    1012.5
    """
    if fluid == "water":
        _require_water(mass_fraction, temperature)
        return _polynomial(WATER_DENSITY_COEFFICIENTS, temperature - WATER_REFERENCE_TEMPERATURE)
    fit = _glycol_fit(fluid)
    _require_glycol(fluid, fit, mass_fraction, temperature)
    return _melinder_property(fit.density, fit, mass_fraction, temperature)


def specific_heat(fluid: str, mass_fraction: float, temperature: float) -> float:
    r"""Isobaric specific heat capacity of water or an aqueous glycol solution.

    Parameters
    ----------
    fluid : str
        ``"water"``, ``"propylene_glycol"`` or ``"ethylene_glycol"``.
    mass_fraction : float or array
        Glycol mass fraction :math:`w` [0..1]; 0 for water, 0–0.6 for the glycols.
    temperature : float or array
        Liquid temperature :math:`t` [°C]. Water: 0–100 °C. Glycols: from the solution's
        :func:`freezing_point` up to 100 °C.

    Returns
    -------
    float or array
        Specific heat capacity :math:`c_p` [J/(kg·K)].

    Raises
    ------
    ValueError
        For an unknown fluid, or a mass fraction or temperature outside the validity range.

    Notes
    -----
    Water [2]_:

    .. math:: c_p = \sum_{k=0}^{3} b_k \, (t - t_b)^k

    with :math:`t_b = 100` °C and :math:`b_k` = ``WATER_SPECIFIC_HEAT_COEFFICIENTS``.

    Glycols, Melinder [1]_:

    .. math:: c_p = \sum_{i=0}^{5} \sum_{j=0}^{\min(3, 5-i)} c_{ij} \,
              (100\,w - x_m)^i \, (t - t_m)^j

    with :math:`x_m` [mass %], :math:`t_m` [°C] and :math:`c_{ij}` the ``specific_heat``
    rows of the fluid's ``MelinderFit``.

    Assumes atmospheric pressure (the pressure effect on a liquid's cp is negligible here).
    The water fit reads 0.2–0.4 % below IAPWS-95 over 10–60 °C.

    References
    ----------
    .. [1] Melinder (2010), see the module references.
    .. [2] CoolProp ``INCOMP::Water`` fit (Bell et al. 2014), see the module references.

    Examples
    --------
    PG25 by mass at 35 °C; Melinder's correlation gives 3.957 kJ/(kg·K):

    >>> round(specific_heat("propylene_glycol", 0.25, 35.0))
    3957
    """
    if fluid == "water":
        _require_water(mass_fraction, temperature)
        return _polynomial(
            WATER_SPECIFIC_HEAT_COEFFICIENTS, temperature - WATER_REFERENCE_TEMPERATURE
        )
    fit = _glycol_fit(fluid)
    _require_glycol(fluid, fit, mass_fraction, temperature)
    return _melinder_property(fit.specific_heat, fit, mass_fraction, temperature)


def viscosity(fluid: str, mass_fraction: float, temperature: float) -> float:
    r"""Dynamic viscosity of water or an aqueous glycol solution.

    Parameters
    ----------
    fluid : str
        ``"water"``, ``"propylene_glycol"`` or ``"ethylene_glycol"``.
    mass_fraction : float or array
        Glycol mass fraction :math:`w` [0..1]; 0 for water, 0–0.6 for the glycols.
    temperature : float or array
        Liquid temperature :math:`t` [°C]. Water: 0–100 °C. Glycols: from the solution's
        :func:`freezing_point` up to 100 °C.

    Returns
    -------
    float or array
        Dynamic viscosity :math:`\mu` [Pa·s] (1 mPa·s = 1 cP = 1e-3 Pa·s).

    Raises
    ------
    ValueError
        For an unknown fluid, or a mass fraction or temperature outside the validity range.

    Notes
    -----
    Water [2]_, a Vogel-type equation:

    .. math:: \mu = \exp\!\left(\frac{A}{T - B} - C\right)

    with :math:`T = t + 273.15` the absolute temperature [K] and :math:`(A, B, C)` =
    ``WATER_VISCOSITY_COEFFICIENTS`` ([K], [K], [-]).

    Glycols, Melinder [1]_, a polynomial for the logarithm:

    .. math:: \ln\frac{\mu}{\mathrm{mPa\,s}} = \sum_{i=0}^{5} \sum_{j=0}^{\min(3, 5-i)}
              c_{ij} \, (100\,w - x_m)^i \, (t - t_m)^j

    with :math:`x_m` [mass %], :math:`t_m` [°C] and :math:`c_{ij}` the ``log_viscosity``
    rows of the fluid's ``MelinderFit``.

    Assumes a Newtonian liquid at atmospheric pressure. Viscosity drives pressure drop and
    pump power; glycols raise it about twofold at data-centre loop temperatures
    (docs/references.md#energy-balance). The water fit is within about 0.55 % of IAPWS 2008 over
    10–60 °C.
    Commercial fluids can differ more than that: Dow's own editions for DOWFROST LC 25
    differ by ~14 % at 40 °C (docs/references.md#dow-dowfrost-lc25).

    References
    ----------
    .. [1] Melinder (2010), see the module references.
    .. [2] CoolProp ``INCOMP::Water`` fit (Bell et al. 2014), see the module references.

    Examples
    --------
    PG25 by mass at 35 °C; Melinder's correlation gives 1.54 mPa·s:

    >>> round(viscosity("propylene_glycol", 0.25, 35.0) * 1e3, 2)
    1.54
    """
    if fluid == "water":
        _require_water(mass_fraction, temperature)
        a, b, c = WATER_VISCOSITY_COEFFICIENTS
        return _exponential(a / (temperature + CELSIUS_TO_KELVIN_OFFSET - b) - c)
    fit = _glycol_fit(fluid)
    _require_glycol(fluid, fit, mass_fraction, temperature)
    log_viscosity = _melinder_property(fit.log_viscosity, fit, mass_fraction, temperature)
    return _exponential(log_viscosity) * _PASCAL_SECONDS_PER_MILLIPASCAL_SECOND


def freezing_point(fluid: str, mass_fraction: float) -> float:
    r"""Freezing point (onset of ice crystals) of water or an aqueous glycol solution.

    Parameters
    ----------
    fluid : str
        ``"water"``, ``"propylene_glycol"`` or ``"ethylene_glycol"``.
    mass_fraction : float or array
        Glycol mass fraction :math:`w` [0..1]; 0 for water, 0–0.6 for the glycols.

    Returns
    -------
    float or array
        Freezing point :math:`t_f` [°C].

    Raises
    ------
    ValueError
        For an unknown fluid or a mass fraction outside the validity range.

    Notes
    -----
    Water: :math:`t_f` = ``WATER_FREEZING_POINT`` = 0 °C at 101.325 kPa.

    Glycols, Melinder [1]_:

    .. math:: t_f = \sum_{i=0}^{5} c_{i} \, (100\,w - x_m)^i

    with :math:`x_m` [mass %] and :math:`c_i` the ``freezing_point`` coefficients of the
    fluid's ``MelinderFit``.

    This is where ice starts to form, not the burst point; a loop is protected against
    slush only above it. Valid for 0–60 % by mass.

    References
    ----------
    .. [1] Melinder (2010), see the module references.

    Examples
    --------
    PG25 by mass; Melinder's correlation gives −9.8 °C:

    >>> round(freezing_point("propylene_glycol", 0.25), 1)
    -9.8
    """
    if fluid == "water":
        _require_water_fraction(mass_fraction)
        # mass_fraction is 0 here; adding it keeps the shape of an array argument.
        return mass_fraction + WATER_FREEZING_POINT
    fit = _glycol_fit(fluid)
    _require_glycol_fraction(fluid, mass_fraction)
    return _polynomial(fit.freezing_point, 100.0 * mass_fraction - fit.reference_mass_percent)


def mass_fraction_from_volume_fraction(fluid: str, volume_fraction: float) -> float:
    r"""Glycol mass fraction of a mixture blended by volume at 20 °C.

    Parameters
    ----------
    fluid : str
        ``"water"``, ``"propylene_glycol"`` or ``"ethylene_glycol"``.
    volume_fraction : float or array
        Glycol volume fraction :math:`\varphi` [0..1] as blended: volume of pure glycol over
        the sum of the pure glycol and water volumes, both measured at 20 °C
        ("PG25" = 0.25). Must be 0 for water.

    Returns
    -------
    float or array
        Glycol mass fraction :math:`w` [0..1]. Note that the property functions accept at
        most 0.6.

    Raises
    ------
    ValueError
        For an unknown fluid or a volume fraction outside [0, 1] (or non-zero for water).

    Notes
    -----
    .. math:: w = \frac{\varphi \, \rho_g}{\varphi \, \rho_g + (1 - \varphi) \, \rho_w}

    where :math:`\rho_g` is the pure glycol's density at 20 °C
    (``PROPYLENE_GLYCOL_DENSITY_20C`` or ``ETHYLENE_GLYCOL_DENSITY_20C``) and :math:`\rho_w`
    = ``WATER_DENSITY_20C``.

    Assumptions: the volume fraction refers to the unmixed components at 20 °C, so the
    volume contraction on mixing (a few tenths of a percent) does not enter; the glycol is
    pure (no inhibitor package or pre-dilution water). Commercial concentrates and vendor
    tables deviate from this by up to about one percentage point (docs/references.md#melinder-2010
    quotes PG 25 vol % ≈ 25.9 mass %; this function gives 25.7 %). Prefer the vendor's mass
    fraction when the data sheet states one.

    References
    ----------
    .. [1] Pure-component densities: CRC Handbook, 97th ed. (glycols); IAPWS-95 (water).
       See the module references.

    Examples
    --------
    PG25 as blended: 0.25·1036.1 / (0.25·1036.1 + 0.75·998.21) = 259.025 / 1007.6825:

    >>> round(mass_fraction_from_volume_fraction("propylene_glycol", 0.25), 4)
    0.2571
    """
    if fluid == "water":
        _require_water_fraction(volume_fraction, name="volume_fraction")
        # volume_fraction is 0 here; returning it as a float keeps an array's shape.
        return volume_fraction * 1.0
    _glycol_fit(fluid)
    _require_within(volume_fraction, 0.0, 1.0, f"volume_fraction of {fluid}", "")
    glycol_mass = volume_fraction * _GLYCOL_DENSITIES_20C[fluid]
    water_mass = (1.0 - volume_fraction) * WATER_DENSITY_20C
    return glycol_mass / (glycol_mass + water_mass)


def volume_fraction_from_mass_fraction(fluid: str, mass_fraction: float) -> float:
    r"""Glycol volume fraction, as blended at 20 °C, of a mixture with a given mass fraction.

    The inverse of :func:`mass_fraction_from_volume_fraction`, e.g. to state a limit by mass
    (the correlations' ``GLYCOL_MAXIMUM_MASS_FRACTION``) in the volume fraction a user wrote.

    Parameters
    ----------
    fluid : str
        ``"water"``, ``"propylene_glycol"`` or ``"ethylene_glycol"``.
    mass_fraction : float or array
        Glycol mass fraction :math:`w` [0..1]. Must be 0 for water.

    Returns
    -------
    float or array
        Glycol volume fraction :math:`\varphi` [0..1]: volume of pure glycol over the sum of
        the pure glycol and water volumes, both measured at 20 °C.

    Raises
    ------
    ValueError
        For an unknown fluid or a mass fraction outside [0, 1] (or non-zero for water).

    Notes
    -----
    Solving :math:`w = \varphi \rho_g / (\varphi \rho_g + (1 - \varphi) \rho_w)` for
    :math:`\varphi`:

    .. math:: \varphi = \frac{w / \rho_g}{w / \rho_g + (1 - w) / \rho_w}

    with :math:`\rho_g` the pure glycol's and :math:`\rho_w` water's density at 20 °C, and the
    same assumptions as :func:`mass_fraction_from_volume_fraction` (no volume contraction on
    mixing, pure glycol).

    References
    ----------
    .. [1] Pure-component densities: CRC Handbook, 97th ed. (glycols); IAPWS-95 (water).
       See the module references.

    Examples
    --------
    The Melinder fits' upper bound of 60 % PG by mass, by volume:
    (0.6 / 1036.1) / (0.6 / 1036.1 + 0.4 / 998.21) = 5.7909e-4 / (5.7909e-4 + 4.0072e-4)
    = 0.5910:

    >>> round(volume_fraction_from_mass_fraction("propylene_glycol", 0.6), 4)
    0.591
    """
    if fluid == "water":
        _require_water_fraction(mass_fraction)
        # mass_fraction is 0 here; returning it as a float keeps an array's shape.
        return mass_fraction * 1.0
    _glycol_fit(fluid)
    _require_within(mass_fraction, 0.0, 1.0, f"mass_fraction of {fluid}", "")
    glycol_volume = mass_fraction / _GLYCOL_DENSITIES_20C[fluid]  # per kg of mixture
    water_volume = (1.0 - mass_fraction) / WATER_DENSITY_20C
    return glycol_volume / (glycol_volume + water_volume)


# --- Heat balance of the loop -----------------------------------------------------------------
def required_coolant_flow(
    heat: float, temperature_rise: float, density: float, specific_heat: float
) -> float:
    r"""Volumetric coolant flow that carries a heat load at a given temperature rise.

    Parameters
    ----------
    heat : float or array
        Heat :math:`Q` to carry away in the liquid [W] (e.g. rack power × liquid fraction).
        Must be >= 0; zero heat needs zero flow.
    temperature_rise : float or array
        Design coolant temperature rise :math:`\Delta T` = return − supply [K]. Must be > 0.
    density : float or array
        Coolant density :math:`\rho` [kg/m³], at the mean loop temperature. Must be > 0.
    specific_heat : float or array
        Coolant specific heat :math:`c_p` [J/(kg·K)], at the mean loop temperature.
        Must be > 0.

    Returns
    -------
    float or array
        Required volumetric flow :math:`\dot V` [m³/s] (× 60 000 for L/min).

    Raises
    ------
    ValueError
        If ``heat`` is negative or any other input is not > 0 (or not finite).

    Notes
    -----
    Steady-state energy balance of a single-phase liquid stream:

    .. math:: \dot V = \frac{Q}{\rho \, c_p \, \Delta T}

    Assumes all of :math:`Q` enters the liquid, constant :math:`\rho` and :math:`c_p` over the
    rise (evaluate them at the mean of supply and return temperature), and no phase change.
    When the vendor gives a flow-vs-supply-temperature table, that table rules instead
    (:func:`flow_from_supply_table`, docs/references.md#lenovo-lp2357).

    References
    ----------
    .. [1] Steady-flow energy balance (textbook; docs/references.md#energy-balance).

    Examples
    --------
    1 kW in water at 35 °C (ρ = 994.4 kg/m³, cp = 4179 J/(kg·K), IAPWS-95) with a 10 K
    rise: 60 000 · 1000 / (994.4 · 4179 · 10) = 1.44 L/min:

    >>> round(required_coolant_flow(1000.0, 10.0, 994.4, 4179.0) * 60000, 2)
    1.44
    """
    _require_at_least(heat, 0.0, "heat", "W")
    _require_positive(temperature_rise, "temperature_rise", "K")
    _require_positive(density, "density", "kg/m³")
    _require_positive(specific_heat, "specific_heat", "J/(kg·K)")
    return heat / (density * specific_heat * temperature_rise)


def coolant_temperature_rise(
    heat: float, flow: float, density: float, specific_heat: float
) -> float:
    r"""Temperature rise of a coolant stream that absorbs a heat load.

    Parameters
    ----------
    heat : float or array
        Heat :math:`Q` absorbed by the liquid [W]. Must be >= 0.
    flow : float or array
        Volumetric flow :math:`\dot V` [m³/s]. Must be > 0.
    density : float or array
        Coolant density :math:`\rho` [kg/m³], at the mean loop temperature. Must be > 0.
    specific_heat : float or array
        Coolant specific heat :math:`c_p` [J/(kg·K)], at the mean loop temperature.
        Must be > 0.

    Returns
    -------
    float or array
        Temperature rise :math:`\Delta T` = return − supply [K].

    Raises
    ------
    ValueError
        If ``heat`` is negative or any other input is not > 0 (or not finite).

    Notes
    -----
    .. math:: \Delta T = \frac{Q}{\rho \, \dot V \, c_p}

    Same energy balance and assumptions as :func:`required_coolant_flow`.

    References
    ----------
    .. [1] Steady-flow energy balance (textbook; docs/references.md#energy-balance).

    Examples
    --------
    121.5 kW in 177 L/min of water at 45 °C (ρ = 990.5, cp = 4179, IAPWS-95; Lenovo LP2357):
    121 500 / (990.5 · (177 / 60 000) · 4179) = 9.95 K:

    >>> round(coolant_temperature_rise(121500.0, 177.0 / 60000, 990.5, 4179.0), 2)
    9.95
    """
    _require_at_least(heat, 0.0, "heat", "W")
    _require_positive(flow, "flow", "m³/s")
    _require_positive(density, "density", "kg/m³")
    _require_positive(specific_heat, "specific_heat", "J/(kg·K)")
    return heat / (density * flow * specific_heat)


def flow_in_other_coolant(
    flow: float,
    density_from: float,
    specific_heat_from: float,
    density_to: float,
    specific_heat_to: float,
) -> float:
    r"""The flow of another coolant that carries the same heat at the same temperatures.

    Parameters
    ----------
    flow : float or array
        Flow :math:`\dot V_1` of the first coolant [m³/s] (e.g. a vendor table measured with
        water). Must be >= 0.
    density_from, specific_heat_from : float or array
        :math:`\rho_1` [kg/m³] and :math:`c_{p,1}` [J/(kg·K)] of that coolant at the mean loop
        temperature. Must be > 0.
    density_to, specific_heat_to : float or array
        :math:`\rho_2`, :math:`c_{p,2}` of the coolant in the loop, at the same temperature.

    Returns
    -------
    float or array
        :math:`\dot V_2` [m³/s].

    Notes
    -----
    With :math:`Q = \rho \dot V c_p \Delta T` held at the same heat and rise,

    .. math:: \dot V_2 = \dot V_1 \, \frac{\rho_1 \, c_{p,1}}{\rho_2 \, c_{p,2}}

    A flow table states the flow that keeps the chips at temperature; converting it holds the
    rise, which is what the vendor's table was measured at. Viscosity (pressure drop) is not
    converted here.

    References
    ----------
    .. [1] Textbook energy balance (e.g. ASHRAE Handbook — Fundamentals, ch. 3), applied to two
       fluids at one heat and rise.

    Examples
    --------
    119 L/min of water at 40 °C (ρ 992.2 kg/m³, cp 4179 J/(kg·K)) in DOWFROST LC 25 at 40 °C
    (Dow data sheet: ρ 1022.5 kg/m³, cp 3920 J/(kg·K)):
    119 · (992.2 · 4179) / (1022.5 · 3920) = 119 · 1.03448 = 123.1 L/min:

    >>> round(flow_in_other_coolant(119.0, 992.2, 4179.0, 1022.5, 3920.0), 1)
    123.1
    """
    _require_at_least(flow, 0.0, "flow", "m³/s")
    _require_positive(density_from, "density_from", "kg/m³")
    _require_positive(specific_heat_from, "specific_heat_from", "J/(kg·K)")
    _require_positive(density_to, "density_to", "kg/m³")
    _require_positive(specific_heat_to, "specific_heat_to", "J/(kg·K)")
    return flow * (density_from * specific_heat_from) / (density_to * specific_heat_to)


def flow_from_supply_table(
    supply_temperature: float, table: Sequence[tuple[float, float]]
) -> float:
    r"""Rack coolant flow read from a vendor's flow-vs-supply-temperature table.

    Parameters
    ----------
    supply_temperature : float
        Coolant supply temperature at the rack inlet :math:`t_s` [°C]. A scalar.
    table : sequence of (float, float)
        Vendor pairs (supply temperature [°C], required flow [m³/s]), sorted by strictly
        increasing temperature, at least two rows, flows > 0.

    Returns
    -------
    float
        Required flow :math:`\dot V` [m³/s], linearly interpolated.

    Raises
    ------
    ValueError
        If ``supply_temperature`` is outside the table's temperature range — the table is
        **not extrapolated**, since the vendor says nothing beyond it — or if the table is
        malformed (rows that are not pairs, unsorted or repeated temperatures, fewer than two
        rows, a non-positive or non-finite flow).

    Notes
    -----
    With :math:`t_k \le t_s \le t_{k+1}` the bracketing rows,

    .. math:: \dot V = \dot V_k + (\dot V_{k+1} - \dot V_k)\,\frac{t_s - t_k}{t_{k+1} - t_k}

    Vendor tables encode the flow needed to hold chip temperatures, which rises steeply with
    warmer supply water (Lenovo GB300: 59 L/min at 25 °C, 177 L/min at 45 °C), so a vendor
    table takes precedence over the fixed-ΔT rule of :func:`required_coolant_flow`
    (docs/references.md#lenovo-lp2357).

    References
    ----------
    .. [1] Lenovo, "Lenovo NVIDIA GB300 NVL72 Rack-scale AI", LP2357, Table 27
       (docs/references.md#lenovo-lp2357).

    Examples
    --------
    Lenovo GB300 table in L/min (÷ 60 000 for m³/s); at 37.5 °C, (89 + 119) / 2 = 104 L/min:

    >>> lenovo = [(25.0, 59.0), (30.0, 71.0), (35.0, 89.0), (40.0, 119.0), (45.0, 177.0)]
    >>> table = [(t, litres / 60000) for t, litres in lenovo]
    >>> round(flow_from_supply_table(37.5, table) * 60000, 6)
    104.0
    """
    rows = list(table)
    if not all(len(row) == 2 for row in rows):
        raise ValueError(
            "each row of a flow table must be a (supply_temperature [°C], flow [m³/s]) pair"
        )
    temperatures = [row[0] for row in rows]
    flows = [row[1] for row in rows]
    for flow in flows:
        if not (math.isfinite(flow) and flow > 0.0):
            raise ValueError(f"flows in a vendor flow table must be finite and > 0, got {flow!r}")
    try:
        return interpolate_linear(supply_temperature, temperatures, flows)
    except OutsideTableError:
        raise OutsideTableError(
            f"supply temperature {supply_temperature!r} °C is outside the vendor flow table "
            f"({temperatures[0]!r}–{temperatures[-1]!r} °C); the table is not extrapolated"
        ) from None


# --- Helpers ------------------------------------------------------------------------------------
def _polynomial(coefficients: Sequence[float], variable: float) -> float:
    """Σ_k coefficients[k] · variable**k, by Horner's rule (elementwise for arrays)."""
    result = 0.0 * variable
    for coefficient in reversed(coefficients):
        result = result * variable + coefficient
    return result


def _melinder_property(
    rows: Sequence[Sequence[float]], fit: MelinderFit, mass_fraction: float, temperature: float
) -> float:
    """Σ_i (x - x_m)^i Σ_j c_ij (t - t_m)^j with x in mass percent."""
    concentration_offset = 100.0 * mass_fraction - fit.reference_mass_percent
    temperature_offset = temperature - fit.reference_temperature
    inner = [_polynomial(row, temperature_offset) for row in rows]
    return _polynomial(inner, concentration_offset)


def _exponential(value: float) -> float:
    """e**value; unlike math.exp it also works elementwise on arrays."""
    return math.e**value


def _extremes(value: float) -> tuple[float, float]:
    """Smallest and largest element of an array (anything with min/max), or (value, value)."""
    if hasattr(value, "min") and hasattr(value, "max"):
        return value.min(), value.max()
    return value, value


def _require_within(value: float, low: float, high: float, name: str, unit: str) -> None:
    smallest, largest = _extremes(value)
    # Written so that NaN fails the check.
    if not (low <= smallest and largest <= high):
        suffix = f" {unit}" if unit else ""
        raise ValueError(f"{name} must be within {low!r}–{high!r}{suffix}, got {value!r}")


def _require_positive(value: float, name: str, unit: str) -> None:
    smallest, largest = _extremes(value)
    if not (smallest > 0.0 and math.isfinite(largest)):
        raise ValueError(f"{name} must be a finite value > 0 {unit}, got {value!r}")


def _require_at_least(value: float, low: float, name: str, unit: str) -> None:
    smallest, largest = _extremes(value)
    if not (smallest >= low and math.isfinite(largest)):
        raise ValueError(f"{name} must be a finite value >= {low!r} {unit}, got {value!r}")


def _glycol_fit(fluid: str) -> MelinderFit:
    try:
        return _MELINDER_FITS[fluid]
    except (KeyError, TypeError):
        raise ValueError(f"unknown fluid {fluid!r}; expected one of: {', '.join(FLUIDS)}") from None


def _require_water_fraction(fraction: float, name: str = "mass_fraction") -> None:
    smallest, largest = _extremes(fraction)
    if not (smallest == 0.0 and largest == 0.0):
        raise ValueError(
            f"{name} must be 0 for water, got {fraction!r}; "
            "use 'propylene_glycol' or 'ethylene_glycol' for glycol mixtures"
        )


def _require_water(mass_fraction: float, temperature: float) -> None:
    _require_water_fraction(mass_fraction)
    _require_within(
        temperature,
        WATER_MINIMUM_TEMPERATURE,
        WATER_MAXIMUM_TEMPERATURE,
        "temperature of water (validity range of the correlation)",
        "°C",
    )


def _require_glycol_fraction(fluid: str, mass_fraction: float) -> None:
    _require_within(
        mass_fraction,
        0.0,
        GLYCOL_MAXIMUM_MASS_FRACTION,
        f"mass_fraction of {fluid} (validity range of the Melinder correlation)",
        "",
    )


def _require_glycol(fluid: str, fit: MelinderFit, mass_fraction: float, temperature: float) -> None:
    _require_glycol_fraction(fluid, mass_fraction)
    _, warmest = _extremes(temperature)
    if not warmest <= GLYCOL_MAXIMUM_TEMPERATURE:
        raise ValueError(
            f"temperature of {fluid} must be <= {GLYCOL_MAXIMUM_TEMPERATURE!r} °C "
            f"(validity range of the Melinder correlation), got {temperature!r}"
        )
    freezing = _polynomial(fit.freezing_point, 100.0 * mass_fraction - fit.reference_mass_percent)
    margin, _ = _extremes(temperature - freezing)
    if not margin >= 0.0:
        raise ValueError(
            f"temperature {temperature!r} °C is below the freezing point of {fluid} at mass "
            f"fraction {mass_fraction!r} ({freezing!r} °C); the correlation covers the liquid "
            f"only, from the freezing point to {GLYCOL_MAXIMUM_TEMPERATURE!r} °C"
        )
