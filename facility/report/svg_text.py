"""Text in the tool's inline SVG: sizes estimated without a font (SVG text does not wrap).

Shared by the utilisation charts (:mod:`facility.report.charts`) and the floor plan
(:mod:`facility.report.plan_svg`).
"""

from __future__ import annotations

import unicodedata

WIDTH = 860  # the charts' width in SVG user units (≈ CSS px at 100 %)


def clip(text: str, width: int) -> str:
    """``text`` cut to about ``width`` Latin characters (wide CJK ones count twice), with '…'.

    SVG text does not wrap: a long name would run into the bars. The full text stays in the
    element's tooltip and in the table under the chart.
    """
    used = 0
    for i, char in enumerate(text):
        used += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
        if used > width:
            return text[: max(i - 1, 0)] + "…"
    return text


def num(value: float) -> str:
    """A coordinate with at most one decimal, without a trailing '.0'."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def text_width(text: str, size: float) -> float:
    """About how wide ``text`` is at font size ``size`` (Latin ≈ 0.6 em, CJK 1 em)."""
    return sum(size if unicodedata.east_asian_width(c) in ("W", "F") else size * 0.6 for c in text)


def fitted(
    text: str, width: float, size: float, smallest: float, bold: bool = False
) -> tuple[float, str]:
    """The font size at which ``text`` fits ``width`` (from ``size`` down to ``smallest``),
    and the text, cut with '…' if it does not fit even then."""
    wide = text_width(text, 1.0) * (1.08 if bold else 1.0)
    if wide * size <= width:
        return size, text
    if wide * smallest <= width:
        return round(width / wide, 1), text
    return smallest, clip(text, max(int(width / (smallest * 0.6 * (1.08 if bold else 1.0))), 2))
