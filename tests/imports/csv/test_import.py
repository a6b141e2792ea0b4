"""``facility import csv``: rack rows into a base site file; every bad cell at file:row:column."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from facility.imports.csv_racks import inert, read_racks, site_yaml, unquoted
from facility.model.load import load_site
from facility.model.source import InputError

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def write(tmp_path: Path, text: str | bytes, name: str = "racks.csv") -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def racks(tmp_path: Path, text: str | bytes) -> list[dict]:
    return read_racks(write(tmp_path, text)).racks


def problems(tmp_path: Path, text: str | bytes) -> list[str]:
    path = write(tmp_path, text)
    with pytest.raises(InputError) as info:
        read_racks(path)
    prefix = f"{path}:"
    assert all(str(p).startswith(prefix) for p in info.value.problems)
    return [str(p).removeprefix(prefix) for p in info.value.problems]


def test_one_rack_a_row_with_placement_pdus_and_overrides(tmp_path):
    text = (
        "id,type,row,position,zone,loop,pdus.A.type,pdus.A.count,pdus.A.fed_by,pdus.B.type,"
        "pdus.B.names,peak_power,footprint.width,footprint.depth\n"
        "A01,gb300-nvl72,A,1,Z-A,TCS-A,pdu-3p-415v-63a,4,BW-A,pdu-3p-415v-63a,"
        "A01-PB1; A01-PB2,150 kW,600 mm,1200 mm\n"
        "A02,gb300-nvl72,,,,,,,,,,,,\n"
    )
    assert racks(tmp_path, text) == [
        {
            "id": "A01",
            "type": "gb300-nvl72",
            "row": "A",
            "position": 1,
            "zone": "Z-A",
            "loop": "TCS-A",
            "pdus": {
                "A": {"type": "pdu-3p-415v-63a", "count": 4, "fed_by": "BW-A"},
                "B": {"type": "pdu-3p-415v-63a", "names": ["A01-PB1", "A01-PB2"]},
            },
            "overrides": {
                "peak_power": "150 kW",
                "footprint": {"width": "600 mm", "depth": "1200 mm"},
            },
        },
        {"id": "A02", "type": "gb300-nvl72"},
    ]


def test_units_in_the_header_or_in_the_cell(tmp_path):
    text = (
        "ID,Type,Peak power [kW],filled_mass [lb],Liquid heat fraction [%],power_factor\n"
        "A01,gb300-nvl72,150,3300,90,0.95\n"
        "A02,gb300-nvl72,0.15 MW,1400 kg,,1\n"
    )
    found = racks(tmp_path, text)
    assert [r["overrides"] for r in found] == [
        {
            "peak_power": "150 kW",
            "filled_mass": "3300 lb",
            "liquid_heat_fraction": "90 %",
            "power_factor": 0.95,
        },
        {"peak_power": "0.15 MW", "filled_mass": "1400 kg", "power_factor": 1},
    ]


def test_null_removes_a_catalog_figure(tmp_path):
    found = racks(tmp_path, "id,type,design_flow\nA01,gb300-nvl72,null\n")
    assert found == [{"id": "A01", "type": "gb300-nvl72", "overrides": {"design_flow": None}}]


def test_a_utf8_bom_and_crlf_lines_are_fine(tmp_path):
    found = racks(tmp_path, b"\xef\xbb\xbfid,type\r\nA01,gb300-nvl72\r\n\r\n")
    assert found == [{"id": "A01", "type": "gb300-nvl72"}]


def test_bad_cells_are_reported_each_at_its_row_and_column(tmp_path):
    text = (
        "id,type,peak_power [kW],filled_mass,position,pdus.A.count,cooling,footprint.width\n"
        "A01,gb300-nvl72,12 kg,1500 kg,x,2,water,600 mm\n"
        "A02,gb300-nvl72,12,1500,-1,0,air,\n"
        ",,1,,,,,\n"
        "A04,gb300-nvl72,1,1500 kg,3,4,air,5 mm,9\n"
    )
    assert problems(tmp_path, text) == [
        "2:3: peak_power: expected a power like '132 kW', got '12 kg', which is a mass",
        "2:5: position: expected a whole number, got 'x'",
        "2:6: pdus.A.type: missing required field 'type'",
        "2:7: cooling: must be 'liquid' or 'air', got 'water'",
        "2:8: footprint.depth: missing required field 'depth'",
        "3:4: filled_mass: missing unit: expected a mass like '1500 kg', got '1500'",
        "3:5: position: must be at least 0, got -1",
        "3:6: pdus.A.count: must be at least 1, got 0",
        "3:6: pdus.A.type: missing required field 'type'",
        "4:1: id: missing required field 'id'",
        "4:2: type: missing required field 'type'",
        "5:9: this row has a cell beyond the 8 columns of the header",
    ]


def test_a_duplicate_id_is_reported_at_the_second_row(tmp_path):
    text = "id,type\nA01,gb300-nvl72\nA02,gb300-nvl72\nA01,gb300-nvl72\n"
    assert problems(tmp_path, text) == [
        "4:1: id: duplicate rack id 'A01' (first defined at line 2)"
    ]


def test_bad_headers(tmp_path):
    text = "id,peak power [kg],position [m],Peak_powr,pdus.A.colour,id,xyz\nA01,1,2,3,4,5,6\n"
    assert problems(tmp_path, text) == [
        "1:2: peak_power: unit 'kg' does not fit column 'peak_power', which takes a power "
        "like '132 kW'",
        "1:3: position: column 'position' takes no unit",
        "1:4: unknown column 'Peak_powr' (did you mean 'peak_power'?)",
        "1:5: unknown column 'pdus.A.colour' (did you mean 'pdus.A.count'?)",
        "1:6: id: column 'id' appears twice",
        "1:7: unknown column 'xyz' (see docs/import-csv.md)",
        "1:1: missing required column 'type'",
    ]


def test_an_unknown_unit_in_the_header(tmp_path):
    assert problems(tmp_path, "id,type,peak_power [zorks]\nA,t,1\n") == [
        "1:3: peak_power: unknown unit 'zorks'"
    ]


def test_non_utf8_bytes_are_reported_with_their_row(tmp_path):
    text = b"\xef\xbb\xbfid,type\nA01,gb300-nvl72\nA\xff2,gb300-nvl72\n"
    assert problems(tmp_path, text) == ["3:2: not UTF-8 text (byte 0xff)"]


def test_malformed_csv_and_empty_files(tmp_path):
    assert problems(tmp_path, 'id,type\n"A01"x,t\n') == [
        "2:1: invalid CSV: ',' expected after '\"'"
    ]
    assert problems(tmp_path, "\n\n") == ["1:1: the file is empty"]


def test_a_missing_file(tmp_path):
    with pytest.raises(InputError) as info:
        read_racks(tmp_path / "nowhere.csv")
    assert [str(p) for p in info.value.problems] == [f"{tmp_path / 'nowhere.csv'}: file not found"]


# --- the site file written ----------------------------------------------------------------------


def test_the_site_file_loads_and_gives_the_racks_of_the_spreadsheet(tmp_path):
    text = (
        "id,type,pdus.A.type,pdus.A.count,pdus.B.type,pdus.B.count,peak_power [kW]\n"
        "R01,gb300-nvl72,pdu-3p-415v-63a,4,pdu-3p-415v-63a,4,\n"
        "R02,gb200-nvl72,pdu-3p-415v-63a,2,pdu-3p-415v-63a,2,120\n"
    )
    imported = read_racks(write(tmp_path, text))
    site_file = tmp_path / "racks.yaml"
    site_file.write_text(site_yaml(imported, "Pod"), encoding="utf-8")
    site = load_site(site_file)
    assert site.info.name == "Pod"
    assert [(r.id, r.type.id, {s: len(p) for s, p in r.pdus.items()}) for r in site.racks] == [
        ("R01", "gb300-nvl72", {"A": 4, "B": 4}),
        ("R02", "gb200-nvl72", {"A": 2, "B": 2}),
    ]
    assert site.racks[1].type.figures.peak_power == 120_000
    assert site.racks[1].type.provenance["peak_power"].location.line == 8  # R02's line


def test_the_bundled_csv_example_is_what_the_importer_writes():
    imported = read_racks(EXAMPLES / "csv" / "racks.csv")
    shipped = (EXAMPLES / "csv" / "racks.yaml").read_text(encoding="utf-8")
    assert site_yaml(imported, "racks") == shipped
    site = load_site(EXAMPLES / "csv" / "pod.yaml")
    assert [r.id for r in site.racks] == ["R01", "R02", "R03", "R04"]
    assert site.racks[2].type.figures.peak_power == 150_000
    assert site.racks[3].type.figures.filled_mass == pytest.approx(3300 * 0.45359237)


# --- formula injection --------------------------------------------------------------------------

HOSTILE = ['=HYPERLINK("http://x")', "+1+1", "@SUM(A1)", "-2+3", "'=x", "''@y", "'plain"]


@pytest.mark.parametrize("cell", HOSTILE)
def test_inert_cells_come_back_as_they_were(cell):
    shown = inert(cell)
    assert not shown.startswith(("=", "+", "-", "@", "\t", "\r"))
    assert unquoted(shown) == cell


def test_inert_prefixes_one_quote():
    assert [inert(c) for c in HOSTILE] == [
        '\'=HYPERLINK("http://x")',
        "'+1+1",
        "'@SUM(A1)",
        "'-2+3",
        "''=x",
        "'''@y",
        "'plain",
    ]
    assert inert("\tx") == "'\tx" and inert("\rx") == "'\rx" and inert("A01") == "A01"


def test_hostile_ids_survive_into_the_yaml_as_plain_text(tmp_path):
    lines = ["id,type"] + [
        f'"{inert(i).replace(chr(34), chr(34) * 2)}",gb300-nvl72' for i in HOSTILE
    ]
    imported = read_racks(write(tmp_path, "\n".join(lines) + "\n"))
    assert [r["id"] for r in imported.racks] == HOSTILE
    data = yaml.safe_load(site_yaml(imported, "x"))
    assert [r["id"] for r in data["racks"]] == HOSTILE


def test_a_file_name_cannot_break_out_of_the_comment(tmp_path):
    path = tmp_path / "evil\nracks: [1].csv"
    path.write_text("id,type\nA01,gb300-nvl72\n", encoding="utf-8")
    text = site_yaml(read_racks(path), "x")
    assert (
        text.splitlines()[0]
        == "# Racks imported from evil?racks: [1].csv by `facility import csv`."
    )
    assert yaml.safe_load(text)["racks"] == [{"id": "A01", "type": "gb300-nvl72"}]


# --- units refused by the unit grammar, in a header or a cell ----------------------------------


def test_a_unit_outside_the_grammar_in_a_header(tmp_path, monkeypatch):
    from facility import units

    def no_pint():
        raise AssertionError("pint was asked")

    no_pint.cache_clear = lambda: None
    monkeypatch.setattr(units, "registry", no_pint)
    text = (
        "id,type,peak_power [kW**9**9**9],nominal_power [kW/0],filled_mass [" + "kg" * 600 + "]\n"
    )
    assert problems(tmp_path, text + "A,t,1,2,3\n") == [
        "1:3: peak_power: unit 'kW**9**9**9' has a power larger than 4",
        "1:4: nominal_power: unit 'kW/0' divides by zero",
        "1:5: filled_mass: unit 'kgkgkgkgkgkgkgkgkgkgkgkgkgkgkgkg…' is 1,200 characters long; "
        "the limit is 64",
    ]


def test_a_unit_outside_the_grammar_in_a_cell(tmp_path):
    text = "id,type,peak_power,nominal_power\nA01,gb300-nvl72,155 kW**2**2,100 kW/(h/0)\n"
    assert problems(tmp_path, text) == [
        "2:3: peak_power: unit 'kW**2**2' raises a power to a power",
        "2:4: nominal_power: unit 'kW/(h/0)' divides by zero",
    ]


def test_a_header_with_a_long_run_of_spaces_is_read_in_one_pass(tmp_path):
    # The header pattern once matched a lazy name before "\s*": quadratic in a run of spaces
    # (60,000 of them, within the CSV reader's 131,072 characters a cell: minutes). One pass now.
    header = "peak" + " " * 60_000 + "power" + " " * 60_000 + "[kW]"
    assert racks(tmp_path, f"id,type,{header}\nA,t,1\n")[0]["overrides"] == {"peak_power": "1 kW"}
