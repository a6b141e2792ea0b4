"""Every class of bad input: each problem names file, line, column and field path.

Positions are 1-based; in a flow mapping ``- {id: X, ...}`` written at the start of a list
item, the ``-`` is column 3, ``{`` column 5 and ``id`` column 6.
"""

from __future__ import annotations

import json
import resource
import time

import pytest

from facility.model.load import load_site
from facility.model.source import MAX_ALIAS_EXPANSION, InputError

from ._site import one_problem, problems, write

# --- parsing ----------------------------------------------------------------------------------


def test_malformed_yaml(tmp_path):
    text = "site:\n  name: T\n racks: [\n"
    line, column, field, message = one_problem(tmp_path, text)
    assert (line, column, field) == (3, 2, "")
    assert message.startswith("invalid YAML:")
    assert "expected key" in message


def test_unclosed_flow_sequence(tmp_path):
    line, _, _, message = one_problem(tmp_path, "site: {name: T}\nracks: [1, 2\n")
    assert message.startswith("invalid YAML:")
    assert line == 3  # end of input, where the ']' was expected


def test_yaml_object_tag_is_refused(tmp_path):
    text = "site:\n  name: !!python/object/apply:os.system ['echo pwned']\n"
    assert one_problem(tmp_path, text) == (
        2,
        9,
        "site.name",
        "YAML tag 'tag:yaml.org,2002:python/object/apply:os.system' is not allowed "
        "(only plain data)",
    )


def test_custom_tag_is_refused(tmp_path):
    line, column, field, message = one_problem(tmp_path, "site: !site {name: T}\n")
    assert (line, column, field) == (1, 7, "site")
    assert "YAML tag '!site' is not allowed" in message


def test_duplicate_mapping_key(tmp_path):
    text = "site:\n  name: T\n  name: U\n"
    assert one_problem(tmp_path, text) == (3, 3, "site.name", "duplicate key 'name'")


def test_merge_key_is_refused(tmp_path):
    text = "base: &b {name: T}\nsite:\n  <<: *b\n"
    line, column, field, message = problems(tmp_path, text)[0]
    assert (line, column, field) == (3, 3, "site")
    assert message == "YAML merge keys ('<<') are not supported"


def test_alias_bomb_fails_fast_in_little_memory(tmp_path):
    # "Billion laughs": 10 levels of 9 aliases each expand to 9**10 ≈ 3.5e9 strings.
    lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for level in range(1, 10):
        refs = ", ".join([f"*a{level - 1}"] * 9)
        lines.append(f"a{level}: &a{level} [{refs}]")
    lines.append("site: {name: T}")
    path = write(tmp_path, "\n".join(lines) + "\n")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    with pytest.raises(InputError) as info:
        load_site(path)
    elapsed = time.perf_counter() - start
    grown_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before  # KiB on Linux
    assert elapsed < 2.0
    assert grown_kb < 100_000
    [problem] = info.value.problems
    assert 1 <= problem.location.line <= 10  # at the alias where expansion stopped
    assert f"{MAX_ALIAS_EXPANSION:,}" in problem.message
    assert "alias bomb" in problem.message


def test_a_few_aliases_are_fine(tmp_path):
    text = """\
        site: {name: T}
        rack_types:
          - &t {id: t1, nominal_power: 10 kW}
        rows:
          - {id: A, racks: {prefix: A, count: 2}, type: t1}
        """
    path = write(tmp_path, text)
    assert len(load_site(path).racks) == 2


def test_non_utf8_bytes(tmp_path):
    raw = "site:\n  name: Caf\xe9\n".encode("latin-1")
    assert one_problem(tmp_path, raw) == (2, 12, "", "not UTF-8 text (byte 0xe9)")


def test_utf8_bom_is_accepted(tmp_path):
    path = write(tmp_path, "\ufeffsite: {name: Café}\n".encode())
    assert load_site(path).info.name == "Café"


@pytest.mark.parametrize("text", ["", "\n\n", "# only a comment\n", "---\n"])
def test_empty_file(tmp_path, text):
    assert one_problem(tmp_path, text) in [
        (1, 1, "", "the file is empty"),
        (1, 1, "", "a site file is a mapping with at least 'site:'"),
    ]


def test_empty_file_message(tmp_path):
    assert one_problem(tmp_path, "") == (1, 1, "", "the file is empty")


def test_top_level_must_be_a_mapping(tmp_path):
    assert one_problem(tmp_path, "- a\n- b\n") == (
        1,
        1,
        "",
        "a site file is a mapping with at least 'site:'",
    )


def test_missing_file(tmp_path):
    with pytest.raises(InputError) as info:
        load_site(tmp_path / "nope.yaml")
    [problem] = info.value.problems
    assert str(problem) == f"{tmp_path / 'nope.yaml'}: file not found"  # no line: no file


def test_directory_is_refused(tmp_path):
    with pytest.raises(InputError) as info:
        load_site(tmp_path)
    assert info.value.problems[0].message == "a directory, not a file"


# --- JSON ---------------------------------------------------------------------------------------


def test_valid_json_loads_with_positions(tmp_path):
    data = {"site": {"name": "J"}, "rack_types": [{"id": "t", "nominal_power": "10 kg"}]}
    text = json.dumps(data, indent=2)
    # line 1 "{", 2 "site": {, 3 "name", 4 }, 5 "rack_types": [, 6 {, 7 "id", 8 "nominal_power"
    assert one_problem(tmp_path, text, "site.json") == (
        8,
        7,
        "rack_types[0].nominal_power",
        "expected a power like '132 kW', got '10 kg', which is a mass",
    )


def test_valid_json_site_loads(tmp_path):
    path = write(tmp_path, '{"site": {"name": "J"}, "rooms": [{"id": "R"}]}', "site.json")
    site = load_site(path)
    assert list(site.rooms) == ["R"]


def test_invalid_json_reports_json_position(tmp_path):
    text = '{"site": {"name": "T"},\n "racks": [1, ]}'
    assert one_problem(tmp_path, text, "site.json") == (2, 15, "", "invalid JSON: Expecting value")


def test_json_duplicate_keys_are_refused(tmp_path):
    text = '{"site": {"name": "T", "name": "U"}}'
    assert one_problem(tmp_path, text, "site.json") == (1, 24, "site.name", "duplicate key 'name'")


# --- validation -----------------------------------------------------------------------------


def test_unknown_key_is_a_typo_not_ignored(tmp_path):
    text = """\
        site: {name: T}
        rack_types:
          - id: t1
            nominal_powr: 10 kW
        """
    assert one_problem(tmp_path, text) == (
        4,
        5,
        "rack_types[0].nominal_powr",
        "unknown field 'nominal_powr'; did you mean 'nominal_power'?",
    )


def test_missing_required_field(tmp_path):
    text = """\
        site: {name: T}
        cooling:
          tcs_loops:
            - {id: L1, coolant: {fluid: water}}
        """
    # reported at the block that lacks it
    assert one_problem(tmp_path, text) == (
        4,
        7,
        "cooling.tcs_loops[0].cdus",
        "missing required field 'cdus'",
    )


def test_missing_site_block(tmp_path):
    assert one_problem(tmp_path, "rooms: []\n") == (1, 1, "site", "missing required field 'site'")


def test_wrong_dimension(tmp_path):
    text = """\
        site: {name: T}
        rack_types:
          - id: t1
            peak_power: 132 kg
        """
    assert one_problem(tmp_path, text) == (
        4,
        5,
        "rack_types[0].peak_power",
        "expected a power like '132 kW', got '132 kg', which is a mass",
    )


def test_bare_number_for_a_quantity(tmp_path):
    text = (
        "site: {name: T}\nfloor_zones:\n  - {id: Z, construction: slab, uniform_load_rating: 25}\n"
    )
    assert one_problem(tmp_path, text) == (
        3,
        33,
        "floor_zones[0].uniform_load_rating",
        "missing unit: expected a floor load like '12 kPa', got the bare number 25",
    )


def test_negative_value(tmp_path):
    text = """\
        site: {name: T}
        rack_types:
          - id: t1
            filled_mass: -1500 kg
        """
    assert one_problem(tmp_path, text) == (
        4,
        5,
        "rack_types[0].filled_mass",
        "must be positive, got '-1500 kg'",
    )


def test_negative_pressure_drop(tmp_path):
    text = "site: {name: T}\nrack_types:\n  - {id: t1, pressure_drop: -0.1 bar}\n"
    assert one_problem(tmp_path, text) == (
        3,
        14,
        "rack_types[0].pressure_drop",
        "must not be negative, got '-0.1 bar'",
    )


def test_fraction_over_100_percent(tmp_path):
    text = """\
        site: {name: T}
        rack_types:
          - id: t1
            liquid_heat_fraction: 120 %
            power_factor: 95
        """
    assert problems(tmp_path, text) == [
        (4, 5, "rack_types[0].liquid_heat_fraction", "must be at most 100 %, got '120 %'"),
        (
            5,
            5,
            "rack_types[0].power_factor",
            "must be at most 100 %, got 95 (a bare number is a fraction of 1: write '95 %' "
            "or 0.95)",
        ),
    ]


def test_absolute_temperature_where_a_rise_is_expected(tmp_path):
    text = "site: {name: T}\nrack_types:\n  - {id: t1, design_coolant_rise: 10 degC}\n"
    line, column, field, message = one_problem(tmp_path, text)
    assert (line, column, field) == (3, 14, "rack_types[0].design_coolant_rise")
    assert "got the absolute temperature '10 degC'" in message


def test_temperature_range_reversed(tmp_path):
    text = (
        "site: {name: T}\nrack_types:\n"
        "  - {id: t1, allowed_supply_temperature: {min: 45 degC, max: 20 degC}}\n"
    )
    assert one_problem(tmp_path, text) == (
        3,
        14,
        "rack_types[0].allowed_supply_temperature",
        "min is above max",
    )


def test_literal_choice(tmp_path):
    text = "site: {name: T}\nfloor_zones:\n  - {id: Z, construction: carpet}\n"
    line, column, field, message = one_problem(tmp_path, text)
    assert (line, column, field) == (3, 13, "floor_zones[0].construction")
    assert message == "must be 'slab' or 'raised_floor', got 'carpet'"


def test_glycol_needs_a_concentration(tmp_path):
    text = """\
        site: {name: T}
        cooling:
          cdus: [{id: C1}]
          tcs_loops:
            - {id: L1, coolant: {fluid: propylene_glycol}, cdus: [C1]}
        """
    line, column, field, message = one_problem(tmp_path, text)
    assert (line, column, field) == (5, 16, "cooling.tcs_loops[0].coolant")
    assert "volume_fraction: 25 % for PG25" in message


def test_pumps_required_above_installed(tmp_path):
    text = (
        "site: {name: T}\ncooling:\n  cdus:\n    - {id: C1, pumps: {installed: 1, required: 2}}\n"
    )
    assert one_problem(tmp_path, text) == (
        4,
        16,
        "cooling.cdus[0].pumps",
        "required pumps exceed installed pumps",
    )


def test_id_with_control_characters_is_refused(tmp_path):
    text = 'site: {name: T}\nrooms:\n  - {id: "R\\u0007"}\n'
    line, column, field, _ = one_problem(tmp_path, text)
    assert (line, column, field) == (3, 6, "rooms[0].id")


# --- references -------------------------------------------------------------------------------

REFERENCES = """\
site: {name: T}
rack_types:
  - {id: t1, nominal_power: 10 kW}
  - {id: t2, catalog: no-such-rack}
floor_zones:
  - {id: Z1, construction: slab}
power:
  sources:
    - {id: U1, kind: ups}
  distribution:
    - {id: D1, kind: busway, fed_by: U9, voltage: 415 V, phases: 3, rating: 400 A}
  pdu_types:
    - {id: p1, voltage: 415 V, phases: 3, breaker_rating: 63 A}
    - {id: p2, catalog: no-such-pdu}
cooling:
  facility_water:
    - {id: FW}
  cdus:
    - {id: C1, facility_water: FW9}
    - {id: C2, catalog: no-such-cdu}
  tcs_loops:
    - {id: L1, coolant: {fluid: water}, cdus: [C1, C9], room: R9}
racks:
  - {id: X1, type: tX, zone: ZX, loop: LX, pdus: {A: {type: pX}, B: {type: p1, fed_by: D9}}}
"""


def test_every_dangling_reference_is_reported_with_its_position(tmp_path):
    found = problems(tmp_path, REFERENCES)
    assert [(line, column, field) for line, column, field, _ in found] == [
        (4, 14, "rack_types[1].catalog"),
        (11, 30, "power.distribution[0].fed_by"),
        (14, 16, "power.pdu_types[1].catalog"),
        (19, 16, "cooling.cdus[0].facility_water"),
        (20, 16, "cooling.cdus[1].catalog"),
        (22, 52, "cooling.tcs_loops[0].cdus[1]"),
        (22, 57, "cooling.tcs_loops[0].room"),
        (24, 14, "racks[0].type"),
        (24, 24, "racks[0].zone"),
        (24, 34, "racks[0].loop"),
        (24, 55, "racks[0].pdus.A.type"),
        (24, 80, "racks[0].pdus.B.fed_by"),
    ]
    messages = [message for *_, message in found]
    assert messages[0].startswith("unknown catalog rack_type 'no-such-rack' (known: ")
    assert "gb300-nvl72" in messages[0]
    assert messages[1] == "unknown upstream element 'U9' (known: D1, U1); did you mean 'U1'?"
    assert messages[2].startswith("unknown catalog pdu_type 'no-such-pdu'")
    assert messages[3] == "unknown facility water loop 'FW9' (known: FW); did you mean 'FW'?"
    assert messages[4].startswith("unknown catalog cdu 'no-such-cdu' (known: ")
    assert messages[5] == "unknown CDU 'C9' (known: C1, C2); did you mean 'C1' or 'C2'?"
    assert messages[6] == "unknown room 'R9' (the site declares no rooms)"
    assert messages[7].startswith("unknown rack type 'tX' (known: ascend-960-supernode-32, ")
    assert messages[8] == "unknown floor zone 'ZX' (known: Z1); did you mean 'Z1'?"
    assert messages[9] == "unknown TCS loop 'LX' (known: L1); did you mean 'L1'?"
    assert messages[10].startswith("unknown PDU type 'pX' (known: p1, p2, pdu-1p-230v-32a, ")
    assert messages[11] == "unknown upstream element 'D9' (known: D1, U1); did you mean 'D1'?"


def test_rack_on_a_loop_in_another_room(tmp_path):
    text = """\
        site: {name: T}
        rooms: [{id: R1}, {id: R2}]
        floor_zones: [{id: Z1, room: R1, construction: slab}]
        rack_types: [{id: t1}]
        cooling:
          cdus: [{id: C1}]
          tcs_loops: [{id: L2, room: R2, coolant: {fluid: water}, cdus: [C1]}]
        racks:
          - {id: X1, type: t1, zone: Z1, loop: L2}
        """
    assert one_problem(tmp_path, text) == (
        9,
        34,
        "racks[0].loop",
        "rack 'X1' is in room 'R1' (zone 'Z1') but loop 'L2' serves room 'R2'",
    )


def test_cdu_on_two_loops(tmp_path):
    text = """\
        site: {name: T}
        cooling:
          cdus: [{id: C1}]
          tcs_loops:
            - {id: L1, coolant: {fluid: water}, cdus: [C1]}
            - {id: L2, coolant: {fluid: water}, cdus: [C1]}
        """
    assert one_problem(tmp_path, text) == (
        6,
        48,
        "cooling.tcs_loops[1].cdus[0]",
        "CDU 'C1' already serves loop 'L1'",
    )


def test_cyclic_power_chain(tmp_path):
    text = """\
        site: {name: T}
        power:
          distribution:
            - {id: D1, kind: busway, fed_by: D3, voltage: 415 V, phases: 3, rating: 400 A}
            - {id: D2, kind: busway, fed_by: D1, voltage: 415 V, phases: 3, rating: 400 A}
            - {id: D3, kind: panel, fed_by: D2, voltage: 415 V, phases: 3, rating: 400 A}
        """
    assert problems(tmp_path, text) == [
        (
            4,
            30,
            "power.distribution[0].fed_by",
            "the power chain loops back on itself: D1 → D3 → D2 → D1",
        ),
        (
            5,
            30,
            "power.distribution[1].fed_by",
            "the power chain loops back on itself: D2 → D1 → D3 → D2",
        ),
        (
            6,
            29,
            "power.distribution[2].fed_by",
            "the power chain loops back on itself: D3 → D2 → D1 → D3",
        ),
    ]


def test_element_fed_by_itself(tmp_path):
    text = (
        "site: {name: T}\npower:\n  distribution:\n"
        "    - {id: D1, kind: rpp, fed_by: D1, voltage: 415 V, phases: 3, rating: 400 A}\n"
    )
    assert one_problem(tmp_path, text) == (
        4,
        27,
        "power.distribution[0].fed_by",
        "the power chain loops back on itself: D1 → D1",
    )


# --- duplicate ids --------------------------------------------------------------------------


def test_duplicate_rack_ids(tmp_path):
    text = """\
        site: {name: T}
        rack_types: [{id: t1}]
        racks:
          - {id: X1, type: t1}
          - {id: X1, type: t1}
        """
    assert one_problem(tmp_path, text) == (
        5,
        6,
        "racks[1].id",
        "duplicate rack id 'X1' (first defined at line 4)",
    )


def test_a_distribution_id_that_is_also_a_source_id(tmp_path):
    # fed_by names either, so one id for both would feed a PDU from whichever came last.
    text = """\
        site: {name: T}
        power:
          sources:
            - {id: X, kind: ups, capacity: 1000 kVA}
          distribution:
            - {id: X, kind: busway, voltage: 415 V, phases: 3, rating: 800 A}
        """
    assert one_problem(tmp_path, text) == (
        6,
        8,
        "power.distribution[0].id",
        "distribution id 'X' is also the id of a power source (line 4): fed_by could not tell "
        "them apart",
    )


def test_rack_id_clashing_with_a_row(tmp_path):
    text = """\
        site: {name: T}
        rack_types: [{id: t1}]
        rows:
          - {id: A, racks: {prefix: A, count: 3}, type: t1}
        racks:
          - {id: A02, type: t1}
        """
    assert one_problem(tmp_path, text) == (
        6,
        6,
        "racks[0].id",
        "duplicate rack id 'A02' (first defined at line 4)",
    )


def test_two_rows_making_the_same_ids(tmp_path):
    text = """\
        site: {name: T}
        rack_types: [{id: t1}]
        rows:
          - {id: A, racks: {prefix: A, count: 2}, type: t1}
          - {id: A-again, racks: {prefix: A, first: 2, count: 2}, type: t1}
        """
    assert one_problem(tmp_path, text) == (
        5,
        19,
        "rows[1].racks",
        "duplicate rack id 'A02' (first defined at line 4)",
    )


def test_duplicate_pdu_ids(tmp_path):
    text = """\
        site: {name: T}
        rack_types: [{id: t1}]
        racks:
          - {id: X1, type: t1, pdus: {A: {type: pdu-3p-415v-63a}}}
          - {id: X2, type: t1, pdus: {A: {type: pdu-3p-415v-63a, names: [X1-A1]}}}
        """
    assert one_problem(tmp_path, text) == (
        5,
        66,
        "racks[1].pdus.A.names[0]",
        "duplicate PDU id 'X1-A1' (first defined at line 4)",
    )


def test_pdu_names_count_mismatch(tmp_path):
    text = (
        "site: {name: T}\nrack_types: [{id: t1}]\nracks:\n"
        "  - {id: X1, type: t1, pdus: {A: {type: pdu-3p-415v-63a, count: 2, names: [P1]}}}\n"
    )
    assert one_problem(tmp_path, text) == (
        4,
        68,
        "racks[0].pdus.A.names",
        "1 names for 2 PDUs",
    )


@pytest.mark.parametrize(
    ("block", "kind", "line"),
    [
        ("rooms: [{id: R}, {id: R}]", "room", 2),
        (
            "floor_zones: [{id: Z, construction: slab}, {id: Z, construction: slab}]",
            "floor_zone",
            2,
        ),
        ("rack_types: [{id: t}, {id: t}]", "rack_type", 2),
        ("power: {sources: [{id: U, kind: ups}, {id: U, kind: utility}]}", "power_source", 2),
        ("power: {pdu_types: [{id: p}, {id: p}]}", "pdu_type", 2),
        ("cooling: {facility_water: [{id: F}, {id: F}]}", "facility_water", 2),
        ("cooling: {cdus: [{id: C}, {id: C}]}", "cdu", 2),
        (
            "rows: [{id: A, racks: {count: 1, prefix: A}, type: gb300-nvl72},"
            " {id: A, racks: {count: 1, prefix: B}, type: gb300-nvl72}]",
            "row",
            2,
        ),
    ],
)
def test_duplicate_ids_of_each_kind(tmp_path, block, kind, line):
    found = problems(tmp_path, "site: {name: T}\n" + block + "\n")
    assert len(found) == 1, found
    got_line, _, field, message = found[0]
    assert got_line == line
    assert field.endswith("[1].id")
    assert message.startswith(f"duplicate {kind} id ")
    assert message.endswith(f"(first defined at line {line})")


def test_duplicate_cdus_are_reported_at_the_second(tmp_path):
    text = "site: {name: T}\ncooling:\n  cdus:\n    - {id: C1}\n    - {id: C1}\n"
    assert one_problem(tmp_path, text) == (
        5,
        8,
        "cooling.cdus[1].id",
        "duplicate cdu id 'C1' (first defined at line 4)",
    )


def test_duplicate_tcs_loops(tmp_path):
    text = """\
        site: {name: T}
        cooling:
          cdus: [{id: C1}, {id: C2}]
          tcs_loops:
            - {id: L1, coolant: {fluid: water}, cdus: [C1]}
            - {id: L1, coolant: {fluid: water}, cdus: [C2]}
        """
    assert one_problem(tmp_path, text) == (
        6,
        8,
        "cooling.tcs_loops[1].id",
        "duplicate tcs_loop id 'L1' (first defined at line 5)",
    )


def test_duplicate_distribution_ids(tmp_path):
    text = """\
        site: {name: T}
        power:
          distribution:
            - {id: D1, kind: busway, voltage: 415 V, phases: 3, rating: 400 A}
            - {id: D1, kind: busway, voltage: 415 V, phases: 3, rating: 400 A}
        """
    assert one_problem(tmp_path, text) == (
        5,
        8,
        "power.distribution[1].id",
        "duplicate distribution id 'D1' (first defined at line 4)",
    )


def test_air_unit_ids_clash_after_count_expansion(tmp_path):
    text = """\
        site: {name: T}
        cooling:
          air_units:
            - {id: CRAH, count: 2, sensible_capacity: 100 kW}
            - {id: CRAH-2, sensible_capacity: 100 kW}
        """
    assert one_problem(tmp_path, text) == (
        5,
        8,
        "cooling.air_units[1].id",
        "duplicate air unit id 'CRAH-2'",
    )


# --- all problems at once ---------------------------------------------------------------


def test_several_validation_problems_are_reported_together(tmp_path):
    text = """\
        site: {name: T}
        rack_types:
          - id: t1
            nominal_powr: 10 kW
            peak_power: 12 kg
            filled_mass: -5 kg
        floor_zones:
          - {id: Z, construction: slab, uniform_load_rating: 25}
        cooling:
          tcs_loops:
            - {id: L1, coolant: {fluid: water}}
        """
    found = problems(tmp_path, text)
    assert [(line, field) for line, _, field, _ in found] == [
        (4, "rack_types[0].nominal_powr"),
        (5, "rack_types[0].peak_power"),
        (6, "rack_types[0].filled_mass"),
        (8, "floor_zones[0].uniform_load_rating"),
        (11, "cooling.tcs_loops[0].cdus"),
    ]


def test_several_reference_problems_are_reported_together(tmp_path):
    found = problems(tmp_path, REFERENCES)
    assert len(found) == 12


def test_several_parse_problems_are_reported_together(tmp_path):
    text = "site:\n  name: !!python/name:os.system x\n  name: U\nrooms: !!set {a: null}\n"
    found = problems(tmp_path, text)
    assert [(line, field) for line, _, field, _ in found] == [
        (2, "site.name"),
        (3, "site.name"),
        (4, "rooms"),
    ]


def test_input_error_text_lists_each_problem_as_file_line_column(tmp_path):
    path = write(tmp_path, "site: {name: T}\nrooms: [{id: R, colour: red}, {id: S, size: 3}]\n")
    with pytest.raises(InputError) as info:
        load_site(path)
    assert str(info.value).splitlines() == [
        f"{path}:2:17: rooms[0].colour: unknown field 'colour' (the fields here: "
        "cooling_loss, design_condition, id, move_in_route, name, redundant_air_units)",
        f"{path}:2:39: rooms[1].size: unknown field 'size' (the fields here: "
        "cooling_loss, design_condition, id, move_in_route, name, redundant_air_units)",
    ]


def test_unknown_ashrae_class_is_a_load_error(tmp_path):
    path = tmp_path / "site.yaml"
    path.write_text(
        "site: {name: S}\ncooling:\n  facility_water:\n    - {id: fw, ashrae_class: W99}\n",
        encoding="utf-8",
    )
    from facility.model.load import load_site
    from facility.model.source import InputError

    try:
        load_site(path)
    except InputError as error:
        (problem,) = error.problems
    else:
        raise AssertionError("W99 loaded")
    assert (problem.location.line, problem.field) == (4, "cooling.facility_water[0].ashrae_class")
    assert "unknown ASHRAE liquid class 'W99'" in problem.message and "W32" in problem.message
