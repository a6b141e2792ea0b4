"""Rows expand into racks with ids, positions and PDU ids; air units expand by count."""

from __future__ import annotations

from pathlib import Path

from facility.model.load import load_site

from ._site import load, problems

EXAMPLES = Path(__file__).parents[2] / "examples"


def test_hall_b3_rows_expand_into_racks_and_pdus():
    site = load_site(EXAMPLES / "hall-b3.yaml")
    ids = [rack.id for rack in site.racks]
    assert ids == [f"A{n:02d}" for n in range(1, 9)] + [f"B{n:02d}" for n in range(1, 13)]
    row_a = [rack for rack in site.racks if rack.row == "A"]
    assert [rack.position for rack in row_a] == list(range(1, 9))
    assert {rack.type.id for rack in row_a} == {"gb300-b3"}
    assert {(rack.zone, rack.loop, rack.room) for rack in row_a} == {("Z-A", "TCS-A", "B3")}
    a01 = site.racks[0]
    assert [p.id for p in a01.pdus["A"]] == ["A01-A1", "A01-A2", "A01-A3", "A01-A4"]
    assert [p.id for p in a01.pdus["B"]] == ["A01-B1", "A01-B2", "A01-B3", "A01-B4"]
    assert [p.id for p in site.racks[-1].pdus["A"]] == ["B12-A1"]
    # 8 racks · 8 PDUs + 12 racks · 2 PDUs = 64 + 24 = 88
    assert len(site.pdus) == 88
    assert site.pdus["A08-B4"].rack == "A08"
    assert site.pdus["A08-B4"].side == "B"
    # every rack of a row is located at the row's `racks:` line
    lines = (EXAMPLES / "hall-b3.yaml").read_text(encoding="utf-8").splitlines()
    row_a_line = 1 + next(i for i, text in enumerate(lines) if "racks: {prefix: A," in text)
    row_b_line = 1 + next(i for i, text in enumerate(lines) if "racks: {prefix: B," in text)
    assert site.where("rack", "A01").line == site.where("rack", "A08").line == row_a_line
    assert site.where("rack", "B01").line == row_b_line


def test_numbering_prefix_first_and_digits(tmp_path):
    site = load(
        tmp_path,
        """\
        site: {name: S}
        rows:
          - {id: R, racks: {prefix: R-, first: 9, count: 3, digits: 3}, type: gb300-nvl72}
          - {id: N, racks: {count: 2}, type: gb300-nvl72}
        """,
    )
    assert [rack.id for rack in site.racks] == ["R-009", "R-010", "R-011", "01", "02"]
    assert [rack.position for rack in site.racks] == [1, 2, 3, 1, 2]


def test_pdu_names_on_a_rack(tmp_path):
    site = load(
        tmp_path,
        """\
        site: {name: S}
        racks:
          - id: X
            type: gb300-nvl72
            pdus:
              A: {type: pdu-3p-415v-63a, count: 2, names: [PDU-X-left-1, PDU-X-left-2]}
              B: {type: pdu-3p-415v-63a, count: 2}
        """,
    )
    [rack] = site.racks
    assert [p.id for p in rack.pdus["A"]] == ["PDU-X-left-1", "PDU-X-left-2"]
    assert [p.id for p in rack.pdus["B"]] == ["X-B1", "X-B2"]
    assert set(site.pdus) == {"PDU-X-left-1", "PDU-X-left-2", "X-B1", "X-B2"}


def test_pdu_names_in_a_row_of_several_racks_clash(tmp_path):
    # `names` without {rack} would give the same ids to every rack of a row: refused, once.
    found = problems(
        tmp_path,
        """\
        site: {name: S}
        rows:
          - {id: A, racks: {prefix: A, count: 2}, type: gb300-nvl72,
             pdus: {A: {type: pdu-3p-415v-63a, names: [P1]}}}
        """,
    )
    assert found == [
        (
            4,
            40,
            "rows[0].pdus.A.names",
            "in a row of several racks, PDU names must contain {rack} (e.g. '{rack}-PDU-A1'), "
            "or every rack would get the same ids",
        )
    ]


def test_pdu_names_in_a_row_use_the_rack_template(tmp_path):
    site = load(
        tmp_path,
        """\
        site: {name: S}
        rows:
          - {id: A, racks: {prefix: A, count: 2}, type: gb300-nvl72,
             pdus: {A: {type: pdu-3p-415v-63a, names: ["{rack}-PDU-A"]}}}
        """,
    )
    assert sorted(site.pdus) == ["A01-PDU-A", "A02-PDU-A"]


def test_sides_other_than_a_and_b(tmp_path):
    site = load(
        tmp_path,
        """\
        site: {name: S}
        racks:
          - {id: X, type: gb300-nvl72, pdus: {L: {type: pdu-3p-415v-63a},
                                              R: {type: pdu-3p-415v-63a}}}
        """,
    )
    assert set(site.pdus) == {"X-L1", "X-R1"}


def test_air_units_expand_by_count(tmp_path):
    site = load(
        tmp_path,
        """\
        site: {name: S}
        rooms: [{id: R1}]
        cooling:
          air_units:
            - {id: CRAH, count: 3, sensible_capacity: 100 kW}
            - {id: FANWALL, sensible_capacity: 400 kW}
        """,
    )
    assert list(site.air_units) == ["CRAH-1", "CRAH-2", "CRAH-3", "FANWALL"]
    crah = site.air_units["CRAH-2"]
    assert (crah.count, crah.room, crah.sensible_capacity) == (None, "R1", 100_000.0)
    assert site.where("air_unit", "CRAH-3").line == 5
    assert site.where("air_unit", "FANWALL").line == 6
