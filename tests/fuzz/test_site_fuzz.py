"""Generated and mutated site files through load → audit → every report format.

No exception may escape: a bad file is an InputError (exit 2 in the CLI), a good one yields
reports that parse — HTML by a parser, JSON by json, SARIF as JSON with its version, JUnit and
Markdown as text. A short run is in the default suite; ``-m slow`` runs many more examples.
"""

from __future__ import annotations

import datetime as dt
import json
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from facility.engine.evaluate import audit
from facility.engine.rules import load_rules
from facility.engine.waivers import apply_waivers
from facility.model.load import load_site
from facility.model.source import InputError
from facility.report.context import ReportInput
from facility.report.outputs import RENDERERS, renderer

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
VALUES = st.one_of(
    NASTY,
    st.integers(-10, 10**6),
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


class _Strict(HTMLParser):
    def error(self, message):  # pragma: no cover - html.parser calls it on hard errors
        raise AssertionError(message)


def run_everything(tmp_path: Path, document) -> None:
    path = tmp_path / "site.yaml"
    path.write_text(yaml.safe_dump(document, allow_unicode=True), encoding="utf-8")
    try:
        site = load_site(path)
    except InputError as error:
        assert error.problems, "an InputError names at least one problem"
        for problem in error.problems:
            assert problem.location.file == str(path) and problem.location.line >= 1
        return
    result = audit(site, RULES)
    waivers = apply_waivers(result, site.waivers, dt.date(2026, 11, 29), {})
    report = ReportInput(result, site, RULES, waivers, dt.datetime(2026, 11, 29, 12, tzinfo=dt.UTC))
    for fmt in RENDERERS:
        text = renderer(fmt)(report)
        assert isinstance(text, str) and text
        if fmt == "json":
            json.loads(text)
        elif fmt == "sarif":
            assert json.loads(text)["version"] == "2.1.0"
        elif fmt == "junit":
            ET.fromstring(text.encode("utf-8"))
        elif fmt == "html":
            _Strict().feed(text)
            assert "<script>alert(1)</script>" not in text


fast = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
slow = settings(
    max_examples=600,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@fast
@given(path=st.sampled_from(ALL_PATHS), value=VALUES)
def test_one_mutated_value_never_escapes(tmp_path_factory, path, value) -> None:
    run_everything(tmp_path_factory.mktemp("fuzz"), mutate(BASE, path, value))


@fast
@given(name=NASTY)
def test_hostile_names_everywhere(tmp_path_factory, name) -> None:
    document = json.loads(json.dumps(BASE))
    document["site"]["name"] = name or "x"
    document["rows"][0]["racks"]["prefix"] = name.replace("\n", "") or "A"
    run_everything(tmp_path_factory.mktemp("names"), document)


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
