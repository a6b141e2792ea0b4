"""Sums that do not depend on the order of their terms: exactly rounded (``math.fsum``).

A busway's line current is the sum of the currents of the PDUs below it. Added left to right,
the last digit of that sum depends on the order the PDUs are listed in, so two rack-side losses
that leave a busway the same currents could read 1e-13 A apart. Summed exactly, the same terms
give the same float whatever their order, and a scenario's sum — the normal terms with a few
replaced — is made from the normal sum's *partials* (non-overlapping floats whose exact sum is
the exact sum of the terms; Shewchuk's algorithm, the one ``math.fsum`` uses) and the changed
terms, without a walk over every PDU.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

Partials = tuple[float, ...]


def partials(terms: Iterable[float]) -> Partials | None:
    """The exact sum of ``terms`` as non-overlapping partials, smallest first; None when a
    term or an intermediate sum is not finite (then no exact sum is kept)."""
    found: list[float] = []
    for x in terms:
        i = 0
        for y in found:
            if abs(x) < abs(y):
                x, y = y, x
            high = x + y
            low = y - (high - x)
            if low:
                found[i] = low
                i += 1
            x = high
        if not math.isfinite(x):
            return None
        found[i:] = [x]
    return tuple(found)


def exact_sum(terms: Iterable[float]) -> float:
    """The sum of ``terms``, exactly rounded (the same float in any order). A sum beyond any
    float is infinite, as a plain sum would read."""
    terms = list(terms)
    try:
        return math.fsum(terms)
    except (OverflowError, ValueError):  # beyond any float; inf + -inf
        return sum(terms)
