"""Lookup in vendor data tables: piecewise-linear interpolation, never extrapolation.

Vendor data sheets give curves as a handful of points (flow against supply temperature,
pressure drop against flow, capacity against approach temperature). Between two published
points the checker interpolates linearly; outside the published range it refuses, because the
vendor has made no statement there and a straight-line guess can be badly wrong (the Lenovo
GB300 flow table rises from 119 to 177 L/min over its last 5 K, Lenovo LP2357 Table 27;
docs/references.md#lenovo-lp2357).

Pure functions on plain floats; units are whatever the caller's table uses.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Sequence
from itertools import pairwise

__all__ = ["OutsideTableError", "interpolate_linear"]


class OutsideTableError(ValueError):
    """A lookup asked for a point outside the tabulated range (tables are not extrapolated)."""


def interpolate_linear(x: float, xs: Sequence[float], ys: Sequence[float]) -> float:
    r"""Value of a piecewise-linear curve through tabulated points, inside the table only.

    Parameters
    ----------
    x : float
        Abscissa at which to evaluate the curve [unit of ``xs``]. Must lie in
        ``[xs[0], xs[-1]]``. A single scalar (not an array).
    xs : sequence of float
        Tabulated abscissae [any unit], strictly increasing, at least two points, all finite.
    ys : sequence of float
        Tabulated ordinates [any unit], one per abscissa, all finite.

    Returns
    -------
    float
        Interpolated ordinate :math:`y` [unit of ``ys``]. At a tabulated point the tabulated
        value is returned exactly.

    Raises
    ------
    OutsideTableError
        A ``ValueError``: ``x`` is outside ``[xs[0], xs[-1]]`` (or NaN). There is no
        extrapolation.
    ValueError
        If ``xs`` and ``ys`` differ in length, hold fewer than two points, contain a non-finite
        value, or ``xs`` is not strictly increasing.

    Notes
    -----
    With :math:`x_k \le x \le x_{k+1}` the bracketing table points,

    .. math::

        t = \frac{x - x_k}{x_{k+1} - x_k}, \qquad y = (1 - t)\,y_k + t\,y_{k+1}

    where :math:`x_k, y_k` are ``xs[k], ys[k]`` and :math:`t \in [0, 1]` is the position of
    :math:`x` within the interval. The weighted form returns :math:`y_k` and :math:`y_{k+1}`
    exactly at the interval ends.

    Assumes the curve is straight between published points; the error of that assumption
    grows with the table spacing and the curvature of the real characteristic.

    References
    ----------
    .. [1] W. H. Press, S. A. Teukolsky, W. T. Vetterling, B. P. Flannery, *Numerical Recipes:
       The Art of Scientific Computing*, 3rd ed., Cambridge University Press, 2007, §3.1
       (searching an ordered table; linear interpolation).

    Examples
    --------
    Lenovo GB300 NVL72 rack flow against supply temperature (LP2357 Table 27): 89 L/min at
    35 °C and 119 L/min at 40 °C, so at 37.5 °C the flow is (89 + 119) / 2 = 104 L/min.

    >>> interpolate_linear(37.5, [25.0, 30.0, 35.0, 40.0, 45.0], [59.0, 71.0, 89.0, 119.0, 177.0])
    104.0
    """
    _require_table(xs, ys)
    low, high = xs[0], xs[-1]
    if not low <= x <= high:
        raise OutsideTableError(
            f"x = {x!r} is outside the table range [{low!r}, {high!r}]; "
            "the table is not extrapolated"
        )
    # Index of the interval's upper point; x == xs[-1] falls into the last interval.
    upper = min(bisect.bisect_right(xs, x), len(xs) - 1)
    x_low, x_high = xs[upper - 1], xs[upper]
    y_low, y_high = ys[upper - 1], ys[upper]
    position = (x - x_low) / (x_high - x_low)
    return (1.0 - position) * y_low + position * y_high


def _require_table(xs: Sequence[float], ys: Sequence[float]) -> None:
    """Raise ValueError unless ``xs``/``ys`` form a usable interpolation table."""
    if len(xs) != len(ys):
        raise ValueError(
            f"table columns differ in length: {len(xs)} abscissae, {len(ys)} ordinates"
        )
    if len(xs) < 2:
        raise ValueError(f"a table needs at least two points, got {len(xs)}")
    for name, column in (("xs", xs), ("ys", ys)):
        if not all(math.isfinite(value) for value in column):
            raise ValueError(f"table column {name} contains a non-finite value: {list(column)!r}")
    for previous, current in pairwise(xs):
        if not previous < current:
            raise ValueError(
                f"table abscissae must be strictly increasing, got {previous!r} then {current!r}"
            )
