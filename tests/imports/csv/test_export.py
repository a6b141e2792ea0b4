"""``facility export csv``: lossless round trips, inert cells, and what a CSV cell cannot hold."""

from __future__ import annotations

import csv
import io
import textwrap
from pathlib import Path

import pytest

from facility.engine.evaluate import audit
from facility.engine.rules import load_rules
from facility.imports.csv_export import export_racks
from facility.imports.csv_racks import read_racks, site_yaml
from facility.model.load import load_site
from facility.model.source import InputError

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def imported(tmp_path: Path, text: str, name: str = "racks") -> Path:
    """``text`` (CSV) imported into ``<name>.yaml``."""
    csv_file = tmp_path / f"{name}.csv"
    csv_file.write_text(text, encoding="utf-8")
    site_file = tmp_path / f"{name}.yaml"
    site_file.write_text(site_yaml(read_racks(csv_file), name), encoding="utf-8")
    return site_file


def rack_facts(site) -> list[tuple]:
    return [
        (
            r.id,
            r.type.id,
            r.row,
            r.position,
            r.zone,
            r.loop,
            r.room,
            {side: [(p.id, p.type_id, p.fed_by) for p in pdus] for side, pdus in r.pdus.items()},
            r.type.figures.model_dump(),
        )
        for r in site.racks
    ]


def test_hall_b3_export_import_export_gives_the_same_csv(tmp_path):
    first = export_racks(EXAMPLES / "hall-b3.yaml")
    assert first.splitlines()[:2] == [
        "id,type,row,position,zone,loop,pdus.A.type,pdus.A.count,pdus.B.type,pdus.B.count",
        "A01,gb300-b3,A,1,Z-A,TCS-A,pdu-415v-63a,4,pdu-415v-63a,4",
    ]
    assert len(first.splitlines()) == 1 + 20
    again = export_racks(imported(tmp_path, first))
    assert again == first


def test_hall_b3_racks_from_csv_under_its_hall_give_the_same_racks_and_verdicts(tmp_path):
    imported(tmp_path, export_racks(EXAMPLES / "hall-b3.yaml"))
    hall = (EXAMPLES / "hall-b3.yaml").read_text(encoding="utf-8").partition("\nrows:\n")[0]
    overlay = tmp_path / "hall.yaml"
    overlay.write_text("extends: racks.yaml\n" + hall + "\n", encoding="utf-8")
    original, layered = load_site(EXAMPLES / "hall-b3.yaml"), load_site(overlay)
    assert rack_facts(layered) == rack_facts(original)
    rules = load_rules(profile="tier-iii")
    verdicts = [
        sorted((f.rule, f.entity_id, f.status, str(f.observed)) for f in audit(s, rules).findings)
        for s in (original, layered)
    ]
    assert verdicts[0] == verdicts[1]


def test_a_layered_site_exports_like_the_single_file():
    assert export_racks(EXAMPLES / "layered" / "cooling.yaml") == export_racks(
        EXAMPLES / "hall-b3.yaml"
    )


def test_values_are_written_as_the_site_file_has_them(tmp_path):
    site = tmp_path / "site.yaml"
    site.write_text(
        textwrap.dedent(
            """\
            site: {name: T}
            racks:
              - id: R1
                type: gb300-nvl72
                position: 0
                pdus: {A: {type: pdu-3p-415v-63a, names: ["{rack}-PA1", "{rack}-PA2"], count: 2}}
                overrides:
                  peak_power: 550000 BTU/h
                  power_factor: 0.95
                  footprint: {width: 24 in, depth: 48 in}
                  design_flow: null
            """
        ),
        encoding="utf-8",
    )
    text = export_racks(site)
    assert text == (
        "id,type,position,pdus.A.type,pdus.A.count,pdus.A.names,peak_power,power_factor,"
        "footprint.width,footprint.depth,design_flow\n"
        "R1,gb300-nvl72,0,pdu-3p-415v-63a,2,{rack}-PA1; {rack}-PA2,550000 BTU/h,0.95,24 in,"
        "48 in,null\n"
    )
    back = load_site(imported(tmp_path, text, "again"))
    assert rack_facts(back) == rack_facts(load_site(site))


HOSTILE = ['=HYPERLINK("http://x")', "+1+1", "@SUM(A1)", "-2+3", "'=x"]


def test_hostile_ids_are_inert_in_the_csv_and_come_back_unchanged(tmp_path):
    site = tmp_path / "site.yaml"
    entries = "".join(
        f"  - {{id: {rack_id!r}, type: gb300-nvl72, overrides: {{name: {rack_id!r}}}}}\n"
        for rack_id in HOSTILE
    )
    site.write_text("site: {name: T}\nracks:\n" + entries.replace("\\'", "''"), encoding="utf-8")
    original = load_site(site)
    assert [r.id for r in original.racks] == HOSTILE
    text = export_racks(site)
    cells = list(csv.reader(io.StringIO(text)))[1:]
    for row in cells:
        for cell in row:
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), cell
    assert [row[0] for row in cells] == [
        '\'=HYPERLINK("http://x")',
        "'+1+1",
        "'@SUM(A1)",
        "'-2+3",
        "''=x",
    ]
    base = imported(tmp_path, text)
    assert export_racks(base) == text
    assert [r.id for r in load_site(base).racks] == HOSTILE
    assert [r.type.figures.name for r in load_site(base).racks] == HOSTILE


def test_a_flow_table_override_cannot_be_written_to_csv(tmp_path):
    site = tmp_path / "site.yaml"
    site.write_text(
        "site: {name: T}\nracks:\n  - id: R1\n    type: gb300-nvl72\n    overrides:\n"
        "      flow_table:\n        - {supply_temperature: 20 degC, flow: 100 L/min}\n"
        "        - {supply_temperature: 30 degC, flow: 120 L/min}\n",
        encoding="utf-8",
    )
    with pytest.raises(InputError) as info:
        export_racks(site)
    assert [str(p) for p in info.value.problems] == [
        f"{site}:6:7: racks[0].overrides.flow_table: flow_table cannot be written to a CSV "
        "cell; keep it in the site file"
    ]


def test_an_invalid_site_is_not_exported(tmp_path):
    site = tmp_path / "site.yaml"
    site.write_text("site: {name: T}\nracks:\n  - {id: R1, type: t, position: x}\n", "utf-8")
    with pytest.raises(InputError) as info:
        export_racks(site)
    # the bad position, and (in the same pass) the rack type 't' that names nothing
    assert [p.field for p in info.value.problems] == ["racks[0].type", "racks[0].position"]
