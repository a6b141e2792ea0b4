"""Space and cabling: the floor a rack claims with its clearances, where it stands in its row,
the cable route between two racks and the fill of a cable tray.

Pure functions on plain floats in canonical SI units: length [m], area [m²].

References
----------
.. [1] ANSI/TIA-942-A, Telecommunications Infrastructure Standard for Data Centers: a cold
   aisle of 1.2 m (two 600 mm floor tiles) is recommended (docs/references.md#tia-942-b).
.. [2] NFPA 70 (National Electrical Code) 110.26(A)(1): the depth of the working space in
   front of live parts serviced while energized, 36 in (914 mm) at the least
   (docs/references.md#nfpa-70-110-26).
.. [3] IBM, Power Systems site planning, "Floor construction and floor loading": a machine's
   area counted with half of its service clearance, the other half belonging to the machine
   across the aisle (docs/references.md#ibm-floor-loading).
.. [4] NFPA 70 392.22(A)(2) (392.9(B) before the 2011 edition): a ladder or ventilated-trough
   tray of control and signal cables only is filled to at most 50 % of its interior
   cross-section, a usable depth over 150 mm counted as 150 mm
   (docs/references.md#nfpa-70-392-22).
"""

from __future__ import annotations

import math

__all__ = [
    "NEC_TRAY_DEPTH_CAP",
    "cable_area",
    "cable_route",
    "rack_centre",
    "rack_space",
    "row_extent",
    "tray_fill",
]

# NFPA 70 392.22(A)(2): "a depth of 150 mm (6 in.) shall be used to compute the allowable
# interior cross-sectional area of any cable tray that has a usable inside depth of more
# than 150 mm" [m] (docs/references.md#nfpa-70-392-22).
NEC_TRAY_DEPTH_CAP = 0.150


def _require_positive(value: float, name: str) -> None:
    if not (math.isfinite(value) and value > 0.0):
        raise ValueError(f"{name} must be a finite value > 0, got {value!r}")


def _require_non_negative(value: float, name: str) -> None:
    if not (math.isfinite(value) and value >= 0.0):
        raise ValueError(f"{name} must be a finite value >= 0, got {value!r}")


def rack_space(width: float, depth: float, front: float, rear: float) -> float:
    r"""Floor a rack claims with its service clearances, each aisle shared with the row across.

    Parameters
    ----------
    width : float
        Rack width W [m].
    depth : float
        Rack depth D [m].
    front : float
        Clear aisle c_front required in front of the rack [m].
    rear : float
        Clear aisle c_rear required behind the rack [m].

    Returns
    -------
    float
        A = W · (D + ½ c_front + ½ c_rear) [m²].

    Each aisle is shared by the two rows that face it, so a rack claims half of the aisle in
    front of it and half of the one behind it, as IBM counts a machine's service area [3].
    That is the least floor any layout can give the rack: a zone smaller than the sum over
    its racks cannot hold them (a necessary condition). A row against a wall, end-of-row
    and cross aisles, columns and in-row equipment claim more; they are not counted.
    """
    _require_positive(width, "width")
    _require_positive(depth, "depth")
    _require_non_negative(front, "front clearance")
    _require_non_negative(rear, "rear clearance")
    return width * (depth + 0.5 * front + 0.5 * rear)


def row_extent(position: int, pitch: float) -> float:
    r"""Distance from a row's origin to the far side of the rack at ``position``.

    Parameters
    ----------
    position : int
        The rack's position in its row, 1 for the first.
    pitch : float
        Centre-to-centre spacing p of the row's racks [m] (their width when they stand
        side by side).

    Returns
    -------
    float
        L = n · p [m], n the position.
    """
    if isinstance(position, bool) or position < 1:
        raise ValueError(f"position must be a whole number >= 1, got {position!r}")
    _require_positive(pitch, "pitch")
    return position * pitch


def rack_centre(origin: float, position: int, pitch: float) -> float:
    r"""Coordinate of a rack's centre along its row.

    Parameters
    ----------
    origin : float
        Coordinate of the row's start (the outer side of its first rack) [m].
    position : int
        The rack's position, 1 for the first.
    pitch : float
        Centre-to-centre spacing p of the row's racks [m].

    Returns
    -------
    float
        x = x₀ + (n − ½) · p [m].
    """
    return origin + row_extent(position, pitch) - 0.5 * pitch


def cable_route(dx: float, dy: float, drop: float) -> float:
    r"""Length of a cable between two racks along overhead (or underfloor) trays.

    Parameters
    ----------
    dx, dy : float
        Distance between the racks' centres along the hall's two axes [m].
    drop : float
        Vertical run at each end, rack port to tray, with its slack h [m].

    Returns
    -------
    float
        L = |Δx| + |Δy| + 2 h [m].

    The trays run along and across the rows (a Manhattan route); a detour around columns,
    patch panels on the way and a service loop beyond the drop are not counted.
    """
    _require_non_negative(drop, "drop")
    for value, name in ((dx, "dx"), (dy, "dy")):
        if not math.isfinite(value):
            raise ValueError(f"{name} must be finite, got {value!r}")
    return abs(dx) + abs(dy) + 2.0 * drop


def cable_area(count: int, diameter: float) -> float:
    r"""Cross-section of ``count`` round cables of one outside diameter.

    Parameters
    ----------
    count : int
        Number of cables n.
    diameter : float
        Outside diameter d of one cable [m].

    Returns
    -------
    float
        A = n · π d² / 4 [m²].
    """
    if isinstance(count, bool) or count < 0:
        raise ValueError(f"count must be a whole number >= 0, got {count!r}")
    _require_positive(diameter, "diameter")
    return count * math.pi * diameter**2 / 4.0


def tray_fill(cable_cross_section: float, width: float, depth: float) -> float:
    r"""Fill of a cable tray: its cables' cross-section over its interior cross-section.

    Parameters
    ----------
    cable_cross_section : float
        Σ A of the cables in the tray [m²] (:func:`cable_area`).
    width : float
        Inside width w of the tray [m].
    depth : float
        Usable inside (loading) depth h of the tray [m]; more than 150 mm counts as 150 mm
        (NFPA 70 392.22(A)(2) [4]).

    Returns
    -------
    float
        f = Σ A / (w · min(h, 150 mm)) [1].
    """
    _require_non_negative(cable_cross_section, "cable cross-section")
    _require_positive(width, "width")
    _require_positive(depth, "depth")
    return cable_cross_section / (width * min(depth, NEC_TRAY_DEPTH_CAP))
