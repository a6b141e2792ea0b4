"""The CDU's heat exchanger by the ε-NTU method: its capacity at the site's flows and approach.

Pure functions on plain floats: heat in [W], heat capacity rates C = ρ · cp · V̇ in [W/K],
temperature differences in [K].

A CDU is rated at one point: capacity Q_r at an approach ATD_r (TCS supply − facility water
supply) with a primary flow and a secondary flow. Taken as a counterflow exchanger (a plate
heat exchanger is close to one), the rating fixes its conductance UA; at the site's flows the
same exchanger has an effectiveness ε, and the supply it holds follows from the energy
balance. With the TCS return T_ret = T_sup + Q / C_s and q = ε · C_min · (T_ret − T_FWS):

    T_sup − T_FWS = Q · (1 / (ε · C_min) − 1 / C_s)

so the heat it carries at an approach ATD is ATD / (1 / (ε · C_min) − 1 / C_s): linear in the
approach, as the project's approach scaling takes it, and falling with the primary flow.

References
----------
.. [1] F. P. Incropera, D. P. DeWitt, T. L. Bergman, A. S. Lavine, *Fundamentals of Heat and
   Mass Transfer*, 7th ed., Wiley, 2011, §11.4: q = ε · C_min · (T_h,i − T_c,i) (eq. 11.22),
   counterflow ε(NTU, Cr) (Table 11.3, eq. 11.29a) and NTU(ε, Cr) (Table 11.4, eq. 11.29b).
.. [2] The same, §8.5 (Dittus–Boelter, Nu ∝ Re^0.8): a film coefficient falls with the flow
   as V̇^0.8; docs/references.md#epsilon-ntu.
"""

from __future__ import annotations

import math

__all__ = [
    "FILM_EXPONENT",
    "capacity_at_flows",
    "counterflow_effectiveness",
    "counterflow_ntu",
]

# Exponent of the film coefficient on the flow (Dittus–Boelter, turbulent, Nu ∝ Re^0.8). Plate
# heat exchangers run lower (≈ 0.6–0.7), so 0.8 over-states the loss of conductance at a
# reduced flow: the conservative side.
FILM_EXPONENT = 0.8


def _require_positive(value: float, name: str) -> None:
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"{name} must be a finite value > 0, got {value!r}")


def counterflow_effectiveness(ntu: float, capacity_ratio: float) -> float:
    r"""Effectiveness of a counterflow exchanger.

    .. math::

        \varepsilon = \frac{1 - e^{-NTU (1 - C_r)}}{1 - C_r e^{-NTU (1 - C_r)}}
        \quad (C_r < 1), \qquad \varepsilon = \frac{NTU}{1 + NTU} \quad (C_r = 1)

    ``capacity_ratio`` is C_min / C_max, in (0, 1]; ``ntu`` is UA / C_min, > 0.

    >>> round(counterflow_effectiveness(0.8, 0.5), 4)  # (1 − e^−0.4) / (1 − 0.5 e^−0.4)
    0.4959
    """
    _require_positive(ntu, "ntu")
    _require_positive(capacity_ratio, "capacity_ratio")
    if capacity_ratio > 1:
        raise ValueError(f"capacity_ratio must be ≤ 1, got {capacity_ratio!r}")
    if math.isclose(capacity_ratio, 1.0, rel_tol=1e-12):
        return ntu / (1 + ntu)
    # 1 − e^(−x) as −expm1(−x): exact for the small NTU of a weak exchanger
    gained = -math.expm1(-ntu * (1 - capacity_ratio))
    return gained / ((1 - capacity_ratio) + capacity_ratio * gained)


def counterflow_ntu(effectiveness: float, capacity_ratio: float) -> float:
    r"""NTU of a counterflow exchanger of effectiveness ``effectiveness`` (the inverse).

    .. math::

        NTU = \frac{1}{C_r - 1} \ln\frac{\varepsilon - 1}{\varepsilon C_r - 1} \quad (C_r < 1),
        \qquad NTU = \frac{\varepsilon}{1 - \varepsilon} \quad (C_r = 1)

    ``effectiveness`` must be in (0, 1): a rating at ε ≥ 1 is not a real exchanger.
    """
    _require_positive(capacity_ratio, "capacity_ratio")
    if not (0 < effectiveness < 1):
        raise ValueError(f"effectiveness must be in (0, 1), got {effectiveness!r}")
    if capacity_ratio > 1:
        raise ValueError(f"capacity_ratio must be ≤ 1, got {capacity_ratio!r}")
    if math.isclose(capacity_ratio, 1.0, rel_tol=1e-12):
        return effectiveness / (1 - effectiveness)
    return math.log((effectiveness - 1) / (effectiveness * capacity_ratio - 1)) / (
        capacity_ratio - 1
    )


def rated_effectiveness(
    rated_capacity: float, rated_approach: float, primary_rate: float, secondary_rate: float
) -> float:
    """ε at the rating point: Q_r / (C_min · (ATD_r + Q_r / C_s)), the TCS return being the
    hot inlet and the facility water supply the cold one."""
    for value, name in (
        (rated_capacity, "rated_capacity"),
        (rated_approach, "rated_approach"),
        (primary_rate, "primary_rate"),
        (secondary_rate, "secondary_rate"),
    ):
        _require_positive(value, name)
    c_min = min(primary_rate, secondary_rate)
    return rated_capacity / (c_min * (rated_approach + rated_capacity / secondary_rate))


def capacity_at_flows(
    rated_capacity: float,
    rated_approach: float,
    rated_primary_rate: float,
    rated_secondary_rate: float,
    approach: float,
    primary_rate: float,
    secondary_rate: float,
) -> float:
    r"""Heat [W] the CDU carries at the site's approach and flows, never above its rating.

    Parameters
    ----------
    rated_capacity, rated_approach
        Q_r [W] at ATD_r [K], the rating point.
    rated_primary_rate, rated_secondary_rate
        C = ρ · cp · V̇ [W/K] of the facility water and the TCS coolant at the rating.
    approach
        ATD [K] the site allows (TCS supply target − facility water supply); ≤ 0 gives 0.
    primary_rate, secondary_rate
        C [W/K] at the site: the primary flow available, the CDU's share of its loop's flow.

    Notes
    -----
    UA_r = NTU(ε_r, Cr_r) · C_min,r from the rating. At the site UA = UA_r · min(1, r)^0.8 with
    r the smaller of the two flow ratios (site / rated): the film coefficient of the side
    whose flow fell drops as V̇^0.8 and, taken as the whole resistance, bounds UA from below;
    no credit is taken for a flow above the rating. Then ε = ε(UA / C_min, Cr) and

    .. math::

        Q = \min\left(Q_r,\ \frac{ATD}{1 / (\varepsilon C_{min}) - 1 / C_s}\right)

    At the rated flows this is Q_r · ATD / ATD_r, the project's approach scaling.
    """
    for value, name in ((primary_rate, "primary_rate"), (secondary_rate, "secondary_rate")):
        _require_positive(value, name)
    if not math.isfinite(approach):
        raise ValueError(f"approach must be finite, got {approach!r}")
    if approach <= 0:
        return 0.0
    eps_r = rated_effectiveness(rated_capacity, rated_approach, rated_primary_rate,
                                rated_secondary_rate)  # fmt: skip
    c_min_r = min(rated_primary_rate, rated_secondary_rate)
    ratio_r = c_min_r / max(rated_primary_rate, rated_secondary_rate)
    ua = counterflow_ntu(eps_r, ratio_r) * c_min_r
    flow_ratio = min(1.0, primary_rate / rated_primary_rate, secondary_rate / rated_secondary_rate)
    ua *= flow_ratio**FILM_EXPONENT
    c_min, c_max = min(primary_rate, secondary_rate), max(primary_rate, secondary_rate)
    eps = counterflow_effectiveness(ua / c_min, c_min / c_max)
    if not eps > 0:  # figures so far apart that the effectiveness underflows
        raise ValueError(f"no effectiveness at NTU {ua / c_min!r}")
    per_watt = 1 / (eps * c_min) - 1 / secondary_rate  # K of approach per W carried (> 0)
    return min(rated_capacity, approach / per_watt)
