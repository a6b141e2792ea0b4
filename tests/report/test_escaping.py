"""Hostile names: HTML and Markdown in a site file render as inert text in every report."""

from __future__ import annotations

import re

import pytest
import yaml

from facility.report.charts import utilisation_svg
from facility.report.html import render_html
from facility.report.markdown import render_markdown
from facility.report.utilisation import Utilisation, UtilisationBar, UtilisationChart
from tests.report.conftest import report_for
from tests.report.htmlcheck import parse
from tests.report.test_markdown import assert_tables_keep_their_columns

SCRIPT = "<script>alert(1)</script>"
MARKDOWN = "| * _ \\ ` [x](http://e)"
ZONE = "Z<script>alert(1)</script>|*_`[x](http://e)"
TYPE = "t|<b>*"


def hostile_site() -> dict:
    placement = {
        "type": TYPE,
        "zone": ZONE,
        "row": "A|*_`<i>",
        "pdus": {
            "A": {"type": "pdu-3p-415v-63a", "count": 1},
            "B": {"type": "pdu-3p-415v-63a", "count": 1},
        },
    }
    return {
        "schema_version": 1,
        "site": {
            "name": f"Hall {SCRIPT} {MARKDOWN}\nsecond line",
            "location": '<img src=x onerror="alert(1)"> | pipes |',
            "notes": "# heading\n- list\n<!-- comment -->\n```\nfence",
        },
        "rooms": [{"id": "R<b>1</b>", "name": f"Room {SCRIPT}"}],
        "floor_zones": [
            {
                "id": ZONE,
                "room": "R<b>1</b>",
                "construction": "raised_floor",
                "uniform_load_rating": "12 kPa",
                "area": "40 m**2",
            }
        ],
        "rack_types": [
            {
                "id": TYPE,
                "nominal_power": "30 kW",
                "peak_power": "35 kW",
                "power_factor": 0.95,
                "filled_mass": "1100 kg",
                "footprint": {"width": "600 mm", "depth": "1200 mm"},
                "casters": 4,
                "power_inputs_per_side": 1,
            }
        ],
        "racks": [
            {"id": SCRIPT, "position": 1, **placement},
            {"id": MARKDOWN, "position": 2, **placement},
        ],
        "waivers": [
            {
                "rule": "FLR-001",
                "entity": SCRIPT,
                "reason": f"reason | with pipe\nand newline {SCRIPT}",
                "owner": "O'Brien <o@e.example> *bold*",
                "expires": "2027-01-31",
                "ticket": "[T-1](http://e)",
            }
        ],
    }


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    directory = tmp_path_factory.mktemp("hostile")
    (directory / "site.yaml").write_text(
        yaml.safe_dump(hostile_site(), allow_unicode=True, sort_keys=False), encoding="utf-8"
    )
    return report_for("site.yaml", cwd=directory)


def test_the_hostile_site_has_findings_on_its_hostile_entities(hostile):
    failing = {(f.rule, f.entity_id) for f in hostile.result.findings if f.status == "fail"}
    assert ("FLR-001", MARKDOWN) in failing  # 15.0 kPa > 12 kPa
    waived = {(f.rule, f.entity_id) for f in hostile.result.findings if f.status == "waived"}
    assert waived == {("FLR-001", SCRIPT)}


def test_html_renders_hostile_names_as_text(hostile):
    html = render_html(hostile)
    page = parse(html)
    assert "<script" not in html.lower()
    assert "<img" not in html.lower()
    assert "<b>1</b>" not in html
    assert not any(t in ("script", "img", "b", "i") for t, _ in page.tags)
    assert not any(k.startswith("on") for _, a in page.tags for k in a)
    assert page.external_references() == []
    assert page.mismatched == [] and page.unclosed == []
    text = "".join(page.text)
    assert SCRIPT in text  # shown, as text
    assert MARKDOWN in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_hostile_names_in_svg_are_escaped(hostile):
    html = render_html(hostile)
    svg = html[html.index('<svg class="chart floor-plan"') :]
    svg = svg[: svg.index("</svg>")]
    assert "&lt;script&gt;" in svg  # the rack's tooltip
    assert "<script" not in svg


def test_a_chart_label_cannot_inject_markup():
    u = Utilisation("R", "<e>", "1 kW", "2 kW", 0.5, "50.0 %", "fail", "Fails", 'x" onload="y')
    bar = UtilisationBar("k", SCRIPT, "m & <n>", "1 rack", u, None, "")
    svg = str(utilisation_svg(UtilisationChart("power", "<t>", "<d>", [bar], 1)))
    assert "<script" not in svg and "<t>" not in svg and "<n>" not in svg and "<e>" not in svg
    assert 'href="#x&#34; onload=&#34;y"' in svg
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in svg


def test_markdown_renders_hostile_names_inert(hostile):
    md = render_markdown(hostile)
    assert "<script" not in md and "<img" not in md and "<b>" not in md and "<!--" not in md
    assert "](http://e)" not in md.replace("\\](http://e)", "")  # no link syntax survives
    assert_tables_keep_their_columns(md)
    # newlines inside names never end a line of the report early
    assert "second line" in next(line for line in md.split("\n") if line.startswith("# "))
    assert re.search(r"&lt;script&gt;alert\(1\)&lt;/script&gt;", md)


def test_markdown_renders_hostile_names_inert_in_a_real_renderer(hostile):
    markdown_it = pytest.importorskip("markdown_it")
    md = render_markdown(hostile)
    html = markdown_it.MarkdownIt("commonmark").enable(["table", "strikethrough"]).render(md)
    assert "<script" not in html
    assert "<img" not in html
    assert 'href="http://e"' not in html
    assert "<em>" not in html and "<strong>*" not in html
    # the only code spans are the report's own hashes
    assert all(re.fullmatch(r"[0-9a-f]+", code) for code in re.findall(r"<code>(.*?)</code>", html))
