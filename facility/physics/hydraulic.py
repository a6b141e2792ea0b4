"""Coolant loop hydraulics: pressure drop off the design point and the head a loop needs.

Pure functions on plain floats in canonical SI units: pressure and pressure drop [Pa],
volumetric flow [m³/s]. "Head" is expressed as a pressure [Pa], not as a height of fluid.

References
----------
.. [1] F. M. White, *Fluid Mechanics*, 7th ed., McGraw-Hill, 2011, ch. 11 (pump affinity
   laws). Effect of glycol, loop differential pressure and CDU available head:
   docs/references.md#pump-affinity, docs/references.md#energy-balance,
   docs/references.md#resistancezero-cdu-checklist, docs/references.md#vertiv-xdu1350-sl-71309.
.. [2] Direct-return and reverse-return headers, the furthest branch and balancing:
   docs/references.md#ashrae-ac-design-manual, docs/references.md#siegenthaler-reverse-return;
   rack pressure-drop curves: docs/references.md#lenovo-lp2357 (Table 27).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import pairwise

__all__ = [
    "QUADRATIC_LAW_EXPONENT",
    "branch_required_head",
    "flow_per_heat",
    "head_at_furthest_branch",
    "pressure_drop_at_flow",
    "pressure_drop_from_curve",
    "quick_disconnect_pressure_drop",
    "required_loop_head",
    "unbalanced_flow_deviation",
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


def pressure_drop_from_curve(curve: Sequence[tuple[float, float]], flow: float) -> float:
    r"""Pressure drop of an element at ``flow``, read from its published curve.

    Parameters
    ----------
    curve : sequence of (float, float)
        Points :math:`(\dot V_i, \Delta p_i)` of the curve: flow [m³/s] and pressure drop [Pa],
        at least two, in strictly increasing flow, with drops >= 0.
    flow : float
        Flow through the element, :math:`\dot V` [m³/s]. Must lie within the curve:
        :math:`\dot V_1 \le \dot V \le \dot V_n`.

    Returns
    -------
    float
        Pressure drop :math:`\Delta p` [Pa].

    Raises
    ------
    ValueError
        When ``flow`` lies outside the curve: the curve is not extrapolated (a rack run beyond
        its published points is outside what its vendor measured).

    Notes
    -----
    Linear interpolation between the two points around :math:`\dot V`:

    .. math:: \Delta p = \Delta p_i + (\Delta p_{i+1} - \Delta p_i)
              \frac{\dot V - \dot V_i}{\dot V_{i+1} - \dot V_i}

    A pressure-drop curve is convex (about :math:`\Delta p \propto \dot V^2`), so the chord
    lies on or above it: between points the interpolated drop errs high, on the safe side for
    a head check.

    References
    ----------
    .. [1] Lenovo Press LP2357, Table 27 (GB300 NVL72 rack flow and pressure drop vs supply
       temperature); docs/references.md#lenovo-lp2357.

    Examples
    --------
    Lenovo's GB300 NVL72 rack at 130 L/min, between 119 L/min (8.5 psi) and 177 L/min
    (18.4 psi): 8.5 + 9.9 · 11 / 58 = 10.378 psi:

    >>> psi = 6894.757
    >>> curve = [(119 / 60_000, 8.5 * psi), (177 / 60_000, 18.4 * psi)]
    >>> round(pressure_drop_from_curve(curve, 130 / 60_000) / psi, 3)
    10.378
    """
    if len(curve) < 2:
        raise ValueError("curve needs at least two points")
    for (q1, p1), (q2, _) in pairwise(curve):
        _require_positive(q1, "curve flow", "m³/s")
        _require_non_negative(p1, "curve pressure drop", "Pa")
        if not q2 > q1:
            raise ValueError("curve flows must increase")
    _require_non_negative(curve[-1][1], "curve pressure drop", "Pa")
    _require_non_negative(flow, "flow", "m³/s")
    low, high = curve[0][0], curve[-1][0]
    if not low <= flow <= high:
        raise ValueError(f"flow {flow!r} m³/s is outside the curve ({low!r} to {high!r} m³/s)")
    for (q1, p1), (q2, p2) in pairwise(curve):
        if flow <= q2:
            return p1 + (p2 - p1) * (flow - q1) / (q2 - q1)
    return curve[-1][1]  # pragma: no cover - flow == high returns in the loop


def quick_disconnect_pressure_drop(
    pairs: int, pair_pressure_drop: float, stated_flow: float, flow: float
) -> float:
    r"""Pressure drop of a branch's quick-disconnect couplings at the branch's flow.

    Parameters
    ----------
    pairs : int
        Coupling pairs in series on the branch, :math:`n` [-] (a supply and a return
        coupling make one pair). Must be >= 1.
    pair_pressure_drop : float
        Pressure drop of one pair at ``stated_flow``, :math:`\Delta p_{QD}` [Pa] (the coupling
        maker's figure). Must be >= 0.
    stated_flow : float
        Flow at which :math:`\Delta p_{QD}` is stated, :math:`\dot V_{QD}` [m³/s]. Must be > 0.
    flow : float
        Flow through the branch, :math:`\dot V` [m³/s]. Must be >= 0.

    Returns
    -------
    float
        Pressure drop of the couplings :math:`\Delta p` [Pa].

    Notes
    -----
    .. math:: \Delta p = n \cdot \Delta p_{QD} \cdot (\dot V / \dot V_{QD})^2

    A coupling is a fixed loss coefficient (its valve and bore): the square law of
    :func:`pressure_drop_at_flow`. Pairs in series add.

    Examples
    --------
    Two pairs of 0.10 bar at 100 L/min, run at 130 L/min: 2 · 0.10 · 1.3² = 0.338 bar:

    >>> round(quick_disconnect_pressure_drop(2, 10_000.0, 100 / 60_000, 130 / 60_000))
    33800
    """
    if not (isinstance(pairs, int) and pairs >= 1):
        raise ValueError(f"pairs must be a whole number >= 1, got {pairs!r}")
    return pairs * pressure_drop_at_flow(pair_pressure_drop, stated_flow, flow)


def branch_required_head(
    rack_pressure_drop: float, quick_disconnect_drop: float, branch_pressure_drop: float
) -> float:
    r"""Differential pressure one rack branch needs across it at the rack's flow.

    Parameters
    ----------
    rack_pressure_drop : float
        The rack's own drop at its flow, :math:`\Delta p_{rack}` [Pa]. Must be >= 0.
    quick_disconnect_drop : float
        The branch's quick disconnects at that flow, :math:`\Delta p_{QD}` [Pa]. Must be >= 0.
    branch_pressure_drop : float
        Branch piping, valves and hoses, :math:`\Delta p_{branch}` [Pa]. Must be >= 0.

    Returns
    -------
    float
        :math:`\Delta p_{req} = \Delta p_{rack} + \Delta p_{QD} + \Delta p_{branch}` [Pa]: the
        elements of one branch are in series, so their drops add.

    Examples
    --------
    1.27 bar rack + 0.338 bar couplings + 0.15 bar branch = 1.758 bar:

    >>> branch_required_head(127_000.0, 33_800.0, 15_000.0)
    175800.0
    """
    _require_non_negative(rack_pressure_drop, "rack_pressure_drop", "Pa")
    _require_non_negative(quick_disconnect_drop, "quick_disconnect_drop", "Pa")
    _require_non_negative(branch_pressure_drop, "branch_pressure_drop", "Pa")
    return rack_pressure_drop + quick_disconnect_drop + branch_pressure_drop


def head_at_furthest_branch(available_head: float, header_pressure_drop: float) -> float:
    r"""Differential pressure left across the hydraulically furthest rack branch.

    Parameters
    ----------
    available_head : float
        The CDU's available external head at the loop's flow, :math:`H_{CDU}` [Pa]. Must be
        >= 0.
    header_pressure_drop : float
        Supply + return header drop from the CDU to the furthest branch at the loop's design
        flow, :math:`\Delta p_{header}` [Pa]. Must be >= 0.

    Returns
    -------
    float
        :math:`H_{far} = H_{CDU} - \Delta p_{header}` [Pa]; negative when the headers alone
        take more than the pump delivers.

    Notes
    -----
    Racks hang in parallel between the supply and return headers. In a direct-return loop
    the furthest rack has the longest path, through the whole of both headers; in a
    reverse-return loop every rack's path is the same length, and each sees the same share
    of the header drop — the far rack still has the header drop between it and the pump, so
    the formula is the same and the two arrangements differ in how the other racks' flows
    compare (:func:`unbalanced_flow_deviation`).

    Examples
    --------
    A 2.5 bar CDU with 0.30 bar of header drop to the last rack: 2.2 bar across its branch:

    >>> head_at_furthest_branch(250_000.0, 30_000.0)
    220000.0
    """
    _require_non_negative(available_head, "available_head", "Pa")
    _require_non_negative(header_pressure_drop, "header_pressure_drop", "Pa")
    return available_head - header_pressure_drop


def unbalanced_flow_deviation(branch_pressure_drop: float, header_pressure_drop: float) -> float:
    r"""How much more flow the nearest rack branch takes than the furthest one, with no
    balancing, in a direct-return loop of identical branches.

    Parameters
    ----------
    branch_pressure_drop : float
        Drop across the furthest branch at its design flow (rack + couplings + branch
        piping), :math:`\Delta p_b` [Pa]. Must be > 0.
    header_pressure_drop : float
        Supply + return header drop between the nearest and the furthest branch,
        :math:`\Delta p_h` [Pa]. Must be >= 0.

    Returns
    -------
    float
        :math:`\delta = \dot V_{near} / \dot V_{far} - 1` [-].

    Notes
    -----
    Each branch is a square-law resistance, :math:`\Delta p = R \dot V^2`, with the same
    :math:`R`. The furthest branch gets its design flow across :math:`\Delta p_b`; the
    nearest sits at the pump end of both headers and sees :math:`\Delta p_b + \Delta p_h`:

    .. math:: \frac{\dot V_{near}}{\dot V_{far}}
              = \sqrt{\frac{\Delta p_b + \Delta p_h}{\Delta p_b}},
              \qquad \delta = \sqrt{1 + \Delta p_h / \Delta p_b} - 1

    So the branch drop must dominate the header drop: for :math:`\delta \le 10\ \%`,
    :math:`\Delta p_h \le (1.1^2 - 1)\,\Delta p_b = 0.21\,\Delta p_b`. The header drop of the
    design point is kept while the near branch takes more (a screening bound, not a network
    solution); a reverse-return loop of identical branches has equal paths and
    :math:`\delta \approx 0`, as has a loop whose branches are balanced.

    References
    ----------
    .. [1] ASHRAE, Air-Conditioning System Design Manual, 2nd ed., 2007, ch. 8, p. 195
       (subcircuit resistance against the variation of the distribution drops; direct vs
       reverse return), docs/references.md#ashrae-ac-design-manual; J. Siegenthaler, "When
       and how to use reverse return piping", docs/references.md#siegenthaler-reverse-return.

    Examples
    --------
    0.30 bar of header drop against a 1.50 bar branch: √1.2 − 1 = 9.5 %:

    >>> round(unbalanced_flow_deviation(150_000.0, 30_000.0), 4)
    0.0954
    """
    _require_positive(branch_pressure_drop, "branch_pressure_drop", "Pa")
    _require_non_negative(header_pressure_drop, "header_pressure_drop", "Pa")
    return math.sqrt(1.0 + header_pressure_drop / branch_pressure_drop) - 1.0


def flow_per_heat(flow: float, heat: float) -> float:
    r"""Coolant flow per unit of liquid heat, to compare with a vendor's band.

    Parameters
    ----------
    flow : float
        The rack's design coolant flow, :math:`\dot V` [m³/s]. Must be >= 0.
    heat : float
        The heat the rack puts into the coolant, :math:`Q_{liq}` [W]. Must be > 0.

    Returns
    -------
    float
        :math:`q = \dot V / Q_{liq}` [m³/(s·W)]; 1 L/min per kW is 1.6667e-8 m³/(s·W).

    Notes
    -----
    With the energy balance :math:`\dot V = Q / (\rho c_p \Delta T)`,
    :math:`q = 1 / (\rho c_p \Delta T)`: the band is a band of coolant rise — water at 35 °C
    and a 10 K rise gives 1.44 L/min per kW, PG25 1.50 L/min per kW
    (docs/references.md#energy-balance).

    Examples
    --------
    Lenovo's GB300 NVL72 at 45 °C supply: 177 L/min for 121.5 kW of liquid heat (90 % of
    135 kW) is 177 / 121.5 = 1.457 L/min per kW:

    >>> round(flow_per_heat(177 / 60_000, 121_500.0) * 60_000 * 1_000, 3)
    1.457
    """
    _require_non_negative(flow, "flow", "m³/s")
    _require_positive(heat, "heat", "W")
    return flow / heat
