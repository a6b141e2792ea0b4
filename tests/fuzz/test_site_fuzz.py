"""Generated and mutated site files through load → audit → every report format.

No exception may escape: a bad file is an InputError (exit 2 in the CLI), a good one yields
reports that parse — HTML by a parser (balanced, no script, no event handler, nothing
external), JSON by json, SARIF by json and the OASIS SARIF 2.1.0 schema, JUnit by an XML
parser, Markdown with every table keeping its columns — and no report carries a raw control
or bidi character. Sites are the example with values mutated, the example with hostile names,
and valid sites generated from scratch. A short run is in the default suite; ``-m slow`` runs
many more examples.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema.validators import validator_for

from facility.engine.evaluate import audit
from facility.engine.rules import load_rules
from facility.engine.waivers import apply_waivers
from facility.model.load import load_site
from facility.model.source import InputError
from facility.report.context import ReportInput
from facility.report.outputs import RENDERERS, renderer
from tests.report.htmlcheck import parse
from tests.report.test_markdown import table_rows

BASE = yaml.safe_load(
    (Path(__file__).resolve().parents[2] / "examples" / "hall-b3.yaml").read_text(encoding="utf-8")
)
RULES = load_rules(profile="tier-iii")
NASTY = st.sampled_from(
    [
        "<script>alert(1)</script>",
        "| * _ ` [x](http://e) \\",
        '=HYPERLINK("http://e")',
        "\x1b[31mred\x1b[0m",
        "\x1b]8;;http://x\x07link\x1b]8;;\x07 \x1b[2J",
        "A\u009b2J\u202eR\u2066",
        "cr\roverwrite\x00\x7f\x85",
        '" onmouseover="alert(1)',
        "# head **bold** [l](javascript:x) `t`",
        "+1 @SUM(A1)",
        "名字 ü ∆",
        "a\nb",
        "",
        " ",
        "0",
        "-1 kW",
        "nan kW",
        "1e308 kW",
        "132 kg",
        "90 degF",
        "10 K",
        "2,5 bar",
    ]
)
# The slow runs' values: integers up to a few hundred (a row of 300 racks through every
# report takes seconds) and huge ones beyond every bound. With counts the model accepts in the
# thousands (each such example a campus through every report), one CI run's slow suite took 22
# minutes instead of 7; sites of that size are the benchmarks' and the generated-campus tests'
# (tests/engine/test_conservation.py). These three tests now take under 3 minutes on one core.
VALUES = st.one_of(
    NASTY,
    st.integers(-10, 300),
    st.sampled_from([10**6, 2**31, 2**63, -(2**63)]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.none(),
    st.lists(st.integers(0, 3), max_size=3),
    st.dictionaries(st.sampled_from(["id", "x", "type"]), st.integers(0, 3), max_size=2),
)


# The default suite's values: small integers, and huge ones beyond every bound of the model (a
# count of 10**6 is refused). An integer that a count accepts, say 5,000 racks in a row, makes
# a campus whose every report takes minutes: the default bounds its work by the size of the
# site it can build, and the slow runs (VALUES) by a few hundred.
BOUNDED_VALUES = st.one_of(
    NASTY,
    st.integers(-10, 16),
    st.sampled_from([10**6, 2**31, 2**63, -(2**63)]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.none(),
    st.lists(st.integers(0, 3), max_size=3),
    st.dictionaries(st.sampled_from(["id", "x", "type"]), st.integers(0, 3), max_size=2),
)


def paths(node, prefix=()):
    """Every (path, value) of a nested document."""
    yield prefix, node
    if isinstance(node, dict):
        for key, value in node.items():
            yield from paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from paths(value, (*prefix, index))


ALL_PATHS = [p for p, _ in paths(BASE) if p]


def mutate(document, path, value):
    doc = json.loads(json.dumps(document))
    node = doc
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value
    return doc


# Raw in no report: C0 controls (but newline and tab), DEL, C1, bidi controls, line separators.
RAW = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]"
)


@functools.cache
def sarif_validator():
    data = Path(__file__).resolve().parents[1] / "report_machine" / "data"
    schema = json.loads((data / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    return validator_for(schema)(schema)


def check_report(fmt: str, text: str) -> None:
    """``text`` parses as ``fmt`` and is inert."""
    assert isinstance(text, str) and text
    assert RAW.search(text) is None, (fmt, RAW.search(text))
    if fmt == "json":
        json.loads(text)
    elif fmt == "sarif":
        sarif_validator().validate(json.loads(text))
    elif fmt == "junit":
        ET.fromstring(text.encode("utf-8"))
    elif fmt == "html":
        page = parse(text)
        assert page.mismatched == [] and page.unclosed == []
        assert not any(tag in ("script", "iframe", "object", "embed") for tag, _ in page.tags)
        assert not any(k.startswith("on") for _, attrs in page.tags for k in attrs)
        assert page.external_references() == []
    elif fmt == "markdown":
        assert "<script" not in text and not re.search(r"(?<!\\)\]\(javascript:", text)
        for table in table_rows(text):
            assert len({len(row) for row in table}) == 1, table


def run_everything(tmp_path: Path, document, must_load: bool = False) -> None:
    path = tmp_path / "site.yaml"
    path.write_text(yaml.safe_dump(document, allow_unicode=True), encoding="utf-8")
    try:
        site = load_site(path)
    except InputError as error:
        assert not must_load, str(error)
        assert error.problems, "an InputError names at least one problem"
        for problem in error.problems:
            assert problem.location.file == str(path) and problem.location.line >= 1
        return
    result = audit(site, RULES)
    waivers = apply_waivers(result, site.waivers, dt.date(2026, 11, 29), {})
    report = ReportInput(result, site, RULES, waivers, dt.datetime(2026, 11, 29, 12, tzinfo=dt.UTC))
    for fmt in RENDERERS:
        check_report(fmt, renderer(fmt)(report))


fast = settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
# Whole generated sites through every renderer cost more: fewer in the default suite.
short = settings(
    max_examples=3,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
slow = settings(
    max_examples=600,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@fast
@given(path=st.sampled_from(ALL_PATHS), value=BOUNDED_VALUES)
def test_one_mutated_value_never_escapes(tmp_path_factory, path, value) -> None:
    run_everything(tmp_path_factory.mktemp("fuzz"), mutate(BASE, path, value))


def _named(name: str):
    document = json.loads(json.dumps(BASE))
    document["site"]["name"] = name or "x"
    document["rows"][0]["racks"]["prefix"] = name.replace("\n", "") or "A"
    return document


@short
@given(name=NASTY)
def test_hostile_names_everywhere(tmp_path_factory, name) -> None:
    run_everything(tmp_path_factory.mktemp("names"), _named(name))


@pytest.mark.slow
@slow
@given(name=NASTY)
def test_many_hostile_names_everywhere(tmp_path_factory, name) -> None:
    run_everything(tmp_path_factory.mktemp("names"), _named(name))


@pytest.mark.slow
@slow
@given(edits=st.lists(st.tuples(st.sampled_from(ALL_PATHS), VALUES), min_size=1, max_size=4))
def test_many_mutations_never_escape(tmp_path_factory, edits) -> None:
    document = BASE
    for path, value in edits:
        try:
            document = mutate(document, path, value)
        except (KeyError, IndexError, TypeError):
            continue  # an earlier edit removed the path
    run_everything(tmp_path_factory.mktemp("fuzz"), document)


# --- valid sites generated from scratch ------------------------------------------------------------

NAMES = st.one_of(NASTY.filter(bool), st.text(min_size=1, max_size=12))
IDS = st.one_of(
    st.sampled_from(["A", "R-1", "<b>x</b>", "a|b", "**c**", "=SUM(1)", "Z\u202e", "A\u009b2J"]),
    st.from_regex(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,7}", fullmatch=True),
)


@st.composite
def valid_sites(draw):
    """A small valid site: one zone, one loop, racks of a catalog type with generated figures."""
    zone, loop, cdu = draw(st.lists(IDS, min_size=3, max_size=3, unique=True))
    racks = draw(
        st.lists(
            IDS.filter(lambda i: i not in (zone, loop, cdu)), min_size=1, max_size=5, unique=True
        )
    )
    kw = draw(st.integers(5, 200))
    return {
        "schema_version": 1,
        "site": {"name": draw(NAMES), "notes": draw(NAMES)},
        "floor_zones": [
            {
                "id": zone,
                "construction": draw(st.sampled_from(["slab", "raised_floor"])),
                "uniform_load_rating": f"{draw(st.integers(5, 40))} kPa",
                "area": f"{draw(st.integers(10, 500))} m**2",
            }
        ],
        "rack_types": [
            {
                "id": "t",
                "catalog": "gb300-nvl72",
                "nominal_power": f"{kw} kW",
                "peak_power": f"{kw + draw(st.integers(0, 30))} kW",
            }
        ],
        "cooling": {
            "facility_water": [{"id": "FW", "supply_temperature": "30 degC"}],
            "cdus": [{"id": cdu, "catalog": "vertiv-xdu1350", "facility_water": "FW"}],
            "tcs_loops": [{"id": loop, "coolant": {"fluid": "water"}, "cdus": [cdu]}],
        },
        "racks": [
            {
                "id": r,
                "type": "t",
                "zone": zone,
                "loop": loop,
                "position": i + 1,
                "pdus": {
                    "A": {"type": "pdu-3p-415v-63a", "count": draw(st.integers(1, 4))},
                    "B": {"type": "pdu-3p-415v-63a", "count": draw(st.integers(1, 4))},
                },
            }
            for i, r in enumerate(racks)
        ],
        "waivers": [
            {
                "rule": "FLR-001",
                "entity": racks[0],
                "reason": draw(NAMES),
                "owner": draw(NAMES),
                "expires": "2027-01-31",
            }
        ],
    }


@short
@given(document=valid_sites())
def test_generated_valid_sites_render_every_report(tmp_path_factory, document) -> None:
    run_everything(tmp_path_factory.mktemp("valid"), document, must_load=True)


@pytest.mark.slow
@slow
@given(document=valid_sites())
def test_many_generated_valid_sites_render_every_report(tmp_path_factory, document) -> None:
    run_everything(tmp_path_factory.mktemp("valid"), document, must_load=True)
