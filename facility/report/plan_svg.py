"""The floor plan as inline SVG: racks by row and position, by worst status, zone and loop.

Drawn from :class:`facility.report.floor_plan.FloorPlan` (the view model's data). Statuses
carry a letter and a pattern as well as a colour, loops a dash as well as a colour, so the
plan reads in greyscale; rack ids show in their boxes where they fit and always in each
rack's tooltip; every text is escaped. The page shows a table with the same data under it.
"""

from __future__ import annotations

import math
from typing import Any

from markupsafe import Markup, escape

from facility.report.floor_plan import FloorPlan, FloorRack
from facility.report.i18n import _, ngettext
from facility.report.svg_text import WIDTH, clip, fitted, text_width
from facility.report.svg_text import num as _num

# Floor plan cells.
CELL = 22
GAP = 4
ROW_LABEL = 130


_STYLE = {
    # status: (fill, stroke, stroke-dasharray, letter colour)
    "error": ("#b42318", "#7a1a12", "", "#ffffff"),
    "warning": ("url(#{p}-warn)", "#93370d", "", "#1f1300"),
    "not_evaluated": ("#ffffff", "#475467", "3 2", "#344054"),
    "info": ("#e0ecfa", "#1d4f91", "", "#1d4f91"),
    "waived": ("url(#{p}-dots)", "#5b3aa8", "1 1.5", "#3b2574"),
    "pass": ("#d3ecdd", "#2d7a4f", "", "#1d5135"),
    "none": ("#f2f4f7", "#98a2b3", "", "#475467"),
}


def _square(status: str, x: float, y: float, p: str, size: float = CELL) -> str:
    fill, stroke, dash, _colour = _STYLE.get(status, _STYLE["none"])
    dashed = f' stroke-dasharray="{dash}"' if dash else ""
    return (
        f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(size)}" height="{_num(size)}" rx="2" '
        f'fill="{fill.format(p=p)}" stroke="{stroke}" stroke-width="1.2"{dashed}/>'
    )


# Each TCS loop's mark under its racks: a colour and a dash, so loops part in greyscale too.
LOOP_COLOURS = ("#1d4f91", "#0e7c86", "#9a3412", "#6b21a8", "#3f6212", "#a16207", "#be185d")
LOOP_DASHES = ("", "7 2", "2 2", "9 2 2 2")
MAX_LOOP_KEYS = 12  # loops named in the plan's legend; every rack's tooltip names its own
RACK_ID_FONT = 9.0  # px: a rack id shows in its box at this size, or smaller to fit …
RACK_ID_MIN_FONT = 7.0  # … down to this (below it only the tooltip names the rack)


def loop_mark(style: int) -> tuple[str, str]:
    """The colour and dash of the loop with legend place ``style``."""
    return LOOP_COLOURS[style % len(LOOP_COLOURS)], LOOP_DASHES[style % len(LOOP_DASHES)]


def floor_plan_svg(plan: FloorPlan) -> Markup:
    """Rows as lines of racks by position; letters, patterns and colours by worst status.

    A detailed plan names each rack in its box where the id fits (always in its tooltip),
    draws each floor zone as a labelled region around its racks in a row, and marks each
    rack with its TCS loop (the legend names the loop and its CDUs). A large site
    (``plan.detailed`` false) is drawn compact: small squares without letters, links, zones
    or loops, and the rows set side by side in columns, so a campus stays a page or two tall.
    """
    if not plan.detailed:
        return _compact_plan(plan)
    p = "floor"
    columns = max(plan.columns, 1)
    label_w = float(ROW_LABEL)
    pitch = float(max(CELL + GAP, min(64, int((WIDTH - label_w - 8) // columns))))
    cw = pitch - GAP  # a rack's box: width, height
    ch = 30.0 if cw >= 30 else float(CELL)
    zone_band, stripe, row_gap = 15.0, 8.0, 10.0
    line_h = zone_band + ch + stripe  # each line of a row: its zones' labels, racks, loops
    out_legend, legend_h = _plan_legend(plan, p)
    y0 = legend_h + (16 if columns <= 60 else 4)
    places: list[float] = []
    y = y0
    for row in plan.rows:
        places.append(y)
        lines = max((r.line for r in row.racks), default=0) + 1
        y += lines * line_h + row_gap
    width = max(label_w + columns * pitch + 8, 600)
    height = y + 2
    title = _("Floor plan: racks by row and position, by worst status, floor zone and TCS loop")
    out = [
        f'<svg class="chart floor-plan" '
        f'viewBox="0 0 {_num(width)} {_num(height)}" width="{_num(width)}" '
        f'height="{_num(height)}" role="img" aria-labelledby="{p}-title {p}-desc">',
        f'<title id="{p}-title">{escape(title)}</title>',
        f'<desc id="{p}-desc">{escape(plan.description)}</desc>',
        _plan_patterns(p),
        *out_legend,
    ]
    if columns <= 60:  # position numbers above the racks
        for c in range(columns):
            if columns <= 30 or c % 5 == 4 or c == 0:
                cx = label_w + c * pitch + cw / 2
                out.append(
                    f'<text x="{_num(cx)}" y="{_num(y0 - 4)}" text-anchor="middle" '
                    f'class="axis">{c + 1}</text>'
                )
    marks = {k.loop: loop_mark(k.style) for k in plan.loops}
    for row, by in zip(plan.rows, places, strict=True):
        top = by + zone_band
        size, label = fitted(row.label, label_w - 6, 12.5, 8.0, bold=True)
        out.append(
            f'<text x="0" y="{_num(top + ch / 2 + 4)}" class="element" '
            f'style="font-size:{_num(size)}px"><title>{escape(row.label)}</title>'
            f"{escape(label)}</text>"
        )
        for run in row.zones:  # zone regions behind the racks
            x1 = label_w + run.first * pitch - 1.5
            x2 = label_w + run.last * pitch + cw + 1.5
            ry = top + run.line * line_h - 1.5
            tip = ngettext(
                "Zone %(zone)s: %(n)s rack of %(row)s",
                "Zone %(zone)s: %(n)s racks of %(row)s",
                run.racks,
            ) % {"zone": run.zone, "n": f"{run.racks:,}", "row": row.label}
            label = _zone_label(run.zone, x2 - x1)
            out.append(
                f'<g class="zone"><title>{escape(tip)}</title>'
                f'<rect x="{_num(x1)}" y="{_num(ry)}" width="{_num(x2 - x1)}" '
                f'height="{_num(ch + stripe + 1)}" rx="4" class="zone-region"/>'
                f'<text x="{_num(x1 + 1)}" y="{_num(ry - 3.5)}" class="zone-label">'
                f"{escape(label)}</text></g>"
            )
        for rack in row.racks:
            rx = label_w + rack.column * pitch
            ry = top + rack.line * line_h
            out.append(_plan_rack(rack, rx, ry, cw, ch, p, marks.get(rack.loop)))
    out.append("</svg>")
    return Markup("\n".join(out))


def _zone_label(zone: str, width: float) -> str:
    """'Zone Z-A' over a region wide enough, else 'Z-A', else the id cut to fit (10 px)."""
    name = _("Zone %(zone)s") % {"zone": zone}
    if text_width(name, 10 * 1.08) <= width:
        return name
    if text_width(zone, 10 * 1.08) <= width:
        return zone
    return clip(zone, max(int(width / 6.5), 2))


def _plan_patterns(p: str) -> str:
    return (
        "<defs>"
        f'<pattern id="{p}-warn" width="5" height="5" patternUnits="userSpaceOnUse" '
        f'patternTransform="rotate(45)"><rect width="5" height="5" fill="#fde7c8"/>'
        f'<line x1="0" y1="0" x2="0" y2="5" stroke="#dc6803" stroke-width="2"/></pattern>'
        f'<pattern id="{p}-dots" width="4" height="4" patternUnits="userSpaceOnUse">'
        f'<rect width="4" height="4" fill="#f1ecfb"/><circle cx="2" cy="2" r="0.9" '
        f'fill="#5b3aa8"/></pattern>'
        "</defs>"
    )


def _plan_legend(plan: FloorPlan, p: str, loops: bool = True) -> tuple[list[str], float]:
    """The statuses in two lines of squares, then the loops with their marks and CDUs."""
    out = []
    for i, entry in enumerate(plan.legend):
        lx = (i % 4) * 150
        ly = 4 + (i // 4) * 20
        out.append(_square(entry.key, lx, ly, p, 14))
        if entry.letter:
            out.append(_letter(entry.key, entry.letter, lx + 7, ly + 11, 10))
        out.append(f'<text x="{lx + 20}" y="{ly + 11}" class="legend">{escape(entry.label)}</text>')
    y = 44.0
    if not plan.loops or not loops:
        return out, y
    x = 0.0
    heading = _("TCS loops:")
    out.append(f'<text x="0" y="{_num(y + 11)}" class="legend">{escape(heading)}</text>')
    x = text_width(heading, 11.5) + 10
    shown = plan.loops[:MAX_LOOP_KEYS]
    for key in shown:
        text = (
            _("%(loop)s (%(cdus)s)") % {"loop": key.loop, "cdus": key.cdus}
            if key.cdus
            else key.loop
        )
        text = clip(text, 60)
        w = 26 + text_width(text, 11.5) + 14
        if x + w > WIDTH and x > 0:
            x, y = 0.0, y + 18
        colour, dash = loop_mark(key.style)
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(
            f'<line x1="{_num(x)}" y1="{_num(y + 7)}" x2="{_num(x + 20)}" y2="{_num(y + 7)}" '
            f'stroke="{colour}" stroke-width="4"{dashed}/>'
        )
        out.append(
            f'<text x="{_num(x + 26)}" y="{_num(y + 11)}" class="legend">{escape(text)}</text>'
        )
        x += w
    if len(plan.loops) > len(shown):
        more = _("and %(n)s more loops (each rack's tooltip names its loop)") % {
            "n": f"{len(plan.loops) - len(shown):,}"
        }
        out.append(f'<text x="0" y="{_num(y + 29)}" class="legend">{escape(more)}</text>')
        y += 18
    return out, y + 22


def _plan_rack(
    rack: FloorRack,
    x: float,
    y: float,
    cw: float,
    ch: float,
    p: str,
    mark: tuple[str, str] | None,
) -> str:
    """One rack: its box by status, letter, id where it fits, loop stripe, and a tooltip
    naming all of them."""
    fill, stroke, dash, _colour = _STYLE.get(rack.status, _STYLE["none"])
    dashed = f' stroke-dasharray="{dash}"' if dash else ""
    where = [rack.id]
    if rack.zone:
        where.append(_("zone %(zone)s") % {"zone": rack.zone})
    if rack.loop:
        where.append(_("TCS loop %(loop)s") % {"loop": rack.loop})
    tip = f"{' · '.join(where)}: {rack.label}" + (f" — {rack.rules}" if rack.rules else "")
    body = [
        f"<title>{escape(tip)}</title>",
        f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(cw)}" height="{_num(ch)}" rx="2" '
        f'fill="{fill.format(p=p)}" stroke="{stroke}" stroke-width="1.2"{dashed}/>',
    ]
    id_size = min(RACK_ID_FONT, (cw - 3) / max(text_width(rack.id, 1.0), 0.1))
    shows_id = ch > CELL and id_size >= RACK_ID_MIN_FONT
    if rack.letter:
        ly = y + (12 if shows_id else ch / 2 + 4)
        body.append(_letter(rack.status, rack.letter, x + cw / 2, ly, 11))
    if shows_id:
        colour = _STYLE.get(rack.status, _STYLE["none"])[3]
        body.append(
            f'<text x="{_num(x + cw / 2)}" y="{_num(y + ch - 5)}" text-anchor="middle" '
            f'class="rack-id" style="fill:{colour};font-size:{_num(id_size)}px">'
            f"{escape(rack.id)}</text>"
        )
    if mark is not None:
        colour, line_dash = mark
        dashed = f' stroke-dasharray="{line_dash}"' if line_dash else ""
        body.append(
            f'<line x1="{_num(x)}" y1="{_num(y + ch + 3.5)}" x2="{_num(x + cw)}" '
            f'y2="{_num(y + ch + 3.5)}" stroke="{colour}" stroke-width="4"{dashed} '
            f'class="loop-mark"/>'
        )
    inner = "".join(body)
    if rack.anchor:
        return f'<a href="#{escape(rack.anchor)}">{inner}</a>'
    return f'<g class="rack">{inner}</g>'


def _compact_plan(plan: FloorPlan) -> Markup:
    """A campus: small squares by status, rows side by side in columns."""
    p = "floor"
    columns = max(plan.columns, 1)
    cell, gap, label_w, font = 7.0, 1.0, 84.0, 8.0
    label_chars = 15
    pitch = cell + gap
    row_gap = 3
    block_w = label_w + columns * pitch + 14
    blocks = max(1, int(WIDTH // block_w))
    heights = [(max((r.line for r in row.racks), default=0) + 1) * pitch for row in plan.rows]
    per_block = math.ceil(sum(h + row_gap for h in heights) / blocks)
    out_legend, legend_h = _plan_legend(plan, p, loops=False)
    y0 = legend_h + 6
    places: list[tuple[float, float]] = []  # (x, y) of each row
    x, y, used = 0.0, float(y0), 0.0
    for h in heights:
        if used and used + h > per_block:
            x, y, used = x + block_w, float(y0), 0.0
        places.append((x, y))
        y += h + row_gap
        used += h + row_gap
    width = max(max((px for px, _y in places), default=0) + block_w, 600)
    height = max((py + h for (_x, py), h in zip(places, heights, strict=True)), default=y0) + 6
    title = _("Floor plan: racks by row and position, by worst status")
    out = [
        f'<svg class="chart floor-plan" '
        f'viewBox="0 0 {_num(width)} {_num(height)}" width="{_num(width)}" '
        f'height="{_num(height)}" role="img" aria-labelledby="{p}-title {p}-desc">',
        f'<title id="{p}-title">{escape(title)}</title>',
        f'<desc id="{p}-desc">{escape(plan.description)}</desc>',
        _plan_patterns(p),
        *out_legend,
    ]
    tiles: set[str] = set()  # the statuses drawn as runs: each needs its tile
    body = []
    for row, (bx, by) in zip(plan.rows, places, strict=True):
        body.append(
            f'<text x="{_num(bx)}" y="{_num(by + cell / 2 + font / 3)}" class="element" '
            f'style="font-size:{_num(font)}px"><title>{escape(row.label)}</title>'
            f"{escape(clip(row.label, label_chars))}</text>"
        )
        for status, line, column, length in _runs(row.racks):
            rx = bx + label_w + column * pitch
            ry = by + line * pitch
            if length == 1:
                body.append(_square(status, rx, ry, p, cell))
                continue
            tiles.add(status)  # the same squares, one element: a campus has 100,000 racks
            body.append(
                f'<rect class="run" data-racks="{length}" transform="translate({_num(rx)} '
                f'{_num(ry)})" x="-{_STROKE_OUT}" y="-{_STROKE_OUT}" '
                f'width="{_num((length - 1) * pitch + cell + 2 * _STROKE_OUT)}" '
                f'height="{_num(cell + 2 * _STROKE_OUT)}" fill="url(#{p}-run-{status})"/>'
            )
    out.append(_run_tiles(p, sorted(tiles), cell, pitch))
    out += body
    out.append("</svg>")
    return Markup("\n".join(out))


def _runs(racks: list[FloorRack]) -> list[tuple[str, int, int, int]]:
    """(status, line, first column, length) of each stretch of side-by-side racks of one
    status, in drawing order."""
    found: list[list[Any]] = []
    for rack in sorted(racks, key=lambda r: (r.line, r.column)):
        last = found[-1] if found else None
        if (
            last is not None
            and last[0] == rack.status
            and last[1] == rack.line
            and last[2] + last[3] == rack.column
        ):
            last[3] += 1
        else:
            found.append([rack.status, rack.line, rack.column, 1])
    return [(status, line, column, length) for status, line, column, length in found]


_STROKE_OUT = 0.6  # how far a square's stroke (1.2 px) reaches outside it


def _run_tiles(p: str, statuses: list[str], cell: float, pitch: float) -> str:
    """One tile per status a run is drawn in: the compact plan's square with its stroke,
    repeated every ``pitch`` from where the run's rect starts (a square's stroke and its
    neighbour's overlap by 0.2 px in the plan; the tile keeps the left one's)."""
    if not statuses:
        return ""
    out = _STROKE_OUT
    tiles = []
    for status in statuses:
        tiles.append(
            f'<pattern id="{p}-run-{status}" x="-{out}" y="-{out}" width="{_num(pitch)}" '
            f'height="{_num(cell + 2 * out)}" patternUnits="userSpaceOnUse">'
            f"{_square(status, out, out, p, cell)}</pattern>"
        )
    return "<defs>" + "".join(tiles) + "</defs>"


def _letter(status: str, letter: str, x: float, y: float, size: int) -> str:
    colour = _STYLE.get(status, _STYLE["none"])[3]
    return (
        f'<text x="{_num(x)}" y="{_num(y)}" text-anchor="middle" '
        f'style="font-size:{size}px;font-weight:700;fill:{colour}">{escape(letter)}</text>'
    )
