"""Bounds of reading a site file (issue 14): values per file, nesting, paths the OS refuses."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

import facility.model.yaml_reader as yaml_reader
from facility.cli import app
from facility.model.load import load_site
from facility.model.source import InputError, parse_document


def test_a_file_of_too_many_values_stops_at_the_value_that_crosses_the_bound(monkeypatch) -> None:
    monkeypatch.setattr(yaml_reader, "MAX_VALUES", 1_000)
    text = "site: {name: T}\nnotes:\n" + "".join(f"  - {n}\n" for n in range(2_000))
    with pytest.raises(InputError) as error:
        parse_document(text, "many.yaml")
    (problem,) = error.value.problems
    # the document, 'site', '{', 'name', 'T', 'notes' and '[' are 7 values: item 993 (from 0)
    # is the 1,001st, on line 3 + 993 = 996
    assert (problem.location.line, problem.location.column) == (996, 5)
    assert "more than 1,000 values in one file" in problem.message


def test_a_json_file_of_too_many_values_is_not_parsed_whole_first(monkeypatch) -> None:
    # JSON is parsed first for its own messages; past twice the reader's bound of values it
    # is not (parsed whole, 256 MB of "[]," would take 5 GB): the reader stops at the bound.
    import facility.model.source as source

    def whole(*args: object, **kwargs: object) -> None:
        raise AssertionError("parsed whole")

    monkeypatch.setattr(yaml_reader, "MAX_VALUES", 1_000)
    monkeypatch.setattr(source.json, "loads", whole)
    items = ",".join("[]" for _ in range(2_000))  # 2,000 "[" and 1,999 "," past 2 × 1,000
    with pytest.raises(InputError) as error:
        parse_document('{"site": {"name": "T"}, "notes": [' + items + "]}", "many.json")
    (problem,) = error.value.problems
    assert "more than 1,000 values in one file" in problem.message
    # Within twice the bound it is parsed first (a JSON error keeps JSON's own message).
    with pytest.raises(AssertionError, match="parsed whole"):
        parse_document('{"site": {"name": "T"}, "notes": [[], []]}', "few.json")


def test_block_nesting_is_bounded(monkeypatch) -> None:
    monkeypatch.setattr(yaml_reader, "MAX_DEPTH", 10)
    text = (
        "site: {name: T}\nnotes:\n"
        + "".join("  " * (n + 1) + "-\n" for n in range(12))
        + "  " * 13
        + "- 1\n"
    )
    with pytest.raises(InputError) as error:
        parse_document(text, "deep.yaml")
    assert "nest more than 10 deep" in str(error.value)


def _check(path: str):
    return CliRunner().invoke(app, ["check", path])


def test_paths_the_os_refuses_are_bad_input(tmp_path: Path) -> None:
    loop = tmp_path / "loop.yaml"
    os.symlink(tmp_path / "other.yaml", loop)
    os.symlink(loop, tmp_path / "other.yaml")
    cases = {
        str(loop): "cannot read the file: Too many levels of symbolic links",
        str(tmp_path / ("a" * 300 + ".yaml")): "cannot read the file: File name too long",
        # a directory is every site file in it: the two links, each named with its problem
        str(tmp_path): f"{loop}: cannot read the file: Too many levels of symbolic links",
    }
    for path, message in cases.items():
        result = _check(path)
        assert result.exit_code == 2, (path, result.output)
        assert message in result.stderr, result.stderr
        assert "Traceback" not in result.output and "internal error" not in result.stderr
        assert "\x00" not in result.stderr  # shown escaped


def test_a_nul_byte_in_the_site_path_is_a_usage_error(tmp_path: Path) -> None:
    result = _check(str(tmp_path) + "/a\x00b.yaml")
    assert result.exit_code == 2
    assert "Traceback" not in result.output and "internal error" not in result.stderr


def test_a_base_path_with_a_symlink_loop_is_bad_input(tmp_path: Path) -> None:
    os.symlink(tmp_path / "b.yaml", tmp_path / "a.yaml")
    os.symlink(tmp_path / "a.yaml", tmp_path / "b.yaml")
    site = tmp_path / "site.yaml"
    site.write_text("extends: a.yaml\nsite: {name: S}\n", encoding="utf-8")
    with pytest.raises(InputError) as error:
        load_site(site)
    assert "cannot read base 'a.yaml'" in str(error.value)


def _models(model: type, seen: set[type]) -> None:
    """Every pydantic model reachable from ``model`` through its fields' annotations."""
    import typing

    from pydantic import BaseModel

    if model in seen:
        return
    seen.add(model)
    for field in model.model_fields.values():
        stack = [field.annotation]
        while stack:
            annotation = stack.pop()
            if isinstance(annotation, type) and issubclass(annotation, BaseModel):
                _models(annotation, seen)
            stack.extend(typing.get_args(annotation))


def test_every_whole_number_of_the_site_file_has_an_upper_bound() -> None:
    # A 400-digit count is a valid Python int; turned into a float by a check it raised
    # OverflowError (found by the JSON fuzz test: rooms[0].redundant_air_units). Every int
    # field is bounded where it is read, so no figure reaches the engine too large for a float.
    import typing

    from annotated_types import Le, Lt

    from facility.model.document import SiteDocument

    models: set[type] = set()
    _models(SiteDocument, models)
    unbounded = []
    for model in models:
        for name, field in model.model_fields.items():
            if int not in (field.annotation, *typing.get_args(field.annotation)):
                continue
            if bool in typing.get_args(field.annotation) or field.annotation is bool:
                continue
            if not any(isinstance(m, Le | Lt) for m in field.metadata):
                unbounded.append(f"{model.__name__}.{name}")
    assert len(models) > 20
    assert unbounded == []


@pytest.mark.parametrize(
    ("written", "field", "said"),
    [
        (
            "redundant_air_units: 1",
            "rooms[0].redundant_air_units",
            "must be at most 1000, got a number of 400 digits",
        ),
        # a fraction may be a bare number: 400 digits are beyond any float (found by the slow
        # JSON fuzz test: OverflowError from float())
        ("power_factor: 0.95", "rack_types[0].power_factor", "a number of 400 digits"),
    ],
)
def test_a_number_of_400_digits_is_bad_input_not_an_overflow(
    tmp_path: Path, written: str, field: str, said: str
) -> None:
    site = Path(__file__).resolve().parents[2] / "examples" / "small-ready.yaml"
    text = site.read_text(encoding="utf-8")
    assert text.count(written) == 1
    key = written.split(":")[0]
    (tmp_path / "site.yaml").write_text(text.replace(written, f"{key}: {'9' * 400}"))
    result = CliRunner().invoke(app, ["check", str(tmp_path / "site.yaml")])
    assert result.exit_code == 2, result.output
    assert field in result.stderr and said in result.stderr, result.stderr
    assert "internal error" not in result.stderr
