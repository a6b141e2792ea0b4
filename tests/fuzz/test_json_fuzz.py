"""Hostile JSON — deep nesting, huge and non-finite numbers, broken text — as a site and a result.

A hole at a random place of the small ready pod (as a site file) or of its JSON result (as the
new state of ``facility diff``) is filled with a generated fragment: arrays or objects nested
up to 5,000 deep, integers of up to 5,000 digits, floats beyond any double, NaN and Infinity,
a truncated document. Then:

- the exit code is 0, 1 or 2, never a traceback or an internal error;
- ``check`` on exit 2 writes no report for people and leaves the earlier one byte for byte; the
  JSON output holds the error result (a CI check shows the bad input, not a stale verdict);
- ``diff`` on exit 2 names the result file.

A short run is in the default suite; ``-m slow`` runs many more examples.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from facility.cli import app

SITE = Path(__file__).resolve().parents[2] / "examples" / "small-ready.yaml"
HOLE = "\ue000hole\ue000"  # a private-use string that no site or result holds
EARLIER = "an earlier report\n"
DEPTHS = st.one_of(st.integers(0, 40), st.integers(60, 5_000))


@st.composite
def fragments(draw) -> str:
    """One JSON value (or not quite one) that a hostile file could hold."""
    kind = draw(st.sampled_from(["array", "object", "mixed", "digits", "float", "word", "cut"]))
    depth = draw(DEPTHS)
    if kind == "array":
        return "[" * depth + draw(st.sampled_from(["", "1", '"132 kW"'])) + "]" * depth
    if kind == "object":
        return '{"a":' * depth + '"x"' + "}" * depth
    if kind == "mixed":
        return '[{"a":' * depth + "0" + "}]" * depth
    if kind == "digits":
        digits = "9" * draw(st.integers(1, 5_000))
        return draw(st.sampled_from(["", "-"])) + digits
    if kind == "float":
        return draw(
            st.sampled_from(["1e999", "-1e999", "1e-999", "1" + "0" * 400 + ".5", "1.5e308"])
        )
    if kind == "word":
        return draw(st.sampled_from(["NaN", "Infinity", "-Infinity", "nan", "inf", "true", "null"]))
    return "[" * depth  # a document cut short


def _holes(value, path=()):
    """Every place of a JSON value a fragment can replace: each value of a mapping or list."""
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _holes(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _holes(item, (*path, index))


def _with_hole(value, path):
    if not path:
        return HOLE
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[path[0]] = _with_hole(value[path[0]], path[1:])
    return copy


def _filled(document, draw) -> str:
    places = list(_holes(document))
    place = places[draw(st.integers(0, len(places) - 1))]
    text = json.dumps(_with_hole(document, place))
    return text.replace(json.dumps(HOLE), draw(fragments()), 1)


def _assert_clean(result) -> None:
    assert result.exit_code in (0, 1, 2), (result.exit_code, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    for stream in (result.stdout, result.stderr):
        assert "Traceback" not in stream and "internal error" not in stream, stream


def _check(tmp: Path, text: str) -> None:
    site = tmp / "site.json"
    site.write_text(text, encoding="utf-8")
    report, machine = tmp / "r.html", tmp / "r.json"
    report.write_text(EARLIER, encoding="utf-8")
    machine.write_text(EARLIER, encoding="utf-8")
    result = CliRunner().invoke(app, ["check", str(site), "-o", str(report), "-o", str(machine)])
    _assert_clean(result)
    if result.exit_code == 2:
        assert report.read_text(encoding="utf-8") == EARLIER
        assert json.loads(machine.read_text(encoding="utf-8"))["verdict"] == "error"
        assert sorted(p.name for p in tmp.iterdir()) == ["r.html", "r.json", "site.json"]
    else:
        assert report.read_text(encoding="utf-8") != EARLIER
        assert json.loads(machine.read_text(encoding="utf-8"))["verdict"] != "error"


@pytest.fixture(scope="module")
def site_document() -> dict:
    return yaml.safe_load(SITE.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def result_document(tmp_path_factory) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("result") / "old.json"
    ran = CliRunner().invoke(app, ["check", str(SITE), "-o", str(out)])
    assert ran.exit_code == 0, ran.output
    return out, json.loads(out.read_text(encoding="utf-8"))


def _diff(tmp: Path, old: Path, text: str) -> None:
    new = tmp / "new.json"
    new.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(app, ["diff", str(old), str(new)])
    _assert_clean(result)
    if result.exit_code == 2:
        assert str(new) in result.stderr, result.stderr
    assert sorted(p.name for p in tmp.iterdir()) == ["new.json"]


FAST = settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
SLOW = settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@FAST
@given(data=st.data())
def test_a_site_with_hostile_json_exits_0_1_or_2(tmp_path_factory, site_document, data) -> None:
    _check(tmp_path_factory.mktemp("json"), _filled(site_document, data.draw))


@FAST
@given(data=st.data())
def test_a_result_with_hostile_json_is_compared_or_refused(
    tmp_path_factory, result_document, data
) -> None:
    old, document = result_document
    _diff(tmp_path_factory.mktemp("diff"), old, _filled(document, data.draw))


@pytest.mark.slow
@SLOW
@given(data=st.data())
def test_many_sites_with_hostile_json(tmp_path_factory, site_document, data) -> None:
    _check(tmp_path_factory.mktemp("json"), _filled(site_document, data.draw))


@pytest.mark.slow
@SLOW
@given(data=st.data())
def test_many_results_with_hostile_json(tmp_path_factory, result_document, data) -> None:
    old, document = result_document
    _diff(tmp_path_factory.mktemp("diff"), old, _filled(document, data.draw))
