"""Electrical capacity of rack power circuits: apparent power, derating, feeds and redundancy.

Pure functions on plain floats in canonical SI units: voltage [V], current [A], real power [W],
apparent power [VA], power factor and derating as fractions [0..1]. Three-phase voltages are
**line-to-line** (e.g. 415 V in a 415/240 V system), and three-phase currents are line currents
of a balanced load.

References
----------
.. [1] NFPA 70, National Electrical Code, 2023 ed., Art. 100 ("Continuous Load"),
   210.19(A)(1), 210.20(A) and 215.3.
.. [2] Schneider Electric, "Conductor Ampacity Tables", NEC information of note (data bulletin).
.. [3] IEEE Std 1459-2010, Definitions for the Measurement of Electric Power Quantities
   Under Sinusoidal, Nonsinusoidal, Balanced, or Unbalanced Conditions (S = √3·V_LL·I,
   P = S·PF). The longer notes, PDU capacities and the meaning of 2N and N+1:
   docs/references.md#ieee-1459, docs/references.md#nec-210-20a,
   docs/references.md#project-electrical-defaults, docs/references.md#redundancy-2n.
.. [4] NEMA MG 1-2016, Motors and Generators, 14.36 (unbalance: maximum deviation from the
   average over the average); the same definition as ANSI C84.1-2020 Annex D
   (docs/references.md#nema-mg-1-unbalance).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

__all__ = [
    "NEC_CONTINUOUS_LOAD_DERATING",
    "SQRT_THREE",
    "apparent_power",
    "circuit_apparent_power",
    "continuous_capacity",
    "line_current",
    "line_currents",
    "load_per_feed",
    "neutral_current",
    "phase_imbalance",
    "phase_spread",
    "real_power",
    "shelf_capacity_after_redundancy",
    "single_phase_apparent_power",
    "surviving_capacity",
    "three_phase_apparent_power",
]

# √3: ratio of line-to-line to line-to-neutral voltage in a balanced three-phase system
# (phasor geometry, 120° displacement). Any textbook; IEEE Std 1459-2010.
SQRT_THREE = math.sqrt(3.0)

# NEC 210.20(A) / 215.3: the overcurrent device must be rated >= 125 % of the continuous load,
# i.e. a standard (non-100 %-rated) breaker may carry at most 1 / 1.25 = 0.8 of its rating
# continuously. NFPA 70 (2023), via the Schneider Electric NEC data bulletin
# (docs/references.md#nec-210-20a).
NEC_CONTINUOUS_LOAD_DERATING = 1.0 / 1.25

_VALID_PHASES = (1, 3)

# Phase angles of the line-to-neutral voltages of a three-phase system in the sequence
# L1, L2, L3 (positive sequence, 120° apart), and of the line-to-line voltages V_12, V_23, V_31
# (each leads its first line's voltage by 30°). Phasor geometry; IEEE Std 1459-2010.
LINE_TO_NEUTRAL_ANGLES = (0.0, -120.0, 120.0)  # [°] V_1N, V_2N, V_3N
LINE_TO_LINE_ANGLES = (30.0, -90.0, 150.0)  # [°] V_12, V_23, V_31


def _require_positive(value: float, name: str, unit: str) -> None:
    if not (math.isfinite(value) and value > 0.0):
        raise ValueError(f"{name} must be a finite value > 0 {unit}, got {value!r}")


def _require_non_negative(value: float, name: str, unit: str = "") -> None:
    if not (math.isfinite(value) and value >= 0.0):
        bound = f"0 {unit}" if unit else "0"
        raise ValueError(f"{name} must be a finite value >= {bound}, got {value!r}")


def _require_fraction(value: float, name: str, *, allow_zero: bool) -> None:
    lower_ok = value >= 0.0 if allow_zero else value > 0.0
    if not (math.isfinite(value) and lower_ok and value <= 1.0):
        interval = "[0, 1]" if allow_zero else "(0, 1]"
        raise ValueError(f"{name} must be a fraction in {interval}, got {value!r}")


def _require_phases(phases: int) -> None:
    if isinstance(phases, bool) or phases not in _VALID_PHASES:
        raise ValueError(f"phases must be 1 or 3, got {phases!r}")


def _require_count(value: int, name: str, minimum: int) -> None:
    whole = (
        isinstance(value, int | float) and not isinstance(value, bool) and float(value).is_integer()
    )
    if not whole or value < minimum:
        raise ValueError(f"{name} must be a whole number >= {minimum}, got {value!r}")


def single_phase_apparent_power(voltage: float, current: float) -> float:
    r"""Apparent power of a single-phase circuit.

    Parameters
    ----------
    voltage : float
        RMS voltage across the load (line-to-neutral or line-to-line, whichever the circuit is
        connected to) [V]. Must be > 0.
    current : float
        RMS current in the circuit [A]. Must be >= 0.

    Returns
    -------
    float
        Apparent power :math:`S` [VA].

    Notes
    -----
    .. math:: S = V \cdot I

    where :math:`V` is ``voltage`` and :math:`I` is ``current``. Sinusoidal RMS quantities;
    valid for any power factor because apparent power does not depend on it.

    References
    ----------
    .. [1] IEEE Std 1459-2010 definitions (textbook formula; docs/references.md#ieee-1459).

    Examples
    --------
    A 1φ 230 V 16 A rack PDU, nameplate 3.68 kVA:

    >>> single_phase_apparent_power(230.0, 16.0)
    3680.0
    """
    _require_positive(voltage, "voltage", "V")
    _require_non_negative(current, "current", "A")
    return voltage * current


def three_phase_apparent_power(line_to_line_voltage: float, current: float) -> float:
    r"""Apparent power of a balanced three-phase circuit, line-to-line voltage convention.

    Parameters
    ----------
    line_to_line_voltage : float
        RMS voltage between two phase conductors, :math:`V_{LL}` [V] (e.g. 415 V in a
        415/240 V system, 400 V in a 400/230 V system). Must be > 0.
    current : float
        RMS line current per phase, :math:`I` [A] (for a circuit rating: the breaker rating).
        Must be >= 0.

    Returns
    -------
    float
        Apparent power :math:`S` [VA].

    Notes
    -----
    .. math:: S = \sqrt{3} \cdot V_{LL} \cdot I

    equivalent to :math:`S = 3 \cdot V_{LN} \cdot I` with :math:`V_{LN} = V_{LL} / \sqrt{3}`.

    Assumes a balanced load (equal current in the three phases). For an unbalanced load the
    most-loaded phase limits the circuit; use :math:`3 \cdot V_{LN} \cdot I_{max}` instead
    (IEEE Std 1459-2010). Do not pass a line-to-neutral voltage here.

    References
    ----------
    .. [1] IEEE Std 1459-2010 definitions (textbook formula; docs/references.md#ieee-1459).

    Examples
    --------
    A 3φ 415 V 63 A rack PDU, nameplate 45.3 kVA:

    >>> round(three_phase_apparent_power(415.0, 63.0))
    45284
    """
    _require_positive(line_to_line_voltage, "line_to_line_voltage", "V")
    _require_non_negative(current, "current", "A")
    return SQRT_THREE * line_to_line_voltage * current


def circuit_apparent_power(voltage: float, current: float, phases: int) -> float:
    r"""Apparent power of a single- or three-phase circuit.

    Parameters
    ----------
    voltage : float
        RMS circuit voltage [V]: the voltage across the load for one phase, the line-to-line
        voltage for three phases. Must be > 0.
    current : float
        RMS (line) current [A]. Must be >= 0.
    phases : int
        Number of phases, 1 or 3.

    Returns
    -------
    float
        Apparent power :math:`S` [VA].

    Raises
    ------
    ValueError
        If ``phases`` is neither 1 nor 3 (two-phase and split-phase circuits are not modelled).

    Notes
    -----
    .. math::

        S = \begin{cases} V \cdot I & \text{one phase} \\
                          \sqrt{3} \cdot V_{LL} \cdot I & \text{three phases} \end{cases}

    See :func:`single_phase_apparent_power` and :func:`three_phase_apparent_power` for the
    assumptions of each branch.

    References
    ----------
    .. [1] IEEE Std 1459-2010 definitions (textbook formula; docs/references.md#ieee-1459).
    """
    _require_phases(phases)
    if phases == 1:
        return single_phase_apparent_power(voltage, current)
    return three_phase_apparent_power(voltage, current)


def apparent_power(real_power: float, power_factor: float) -> float:
    r"""Apparent power drawn by a load of known real power and power factor.

    Parameters
    ----------
    real_power : float
        Real (active) power of the load, :math:`P` [W]. Must be >= 0.
    power_factor : float
        Power factor of the load, :math:`PF` [0..1], in (0, 1].

    Returns
    -------
    float
        Apparent power :math:`S` [VA].

    Notes
    -----
    .. math:: S = P / PF

    :math:`PF` is the true power factor (displacement and distortion). Modern GPU power
    supplies reach PF >= 0.95; 0.95 is the project's conservative default
    (docs/references.md#project-electrical-defaults). When
    :math:`P` is a DC/IT output, divide by the PSU efficiency first.

    References
    ----------
    .. [1] IEEE Std 1459-2010 definitions (textbook formula; docs/references.md#ieee-1459).

    Examples
    --------
    Hall B3, a GB300-class rack at its 155 kW peak with PF 0.95:

    >>> round(apparent_power(155e3, 0.95))
    163158
    """
    _require_non_negative(real_power, "real_power", "W")
    _require_fraction(power_factor, "power_factor", allow_zero=False)
    return real_power / power_factor


def real_power(apparent_power: float, power_factor: float) -> float:
    r"""Real power of a load of known apparent power and power factor.

    Parameters
    ----------
    apparent_power : float
        Apparent power, :math:`S` [VA]. Must be >= 0.
    power_factor : float
        Power factor, :math:`PF` [0..1], in [0, 1].

    Returns
    -------
    float
        Real (active) power :math:`P` [W].

    Notes
    -----
    .. math:: P = S \cdot PF

    References
    ----------
    .. [1] IEEE Std 1459-2010 definitions (textbook formula; docs/references.md#ieee-1459).
    """
    _require_non_negative(apparent_power, "apparent_power", "VA")
    _require_fraction(power_factor, "power_factor", allow_zero=True)
    return apparent_power * power_factor


def continuous_capacity(rated_apparent_power: float, derating: float) -> float:
    r"""Apparent power a circuit may carry continuously (the "80 % rule").

    Parameters
    ----------
    rated_apparent_power : float
        Nameplate apparent power of the circuit at its breaker rating, :math:`S_{rated}` [VA]
        (e.g. from :func:`circuit_apparent_power`). Must be >= 0.
    derating : float
        Continuous-load factor :math:`k` [0..1], in (0, 1]. Use
        :data:`NEC_CONTINUOUS_LOAD_DERATING` (0.8) for standard breakers under NEC 210.20(A).
        Use 1.0 **only** for an assembly (breaker and enclosure) listed for 100 % continuous
        operation; outside NEC regions take the site's planning limit (often 0.8–0.9).

    Returns
    -------
    float
        Continuous capacity :math:`S_{cont}` [VA].

    Notes
    -----
    .. math:: S_{cont} = k \cdot S_{rated}

    NEC 210.20(A) requires the overcurrent device rating to be >= 125 % of the continuous load,
    hence :math:`k = 1/1.25 = 0.8`; 215.3 applies the same to feeders. A load is continuous if
    its maximum current lasts 3 h or more (NEC Art. 100); AI training load is continuous.

    References
    ----------
    .. [1] NFPA 70, National Electrical Code, 2023 ed., 210.20(A), 215.3, Art. 100.
    .. [2] docs/references.md#nec-210-20a (the 80 % rule and how the project applies it).

    Examples
    --------
    A 3φ 415 V 63 A PDU (45.3 kVA nameplate) carries 36.2 kVA continuously:

    >>> round(continuous_capacity(45_284.0, 0.8))
    36227
    """
    _require_non_negative(rated_apparent_power, "rated_apparent_power", "VA")
    _require_fraction(derating, "derating", allow_zero=False)
    return derating * rated_apparent_power


def line_current(apparent_power: float, voltage: float, phases: int) -> float:
    r"""Line current drawn by a load of known apparent power.

    Parameters
    ----------
    apparent_power : float
        Apparent power of the load, :math:`S` [VA]. Must be >= 0.
    voltage : float
        RMS voltage [V]: across the load for one phase, line-to-line for three phases.
        Must be > 0.
    phases : int
        Number of phases, 1 or 3.

    Returns
    -------
    float
        RMS line current :math:`I` [A].

    Raises
    ------
    ValueError
        If ``phases`` is neither 1 nor 3.

    Notes
    -----
    .. math::

        I = \begin{cases} S / V & \text{one phase} \\
                          S / (\sqrt{3} \cdot V_{LL}) & \text{three phases} \end{cases}

    Three-phase: balanced load assumed; an unbalanced load puts more current on its heaviest
    phase (IEEE Std 1459-2010, unbalanced conditions).

    References
    ----------
    .. [1] IEEE Std 1459-2010 definitions (textbook formula; docs/references.md#ieee-1459).
    """
    _require_non_negative(apparent_power, "apparent_power", "VA")
    _require_positive(voltage, "voltage", "V")
    _require_phases(phases)
    if phases == 1:
        return apparent_power / voltage
    return apparent_power / (SQRT_THREE * voltage)


def load_per_feed(apparent_power: float, feeds_in_service: int) -> float:
    r"""Share of a load carried by each feed (or PDU) still in service.

    Parameters
    ----------
    apparent_power : float
        Total apparent power of the load, :math:`S` [VA]. Must be >= 0.
    feeds_in_service : int
        Number of feeds (or rack PDUs, power shelves) still energised and sharing the load,
        :math:`n` [-]. Must be a whole number >= 1.

    Returns
    -------
    float
        Apparent power per feed :math:`S_{feed}` [VA].

    Raises
    ------
    ValueError
        If ``feeds_in_service`` is 0 (no feed left: the load is lost, not shared) or not a
        whole number.

    Notes
    -----
    .. math:: S_{feed} = S / n

    Assumes an even split across the feeds in service, as rack power shelves drawing from
    all feeds do. An uneven split (outlet banks, a single-corded device) loads one feed more;
    check the heaviest feed from its own load instead. For a 2N check, pass the number of feeds
    left **after** the failure (e.g. the 4 PDUs of the surviving side).

    References
    ----------
    .. [1] Uptime Institute, Tier Standard: Topology; 2N as the project judges it:
       docs/references.md#redundancy-2n.

    Examples
    --------
    Hall B3: a 163.2 kVA rack on the 4 PDUs of one surviving side:

    >>> load_per_feed(163_200.0, 4)
    40800.0
    """
    _require_non_negative(apparent_power, "apparent_power", "VA")
    _require_count(feeds_in_service, "feeds_in_service", minimum=1)
    return apparent_power / feeds_in_service


def surviving_capacity(unit_capacities: Iterable[float], failed_units: int = 1) -> float:
    r"""Capacity left after the largest units of a redundant group fail (N+k check).

    Parameters
    ----------
    unit_capacities : iterable of float
        Capacity of each unit in the group (CDUs, CRAHs, feeds, pumps) in one consistent unit
        ([W], [VA], [m³/s], ...). Each must be >= 0. The result has the same unit.
    failed_units : int, default 1
        Number of units assumed failed, :math:`k` [-]; whole number >= 0. 1 gives the N+1 check.

    Returns
    -------
    float
        Surviving capacity :math:`C_{surv}`, same unit as ``unit_capacities``. 0 if ``k`` is
        at least the number of units.

    Notes
    -----
    .. math:: C_{surv} = \sum_i C_i - \sum_{j=1}^{k} C_{(j)}

    where :math:`C_i` are the unit capacities and :math:`C_{(1)} \ge C_{(2)} \ge \dots` the same
    capacities sorted in decreasing order. Removing the largest units is the worst case, so
    the check "surviving capacity >= load" judges redundancy after the failure, whatever the
    nameplate count says (a single unit has no redundancy: its surviving capacity is 0).

    Computed as the sum of the smallest :math:`n - k` units, without subtraction round-off.

    References
    ----------
    .. [1] N+1: "capacity with the largest unit removed >= load"
       (docs/references.md#redundancy-2n).

    Examples
    --------
    Hall B3: three 100 kW CRAHs, one out:

    >>> surviving_capacity([100e3, 100e3, 100e3])
    200000.0
    """
    capacities = [float(capacity) for capacity in unit_capacities]
    for index, capacity in enumerate(capacities):
        _require_non_negative(capacity, f"unit_capacities[{index}]")
    _require_count(failed_units, "failed_units", minimum=0)
    survivors = len(capacities) - int(failed_units)
    if survivors <= 0:
        return 0.0
    return math.fsum(sorted(capacities)[:survivors])


def _phasor(magnitude: float, degrees: float) -> complex:
    return complex(
        magnitude * math.cos(math.radians(degrees)), magnitude * math.sin(math.radians(degrees))
    )


def _require_three(values: Iterable[float], name: str) -> tuple[float, float, float]:
    found = tuple(float(v) for v in values)
    if len(found) != 3:
        raise ValueError(f"{name} needs three currents (L1, L2, L3), got {len(found)}")
    for index, value in enumerate(found):
        _require_non_negative(value, f"{name}[{index}]", "A")
    return found  # type: ignore[return-value]


def line_currents(
    line_to_neutral: Iterable[float], line_to_line: Iterable[float] = (0.0, 0.0, 0.0)
) -> tuple[float, float, float]:
    r"""Line currents of a three-phase supply feeding single-phase loads (outlet banks, PDUs).

    Parameters
    ----------
    line_to_neutral : three floats
        RMS currents of the loads connected line-to-neutral on L1, L2 and L3,
        :math:`I_{1N}, I_{2N}, I_{3N}` [A]; each >= 0.
    line_to_line : three floats, default none
        RMS currents of the loads connected line-to-line across L1-L2, L2-L3 and L3-L1,
        :math:`I_{12}, I_{23}, I_{31}` [A]; each >= 0.

    Returns
    -------
    tuple of three floats
        RMS line currents :math:`I_1, I_2, I_3` [A].

    Notes
    -----
    Each load current is in phase with the voltage it is connected to (every load has the same
    power factor, so a common angle drops out of the magnitudes):

    .. math::

        \underline{I}_1 = I_{1N}\angle 0° + I_{12}\angle 30° - I_{31}\angle 150° \\
        \underline{I}_2 = I_{2N}\angle{-120°} + I_{23}\angle{-90°} - I_{12}\angle 30° \\
        \underline{I}_3 = I_{3N}\angle 120° + I_{31}\angle 150° - I_{23}\angle{-90°}

    with the angles of :data:`LINE_TO_NEUTRAL_ANGLES` and :data:`LINE_TO_LINE_ANGLES`; a
    line-to-line load draws its current out of its first line and back through its second.
    Balanced delta loads give :math:`I = \sqrt{3} \cdot I_{12}`. Loads of different power
    factor (a UPS-fed PSU beside a fan) shift their phasors and are outside this model.

    References
    ----------
    .. [1] IEEE Std 1459-2010 (phasor definitions; docs/references.md#ieee-1459).

    Examples
    --------
    Three equal 10 A banks across L1-L2, L2-L3, L3-L1: √3 · 10 = 17.32 A in each line:

    >>> [round(i, 2) for i in line_currents((0.0, 0.0, 0.0), (10.0, 10.0, 10.0))]
    [17.32, 17.32, 17.32]
    """
    i1n, i2n, i3n = _require_three(line_to_neutral, "line_to_neutral")
    i12, i23, i31 = _require_three(line_to_line, "line_to_line")
    n1, n2, n3 = LINE_TO_NEUTRAL_ANGLES
    a12, a23, a31 = LINE_TO_LINE_ANGLES
    l12, l23, l31 = _phasor(i12, a12), _phasor(i23, a23), _phasor(i31, a31)
    return (
        abs(_phasor(i1n, n1) + l12 - l31),
        abs(_phasor(i2n, n2) + l23 - l12),
        abs(_phasor(i3n, n3) + l31 - l23),
    )


def neutral_current(current_l1: float, current_l2: float, current_l3: float) -> float:
    r"""Neutral current of line-to-neutral loads on a three-phase, four-wire supply.

    Parameters
    ----------
    current_l1, current_l2, current_l3 : float
        RMS currents of the loads connected between each line and neutral,
        :math:`I_a, I_b, I_c` [A]; each >= 0.

    Returns
    -------
    float
        RMS neutral current :math:`I_N` [A].

    Notes
    -----
    .. math::

        I_N = \left| I_a + I_b\,a^2 + I_c\,a \right|
            = \sqrt{I_a^2 + I_b^2 + I_c^2 - I_a I_b - I_b I_c - I_c I_a}

    with :math:`a = 1\angle 120°`: the phasor sum of the three currents, each in phase with its
    line-to-neutral voltage (loads of equal power factor). Balanced loads give 0. Fundamental
    frequency only: the triplen harmonics of switch-mode power supplies add in the neutral and
    can make it carry more than a phase; this function does not include them. Line-to-line
    loads draw no neutral current.

    References
    ----------
    .. [1] IEEE Std 1459-2010 (phasor definitions; docs/references.md#ieee-1459).

    Examples
    --------
    100 A, 80 A and 60 A on the three phases:
    √(100² + 80² + 60² − 100·80 − 80·60 − 60·100) = √1200 = 34.6 A.

    >>> round(neutral_current(100.0, 80.0, 60.0), 1)
    34.6
    """
    a, b, c = _require_three((current_l1, current_l2, current_l3), "currents")
    n1, n2, n3 = LINE_TO_NEUTRAL_ANGLES
    return abs(_phasor(a, n1) + _phasor(b, n2) + _phasor(c, n3))


def phase_imbalance(currents: Iterable[float]) -> float:
    r"""Phase imbalance of three line currents: largest deviation from the average, over it.

    Parameters
    ----------
    currents : three floats
        RMS line currents :math:`I_1, I_2, I_3` [A]; each >= 0.

    Returns
    -------
    float
        Imbalance :math:`u` [fraction] (0.1 = 10 %). 0 when no current flows.

    Notes
    -----
    .. math:: u = \max_i |I_i - \bar I| / \bar I, \quad \bar I = (I_1 + I_2 + I_3) / 3

    The NEMA MG 1 definition of unbalance (14.36; the same as ANSI C84.1 Annex D, written for
    voltages), applied to the line currents. IEC standards (IEC 61000-2-12, IEC 60034-26)
    use the negative-sequence ratio instead; the two differ, so state which one a limit
    means. A single loaded line gives 2.0 (200 %).

    References
    ----------
    .. [1] NEMA MG 1-2016, 14.36; ANSI C84.1-2020 Annex D
       (docs/references.md#nema-mg-1-unbalance).

    Examples
    --------
    NEMA MG 1's own example, applied to numbers alone: 460, 467, 450 → average 459,
    largest deviation 9, 9 / 459 = 1.96 %:

    >>> round(100 * phase_imbalance((460.0, 467.0, 450.0)), 2)
    1.96
    """
    average, deviation = phase_spread(currents)
    if average == 0.0:
        return 0.0
    return deviation / average


def phase_spread(currents: Iterable[float]) -> tuple[float, float]:
    r"""Average of three line currents and the largest deviation of one from it.

    Parameters
    ----------
    currents : three floats
        RMS line currents :math:`I_1, I_2, I_3` [A]; each >= 0.

    Returns
    -------
    tuple of two floats
        :math:`\bar I = (I_1 + I_2 + I_3) / 3` [A] and :math:`\max_i |I_i - \bar I|` [A]:
        the two terms of :func:`phase_imbalance`. A limit on the imbalance,
        :math:`u \le k`, is the same as :math:`\max_i |I_i - \bar I| \le k \cdot \bar I`
        (and holds at no current).

    References
    ----------
    .. [1] NEMA MG 1-2016, 14.36 (docs/references.md#nema-mg-1-unbalance).

    Examples
    --------
    >>> phase_spread((30.0, 20.0, 10.0))
    (20.0, 10.0)
    """
    values = _require_three(currents, "currents")
    average = math.fsum(values) / 3.0
    return average, max(abs(v - average) for v in values)


def shelf_capacity_after_redundancy(shelves: int, redundant: int, shelf_rating: float) -> float:
    r"""Power a rack's power shelves deliver with their redundant shelves out.

    Parameters
    ----------
    shelves : int
        Power shelves installed in the rack, :math:`n` [-]; whole number >= 1.
    redundant : int
        Shelves that are redundancy (the N of N+N, the 1 of N+1), :math:`r` [-]; whole
        number with :math:`0 \le r < n`.
    shelf_rating : float
        Rated output of one shelf, :math:`P_{shelf}` [W]; >= 0.

    Returns
    -------
    float
        Capacity :math:`P_{red}` [W].

    Notes
    -----
    .. math:: P_{red} = (n - r) \cdot P_{shelf}

    The rack must run on :math:`n - r` shelves when a feed (N+N: the shelves on the lost side)
    or a shelf (N+1) is lost. A shelf rating is its DC output; comparing it with the rack's
    AC input power is conservative by the rectifier efficiency (about 97 %).

    References
    ----------
    .. [1] NVIDIA, NVL72 enterprise reference architecture, "Components"
       (docs/references.md#nvidia-nvl72-enterprise-ra).

    Examples
    --------
    A GB300 NVL72 rack: 8 shelves of 33 kW in N+N: (8 − 4) · 33 kW = 132 kW.

    >>> shelf_capacity_after_redundancy(8, 4, 33e3)
    132000.0
    """
    _require_count(shelves, "shelves", minimum=1)
    _require_count(redundant, "redundant", minimum=0)
    if redundant >= shelves:
        raise ValueError(f"redundant must be below shelves ({shelves}), got {redundant!r}")
    _require_non_negative(shelf_rating, "shelf_rating", "W")
    return (int(shelves) - int(redundant)) * shelf_rating
