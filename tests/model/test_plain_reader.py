"""The plain reader (rule files, profiles, the catalog) gives the positional reader's data and
refuses what it refuses: it leaves every document it does not read exactly to that reader."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from facility.model.source import DeferredSourceMap, InputError, parse_document, parse_plain
from facility.model.yaml_reader import NotPlain, read_plain
from tests.model.test_yaml_reader import SAMPLES, _documents

ROOT = Path(__file__).resolve().parents[2]
# Every YAML file the project ships or tests with: rules, profiles, the catalog, examples, the
# hostile corpus (tags, merge keys, aliases, duplicate and null keys, control characters...).
FILES = sorted(
    path
    for folder in ("rules", "facility/catalog", "examples", "tests/hostile/corpus")
    for path in (ROOT / folder).rglob("*.yaml")
)


def _typed(value: Any) -> Any:
    """``value`` with the type of every scalar beside it (True == 1 == 1.0 in Python)."""
    if isinstance(value, dict):
        return {key: _typed(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_typed(item) for item in value]
    return (type(value).__name__, repr(value))


def _outcome(parse: Any, text: str, file: str) -> Any:
    try:
        data, _ = parse(text, file)
    except InputError as error:
        return ("refused", [str(problem) for problem in error.problems])
    return ("read", _typed(data))


def test_the_files_are_there() -> None:
    assert len([p for p in FILES if p.is_relative_to(ROOT / "rules" / "profiles")]) >= 2
    assert len([p for p in FILES if "catalog" in p.parts]) >= 4
    assert len(FILES) > 150


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_same_data_and_problems_as_the_positional_reader(path: Path) -> None:
    text = path.read_text(encoding="utf-8", errors="surrogateescape")
    file = str(path)
    assert _outcome(parse_plain, text, file) == _outcome(parse_document, text, file)


@pytest.mark.parametrize(
    "path",
    [p for p in FILES if p.is_relative_to(ROOT / "rules") or "catalog" in p.parts],
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_every_bundled_file_is_plain_and_locates_as_before(path: Path) -> None:
    """The rule files, profiles and catalog are read without positions; asked for one, the
    source map has every position the positional reader records."""
    text = path.read_text(encoding="utf-8")
    data, source = parse_plain(text, str(path))
    assert isinstance(source, DeferredSourceMap) and not source.positions
    expected, located = parse_document(text, str(path))
    assert _typed(data) == _typed(expected)
    assert source.locate(("code",)) == located.locate(("code",))
    assert source.positions == located.positions


# What the plain reader leaves to the positional one: each is read (or refused) there.
NOT_PLAIN = [
    "base: &b {x: 1}\nuse: *b\n",  # an anchor and an alias
    "s: &s text\n",  # an anchor on a scalar
    "a: 1\na: 2\n",  # a duplicate key
    "<<: {m: 1}\n",  # a merge key
    "~: four\n",  # a null key
    "? [list, key]\n: v\n",  # a collection as a key
    "b: !custom x\n",  # a tag the reader refuses
    "b: !!int x\n",  # a value that is not its tag
    "b: !!map {x: 1}\n",  # a tag on a collection
    "a: 1\n---\nb: 2\n",  # two documents
    "# only a comment\n",  # no document
    "a: [1, 2\n",  # not YAML
    "a: *nope\n",  # an undefined alias
    "n: 1" + "0" * 20000 + "\n",  # more digits than Python reads as an int
    "[" * 70 + "]" * 70 + "\n",  # nested past the bound
]


@pytest.mark.parametrize("text", NOT_PLAIN)
def test_anything_else_is_left_to_the_positional_reader(text: str) -> None:
    with pytest.raises(NotPlain):
        read_plain(text)
    assert _outcome(parse_plain, text, "x.yaml") == _outcome(parse_document, text, "x.yaml")
    try:
        _, source = parse_plain(text, "x.yaml")
    except InputError:
        return
    assert not isinstance(source, DeferredSourceMap)


@pytest.mark.parametrize("text", SAMPLES)
def test_samples(text: str) -> None:
    assert _outcome(parse_plain, text, "x.yaml") == _outcome(parse_document, text, "x.yaml")


def test_yaml_1_1_scalars_read_as_the_positional_reader_reads_them() -> None:
    text = (
        "on: yes\nflags: [no, off, True, ~, null, '']\nints: [010, 0o17, 0x1f, 1_000, +4, 0b11, "
        "190:20:30]\nfloats: [1.5, 1e3, 1.0e+3, .inf, -.inf, 6.8523015e+5]\n"
        "dates: [2026-12-01, 2001-12-14t21:59:43.10-05:00]\n7: seven\n2.5: two\nkey: 'it''s'\n"
    )
    data = read_plain(text)
    assert _typed(data) == _typed(parse_document(text, "x.yaml")[0])
    assert data["true"] is True and data["ints"][0] == 8 and data["dates"][0] == "2026-12-01"
    assert list(data) == ["true", "flags", "ints", "floats", "dates", "7", "2.5", "key"]


def test_a_control_character_is_refused_at_its_place() -> None:
    text = "a: 1\nb: x\x07y\n"
    with pytest.raises(InputError) as error:
        parse_plain(text, "x.yaml")
    assert str(error.value.problems[0]).startswith("x.yaml:2:5: ")


def test_json_is_read_by_the_positional_reader() -> None:
    _, source = parse_plain('{"a": 1}', "x.json")
    assert not isinstance(source, DeferredSourceMap)


@settings(max_examples=60, deadline=None)
@given(_documents, st.booleans())
def test_any_dumped_document_reads_the_same(document: object, flow: bool) -> None:
    text = yaml.safe_dump({"doc": document}, default_flow_style=flow, allow_unicode=True)
    assert _typed(read_plain(text)) == _typed(parse_document(text, "x.yaml")[0])
