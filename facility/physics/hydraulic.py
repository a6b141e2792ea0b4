"""Coolant loop hydraulics: pressure drop off the design point and the head a loop needs.

Pure functions on plain floats in canonical SI units: pressure and pressure drop [Pa],
volumetric flow [m³/s]. "Head" is expressed as a pressure [Pa], not as a height of fluid.

References
----------
.. [1] F. M. White, *Fluid Mechanics*, 7th ed., McGraw-Hill, 2011, ch. 11 (pump affinity
   laws). Effect of glycol, loop differential pressure and CDU available head:
   docs/references.md#pump-affinity, docs/references.md#energy-balance,
   docs/references.md#resistancezero-cdu-checklist, docs/references.md#vertiv-xdu1350-sl-71309.
"""

from __future__ import annotations

import math

__all__ = [
    "QUADRATIC_LAW_EXPONENT",
    "pressure_drop_at_flow",
    "required_loop_head",
]

# Exponent of the square law dP ∝ V̇²: Darcy–Weisbach with a constant friction factor, i.e.
# fully turbulent (rough-pipe) flow and fittings/valves with constant loss coefficients. Smooth-pipe
# turbulent flow follows ~1.75 (Blasius), laminar flow 1.0 (Hagen–Poiseuille). Textbook fluid
# mechanics; the same square law underlies the pump affinity laws
# (docs/references.md#pump-affinity).
QUADRATIC_LAW_EXPONENT = 2.0


def _require_positive(value: float, name: str, unit: str) -> None:
    if not (math.isfinite(value) and value > 0.0):
        raise ValueError(f"{name} must be a finite value > 0 {unit}, got {value!r}")


def _require_non_negative(value: float, name: str, unit: str) -> None:
    if not (math.isfinite(value) and value >= 0.0):
        raise ValueError(f"{name} must be a finite value >= 0 {unit}, got {value!r}")


def pressure_drop_at_flow(
    design_pressure_drop: float,
    design_flow: float,
    flow: float,
    exponent: float = QUADRATIC_LAW_EXPONENT,
) -> float:
    r"""Pressure drop of a fixed hydraulic element at a flow other than its design flow.

    Parameters
    ----------
    design_pressure_drop : float
        Pressure drop at the design flow, :math:`\Delta p_d` [Pa] (e.g. a rack's published
        drop). Must be >= 0.
    design_flow : float
        Flow at which :math:`\Delta p_d` was stated, :math:`\dot V_d` [m³/s]. Must be > 0.
    flow : float
        Actual flow through the element, :math:`\dot V` [m³/s]. Must be >= 0.
    exponent : float, default :data:`QUADRATIC_LAW_EXPONENT` (2.0)
        Flow exponent :math:`n` [-]. Must be > 0. 2.0 for fully turbulent flow, ~1.75 for
        smooth-pipe turbulent flow, 1.0 for laminar flow.

    Returns
    -------
    float
        Pressure drop :math:`\Delta p` [Pa].

    Notes
    -----
    .. math:: \Delta p = \Delta p_d \cdot \left( \frac{\dot V}{\dot V_d} \right)^{n}

    The default assumes the turbulent square law: the loss coefficients of the element do not
    change with flow. This is an approximation for screening; a vendor pressure-drop curve for
    the element, at the actual coolant, should be preferred whenever one exists. Valid only for
    the same fluid at a similar temperature as the design point: a more viscous coolant (PG25
    has ~2× the viscosity of water at 35 °C, Melinder 2010) raises the drop at equal flow.

    References
    ----------
    .. [1] White, Fluid Mechanics, ch. 11 (pump affinity: head ∝ speed², flow ∝ speed);
       docs/references.md#pump-affinity.

    Examples
    --------
    A rack with 1.27 bar at its design flow, run at 120 % of that flow:

    >>> round(pressure_drop_at_flow(127e3, 1.0, 1.2))
    182880
    """
    _require_non_negative(design_pressure_drop, "design_pressure_drop", "Pa")
    _require_positive(design_flow, "design_flow", "m³/s")
    _require_non_negative(flow, "flow", "m³/s")
    if not (math.isfinite(exponent) and exponent > 0.0):
        raise ValueError(f"exponent must be a finite value > 0, got {exponent!r}")
    return design_pressure_drop * (flow / design_flow) ** exponent


def required_loop_head(rack_pressure_drop: float, piping_pressure_drop: float) -> float:
    r"""Differential pressure a CDU pump must deliver to a secondary (TCS) loop.

    Parameters
    ----------
    rack_pressure_drop : float
        Pressure drop across the worst (highest-drop) rack branch at its required flow,
        :math:`\Delta p_{rack}` [Pa]. Must be >= 0.
    piping_pressure_drop : float
        Pressure drop of the supply and return piping, manifolds, hoses, quick disconnects and
        filters on the path to that rack, :math:`\Delta p_{pipe}` [Pa]. Must be >= 0.

    Returns
    -------
    float
        Required loop head :math:`\Delta p_{req}` [Pa], to compare with the CDU's available
        external head at the loop flow.

    Notes
    -----
    .. math:: \Delta p_{req} = \Delta p_{rack} + \Delta p_{pipe}

    Racks sit in parallel branches, so the pump has to cover the hydraulically worst branch
    (the highest rack drop plus the piping to and from it) — not the sum over all racks. Pass
    the drop of that branch; using the largest rack drop and the longest run together is a
    conservative stand-in. Both drops must be taken at the same loop flow and coolant.

    References
    ----------
    .. [1] docs/references.md#resistancezero-cdu-checklist (loop differential pressure
       0.5–3.0 bar) and docs/references.md#vertiv-xdu1350-sl-71309 (CDU available head).

    Examples
    --------
    Hall B3 TCS-A: 1.27 bar rack + 0.40 bar piping = 1.67 bar:

    >>> required_loop_head(127e3, 40e3)
    167000.0
    """
    _require_non_negative(rack_pressure_drop, "rack_pressure_drop", "Pa")
    _require_non_negative(piping_pressure_drop, "piping_pressure_drop", "Pa")
    return rack_pressure_drop + piping_pressure_drop
