"""The site file's JSON Schema documents itself (issue 17): every property has a description,
the schema has a stable ``$id``, and the starter ``facility init`` writes points editors at it."""

from __future__ import annotations

import json
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
