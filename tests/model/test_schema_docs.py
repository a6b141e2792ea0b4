"""The site file's JSON Schema documents itself (issue 17): every property has a description,
the schema has a stable ``$id``, and the starter ``facility init`` writes points editors at it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from facility.cli import app
from facility.model.document import SCHEMA_FILE, json_schema
from facility.model.starter import STARTER_SITE

# Fields another change owns (the waiver fields): described there. When they are, this test
# fails until they are taken off this list, so the list cannot outlive its reason.
PENDING: set[str] = set()


def undescribed(schema: dict[str, Any]) -> set[str]:
    """Every property of the schema and of its definitions without a description."""
    found = set()
    objects = [("", schema), *((f"{name}.", d) for name, d in schema.get("$defs", {}).items())]
    for prefix, node in objects:
        for name, prop in node.get("properties", {}).items():
            if not str(prop.get("description", "")).strip():
                found.add(f"{prefix}{name}")
    return found


def test_every_property_of_the_schema_has_a_description():
    assert undescribed(json_schema()) == PENDING


def test_the_walk_finds_a_property_without_a_description():
    schema = {
        "properties": {"a": {"description": "A"}, "b": {}},
        "$defs": {"X": {"properties": {"c": {"description": " "}}}},
    }
    assert undescribed(schema) == {"b", "X.c"}


def test_a_quantity_field_says_what_it_is_not_only_its_kind():
    # A quantity type alone describes itself as "A power with its unit, e.g. '132 kW'"; a field
    # says which power. Every quantity property carries its own words.
    generic = []
    for name, node in json_schema()["$defs"].items():
        for prop_name, prop in node.get("properties", {}).items():
            text = prop.get("description", "")
            if " with its unit, e.g. " in text or text.startswith("A fraction: '90 %'"):
                generic.append(f"{name}.{prop_name}")
    assert generic == []


def test_the_schema_has_a_stable_id():
    result = CliRunner().invoke(app, ["schema"])
    assert result.exit_code == 0
    schema = json.loads(result.stdout)
    assert schema["$id"] == "urn:facility:site-schema:1"
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_the_starter_points_editors_at_the_schema_file_beside_it():
    first, second = STARTER_SITE.splitlines()[:2]
    assert first == f"# yaml-language-server: $schema=./{SCHEMA_FILE}"
    assert SCHEMA_FILE == "site.schema.json"
    assert f"facility schema > {SCHEMA_FILE}" in second


def test_init_says_how_to_make_the_schema_file(tmp_path):
    target = tmp_path / "halls" / "site.yaml"
    target.parent.mkdir()
    result = CliRunner().invoke(app, ["init", str(target)])
    assert result.exit_code == 0, result.output
    assert f"facility schema > {tmp_path / 'halls' / SCHEMA_FILE}" in result.stdout
    assert target.read_text(encoding="utf-8").startswith("# yaml-language-server: $schema=")


def test_the_starter_is_valid_under_the_schema():
    jsonschema = pytest.importorskip("jsonschema")
    data = yaml.safe_load(STARTER_SITE)
    errors = [e.message for e in jsonschema.Draft202012Validator(json_schema()).iter_errors(data)]
    assert errors == []


# --- docs/site-file.md, generated from the schema and the models ---------------------------

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "site-file.md"


# ``reference`` (scripts/site_reference.py as a module) is tests/model/conftest.py's.


@pytest.fixture(scope="module")
def rows(reference) -> dict[str, dict[str, str]]:
    """The page's table rows by path: type, unit, default, description, read by."""
    found = {}
    for line in reference.render().splitlines():
        if line.startswith("| `"):
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
            path, *rest = cells
            found[path.strip("`")] = dict(
                zip(["type", "unit", "default", "description", "read_by"], rest, strict=True)
            )
    return found


def test_the_site_file_reference_is_up_to_date(reference):
    current = PAGE.read_text(encoding="utf-8") if PAGE.exists() else ""
    assert current == reference.render(), (
        "docs/site-file.md is stale; refresh it with: uv run python scripts/site_reference.py"
    )


def schema_paths(schema: dict[str, Any]) -> set[str]:
    """Every property path of the JSON Schema, walked on its own (``[]`` list items, ``<key>``
    map values), to compare with the page."""
    defs = schema["$defs"]
    found: set[str] = set()

    def walk(node: dict[str, Any], path: str, depth: int = 0) -> None:
        assert depth < 20
        if "$ref" in node:
            walk(defs[node["$ref"].rsplit("/", 1)[1]], path, depth + 1)
        for option in node.get("anyOf", []):
            walk(option, path, depth + 1)
        if "items" in node and isinstance(node["items"], dict):
            walk(node["items"], f"{path}[]", depth + 1)
        if isinstance(node.get("additionalProperties"), dict):
            walk(node["additionalProperties"], f"{path}.<key>", depth + 1)
        for value in node.get("patternProperties", {}).values():  # a map keyed by ids
            walk(value, f"{path}.<key>", depth + 1)
        for name, prop in node.get("properties", {}).items():
            child = f"{path}.{name}" if path else name
            found.add(child)
            walk(prop, child, depth + 1)

    walk(schema, "")
    return found


def test_the_reference_has_a_row_for_every_schema_property(rows):
    assert set(rows) == schema_paths(json_schema())


def test_every_row_has_a_description_and_a_read_by(rows):
    assert [p for p, row in rows.items() if not row["description"]] == []
    assert [p for p, row in rows.items() if not row["read_by"]] == []


def test_the_reference_gives_units_defaults_and_types(rows):
    peak = rows["rack_types[].peak_power"]
    assert (peak["type"], peak["unit"], peak["default"]) == ("quantity", "power, e.g. `132 kW`", "")
    derating = rows["conventions.continuous_load_derating"]
    assert (derating["unit"], derating["default"]) == ("fraction: `90 %` or 0.9", "80 %")
    assert rows["site"]["default"] == "required"
    assert rows["floor_zones[].construction"]["type"] == "one of `slab`, `raised_floor`"
    assert rows["rooms[].redundant_air_units"] == rows["rooms[].redundant_air_units"] | {
        "type": "integer",
        "default": "`0`",
    }
    assert rows["rows[].pdus.<key>.count"]["default"] == "`1`"


def codes(row: dict[str, str]) -> set[str]:
    return set(row["read_by"].split(", "))


def test_the_reference_says_which_rules_read_a_field(rows):
    # PDU capacity n·√3·V_LL·I·DF (PWR-001: one side carries the rack) takes DF from the PDU
    # type, else from the convention; a busway's capacity (PWR-005) reads the convention itself.
    assert {"PWR-001", "PWR-005"} <= codes(rows["conventions.continuous_load_derating"])
    assert {"PWR-001"} <= codes(rows["power.pdu_types[].breaker_rating"])
    # AIR-001: the room's air heat against Σ sensible capacity of its air units.
    assert "AIR-001" in codes(rows["cooling.air_units[].sensible_capacity"])
    # FLR-001: rack mass over its footprint against the zone's uniform load rating.
    assert "FLR-001" in codes(rows["floor_zones[].uniform_load_rating"])
    assert "FLR-001" in codes(rows["rack_types[].footprint.width"])
    # LIQ-010: N+1 pumps; a UPS's required module count is PWR-022's alone (PWR-008 judges
    # (installed − 1) · S_module): a field of one name on two kinds of entity is not confused.
    assert "LIQ-010" in codes(rows["cooling.cdus[].pumps.required"])
    assert codes(rows["power.sources[].modules.required"]) == {"PWR-022"}
    assert "PWR-007" in codes(rows["power.sources[].modules.installed"])
    # A field of the same name on another kind of entity is not confused with it: the PDU
    # type's voltage is not a busway's (PWR-005 reads the busway's).
    assert "PWR-005" in codes(rows["power.distribution[].voltage"])
    assert "PWR-005" not in codes(rows["power.pdu_types[].voltage"])


def test_structure_ids_and_blocks_are_marked_as_such(rows):
    assert rows["rows[].racks.count"]["read_by"] == "structure"
    assert rows["racks[].loop"]["read_by"] == "structure"
    assert rows["cooling.tcs_loops[].cdus"]["read_by"] == "structure"
    assert rows["rack_types[].catalog"]["read_by"] == "structure"
    assert rows["rack_types[].id"]["read_by"] == "—"
    assert rows["waivers[].rule"]["read_by"] == "—"
    assert rows["cooling.cdus[].pumps"]["read_by"] == "see its fields"
    # the design intent picks the profile, as check does (facility.engine.evaluate)
    assert rows["site.design_intent"]["read_by"].startswith("the profile")


def test_the_check_mode_reports_a_stale_page(reference, tmp_path, monkeypatch, capsys):
    stale = tmp_path / "site-file.md"
    stale.write_text("old\n", encoding="utf-8")
    monkeypatch.setattr(reference, "OUTPUT", stale)
    monkeypatch.setattr(reference, "ROOT", tmp_path)
    assert reference.main(["--check"]) == 1
    assert "refresh it with: uv run python scripts/site_reference.py" in capsys.readouterr().out
    assert reference.main([]) == 0
    assert reference.main(["--check"]) == 0
