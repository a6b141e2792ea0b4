"""The event reader gives the data yaml.safe_load gives, plus where every value was written."""

from __future__ import annotations

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from facility.model.source import InputError, parse_document
from facility.model.yaml_reader import MAX_ALIAS_EXPANSION, AliasBomb, Reader

SAMPLES = [
    "a: 1\nb: [x, 'y', \"z\", 2.5, -3, +4, 0o17, 010, 1_000, 0x1f, .inf, -.inf]\n",
    "flags: [yes, no, on, off, true, False, ~, null, '']\n",
    "nested:\n  - {a: 1, b: {c: [1, [2, [3]]]}}\n  - - deep\n    - [x]\n",
    "base: &b {x: 1, y: [1, 2]}\nuse: *b\nlist: [*b, *b]\n",
    "s: &s text\nt: *s\n",
    "7: one\n2.5: two\ntrue: three\n",  # a null key is refused: test_a_null_key_is_refused
    "quoted: 'it''s'\nblock: |\n  line 1\n  line 2\nfolded: >\n  a\n  b\n",
    "empty_map: {}\nempty_seq: []\n",
    "- 1\n- 2\n",
    "just a string\n",
]


def _read(text: str) -> tuple[object, dict[tuple[str | int, ...], tuple[int, int]]]:
    positions: dict[tuple[str | int, ...], tuple[int, int]] = {}
    reader = Reader(positions)
    found, data = reader.read(text)
    assert found and not reader.problems
    return data, positions


def _plain_keys(value: object) -> object:
    """safe_load keeps non-string keys as they are; the reader writes them as text."""
    if isinstance(value, dict):
        return {
            (str(k).lower() if isinstance(k, bool) else str(k)): _plain_keys(v)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_plain_keys(v) for v in value]
    return value


@pytest.mark.parametrize("text", SAMPLES)
def test_same_data_as_safe_load(text: str) -> None:
    data, _ = _read(text)
    assert data == _plain_keys(yaml.load(text, Loader=yaml.CSafeLoader))


def test_positions_of_keys_and_items() -> None:
    text = "site:\n  name: B3\nracks:\n  - id: A01\n    type: gb300\n  - {id: A02}\n"
    _, positions = _read(text)
    assert positions[("site",)] == (1, 1)
    assert positions[("site", "name")] == (2, 3)
    assert positions[("racks", 0)] == (4, 5)  # the item (a mapping) starts at its first key
    assert positions[("racks", 0, "type")] == (5, 5)
    assert positions[("racks", 1)] == (6, 5)
    assert positions[("racks", 1, "id")] == (6, 6)


def test_aliases_are_copies_not_shared_objects() -> None:
    data, _ = _read("a: &x {k: [1]}\nb: *x\n")
    assert data == {"a": {"k": [1]}, "b": {"k": [1]}}
    assert data["a"] is not data["b"] and data["a"]["k"] is not data["b"]["k"]


def test_refused_keys_skip_their_values_and_every_problem_is_reported() -> None:
    text = "a: 1\na: {deep: [1, 2]}\n<<: {m: 1}\n? [list, key]\n: v\nb: !custom x\nc: 2\n"
    positions: dict[tuple[str | int, ...], tuple[int, int]] = {}
    reader = Reader(positions)
    found, data = reader.read(text)
    assert found and data == {"a": 1, "b": None, "c": 2}
    assert reader.problems == [
        (2, 1, ("a",), "duplicate key 'a'"),
        (3, 1, (), "YAML merge keys ('<<') are not supported"),
        (4, 3, (), "mapping keys must be plain strings"),
        (6, 4, ("b",), "YAML tag '!custom' is not allowed (only plain data)"),
    ]
    assert positions[("a",)] == (1, 1)  # the first 'a', not the duplicate's nested values
    assert ("a", "deep") not in positions


def test_an_alias_bomb_stops_at_the_alias_that_crosses_the_bound() -> None:
    lines = ["l0: &l0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 10)}]" for i in range(1, 8)]
    with pytest.raises(AliasBomb) as raised:
        Reader({}).read("\n".join(lines) + "\n")
    # Values each list holds (itself included): l0 1 + 10 = 11, l1 1 + 10 x 11 = 111,
    # l2 1,111, l3 11,111. Values added by aliases: l1's 10 x 11 = 110, l2's 1,110, l3's
    # 11,110 (12,330 so far); in l4 each *l3 adds 11,111: 12,330 + k x 11,111 > 100,000 first
    # for k = 8. Line 5 ("l4: &l4 [" is 9 characters, each "*l3, " 5): column 10 + 7 x 5 = 45.
    assert MAX_ALIAS_EXPANSION == 100_000
    assert (raised.value.line, raised.value.column) == (5, 45)


def test_no_document_and_a_second_document() -> None:
    assert Reader({}).read("# only a comment\n") == (False, None)
    with pytest.raises(yaml.YAMLError, match="expected a single document"):
        Reader({}).read("a: 1\n---\nb: 2\n")
    with pytest.raises(yaml.YAMLError, match="found undefined alias 'nope'"):
        Reader({}).read("a: *nope\n")


_scalars = st.one_of(
    st.integers(-(10**12), 10**12),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.booleans(),
    st.none(),
    st.text(st.characters(codec="utf-8", exclude_categories=["Cs", "Cc"]), max_size=8),
)
_documents = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text("abcxyz_", min_size=1, max_size=5), inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=60, deadline=None)
@given(_documents, st.booleans())
def test_any_dumped_document_reads_back(document: object, flow: bool) -> None:
    text = yaml.safe_dump({"doc": document}, default_flow_style=flow, allow_unicode=True)
    data, _ = _read(text)
    assert data == yaml.safe_load(text)


def test_a_null_key_is_refused() -> None:
    # PyYAML reads '~: four' as the key None, which used to show as a field named 'None'
    with pytest.raises(InputError) as error:
        parse_document("site: {name: T}\n~: four\n", "k.yaml")
    (problem,) = error.value.problems
    assert (problem.location.line, problem.message) == (2, "a mapping key must not be null")
