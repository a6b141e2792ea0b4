"""Hostile names: HTML and Markdown in a site file render as inert text in every report."""

from __future__ import annotations

import contextlib
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml

from facility.analysis.diff import full_findings
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


# --- every output of `facility check`, through the command line ----------------------------------

ESCAPES = "\x1b[2J\x1b]8;;http://x\x07link\x1b]8;;\x07\r\x08\x00\x7f\u009b31m\u202eevil\u2066"
EVERYTHING = (
    '<script>alert(1)</script> " onmouseover="alert(1) | pipe | **bold** [link](javascript:x) '
    '`tick`\n# heading =HYPERLINK("http://x") +1 @SUM(A1) ' + ESCAPES
)
HOSTILE_ID = '<b>R</b>|**b**[l](javascript:x)`t`=HYPERLINK("x")\u009b2J\u202eR'
# Raw in no output: C0 controls (but newline and tab), DEL, C1, bidi controls, line separators.
RAW = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]"
)
HOSTILE_RULE = """\
code: XYZ-001
name: custom.hostile_title
title: "<script>alert(1)</script> **x** [l](javascript:x) `t` \\e[2J\\u202e"
area: floor
scope: rack
severity: warning
observed: footprint_pressure
limit: zone_uniform_load_rating
condition: observed <= limit
requirement: "<img src=x onerror=alert(1)> | a | \\e]8;;http://x\\a"
why: "# not a heading **not bold** \\u202e"
references: ["[ref](javascript:x) <i>"]
"""


def everything_site() -> dict:
    site = hostile_site()
    site["site"]["name"] = "Hall " + EVERYTHING
    site["site"]["location"] = EVERYTHING
    site["site"]["notes"] = EVERYTHING
    site["rooms"][0]["name"] = EVERYTHING
    site["racks"][1]["id"] = HOSTILE_ID
    site["waivers"][0]["reason"] = EVERYTHING
    site["waivers"][0]["owner"] = EVERYTHING
    site["waivers"][0]["ticket"] = EVERYTHING
    site["waivers"].append({**site["waivers"][0], "entity": "nobody", "expires": "2020-01-01"})
    return site


@pytest.fixture(scope="module")
def outputs(tmp_path_factory) -> dict[str, str]:
    from typer.testing import CliRunner

    from facility.cli import app

    directory = tmp_path_factory.mktemp("everything")
    (directory / "site.yaml").write_text(
        yaml.safe_dump(everything_site(), allow_unicode=True, sort_keys=False), encoding="utf-8"
    )
    (directory / "rules").mkdir()
    (directory / "rules" / "XYZ-001.yaml").write_text(HOSTILE_RULE, encoding="utf-8")
    names = {
        "html": "r.html",
        "markdown": "r.md",
        "json": "r.json",
        "sarif": "r.sarif",
        "junit": "r.xml",
        "text": "r.txt",
    }
    args = ["check", "site.yaml", "--rules", "rules", "--generated-at", "2026-11-29T12:00:00Z"]
    for name in names.values():
        args += ["-o", name]
    with contextlib.chdir(directory):
        result = CliRunner().invoke(app, args)
    assert result.exit_code == 1, result.output  # findings, not an error
    texts = {f: (directory / n).read_text(encoding="utf-8") for f, n in names.items()}
    texts["stdout"] = result.stdout
    return texts


@pytest.mark.parametrize("fmt", ["html", "markdown", "json", "sarif", "junit", "text", "stdout"])
def test_no_output_carries_a_raw_control_or_bidi_character(outputs, fmt):
    found = RAW.search(outputs[fmt])
    assert found is None, (fmt, outputs[fmt][max(0, found.start() - 60) : found.end() + 20])


def test_the_terminal_shows_escapes_escaped(outputs):
    for text in (outputs["text"], outputs["stdout"]):
        assert "\\x1b[2J\\x1b]8;;http://x\\x07link" in text
        assert "\\u202e" in text and "\\x9b31m" in text and "\\r" in text
        first = text.splitlines()[0]  # a newline in the name does not start a line of its own
        assert first.startswith("Hall <script>") and "\\n# heading" in first
        assert not any(line.startswith("# heading") for line in text.splitlines())
    # the rule's title, escaped, where the summary names it: its cause's label
    assert (
        ": <script>alert(1)</script> **x** [l](javascript:x) `t` \\x1b[2J\\u202e — "
        "2 failing checks: XYZ-001 ×2"
    ) in outputs["text"]


def test_the_html_is_inert(outputs):
    html = outputs["html"]
    page = parse(html)
    assert page.mismatched == [] and page.unclosed == []
    assert not any(t in ("script", "img", "b", "i") for t, _ in page.tags)
    assert not any(k.startswith("on") for _, a in page.tags for k in a)
    assert not any("javascript:" in link for link in page.links())
    assert page.external_references() == []
    text = "".join(page.text)
    assert "<script>alert(1)</script>" in text and "\\x1b[2J" in text  # shown, as text


def test_the_markdown_keeps_its_structure(outputs):
    md = outputs["markdown"]
    assert "<script" not in md and "<img" not in md and "<b>" not in md
    assert not re.search(r"(?<!\\)\]\(javascript:", md)
    assert not any(line.startswith("# heading") for line in md.splitlines())
    assert_tables_keep_their_columns(md)
    markdown_it = pytest.importorskip("markdown_it")
    html = markdown_it.MarkdownIt("commonmark").enable(["table"]).render(md)
    assert "<script" not in html and "javascript:" not in html.replace("javascript:x)", "")
    assert "<strong>bold</strong>" not in html and "<h1>heading" not in html


def test_json_and_sarif_are_valid_and_keep_the_exact_text(outputs):
    from jsonschema.validators import validator_for

    result = json.loads(outputs["json"])
    assert result["site"]["name"] == "Hall " + EVERYTHING  # the data, exactly
    assert any(f["entity"]["id"] == HOSTILE_ID for f in full_findings(result))
    log = json.loads(outputs["sarif"])
    data = Path(__file__).resolve().parents[1] / "report_machine" / "data"
    schema = json.loads((data / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    validator_for(schema)(schema).validate(log)
    [rule] = [r for r in log["runs"][0]["tool"]["driver"]["rules"] if r["id"] == "XYZ-001"]
    markdown = rule["help"]["markdown"]
    assert "\\<script\\>" in markdown and "\\[ref\\](javascript:x)" in markdown
    assert "\\*\\*x\\*\\*" in markdown and "\\<img" in markdown


def test_junit_is_xml_without_controls(outputs):
    root = ET.fromstring(outputs["junit"].encode("utf-8"))
    names = {case.get("name") for case in root.iter("testcase")}
    assert 'rack <b>R</b>|**b**[l](javascript:x)`t`=HYPERLINK("x")2JR' in names


@pytest.fixture(scope="module")
def other_commands(tmp_path_factory) -> dict[str, str]:
    """stdout of every other command that shows names from the site, on the same site."""
    from typer.testing import CliRunner

    from facility.cli import app

    directory = tmp_path_factory.mktemp("other-commands")
    site = everything_site()
    (directory / "site.yaml").write_text(
        yaml.safe_dump(site, allow_unicode=True, sort_keys=False), encoding="utf-8"
    )
    rack = site["racks"][1]
    commands = {
        "failures": ["failures", "site.yaml"],
        "failures-json": ["failures", "site.yaml", "-f", "json"],
        "headroom": ["headroom", "site.yaml", "--rack-type", rack["type"], "--zone", ZONE],
        "diff": ["diff", "site.yaml", "site.yaml"],
        "diff-json": ["diff", "site.yaml", "site.yaml", "-f", "json"],
        "inventory": ["inventory", "site.yaml"],
        "export-csv": ["export", "csv", "site.yaml"],
    }
    texts = {}
    with contextlib.chdir(directory):
        for name, args in commands.items():
            result = CliRunner().invoke(app, args)
            assert result.exit_code in (0, 1), (name, result.output)
            texts[name] = result.stdout
    return texts


@pytest.mark.parametrize(
    "command",
    ["failures", "failures-json", "headroom", "diff", "diff-json", "inventory"],
)
def test_every_other_command_shows_hostile_names_inert(other_commands, command):
    text = other_commands[command]
    assert text.strip(), command  # it printed something
    found = RAW.search(text)
    assert found is None, (command, text[max(0, found.start() - 60) : found.end() + 20])
    if command.endswith("-json"):
        json.loads(text)  # still valid JSON: the characters are \\u escapes, same data


def test_failures_json_keeps_the_exact_hostile_id(other_commands):
    data = json.loads(other_commands["failures-json"])

    def strings(value: object) -> list[str]:
        if isinstance(value, dict):
            return [s for v in value.values() for s in strings(v)]
        if isinstance(value, list):
            return [s for v in value for s in strings(v)]
        return [value] if isinstance(value, str) else []

    assert any(HOSTILE_ID in text for text in strings(data))  # the data, exactly


def test_csv_export_to_a_pipe_keeps_hostile_ids_exactly(other_commands):
    # CliRunner's stdout is not a terminal: the CSV is written as is, so a file round-trips.
    # (Formula-looking cells are quoted on export: tests/imports/csv.)
    import csv
    import io

    rows = list(csv.DictReader(io.StringIO(other_commands["export-csv"])))
    assert HOSTILE_ID in [row["id"] for row in rows]  # control and bidi characters kept


def test_a_lone_surrogate_is_written_as_its_escape() -> None:
    # No UTF-8 output can hold half a surrogate pair ('\ud800'): shown and written as its escape
    from facility.printable import json_inert, printable

    assert printable("R\ud800") == "R\\ud800"
    assert json_inert('"R\ud800"') == '"R\\ud800"'
    assert printable("R\U0001f600") == "R\U0001f600"  # a whole pair is a character


def test_json_inert_of_ascii_text_escapes_only_del() -> None:
    # ASCII text is checked without the pattern: DEL is its only character to escape
    from facility.printable import json_inert

    text = '{"id": "A01", "note": "tab\\t"}'
    assert json_inert(text) is text
    assert json_inert('"A\x7f01"') == '"A\\u007f01"'
    assert json_inert('"A\x8501\u202e"') == '"A\\u008501\\u202e"'  # and the others, not ASCII
