"""The floor plan: rack ids, floor zones as regions, TCS loops with their CDUs, and the
equipment the site model gives no position (CDUs, air units) listed, never drawn.

Hall B3 (examples/hall-b3.yaml): row A is A01 … A08 (positions 1 … 8) in zone Z-A on loop
TCS-A (CDUs CDU-A1, CDU-A2); row B is B01 … B12 (positions 1 … 12) in zone Z-B on loop TCS-B
(CDU CDU-B1); room B3 has the air units CRAH-1 … CRAH-3. No CDU or air unit has a position.
"""

from __future__ import annotations

import dataclasses
import re
import xml.etree.ElementTree as ET

import pytest

from facility.report.context import ReportInput
from facility.report.floor_plan import FloorPlan, floor_plan
from facility.report.html import render_html
from facility.report.markdown import render_markdown
from facility.report.plan_svg import floor_plan_svg, loop_mark
from facility.report.svg_text import WIDTH

SVG = "{http://www.w3.org/2000/svg}"
ROW_A = [f"A{i:02d}" for i in range(1, 9)]
ROW_B = [f"B{i:02d}" for i in range(1, 13)]


def _svg(plan: FloorPlan) -> ET.Element:
    text = str(floor_plan_svg(plan))
    return ET.fromstring(text.replace("<svg ", f'<svg xmlns="{SVG[1:-1]}" ', 1))


def _text(element: ET.Element) -> str:
    """The element's own text, without that of its <title> (a tooltip is not shown)."""
    return (element.text or "").strip()


def _racks(svg: ET.Element) -> dict[str, ET.Element]:
    """Each drawn rack (a <g class="rack"> or a link) by the id its tooltip starts with."""
    out = {}
    for group in svg.iter():
        if group.tag not in (f"{SVG}g", f"{SVG}a") or group.get("class") == "zone":
            continue
        title = group.find(f"{SVG}title")
        rect = group.find(f"{SVG}rect")
        if title is not None and rect is not None and title.text:
            out[title.text.split(" · ")[0].split(":")[0]] = group
    return out


@pytest.fixture(scope="module")
def plan(hall_b3: ReportInput) -> FloorPlan:
    made = floor_plan(hall_b3.site, hall_b3.result.findings)
    assert made is not None
    return made


def test_every_rack_is_drawn_named_in_its_tooltip_and_visibly(plan: FloorPlan) -> None:
    svg = _svg(plan)
    racks = _racks(svg)
    assert sorted(racks) == sorted(ROW_A + ROW_B)
    for rack_id, group in racks.items():
        title = group.find(f"{SVG}title")
        assert title is not None and title.text is not None
        assert title.text.startswith(rack_id)
        # 12 positions in 860 px: 60 px a rack, room for a three-character id at 9 px
        visible = [_text(t) for t in group.iter(f"{SVG}text") if t.get("class") == "rack-id"]
        assert visible == [rack_id]


def test_each_rack_tooltip_names_its_zone_and_loop(plan: FloorPlan) -> None:
    racks = _racks(_svg(plan))
    for rack_id in ROW_A:
        title = racks[rack_id].find(f"{SVG}title")
        assert title is not None and title.text is not None
        assert "zone Z-A" in title.text and "TCS loop TCS-A" in title.text
    for rack_id in ROW_B:
        title = racks[rack_id].find(f"{SVG}title")
        assert title is not None and title.text is not None
        assert "zone Z-B" in title.text and "TCS loop TCS-B" in title.text


def test_zones_are_labelled_regions_around_their_racks(plan: FloorPlan) -> None:
    svg = _svg(plan)
    racks = _racks(svg)
    zones = [g for g in svg.iter(f"{SVG}g") if g.get("class") == "zone"]
    labels = sorted(_text(g.find(f"{SVG}text")) for g in zones)  # type: ignore[arg-type]
    assert labels == ["Zone Z-A", "Zone Z-B"]
    for group, members in zip(zones, (ROW_A, ROW_B), strict=True):
        region = group.find(f"{SVG}rect")
        assert region is not None
        left = float(region.get("x", "nan"))
        right = left + float(region.get("width", "nan"))
        top = float(region.get("y", "nan"))
        bottom = top + float(region.get("height", "nan"))
        for rack_id, rack in racks.items():
            box = rack.find(f"{SVG}rect")
            assert box is not None
            x, y = float(box.get("x", "nan")), float(box.get("y", "nan"))
            inside = (
                left <= x and x + float(box.get("width", "nan")) <= right and top <= y <= bottom
            )
            assert inside == (rack_id in members), (rack_id, group.find(f"{SVG}text").text)  # type: ignore[union-attr]


def test_a_row_of_two_zones_gets_two_regions(hall_b3: ReportInput) -> None:
    # A05 … A08 moved to zone Z-B: row A reads Z-A for positions 1-4, then Z-B for 5-8.
    site = hall_b3.site
    racks = [dataclasses.replace(r, zone="Z-B") if r.id in ROW_A[4:] else r for r in site.racks]
    plan = floor_plan(dataclasses.replace(site, racks=racks), [])
    assert plan is not None
    row_a = plan.rows[0]
    assert [(z.zone, z.first, z.last, z.racks) for z in row_a.zones] == [
        ("Z-A", 0, 3, 4),
        ("Z-B", 4, 7, 4),
    ]
    assert row_a.zone_ids == "Z-A, Z-B"


def test_each_loop_is_marked_under_its_racks_and_named_with_its_cdus(plan: FloorPlan) -> None:
    assert [(k.loop, k.cdus, k.racks) for k in plan.loops] == [
        ("TCS-A", "CDU-A1, CDU-A2", 8),
        ("TCS-B", "CDU-B1", 12),
    ]
    svg = _svg(plan)
    legend = [_text(t) for t in svg.iter(f"{SVG}text") if t.get("class") == "legend"]
    assert "TCS-A (CDU-A1, CDU-A2)" in legend
    assert "TCS-B (CDU-B1)" in legend
    marks = {k.loop: loop_mark(k.style) for k in plan.loops}
    assert marks["TCS-A"] != marks["TCS-B"]  # a colour and a dash apart
    for rack_id, rack in _racks(svg).items():
        stripe = next(line for line in rack.iter(f"{SVG}line") if line.get("class") == "loop-mark")
        loop = "TCS-A" if rack_id in ROW_A else "TCS-B"
        colour, dash = marks[loop]
        assert stripe.get("stroke") == colour
        assert (stripe.get("stroke-dasharray") or "") == dash


def test_cdus_and_air_units_are_listed_not_drawn(plan: FloorPlan, hall_b3: ReportInput) -> None:
    assert [(u.kind, u.label, u.members) for u in plan.unplaced] == [
        ("cdu", "CDUs of TCS-A", "CDU-A1, CDU-A2"),
        ("cdu", "CDUs of TCS-B", "CDU-B1"),
        ("air_unit", "Air units of room B3", "CRAH-1, CRAH-2, CRAH-3"),
    ]
    svg = str(floor_plan_svg(plan))
    assert "CRAH" not in svg  # no invented position: the legend names only loops' CDUs
    html = render_html(hall_b3)
    figure = html[
        html.index('<figure id="floor-plan">') : html.index(
            "</figure>", html.index('<figure id="floor-plan">')
        )
    ]
    assert "position not modelled" in figure
    for unit in ("CDU-A1, CDU-A2", "CDU-B1", "CRAH-1, CRAH-2, CRAH-3"):
        assert unit in figure
    markdown = render_markdown(hall_b3)
    assert "**Air units of room B3:** CRAH-1, CRAH-2, CRAH-3" in markdown


def test_the_plan_has_a_text_alternative_and_fits_the_page(plan: FloorPlan) -> None:
    svg = _svg(plan)
    assert svg.get("role") == "img"
    assert svg.get("aria-labelledby") == "floor-title floor-desc"
    desc = svg.find(f"{SVG}desc")
    assert desc is not None and desc.text == (
        "20 racks in 2 rows. Floor zones: Z-A, Z-B. TCS loops: TCS-A, TCS-B. CDUs and air "
        "units have no position in the site model: they are listed beside the plan, not drawn."
    )
    # 12 positions: 130 px of row labels + 12 × 60 px + 8 px = 858 px, within the 860 px
    # the other charts use (the page scales it to the printed width, never clips it)
    assert float(svg.get("width", "inf")) <= WIDTH
    width = float(svg.get("viewBox", "").split()[2])
    for element in svg.iter(f"{SVG}rect"):
        if element.get("x") is not None:
            assert float(element.get("x", "0")) + float(element.get("width", "0")) <= width


def test_an_id_too_long_for_its_box_is_only_in_the_tooltip(plan: FloorPlan) -> None:
    long_id = "HALL-B3-ROW-A-POSITION-01"
    row = plan.rows[0]
    racks = [dataclasses.replace(row.racks[0], id=long_id), *row.racks[1:]]
    changed = dataclasses.replace(
        plan, rows=[dataclasses.replace(row, racks=racks), *plan.rows[1:]]
    )
    svg = _svg(changed)
    drawn = _racks(svg)
    assert long_id in drawn
    assert not [t for t in drawn[long_id].iter(f"{SVG}text") if t.get("class") == "rack-id"]
    assert [_text(t) for t in drawn["A02"].iter(f"{SVG}text") if t.get("class") == "rack-id"] == [
        "A02"
    ]


def test_the_markdown_twin_lists_zones_and_loops_per_row(hall_b3: ReportInput) -> None:
    markdown = render_markdown(hall_b3)
    plan = markdown[markdown.index("### Floor plan") :]
    rows = [line for line in plan.splitlines() if re.match(r"\| Row [AB]<br>", line)]
    assert len(rows) == 2
    assert rows[0].startswith("| Row A<br>racks A01 … A08<br>zones Z-A<br>loops TCS-A | 8 |")
    assert rows[1].startswith("| Row B<br>racks B01 … B12<br>zones Z-B<br>loops TCS-B | 12 |")


def test_a_compact_plan_draws_squares_only_and_claims_no_loops(plan: FloorPlan) -> None:
    # A campus (over DETAILED_LIMIT racks) is drawn compact: no ids, zones or loop marks, so
    # its legend must not name loops it does not mark.
    svg = _svg(dataclasses.replace(plan, detailed=False))
    assert not [g for g in svg.iter(f"{SVG}g") if g.get("class") == "zone"]
    assert not [t for t in svg.iter(f"{SVG}text") if t.get("class") == "rack-id"]
    assert not [line for line in svg.iter(f"{SVG}line") if line.get("class") == "loop-mark"]
    assert not [t for t in _legend_texts(svg) if t.startswith("TCS-")]
    in_tiles = {id(r) for t in svg.iter(f"{SVG}pattern") for r in t.iter(f"{SVG}rect")}
    squares = [r for r in svg.iter(f"{SVG}rect") if r.get("width") == "7" and id(r) not in in_tiles]
    runs = [r for r in svg.iter(f"{SVG}rect") if r.get("class") == "run"]
    # side-by-side racks of one status are one element, its squares drawn by a tile
    assert len(squares) + sum(int(r.get("data-racks", "0")) for r in runs) == 20
    assert runs and all(int(r.get("data-racks", "0")) >= 2 for r in runs)
    tiles = {p.get("id") for p in svg.iter(f"{SVG}pattern")}
    assert {r.get("fill", "")[5:-1] for r in runs} <= tiles  # url(#id): every tile defined
    assert svg.find(f"{SVG}desc") is not None


def test_a_long_row_keeps_square_boxes_without_ids(hall_b3: ReportInput) -> None:
    # 60 positions: 722 px / 60 = 12 px a rack, under the 26 px minimum pitch, so each box is
    # the 22 px square and ids only live in the tooltips.
    site = hall_b3.site
    racks = [
        dataclasses.replace(r, position=(60 if r.id == "A08" else r.position)) for r in site.racks
    ]
    plan = floor_plan(dataclasses.replace(site, racks=racks), [])
    assert plan is not None and plan.columns == 60
    svg = _svg(plan)
    drawn = _racks(svg)
    assert len(drawn) == 20
    assert not [t for t in svg.iter(f"{SVG}text") if t.get("class") == "rack-id"]
    box = drawn["A08"].find(f"{SVG}rect")
    assert box is not None and box.get("width") == "22" and box.get("height") == "22"
    # A01 … A07 then A08 alone at position 60: two regions of zone Z-A in row A; the one
    # around A08 is 22 + 2 × 1.5 = 25 px wide, too narrow for 'Zone Z-A' at 10 px
    # (8 × 0.6 × 10.8 = 51.8 px, bold), wide enough for 'Z-A' (19.4 px)
    assert [(z.first, z.last) for z in plan.rows[0].zones] == [(0, 6), (59, 59)]
    zones = [g for g in svg.iter(f"{SVG}g") if g.get("class") == "zone"]
    assert [_text(g.find(f"{SVG}text")) for g in zones][:2] == ["Zone Z-A", "Z-A"]  # type: ignore[arg-type]


def _legend_texts(svg: ET.Element) -> list[str]:
    return [_text(t) for t in svg.iter(f"{SVG}text") if t.get("class") == "legend"]


def test_an_id_a_little_too_long_is_set_smaller_to_fit(hall_b3: ReportInput) -> None:
    # A08 at position 16: 722 px / 16 = 45 px a rack, a 41 px box, 38 px for the text. An id
    # of 8 characters is 8 × 0.6 em = 4.8 em: 9 px would be 43.2 px, so it is set at
    # 38 / 4.8 = 7.9 px (at least 7 px); 10 characters would need 6.3 px: tooltip only.
    site = hall_b3.site
    names = {"A01": "A01-0001", "A02": "A02-000002"}
    racks = [
        dataclasses.replace(
            r, id=names.get(r.id, r.id), position=16 if r.id == "A08" else r.position
        )
        for r in site.racks
    ]
    plan = floor_plan(dataclasses.replace(site, racks=racks), [])
    assert plan is not None and plan.columns == 16
    drawn = _racks(_svg(plan))
    shown = [t for t in drawn["A01-0001"].iter(f"{SVG}text") if t.get("class") == "rack-id"]
    assert [_text(t) for t in shown] == ["A01-0001"]
    assert "font-size:7.9px" in (shown[0].get("style") or "")
    assert not [t for t in drawn["A02-000002"].iter(f"{SVG}text") if t.get("class") == "rack-id"]


def test_wrapped_lines_of_a_row_do_not_overlap(hall_b3: ReportInput) -> None:
    # 60 racks in no row and without positions wrap after 48: lines 0 and 1. Each line has
    # its own band for zone labels, so line 1's label sits below line 0's loop stripes.
    model = hall_b3.site.racks[0]
    racks = [dataclasses.replace(model, id=f"X{i:02d}", row=None, position=None) for i in range(60)]
    plan = floor_plan(dataclasses.replace(hall_b3.site, racks=racks), [])
    assert plan is not None and [z.line for z in plan.rows[0].zones] == [0, 1]
    svg = _svg(plan)
    stripes = [line for line in svg.iter(f"{SVG}line") if line.get("class") == "loop-mark"]
    first_line_bottom = max(float(s.get("y1", "nan")) + 2 for s in stripes[:48])  # 4 px wide
    zones = [g for g in svg.iter(f"{SVG}g") if g.get("class") == "zone"]
    second_label = zones[1].find(f"{SVG}text")
    assert second_label is not None
    label_top = float(second_label.get("y", "nan")) - 10  # baseline minus the 10 px font
    assert label_top > first_line_bottom
    second_region = zones[1].find(f"{SVG}rect")
    assert second_region is not None and float(second_region.get("y", "nan")) > first_line_bottom
