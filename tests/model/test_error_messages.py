"""Error messages a user can act on (issue 17): "did you mean" for unknown keys, choices, ids
and units; reference errors in the same run as schema errors; never pydantic's wording; a file
that cannot be read named without a line and column."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic_core import PydanticKnownError
from typer.testing import CliRunner

from facility.cli import app
from facility.model.errors import _PYDANTIC, validation_message
from facility.model.load import load_site
from facility.model.source import InputError
from facility.spelling import suggestions
from facility.units import QuantityError, parse_quantity

SMALL = Path(__file__).resolve().parents[2] / "examples" / "small-ready.yaml"

# pydantic's own wording, which names classes and error types rather than what to write
PYDANTIC_WORDING = re.compile(
    r"Input should|validation error|type=|For further information|\[type=|Value error|"
    r"Field required|String should|should have at|instance of|pydantic|errors\.pydantic",
    re.IGNORECASE,
)


def _problems(tmp_path: Path, text: str, name: str = "site.yaml") -> list[tuple[int, str, str]]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_site(path)
    return [(p.location.line, p.field, str(p.message)) for p in info.value.problems]


def _line_of(text: str, words: str) -> int:
    """The line (from 1) of the one line of ``text`` holding ``words``: the example grows."""
    (line,) = [n for n, row in enumerate(text.splitlines(), 1) if words in row]
    return line


def _small(replace: str, by: str) -> str:
    text = SMALL.read_text(encoding="utf-8")
    assert text.count(replace) == 1, replace
    return text.replace(replace, by)


# --- unknown keys -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("replace", "by", "field", "meant"),
    [
        ("  name: Small pod R1", "  nme: Small pod R1", "site.nme", "name"),
        ("nominal_power: 135 kW", "nominal_powr: 135 kW", "rack_types[0].nominal_powr", "nominal_power"),
        ("    casters: 4", "    Casters: 4", "rack_types[0].Casters", "casters"),
        ("{width: 600 mm,", "{widht: 600 mm,", "rack_types[0].footprint.widht", "width"),
        ("A: {type: pdu-415v-63a, count: 5,", "A: {type: pdu-415v-63a, cont: 5,", "rows[0].pdus.A.cont", "count"),
        ("pumps: {installed: 3, required: 2}, primary_pressure_drop: 0.7 bar, max_racks: 8,\n       rated_primary_flow: 2400 L/min}\n    - {id: CDU-2",
         "pumps: {instaled: 3, required: 2}, primary_pressure_drop: 0.7 bar, max_racks: 8,\n       rated_primary_flow: 2400 L/min}\n    - {id: CDU-2",
         "cooling.cdus[0].pumps.instaled", "installed"),
        ("coolant: {fluid:", "coolant: {fluids:", "cooling.tcs_loops[0].coolant.fluids", "fluid"),
        ("    loop: TCS-1\n", "    tcs_loop: TCS-1\n", "rows[0].tcs_loop", "loop"),
        ("    zone: Z-R1\n", "    floorzone: Z-R1\n", "rows[0].floorzone", "zone"),
        ("  continuous_load_derating:", "  continuous_load_derate:", "conventions.continuous_load_derate", "continuous_load_derating"),
        ("rack_types:\n", "racktypes:\n", "racktypes", "rack_types"),
    ],
)  # fmt: skip
def test_an_unknown_key_names_the_closest_key_of_its_place(
    tmp_path: Path, replace: str, by: str, field: str, meant: str
) -> None:
    problems = _problems(tmp_path, _small(replace, by))
    mine = [p for p in problems if p[1] == field]
    assert mine, problems
    key = field.rsplit(".", 1)[-1]
    assert mine[0][2] == f"unknown field '{key}'; did you mean '{meant}'?"


def test_a_key_written_with_more_words_names_the_key(tmp_path: Path) -> None:
    text = "site: {name: T}\nracks:\n  - {id: R1, type: gb300-nvl72, pdu_feed: A, zone_id: Z1}\n"
    assert sorted(_problems(tmp_path, text)) == [
        (3, "racks[0].pdu_feed", "unknown field 'pdu_feed'; did you mean 'pdus'?"),
        (3, "racks[0].zone_id", "unknown field 'zone_id'; did you mean 'zone'?"),
    ]


def test_an_unknown_key_with_nothing_close_lists_the_keys_of_its_place(tmp_path: Path) -> None:
    (problem,) = _problems(tmp_path, "site: {name: T}\nrooms: [{id: R, colour: red}]\n")
    assert problem == (
        2,
        "rooms[0].colour",
        "unknown field 'colour' (the fields here: cooling_loss, design_condition, id, move_in_route, name, redundant_air_units)",
    )


def test_a_misspelt_required_key_is_one_problem_at_the_key(tmp_path: Path) -> None:
    # 'widht' for the required 'width': not also "missing required field 'width'"
    problems = _problems(tmp_path, _small("{width: 600 mm,", "{widht: 600 mm,"))
    assert [field for _, field, _ in problems] == ["rack_types[0].footprint.widht"]


# --- choices and ids --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("replace", "by", "field", "meant"),
    [
        ("fluid: propylene_glycol", "fluid: propylene_glycl", "cooling.tcs_loops[0].coolant.fluid", "propylene_glycol"),
        ("fluid: propylene_glycol", "fluid: Water", "cooling.tcs_loops[0].coolant.fluid", "water"),
        ("construction: raised_floor", "construction: raised-floor", "floor_zones[0].construction", "raised_floor"),
        ("    type: gb300-r1\n", "    type: gb300-r2\n", "rows[0].type", "gb300-r1"),
        ("    zone: Z-R1\n", "    zone: Z-R2\n", "rows[0].zone", "Z-R1"),
        ("    loop: TCS-1\n", "    loop: TCS1\n", "rows[0].loop", "TCS-1"),
        ("cdus: [CDU-1, CDU-2]", "cdus: [CDU-1, CDU2]", "cooling.tcs_loops[0].cdus[1]", "CDU-2"),
        ("catalog: gb300-nvl72 ", "catalog: gb300-nv172 ", "rack_types[0].catalog", "gb300-nvl72"),
        ("A: {type: pdu-415v-63a,", "A: {type: pdu-415v-36a,", "rows[0].pdus.A.type", "pdu-415v-63a"),
        ("      room: R1\n      # Heat", "      room: r1\n      # Heat", "cooling.tcs_loops[0].room", "R1"),
    ],
)  # fmt: skip
def test_a_wrong_choice_or_id_names_the_closest_one(
    tmp_path: Path, replace: str, by: str, field: str, meant: str
) -> None:
    problems = _problems(tmp_path, _small(replace, by))
    mine = [message for _, f, message in problems if f == field]
    assert mine, problems
    assert mine[0].endswith(f"; did you mean '{meant}'?"), mine[0]


def test_a_status_is_suggested_in_the_document_block(tmp_path: Path) -> None:
    text = "site:\n  name: T\n  document: {number: D-1, revision: A, status: isued}\n"
    problems = _problems(tmp_path, text)
    assert problems[0][1] == "site.document.status"
    assert problems[0][2] == (
        "must be 'draft', 'for-review' or 'issued', got 'isued'; did you mean 'issued'?"
    )


def test_nothing_is_suggested_when_nothing_is_close() -> None:
    assert suggestions("zebra", ["water", "propylene_glycol", "ethylene_glycol"]) == []
    assert suggestions("water", ["water"]) == []  # it is a choice: nothing to suggest
    # among 1,001 ids only the same id in another case is looked for (difflib is quadratic)
    many = [f"rack-{n}" for n in range(1001)]
    assert suggestions("RACK-7", many) == ["rack-7"]
    assert suggestions("rack-7x", many) == []


# --- units ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind", "said"),
    [
        # C is the coulomb (A·s), F the farad, c the speed of light: read, but not temperatures
        ("30 C", "temperature", "got '30 C', which is an electric charge ('C' is read as coulomb); did you mean '30 degC'?"),
        ("86 F", "temperature", "which is a capacitance ('F' is read as farad); did you mean '86 degF'?"),
        ("30 c", "temperature", "which is a speed ('c' is read as speed_of_light); did you mean '30 degC'?"),
        ("10 C", "temperature_difference", "did you mean '10 delta_degC'?"),
        ("30 Celsius", "temperature", "unknown unit 'Celsius' in '30 Celsius'; did you mean '30 degC'?"),
        ("12 kpa", "pressure", "unknown unit 'kpa' in '12 kpa'; did you mean '12 kPa'?"),
        ("20 psig", "pressure", "did you mean '20 psi'?"),
        ("1 inWC", "pressure", "did you mean '1 inch_H2O'?"),
        ("100 LPM", "volumetric_flow", "did you mean '100 L/min'?"),
        ("500 CFM", "volumetric_flow", "did you mean '500 cfm'?"),
        ("500 ft3/min", "volumetric_flow", "did you mean '500 cfm'?"),
        ("10 m3/h", "volumetric_flow", "did you mean '10 m**3/h'?"),
        ("10 gmp", "volumetric_flow", "did you mean '10 gpm'?"),
        ("40 sqm", "area", "did you mean '40 m**2'?"),
        ("50 kw", "power", "did you mean '50 kW'?"),
        ("50 kva", "apparent_power", "did you mean '50 kVA'?"),
        # t is a tonne: a mass where a power is meant; a ton of refrigeration is a power
        ("3 t", "power", "which is a mass ('t' is read as metric_ton); did you mean '3 ton_of_refrigeration'?"),
        ("90 pct", "fraction", "did you mean '90 %'?"),
        ("30 degrees", "temperature", "did you mean '30 degC'?"),
        # case tells bits from bytes: Gbps is gigabits per second (pint reads gigabaud)
        ("400 Gbps", "bit_rate", "did you mean '400 Gb/s'?"),
        ("50 GBps", "data_rate", "did you mean '50 GB/s'?"),
        ("63 amps", "current", "did you mean '63 A'?"),
        ("1000 kg/m3", "density", "did you mean '1000 kg/m**3'?"),
    ],
)  # fmt: skip
def test_a_unit_read_as_something_else_names_the_spelling_meant(
    text: str, kind: str, said: str
) -> None:
    with pytest.raises(QuantityError) as info:
        parse_quantity(text, kind)
    assert str(info.value).endswith(said), str(info.value)


def test_a_degree_sign_alone_says_what_to_write() -> None:
    assert parse_quantity("30 ° C", "temperature") == pytest.approx(30.0)
    with pytest.raises(QuantityError) as info:
        parse_quantity("30 °", "temperature")
    assert str(info.value) == (
        "unit '°' has a degree sign without C or F; write degC or degF (or °C, °F)"
    )


@pytest.mark.parametrize(
    ("text", "kind", "said"),
    [
        ("132 kg", "power", "expected a power like '132 kW', got '132 kg', which is a mass"),
        ("600 kg", "length", "expected a length like '600 mm', got '600 kg', which is a mass"),
        ("1 kW-h", "power", "unknown unit 'kW-h' in '1 kW-h'"),  # malformed, not misspelt
        ("5 zorkmid", "power", "unknown unit 'zorkmid' in '5 zorkmid'"),
    ],
)
def test_no_spelling_is_made_up_when_none_is_close(text: str, kind: str, said: str) -> None:
    with pytest.raises(QuantityError) as info:
        parse_quantity(text, kind)
    assert str(info.value) == said


def test_units_that_are_right_stay_right() -> None:
    assert parse_quantity("5 mW", "power") == pytest.approx(0.005)  # milliwatt: 5e-3 W, valid
    assert parse_quantity("5 MW", "power") == pytest.approx(5e6)
    assert parse_quantity("3 t", "mass") == pytest.approx(3000.0)  # 3 tonnes = 3,000 kg
    # 1 ton of refrigeration = 12,000 BTU/h = 3,516.85 W
    assert parse_quantity("1 ton_of_refrigeration", "power") == pytest.approx(3516.85, rel=1e-4)
    # 100 L/min = 0.1 m³ / 60 s = 1.667e-3 m³/s
    assert parse_quantity("100 lpm", "volumetric_flow") == pytest.approx(0.1 / 60)


def test_a_unit_error_in_the_site_file_is_located(tmp_path: Path) -> None:
    text = _small("uniform_load_rating: 25 kPa", "uniform_load_rating: 25 kpa")
    (problem,) = _problems(tmp_path, text)
    assert problem == (
        _line_of(text, "uniform_load_rating: 25 kpa"),
        "floor_zones[0].uniform_load_rating",
        "unknown unit 'kpa' in '25 kpa'; did you mean '25 kPa'?",
    )


# --- reference errors beside schema errors ----------------------------------------------------


def test_a_typo_in_a_field_does_not_hide_a_dangling_reference(tmp_path: Path) -> None:
    text = _small("nominal_power: 135 kW", "nominal_powr: 135 kW").replace(
        "    zone: Z-R1\n", "    zone: Z-R9\n"
    )
    typo = text.splitlines().index("    nominal_powr: 135 kW") + 1
    zone = text.splitlines().index("    zone: Z-R9") + 1
    assert _problems(tmp_path, text) == [
        (typo, "rack_types[0].nominal_powr", "unknown field 'nominal_powr'; did you mean 'nominal_power'?"),
        (zone, "rows[0].zone", "unknown floor zone 'Z-R9' (known: Z-R1); did you mean 'Z-R1'?"),
    ]  # fmt: skip


def test_a_reference_in_the_same_entry_as_a_typo_is_reported(tmp_path: Path) -> None:
    text = "site: {name: T}\nracks:\n  - {id: R1, type: gb300-nvl72, zon: Z1, loop: L9}\n"
    assert sorted(_problems(tmp_path, text)) == [
        (3, "racks[0].loop", "unknown TCS loop 'L9' (known: none are defined)"),
        (3, "racks[0].zon", "unknown field 'zon'; did you mean 'zone'?"),
    ]


def test_a_typo_in_the_site_block_does_not_hide_a_dangling_reference(tmp_path: Path) -> None:
    text = "site: {name: T, colour: red}\nracks:\n  - {id: R1, type: gb300-nvl72, zone: Z9}\n"
    assert [(line, field) for line, field, _ in _problems(tmp_path, text)] == [
        (1, "site.colour"),
        (3, "racks[0].zone"),
    ]


def test_a_site_block_without_its_name_stops_at_the_schema_problems(tmp_path: Path) -> None:
    text = "site: {nme: T}\nracks:\n  - {id: R1, type: gb300-nvl72, zone: Z9}\n"
    assert _problems(tmp_path, text) == [
        (1, "site.nme", "unknown field 'nme'; did you mean 'name'?"),
    ]


def test_entries_after_one_left_out_keep_their_own_place(tmp_path: Path) -> None:
    # racks[1] does not validate and is left out of the reference pass: racks[2]'s dangling
    # zone must still be named racks[2], at line 5, not racks[1]
    text = """\
site: {name: T}
racks:
  - {id: R1, type: gb300-nvl72}
  - {id: R2, type: gb300-nvl72, position: many}
  - {id: R3, type: gb300-nvl72, zone: Z9}
"""
    assert _problems(tmp_path, text) == [
        (4, "racks[1].position", "expected a whole number, got 'many'"),
        (5, "racks[2].zone", "unknown floor zone 'Z9' (known: none are defined)"),
    ]


def test_a_reference_to_an_entry_that_did_not_validate_is_not_reported(tmp_path: Path) -> None:
    # zone Z1 is broken (no construction): the rack naming it is not 'unknown floor zone'
    text = """\
site: {name: T}
floor_zones: [{id: Z1, construction: concrete}]
racks:
  - {id: R1, type: gb300-nvl72, zone: Z1, loop: L9}
"""
    problems = _problems(tmp_path, text)
    assert [(line, field) for line, field, _ in problems] == [
        (2, "floor_zones[0].construction"),
        (4, "racks[0].loop"),
    ]


def test_a_broken_top_level_block_stops_at_the_schema_problems(tmp_path: Path) -> None:
    # cooling is not a mapping: its loops are unknown, so no rack is told its loop is
    text = "site: {name: T}\ncooling: 5\nracks:\n  - {id: R1, type: gb300-nvl72, loop: L1}\n"
    assert _problems(tmp_path, text) == [
        (2, "cooling", "expected a mapping (key: value), got 5"),
    ]


def test_the_cli_prints_both_and_writes_nothing(tmp_path: Path) -> None:
    site = tmp_path / "site.yaml"
    site.write_text(
        _small("nominal_power: 135 kW", "nominal_powr: 135 kW").replace(
            "    loop: TCS-1\n", "    loop: TCS-9\n"
        ),
        encoding="utf-8",
    )
    out = tmp_path / "r.html"  # (a JSON or SARIF output gets the error result)
    result = CliRunner().invoke(app, ["check", str(site), "-o", str(out)])
    assert result.exit_code == 2, result.output
    lines = site.read_text(encoding="utf-8").splitlines()
    typo, loop = lines.index("    nominal_powr: 135 kW") + 1, lines.index("    loop: TCS-9") + 1
    assert f"{site}:{typo}:5: rack_types[0].nominal_powr: unknown field" in result.stderr
    assert f"{site}:{loop}:5: rows[0].loop: unknown TCS loop 'TCS-9'" in result.stderr
    assert "Traceback" not in result.output
    assert not out.exists()


# --- never pydantic's wording -----------------------------------------------------------------

BAD_VALUES: list[Any] = [None, [1], {"k": 1}, "abc", 1.5, True, -1, ""]


def _places(node: Any, path: tuple = ()) -> list[tuple]:
    """Every value's place in a document: mappings, lists and scalars."""
    found = [path] if path else []
    if isinstance(node, dict):
        for key, value in node.items():
            found += _places(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += _places(value, (*path, i))
    return found


def _with(data: Any, path: tuple, value: Any) -> Any:
    out = copy.deepcopy(data)
    node = out
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value
    return out


@pytest.mark.slow  # every field of the pod broken in turn: thousands of loads (each pydantic type is held to our words by default)
def test_no_broken_value_anywhere_gets_pydantic_wording(tmp_path: Path) -> None:
    """Each place of the small pod (every kind of field: quantities, counts, ids, choices,
    flags, lists, nested blocks) given null and, in turn, a list, a mapping, text, a
    fraction, a truth value, a negative number or an empty text: every problem names a line
    and a field and says it in facility's words."""
    data = yaml.safe_load(SMALL.read_text(encoding="utf-8"))
    data["site"]["document"] = {  # dates, a status, lists of blocks
        "number": "D-1",
        "revision": "A",
        "status": "issued",
        "approved_by": "C",
        "revisions": [{"revision": "A", "date": "2026-01-05", "description": "first"}],
        "signers": [{"discipline": "electrical", "name": "E"}],
    }
    data["waivers"] = [
        {"rule": "PWR-001", "entity": "R01", "reason": "r", "owner": "o", "expires": "2027-03-31"}
    ]
    site = tmp_path / "site.json"
    places = _places(data)
    assert len(places) > 110
    checked = 0
    for i, place in enumerate(places):
        for bad in (None, BAD_VALUES[1 + i % (len(BAD_VALUES) - 1)]):
            site.write_text(json.dumps(_with(data, place, bad)), encoding="utf-8")
            try:
                load_site(site)
            except InputError as error:
                for problem in error.problems:
                    shown = str(problem)
                    assert not PYDANTIC_WORDING.search(shown), (place, bad, shown)
                    assert problem.location.line >= 1 and problem.field, (place, bad, shown)
                    assert "{'" not in shown and "None" not in shown, (place, bad, shown)
                checked += 1
    assert checked > 180  # most of them are bad input (a few nulls are allowed)


# a context for each pydantic error type our table says in our words
_CONTEXTS: dict[str, dict[str, Any]] = {
    "greater_than": {"gt": 0},
    "greater_than_equal": {"ge": 1},
    "less_than": {"lt": 150},
    "less_than_equal": {"le": 1000},
    "string_too_short": {"min_length": 1},
    "string_too_long": {"max_length": 200},
    "string_pattern_mismatch": {"pattern": "^[A-Z]{2,5}-\\d{3}$"},
    "too_short": {"field_type": "List", "min_length": 1, "actual_length": 0},
    "too_long": {"field_type": "List", "min_length": 0, "max_length": 2, "actual_length": 3},
    "literal_error": {"expected": "'slab' or 'raised_floor'"},
    "enum": {"expected": "'a' or 'b'"},
    "date_parsing": {"error": "input is too short"},
    "date_from_datetime_parsing": {"error": "input is too short"},
    "datetime_parsing": {"error": "input is too short"},
    "model_type": {"class_name": "Room"},
}


@pytest.mark.parametrize("kind", sorted(_PYDANTIC))
def test_each_pydantic_error_type_is_said_in_our_words(kind: str) -> None:
    ctx = _CONTEXTS.get(kind)
    error: Any = {
        "type": kind,
        "loc": ("x",),
        "msg": PydanticKnownError(kind, ctx).message(),  # type: ignore[arg-type]
        "input": "2027-02-30" if kind.startswith("date") else [1],
        "ctx": ctx,
    }
    said = validation_message(error)
    assert said != error["msg"]
    assert not PYDANTIC_WORDING.search(said), said


def test_an_unlisted_pydantic_error_type_is_not_shown_raw() -> None:
    error: Any = {"type": "url_parsing", "loc": ("x",), "msg": "Input should be a valid URL",
                  "input": "ht!tp", "ctx": {"error": "x"}}  # fmt: skip
    assert validation_message(error) == "not a valid value here, got 'ht!tp'"


# --- files that cannot be read ----------------------------------------------------------------


def test_a_missing_file_is_named_without_a_line_and_column(tmp_path: Path) -> None:
    missing = tmp_path / "site.yaml"
    result = CliRunner().invoke(app, ["check", str(missing)])
    assert result.exit_code == 2
    assert result.stderr.splitlines()[0] == f"error: {missing}: file not found"
    assert not re.search(r"site\.yaml:\d+:\d+", result.stderr)


def test_a_write_error_names_the_output_not_a_temporary_file(tmp_path: Path) -> None:
    out = tmp_path / "nodir" / "r.html"
    result = CliRunner().invoke(app, ["check", str(SMALL), "-o", str(out)])
    assert result.exit_code == 2, result.output
    assert f"cannot write {out}" in result.stderr
    assert ".tmp" not in result.stderr and "Traceback" not in result.output


def test_a_result_given_as_the_site_is_one_problem(tmp_path: Path) -> None:
    # not 16 unknown top-level fields, one for each key of the result
    result = tmp_path / "r.json"
    result.write_text('{\n  "schema": "facility-result/1",\n  "verdict": "ready"\n}\n')
    with pytest.raises(InputError) as info:
        load_site(result)
    assert [str(p) for p in info.value.problems] == [
        f"{result}:2:3: schema: this is a facility result (the JSON output of facility check), "
        "not a site file"
    ]


def test_a_site_on_stdin_is_named_stdin_not_a_temporary_file(tmp_path: Path) -> None:
    text = _small("nominal_power: 135 kW", "nominal_powr: 135 kW")
    result = CliRunner().invoke(app, ["check", "-"], input=text)
    assert result.exit_code == 2, result.output
    line = _line_of(text, "nominal_powr: 135 kW")
    assert result.stderr.startswith(f"error: <stdin>:{line}:5: rack_types[0].nominal_powr: ")
    assert "/tmp" not in result.stderr and ".tmp" not in result.stderr


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_a_control_character_is_placed_at_the_line_yaml_counts(tmp_path, newline) -> None:
    # A CR alone ends a line for YAML and editors (found by testing from outside: a NUL in a
    # file of CR line ends was reported at 1:2096)
    from facility.model.load import load_site
    from facility.model.source import InputError

    path = tmp_path / "site.yaml"
    text = newline.join(["site:", "  name: T", "  notes: ab\x00c", ""])
    path.write_bytes(text.encode("utf-8"))
    with pytest.raises(InputError) as caught:
        load_site(path)
    (problem,) = caught.value.problems
    assert (problem.location.line, problem.location.column) == (3, 12)
