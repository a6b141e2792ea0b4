"""Every field the site file accepts is read by a check, or is not a physical input (issue 20).

The walk is scripts/site_reference.py's (``sections()``: every row of docs/site-file.md, the
rules that read each field worked out from the source). A row whose *Read by* is a rule list,
``structure`` (references, counts that make entities), ``see its fields`` (a block) or a role
(the design intent picks the profile) is judged. A row that reads ``—`` must be in
:data:`NOT_PHYSICAL`, a small reviewed table of fields that are not physical inputs, each with
its reason and, where code reads it, the module that does. A physical figure no check reads
has no table to go in: a check must read it, or the model must refuse it. The table fails when
an entry outlives its reason (the field is gone, or a rule reads it now).

An entry names a field by one of its paths and covers every path of the same declared field
(``rack_types[].name`` also covers ``rows[].overrides.name``; ``rooms[].id``, every entity's
``id``); an entry for a block (``waivers[]``, ``site.document``) covers every field under it.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNREAD = "—"

IDENTITY = "identity"  # how findings, references and waivers name an entity
WORDS = "words"  # for the people who read the file or the report
DOCUMENT = "document control and waivers"  # the report's document block; the waiver engine
PRESENTATION = "presentation"  # how the reports show figures, not the figures
ACCOUNT = "account-only"  # read by the power account, a report section or an analysis
FORMAT = "file format"  # how the file itself is read
CLASSES = {IDENTITY, WORDS, DOCUMENT, PRESENTATION, ACCOUNT, FORMAT}


@dataclass(frozen=True)
class Reason:
    kind: str  # one of CLASSES
    why: str
    where: tuple[str, ...] = ()  # the modules (from the repository's root) that read it


NOT_PHYSICAL: dict[str, Reason] = {
    # --- identity ---
    "rooms[].id": Reason(IDENTITY, "every entity's id (Entity.id): findings, references and "
                         "waivers name the entity by it"),
    "cluster.id": Reason(IDENTITY, "the id findings about the cluster point at"),
    "rooms[].move_in_route.segments[].id": Reason(IDENTITY, "names the binding segment in "
                                                  "the working; uncrated_from refers to it"),
    "power.pdu_types[].banks[].id": Reason(IDENTITY, "names the outlet bank in findings"),
    "floor_zones[].layout.cable_trays[].id": Reason(IDENTITY, "names the tray (FLR-016's "
                                                    "entity)"),
    # --- words for people ---
    "site.name": Reason(WORDS, "the report header", ("facility/report/view.py",)),
    "site.location": Reason(WORDS, "the report header", ("facility/report/view.py",)),
    "site.notes": Reason(WORDS, "the report header", ("facility/report/view.py",)),
    "rooms[].name": Reason(WORDS, "a room's name in reports"),
    "rack_types[].name": Reason(WORDS, "a rack type's product name"),
    "rack_types[].description": Reason(WORDS, "free text"),
    "power.pdu_types[].name": Reason(WORDS, "a PDU type's product name"),
    "cooling.cdus[].name": Reason(WORDS, "a CDU's product name"),
    "cluster.supernodes[].product": Reason(WORDS, "the product a supernode is, e.g. 'GB300 "
                                           "NVL72' (its figures come from its racks' types)"),
    "cluster.workload.name": Reason(WORDS, "the planned run's name"),
    "cluster.network.scale_up.notes": Reason(WORDS, "free text"),
    "cluster.commissioning.loop_flushing.notes": Reason(WORDS, "free text on a record"),
    "rooms[].cooling_loss.basis": Reason(WORDS, "where the solids' figures come from"),
    "floor_zones[].layout.cable_trays[].cables[].description": Reason(WORDS, "what the cables "
                                                                      "are"),
    # --- document control and waivers ---
    "site.document": Reason(DOCUMENT, "the report's document block and sign-off: who issues, "
                            "checks and approves, and the revisions", ("facility/report/view.py",)),
    "waivers[]": Reason(DOCUMENT, "the waiver engine matches rule, entity and expiry to findings; "
                        "the reports show reason, owner and ticket",
                        ("facility/engine/waivers.py", "facility/report/view.py")),
    # --- presentation ---
    "site.display_units": Reason(PRESENTATION, "the units the reports show (SI or US); every "
                                 "check runs on the same canonical magnitudes",
                                 ("facility/commands/check.py",)),
    # --- account-only: a judgement a user sees, made outside the rules ---
    "power.sources[].efficiency": Reason(
        ACCOUNT,
        "the power account's losses (delivered × (1/η − 1)) and the hall's pPUE in every "
        "report's power account; no rule judges a pPUE",
        ("facility/engine/power_account.py", "facility/report/json_report.py"),
    ),
    "rack_types[].category": Reason(
        ACCOUNT,
        "splits the power account's IT line into compute, network and storage (the report "
        "shows each); every check counts a rack's power whatever its category",
        ("facility/engine/power_account.py",),
    ),
    "power.distribution[].kind": Reason(
        ACCOUNT,
        "a computed fix that re-feeds a load puts it on a panel or RPP below its UPS, never on "
        "a busway; every check judges an element by its rating whatever its kind",
        ("facility/analysis/fixes.py",),
    ),
    # --- file format ---
    "schema_version": Reason(FORMAT, "the model accepts version 1 only (its type is "
                             "Literal[1]: facility/model/document.py)"),
    "extends": Reason(FORMAT, "the base files merged under this one before anything is read",
                      ("facility/model/layers.py",)),
}  # fmt: skip

# --- the walk ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Field:
    path: str
    declared: tuple[str, str]  # (the class that declares it, its name)
    read_by: str


@pytest.fixture(scope="module")
def fields(reference: ModuleType) -> list[Field]:
    found = []
    for section in reference.sections():
        names = list(section.model.model_fields)
        assert len(names) == len(section.rows)
        for name, row in zip(names, section.rows, strict=True):
            owner = reference._owner(section.model, name).__name__
            found.append(Field(row.path, (owner, name), row.read_by))
    return found


def covered(key: str, fields: list[Field]) -> list[Field]:
    """The fields an entry covers: every path of the field it names, or every field under
    the block it names."""
    named = [f for f in fields if f.path == key and f.read_by != "see its fields"]
    if named:
        return [f for f in fields if f.declared == named[0].declared]
    return [f for f in fields if f.path.startswith((f"{key}.", f"{key}[]."))]


def explained(fields: list[Field]) -> set[str]:
    return {f.path for key in NOT_PHYSICAL for f in covered(key, fields)}


def test_every_field_is_read_by_a_check_or_is_not_a_physical_input(fields):
    unread = [f.path for f in fields if f.read_by == UNREAD]
    assert [p for p in unread if p not in explained(fields)] == [], (
        "a field no check reads: make a check read it, refuse it in the model, or (when it is "
        "no physical input) add it to NOT_PHYSICAL with its reason"
    )


@pytest.mark.parametrize("key", list(NOT_PHYSICAL))
def test_each_entry_names_fields_no_rule_reads(key, fields):
    found = covered(key, fields)
    assert found, f"{key} names no field of the site file"
    assert [f.path for f in found if f.read_by not in (UNREAD, "see its fields")] == [], (
        f"a rule reads {key} now: take it off the table"
    )


def test_the_table_names_its_reasons():
    assert {r.kind for r in NOT_PHYSICAL.values()} <= CLASSES
    # what the report, the waiver engine, the account or an analysis reads names its module
    needs_where = (DOCUMENT, PRESENTATION, ACCOUNT)
    assert [k for k, r in NOT_PHYSICAL.items() if r.kind in needs_where and not r.where] == []


def _names_used(module: str) -> set[str]:
    """The attribute names and strings a module of the package uses."""
    tree = ast.parse((ROOT / module).read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            names.add(node.attr)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            names.add(node.value)
        elif isinstance(node, ast.keyword) and node.arg:
            names.add(node.arg)
    return names


@pytest.mark.parametrize("key", [k for k, r in NOT_PHYSICAL.items() if r.where])
def test_each_entry_points_at_the_code_that_reads_it(key, fields):
    used = set().union(*(_names_used(m) for m in NOT_PHYSICAL[key].where))
    assert [f.path for f in covered(key, fields) if f.declared[1] not in used] == []


# --- the analysis sees what the code reads ---------------------------------------------------


def _function(reference: ModuleType, source: str, name: str) -> Any:
    tree = ast.parse(source)
    constants = reference._constants(tree)
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == name)
    return reference._scan(node, constants)


def test_a_read_through_a_variable_counts_the_constants_it_comes_from(reference):
    source = (
        "from facility.model.heat_rejection import AMBIENT_OF_KIND\n"
        "LOCAL = ('flow', 'capacity')\n"
        "def ambient(site, entry):\n"
        "    which = AMBIENT_OF_KIND[entry.kind]\n"
        "    return getattr(site.design_ambient, which)\n"
        "def figures(cdu):\n"
        "    return [getattr(cdu, f) for f in LOCAL]\n"
        "def plain(cdu):\n"
        "    return LOCAL, cdu.pumps\n"
    )
    ambient = _function(reference, source, "ambient")
    assert {"wet_bulb", "dry_bulb"} <= reference._names_read(ambient)
    assert {"flow", "capacity"} <= reference._names_read(_function(reference, source, "figures"))
    # naming a table without reading an attribute through it reads none of its strings
    assert "capacity" not in reference._names_read(_function(reference, source, "plain"))


def test_the_design_wet_bulb_is_read_by_the_plant_checks(fields):
    (wet,) = [f for f in fields if f.path == "site.design_ambient.wet_bulb"]
    assert {"LIQ-024", "LIQ-025"} <= set(wet.read_by.split(", "))


def test_every_rule_a_row_names_exists(reference, fields):
    codes = {r.code for r in reference._rules()}
    named = {
        code
        for f in fields
        if f.read_by not in (UNREAD, reference.STRUCTURE, "see its fields")
        and not f.read_by.startswith("the profile")
        for code in f.read_by.split(", ")
    }
    assert named <= codes


def test_every_model_says_which_kinds_of_entity_read_it(reference: ModuleType) -> None:
    """A model with no scope would be matched by name against every kind of entity: a field
    of the same name elsewhere (a load's ``count``, a quick disconnect's ``pressure_drop``)
    could pass for it, and an unread field would hide behind it."""
    models = {section.model.__name__ for section in reference.sections()}
    declared = set(reference.SCOPES) | set(reference.SITE_WIDE)
    assert sorted(models - declared) == []
    assert set(reference.SCOPES).isdisjoint(reference.SITE_WIDE)
