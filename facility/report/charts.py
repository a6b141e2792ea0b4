"""Charts as inline SVG, drawn by the tool itself (no library, no script, no network).

Two charts: utilisation bars (normal operation and after the single failure each check
assumes — the other side lost, the largest CDU out …, named in the legend — with the 100 %
line), here, and the floor plan (:mod:`facility.report.plan_svg`). Both read in greyscale:
the failure scenario is hatched. Every text is escaped; element ids are prefixed per chart
so several charts live in one page. The page shows a table with the same data under each
chart.
"""

from __future__ import annotations

import math

from markupsafe import Markup, escape

from facility.report.i18n import _, pgettext
from facility.report.plan_svg import floor_plan_svg
from facility.report.svg_text import WIDTH, clip
from facility.report.svg_text import num as _num
from facility.report.utilisation import Utilisation, UtilisationChart

__all__ = ["failure_legend", "floor_plan_svg", "utilisation_svg"]  # floor_plan_svg: for templating

# Layout of the utilisation chart, in SVG user units (≈ CSS px at 100 %).
BAR_LEFT = 270
BAR_RIGHT = 770
VALUE_LEFT = 782
ENTRY = 40
TOP = 52


def _axis_max(chart: UtilisationChart) -> float:
    ratios = [u.ratio for bar in chart.bars for u in bar.scenarios if u.ratio is not None]
    top = max(ratios, default=1.0)
    return min(2.0, max(1.25, math.ceil(top * 4 + 1e-9) / 4))


def utilisation_svg(chart: UtilisationChart) -> Markup:
    """Horizontal bars: per element, normal (solid) and after failure (hatched), 100 % line."""
    p = f"u-{chart.key}"
    axis = _axis_max(chart)
    scale = (BAR_RIGHT - BAR_LEFT) / axis
    height = TOP + ENTRY * len(chart.bars) + 16
    out: list[str] = [
        f'<svg class="chart utilisation" '
        f'viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" height="{height}" role="img" '
        f'aria-labelledby="{p}-title {p}-desc">',
        f'<title id="{p}-title">{escape(chart.title)}</title>',
        f'<desc id="{p}-desc">{escape(chart.description)}</desc>',
        "<defs>",
        _hatch(f"{p}-hatch", "#e8ecf1", "#4b5a6c"),
        _hatch(f"{p}-hatch-over", "#fbe4e1", "#b42318"),
        "</defs>",
    ]
    # legend (words outside the f-strings: Babel does not look inside them). The hatched
    # bars are the failure each check assumes, named as such: not "the worst" of the site.
    normal = _("normal operation")
    out += [
        '<rect x="0" y="6" width="18" height="10" class="bar-normal"/>',
        f'<text x="24" y="15" class="legend">{escape(normal)}</text>',
    ]
    cases = chart.failure_cases
    if cases:
        failure = failure_legend(cases)
        out += [
            f'<g><title>{escape(failure)}</title><rect x="160" y="6" width="18" height="10" '
            f'fill="url(#{p}-hatch)" stroke="#4b5a6c" stroke-width="0.8"/>',
            f'<text x="184" y="15" class="legend">{escape(clip(failure, 104))}</text></g>',
        ]
    # grid and axis labels
    step = 0.25 if axis <= 1.5 else 0.5
    tick = 0.0
    while tick <= axis + 1e-9:
        x = _num(BAR_LEFT + tick * scale)
        is_limit = abs(tick - 1.0) < 1e-9
        out.append(
            f'<line x1="{x}" y1="{TOP - 8}" x2="{x}" y2="{height - 12}" '
            f'class="{"limit-line" if is_limit else "grid"}"/>'
        )
        label = f"{tick * 100:.0f} %"
        out.append(
            f'<text x="{x}" y="{TOP - 14}" text-anchor="middle" '
            f'class="{"axis limit" if is_limit else "axis"}">{escape(label)}</text>'
        )
        tick += step
    for i, bar in enumerate(chart.bars):
        y = TOP + i * ENTRY
        if i:
            out.append(f'<line x1="0" y1="{y}" x2="{WIDTH}" y2="{y}" class="separator"/>')
        out.append(
            f"<g><title>{escape(bar.element)} — {escape(bar.measure)} · {escape(bar.members)}</title>"
        )
        out.append(
            f'<text x="0" y="{y + 16}" class="element">{escape(clip(bar.element, 34))}</text>'
        )
        out.append(
            f'<text x="0" y="{y + 31}" class="measure">'
            f"{escape(clip(f'{bar.measure} · {bar.members}', 44))}</text></g>"
        )
        for row, (u, hatched) in enumerate(((bar.normal, False), (bar.failure, True))):
            scenario = bar.failure_label if hatched else normal
            out += _bar(u, hatched, y + 6 + row * 15, scale, axis, p, bar.element, bar.measure,
                        scenario)  # fmt: skip
    out.append("</svg>")
    return Markup("\n".join(out))


def failure_legend(cases: list[str]) -> str:
    """'single failure each check assumes: other side lost; largest CDU out'."""
    return _("single failure each check assumes: %(cases)s") % {
        "cases": pgettext("list of reasons", "; ").join(cases)
    }


def _hatch(pattern_id: str, background: str, stroke: str) -> str:
    return (
        f'<pattern id="{pattern_id}" width="6" height="6" patternUnits="userSpaceOnUse" '
        f'patternTransform="rotate(45)"><rect width="6" height="6" fill="{background}"/>'
        f'<line x1="0" y1="0" x2="0" y2="6" stroke="{stroke}" stroke-width="2.6"/></pattern>'
    )


def _bar(
    u: Utilisation | None,
    hatched: bool,
    y: float,
    scale: float,
    axis: float,
    p: str,
    element: str,
    measure: str,
    scenario: str,
) -> list[str]:
    if u is None:
        return []
    over = u.ratio is None or u.ratio > 1.0
    ratio = axis if u.ratio is None else min(u.ratio, axis)
    width = max(ratio * scale, 1.0)
    if hatched:
        fill = (
            f'fill="url(#{p}-hatch-over)" stroke="#b42318"'
            if over
            else (f'fill="url(#{p}-hatch)" stroke="#4b5a6c"')
        )
        style = f'{fill} stroke-width="0.8"'
    else:
        style = f'class="{"bar-normal over" if over else "bar-normal"}"'
    tip = f"{element}, {measure} ({scenario}): {u.observed} / {u.limit} = {u.percent} ({u.rule} {u.entity})"
    parts = [f"<g><title>{escape(tip)}</title>"]
    parts.append(f'<rect x="{BAR_LEFT}" y="{_num(y)}" width="{_num(width)}" height="11" {style}/>')
    clipped = u.ratio is None or u.ratio > axis
    if clipped:  # the bar runs past the axis: mark the break
        x = BAR_LEFT + width
        parts.append(
            f'<path d="M{_num(x - 7)} {_num(y - 1)} l4 6.5 l-4 6.5 M{_num(x - 3)} {_num(y - 1)} '
            f'l4 6.5 l-4 6.5" class="break"/>'
        )
    weight = ' class="value over"' if over else ' class="value"'
    parts.append(f'<text x="{VALUE_LEFT}" y="{_num(y + 9.5)}"{weight}>{escape(u.percent)}</text>')
    parts.append("</g>")
    if u.status in ("fail", "waived"):
        return [f'<a href="#{escape(u.anchor)}">', *parts, "</a>"]
    return parts
