"""Write docs/site-file.md, the site file's field-by-field reference, from the models.

    uv run python scripts/site_reference.py          # rewrite docs/site-file.md
    uv run python scripts/site_reference.py --check  # exit 1 when docs/site-file.md is stale

Every field of the site file (what ``facility schema`` describes) gets a row: its path, type,
unit (the kind of quantity the model declares, :mod:`facility.model.fields`), default and
description (the schema's), and the rules that read it. Which rules read a field is worked out
from the source, not listed by hand:

1. each derived quantity (``@quantity`` in ``facility/engine/derive_*.py``) reads the fields
   whose names its function uses — as ``x.field``, ``getattr(x, "field")`` or a ``"field"``
   string — directly or through the helpers and properties (``facility/model/site.py``) it
   calls; a function that reads an attribute named by a variable (``getattr(x, which)``) also
   reads every string of the module-level constants it uses, its module's or imported from
   the package (``which = AMBIENT_OF_KIND[entry.kind]``); a field name that several kinds of
   entity have counts only for a quantity of a scope that kind belongs to (:data:`SCOPES`);
2. each quantity also reads what it declares (``reads=``, :mod:`facility.engine.reads`): the
   quantities of its own entity (``self.x``) and of related ones (``pdus_below.pdu_load``);
3. each rule reads the quantities its ``observed``, ``limit`` and ``when`` name.

So "read by" is what the code can read: a field named in a branch a site never takes still
counts. Ids and names are how findings point at entities, not inputs of a check (shown as —).
"""

from __future__ import annotations

import ast
import sys
import types
import typing
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from pydantic.fields import FieldInfo

ROOT = Path(__file__).resolve().parents[1]
OUTPUT = ROOT / "docs" / "site-file.md"
COMMAND = "uv run python scripts/site_reference.py"

# The scopes (kinds of entity rules run on) each model's fields belong to; the models of
# SITE_WIDE are read by quantities of any scope. Every model is in one of the two
# (tests/model/test_schema_walk.py): a model in neither would be matched by name against every
# kind of entity, and a field of the same name elsewhere could pass for it.
SCOPES: dict[str, frozenset[str]] = {
    name: frozenset(scopes.split())
    for name, scopes in {
        "RackFigures": "rack supernode thermal_test",  # a supernode reads its racks' accelerators
        "RackType": "rack",
        "RackPlacement": "rack",
        "Rack": "rack",
        "Row": "rack",
        "Numbering": "rack",
        "Footprint": "rack floor_zone supernode",  # a zone's space, a rack's place in its row
        "FlowPoint": "rack",
        "TemperatureRange": "rack",
        "PduGroup": "rack pdu",
        "PduType": "pdu",
        "Distribution": "distribution",
        "PowerSource": "power_source",
        "Modules": "power_source",
        "CduFigures": "cdu",
        "Cdu": "cdu",
        "Pumps": "cdu",
        "FacilityWater": "facility_water",
        "HeatRejection": "facility_water",
        "DesignAmbient": "facility_water",
        "TcsLoop": "tcs_loop",
        "Coolant": "tcs_loop facility_water rack",
        "AirUnit": "room",
        "Room": "room",
        "RoomCondition": "room",
        "CoolingLoss": "room",
        "FloorZone": "floor_zone rack supernode",  # a rack reads its zone's layout
        "ZoneClearances": "floor_zone",
        "ZoneLayout": "floor_zone rack supernode cable_tray",
        "RowLayout": "rack supernode",
        "CableTray": "cable_tray",
        "CableBundle": "cable_tray",
        "MoveInRoute": "move_in_route",  # a room's, read by the quantities of its racks
        "RouteSegment": "move_in_route",
        "Cluster": "cluster supernode commissioning_item thermal_test monitoring_layer",
        "Supernode": "supernode cluster",
        "Network": "cluster",
        "ScaleUp": "cluster supernode",  # a supernode's cable routes against its reach
        "ScaleOut": "cluster",
        "RoceSettings": "cluster",
        "StorageNetwork": "cluster",
        "Storage": "cluster",
        "Workload": "cluster supernode",
        "Parallelism": "supernode",
        "Commissioning": "commissioning_item cluster thermal_test monitoring_layer",
        "Evidence": "commissioning_item cluster",
        "ThermalTest": "thermal_test commissioning_item",
        "CardMonitoring": "monitoring_layer commissioning_item",
        "LinkMonitoring": "monitoring_layer commissioning_item",
        "SchedulerMonitoring": "monitoring_layer commissioning_item",
        "TrainingMonitoring": "monitoring_layer commissioning_item",
        "_Metric": "monitoring_layer",  # the metrics' common base: their source
        "CardMetric": "monitoring_layer",
        "LinkMetric": "monitoring_layer",
        "SchedulerMetric": "monitoring_layer",
        "TrainingMetric": "monitoring_layer",
        "NonItLoad": "power_source distribution cdu facility_water room",
        "OutletBank": "pdu rack",
        "LoopTopology": "tcs_loop",
        "QuickDisconnects": "tcs_loop",
        "CoolantQuality": "tcs_loop",
        "FluidAnalysis": "tcs_loop",
        "LeakZone": "tcs_loop",
        "FractionBand": "rack cdu tcs_loop",  # a loop's, a rack's or a CDU's accepted band
        "PhBand": "rack cdu tcs_loop",
        "FlowPerPowerBand": "rack",
        "PressureDropPoint": "rack",
        "Waiver": "",
        "DocumentControl": "",
        "Revision": "",
        "Signer": "",
    }.items()
}
SITE_WIDE = frozenset({"SiteDocument", "SiteInfo", "Conventions", "Power", "Cooling"})
NOT_INPUTS = frozenset({"id", "name"})  # how findings name an entity, not what a check reads
# Fields that make entities rather than describe one: the loader expands them (rows into racks,
# PDU groups into PDUs, counted air units into units). Like references (fields of type Id),
# they are "structure": which entities exist and what connects them.
EXPANDS = frozenset(
    {
        ("Numbering", "prefix"),
        ("Numbering", "first"),
        ("Numbering", "count"),
        ("Numbering", "digits"),
        ("PduGroup", "count"),
        ("PduGroup", "names"),
        ("AirUnit", "count"),
    }
)
STRUCTURE = "structure"
# Fields no check reads that still change every verdict.
ROLES = {("SiteInfo", "design_intent"): "the profile: every rule's severity (Tier III: tier-iii)"}
# Fields the loader copies into another before any check runs: read as the one they fill too.
FILLS = {("Conventions", "continuous_load_derating"): ("PduType", "derating")}


# --- what the code reads ------------------------------------------------------------------


@dataclass
class _Function:
    names: set[str] = field(default_factory=set)  # attributes and strings it uses
    calls: set[str] = field(default_factory=set)  # functions (and properties) it may call
    gets: set[tuple[str, str]] = field(default_factory=set)  # ctx.get("scope", "quantity")
    quantity: tuple[str, str] | None = None  # (scope, name) when it is a @quantity
    dynamic: bool = False  # it reads an attribute named by a variable: getattr(x, which)
    constants: set[str] = field(default_factory=set)  # the strings of the constants it uses


def _strings(node: ast.AST) -> set[str]:
    return {
        sub.value
        for sub in ast.walk(node)
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str)
    }


def _own_constants(tree: ast.Module) -> dict[str, set[str]]:
    """The strings of each module-level assignment of ``tree`` (``AMBIENT_OF_KIND = {...}``)."""
    found: dict[str, set[str]] = {}
    for statement in tree.body:
        if isinstance(statement, ast.Assign):
            targets, value = statement.targets, statement.value
        elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
            targets, value = [statement.target], statement.value
        else:
            continue
        for target in targets:
            if isinstance(target, ast.Name):
                found.setdefault(target.id, set()).update(_strings(value))
    return found


def _module_file(module: str) -> Path | None:
    base = ROOT.joinpath(*module.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _constants(tree: ast.Module) -> dict[str, set[str]]:
    """The module-level constants a function of ``tree`` can use, by the name it uses: the
    module's own and those it imports from the package (``from facility.model.x import Y``)."""
    found = _own_constants(tree)
    for statement in tree.body:
        if not (
            isinstance(statement, ast.ImportFrom)
            and statement.level == 0
            and (statement.module or "").split(".")[0] == "facility"
        ):
            continue
        path = _module_file(statement.module or "")
        if path is None:
            continue
        theirs = _own_constants(ast.parse(path.read_text(encoding="utf-8")))
        for alias in statement.names:
            if alias.name in theirs:
                found[alias.asname or alias.name] = theirs[alias.name]
    return found


def _is_dynamic_getattr(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "getattr"
        and len(node.args) >= 2
        and not isinstance(node.args[1], ast.Constant)
    )


def _scan(node: ast.FunctionDef, constants: dict[str, set[str]] | None = None) -> _Function:
    """What a function's body uses (not its decorators: a quantity's own name is no field);
    ``constants``: the module-level constants it can name (:func:`_constants`)."""
    found = _Function()
    constants = constants or {}
    body = [sub for statement in node.body for sub in ast.walk(statement)]
    found.dynamic = any(_is_dynamic_getattr(sub) for sub in body)
    quantity_names: set[int] = set()  # the constants of ctx.get("scope", "quantity")
    for sub in body:
        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute):
            args = [a for a in sub.args[:2] if isinstance(a, ast.Constant)]
            texts = [a.value for a in args if isinstance(a.value, str)]
            if sub.func.attr == "get" and len(texts) == 2:
                found.gets.add((texts[0], texts[1]))
                quantity_names.update(id(a) for a in args)
    for sub in body:
        if isinstance(sub, ast.Attribute):
            found.names.add(sub.attr)
            found.calls.add(sub.attr)
        elif isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            if id(sub) not in quantity_names:
                found.names.add(sub.value)
        elif isinstance(sub, ast.Name):
            found.calls.add(sub.id)
            found.constants |= constants.get(sub.id, set())
    return found


def _quantity_of(node: ast.FunctionDef) -> tuple[str, str] | None:
    for decorator in node.decorator_list:
        if (
            isinstance(decorator, ast.Call)
            and isinstance(decorator.func, ast.Name)
            and decorator.func.id == "quantity"
        ):
            scope, name = (a.value for a in decorator.args[:2] if isinstance(a, ast.Constant))
            return str(scope), str(name)
    return None


@cache
def _functions() -> dict[str, list[_Function]]:
    """Every function, method and property of the engine's quantity modules and of the
    resolved site, by name."""
    files = [*sorted((ROOT / "facility" / "engine").glob("derive_*.py"))]
    files.append(ROOT / "facility" / "model" / "site.py")
    table: dict[str, list[_Function]] = {}
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        constants = _constants(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                scanned = _scan(node, constants)
                scanned.quantity = _quantity_of(node)
                table.setdefault(node.name, []).append(scanned)
    return table


def _names_read(function: _Function) -> set[str]:
    """The names ``function`` uses, itself and through what it calls (each function once);
    where one of them reads an attribute named by a variable, the strings of the constants
    they use too (the variable's values come from somewhere: a table of field names)."""
    reached = _reached(function)
    names = {name for f in reached for name in f.names}
    if any(f.dynamic for f in reached):
        names |= {name for f in reached for name in f.constants}
    return names


def _gets_read(function: _Function) -> set[tuple[str, str]]:
    """The quantities ``function`` asks for with ctx.get, itself and through its helpers."""
    return {got for f in _reached(function) for got in f.gets}


def _reached(function: _Function) -> list[_Function]:
    """``function`` and the helpers it calls (not other quantities), each once."""
    table = _functions()
    found: list[_Function] = []
    seen: set[int] = set()
    work = [function]
    while work:
        current = work.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        found.append(current)
        for call in current.calls:
            work.extend(f for f in table.get(call, ()) if f.quantity is None or f is function)
    return found


@cache
def _quantity_reads() -> dict[tuple[str, str], tuple[set[str], set[tuple[str, str]]]]:
    """(scope, quantity) -> (the names it reads, the quantities it reads)."""
    from facility.engine.quantities import catalogue
    from facility.engine.reads import RELATIONS

    out: dict[tuple[str, str], tuple[set[str], set[tuple[str, str]]]] = {}
    specs = catalogue()
    for functions in _functions().values():
        for function in functions:
            if function.quantity is None:
                continue
            scope, _name = function.quantity
            needs = {g for g in _gets_read(function) if g[1] in specs.get(g[0], {})}
            for entry in specs[scope][_name].reads:
                relation, dot, read = entry.partition(".")
                if not dot or ":" in read:
                    continue  # an aspect of state (racks, pdus, cdus in service): no field
                target = scope if relation == "self" else RELATIONS[(scope, relation)][0]
                needs.add((target, read))
            out[function.quantity] = (_names_read(function), needs)
    return out


@cache
def _rules() -> list[Any]:
    from facility.engine.rules import load_rules

    return list(load_rules(profile="tier-iii").rules)


def _rule_quantities(rule: Any) -> set[tuple[str, str]]:
    """Every quantity ``rule`` reads, directly or through the quantities it names."""
    reads = _quantity_reads()
    names = rule.observed.names | rule.limit.names | (rule.when.names if rule.when else set())
    work = [(rule.spec.scope, n) for n in names if (rule.spec.scope, n) in reads]
    seen: set[tuple[str, str]] = set()
    while work:
        item = work.pop()
        if item in seen or item not in reads:
            continue
        seen.add(item)
        work.extend(reads[item][1])
    return seen


# The kind of entity each aspect of state (facility.engine.reads.ASPECTS) is made of.
ASPECT_SCOPES = {
    "pdus": "pdu",
    "below": "pdu",
    "racks": "rack",
    "cdus": "cdu",
    "figures": "cdu",
    "air_units": "room",
    "heat_rejection": "facility_water",
}


# What a rack reads through its own placement rather than a relation: its floor zone's
# ratings (derive_floor.py) and its room's move-in route (derive_move_in.py); a supernode
# reads its racks' figures (accelerators and peak rate, derive_cluster.py); a TCS loop the
# design condition of the room it runs in (its dew point, derive_condensation.py); the
# single-rack thermal test its tested rack's figures and its loop (derive_evidence.py).
PLACED_ON = {
    "rack": frozenset({"floor_zone", "move_in_route"}),
    "tcs_loop": frozenset({"room"}),
    "supernode": frozenset({"rack"}),
    "thermal_test": frozenset({"rack", "tcs_loop"}),
}


@cache
def _near(scope: str) -> frozenset[str]:
    """The kinds of entity a quantity of ``scope`` reads figures of: its own, those its
    relations lead to, and those its aspects are made of (a loop reads its racks' figures)."""
    from facility.engine.reads import ASPECTS, RELATIONS

    near = {scope, *(target for (s, _), (target, _) in RELATIONS.items() if s == scope)}
    near |= {ASPECT_SCOPES[a] for a in ASPECTS.get(scope, ())}
    near |= PLACED_ON.get(scope, frozenset())
    return frozenset(near)


@cache
def _own_fields(scope: str) -> frozenset[str]:
    """The field names of the models whose entities are of ``scope``."""
    return frozenset(
        name
        for model in _models()
        for name in model.model_fields
        if scope in SCOPES.get(_owner(model, name).__name__, frozenset())
    )


@cache
def _holders(owner: str) -> frozenset[str]:
    """The names of the fields that hold a block of class ``owner`` (``design_condition``
    holds a RoomCondition), when no field of another class has that name."""
    found = {
        name
        for model in _models()
        for name, info in model.model_fields.items()
        if any(sub.__name__ == owner for sub in _submodels(info.annotation))
    }
    return frozenset(found - _ambiguous()) | RESOLVED_HOLDERS.get(owner, frozenset())


# The attributes of the resolved entities (facility/model/site.py) that hold a block whose
# fields the file writes flat: a rack type's figures are ``rack.type.figures``, a CDU's
# ``cdu.figures`` (its catalog entry merged with the site's own).
RESOLVED_HOLDERS = {
    "RackFigures": frozenset({"figures"}),
    "CduFigures": frozenset({"figures"}),
}


@cache
def _ambiguous() -> frozenset[str]:
    """Field names that more than one kind of entity defines."""
    owners: dict[str, set[str]] = {}
    for model in _models():
        for name in model.model_fields:
            owners.setdefault(name, set()).add(_owner(model, name).__name__)
    return frozenset(name for name, classes in owners.items() if len(classes) > 1)


def read_by(model: type[BaseModel], name: str) -> list[str]:
    """The codes of the rules that read field ``name`` of ``model``, sorted."""
    if name in NOT_INPUTS:
        return []
    owner = _owner(model, name).__name__
    codes = set(_read_by(owner, name))
    if (owner, name) in FILLS:
        codes |= set(_read_by(*FILLS[(owner, name)]))
    return sorted(codes)


def _read_by(owner: str, name: str) -> list[str]:
    scopes = SCOPES.get(owner)
    if scopes is not None and not scopes:
        return []  # waivers, document control: not read by any check
    reads = _quantity_reads()

    def reads_it(quantity: tuple[str, str]) -> bool:
        scope = quantity[0]
        if scopes is None or name not in _ambiguous() or scope in scopes:
            scope_ok = True
        else:  # a neighbour's field, unless the quantity's own kind has a field of that name
            # and the quantity names no field that holds the neighbour's block (a loop's
            # dry_bulb is its site's design_ambient's unless it reads a design_condition)
            names = reads[quantity][0]
            scope_ok = bool(_near(scope) & scopes) and (
                name not in _own_fields(scope) or bool(_holders(owner) & names)
            )
        return scope_ok and name in reads[quantity][0]

    return sorted(
        rule.code for rule in _rules() if any(reads_it(q) for q in _rule_quantities(rule))
    )


# --- the fields ---------------------------------------------------------------------------


def _owner(model: type[BaseModel], name: str) -> type:
    """The class that declares field ``name`` (a RackType's peak_power is RackFigures')."""
    for klass in model.__mro__:
        if name in getattr(klass, "__annotations__", {}):
            return klass
    return model


def _models() -> list[type[BaseModel]]:
    from facility.model.document import SiteDocument

    found: list[type[BaseModel]] = []

    def visit(model: type[BaseModel]) -> None:
        if model in found:
            return
        found.append(model)
        for info in model.model_fields.values():
            for sub in _submodels(info.annotation):
                visit(sub)

    visit(SiteDocument)
    return found


def _submodels(annotation: Any) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [m for arg in typing.get_args(annotation) for m in _submodels(arg)]


def _kind(annotation: Any, metadata: list[Any] | tuple[Any, ...] = ()) -> Any:
    """The :class:`facility.units.Kind` of a quantity field (its annotation, and the metadata
    pydantic took out of a top-level ``Annotated``), else None."""
    from facility.model.fields import _QuantityValidator

    for meta in (*metadata, *getattr(annotation, "__metadata__", ())):
        if isinstance(meta, _QuantityValidator):
            return meta.kind
    for arg in typing.get_args(annotation):
        found = _kind(arg)
        if found is not None:
            return found
    return None


def _type(annotation: Any, metadata: list[Any] | tuple[Any, ...] = ()) -> str:
    """How a field's type reads in the reference."""
    import datetime as dt

    if _kind(annotation, metadata) is not None:
        return "quantity"
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Annotated:
        return _type(args[0])
    if origin in (typing.Union, types.UnionType):
        shown = [_type(a) for a in args if a is not type(None)]
        return " or ".join(dict.fromkeys(shown))
    if origin is typing.Literal:
        return "one of " + ", ".join(f"`{a}`" for a in args)
    if origin is list:
        return f"list of {_type(args[0])}"
    if origin is dict:
        return f"map of {_type(args[0])} to {_type(args[1])}"
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return "object"
    simple = {str: "string", int: "integer", float: "number", bool: "boolean", dt.date: "date"}
    return simple.get(annotation, "")  # a type of its own: the schema says what it takes


def _json_type(prop: dict[str, Any]) -> str:
    """A property's type as the JSON Schema gives it (for a type with a schema of its own)."""
    if "anyOf" in prop:
        shown = [_json_type(p) for p in prop["anyOf"] if p.get("type") != "null"]
        return " or ".join(dict.fromkeys(shown))
    if prop.get("type") == "array":
        return f"list of {_json_type(prop.get('items', {}))}"
    if "$ref" in prop or prop.get("type") == "object":
        return "object"
    return str(prop.get("type", "any"))


def _default(info: FieldInfo) -> str:
    if info.is_required():
        return "required"
    value = info.get_default(call_default_factory=True)
    if value is None:
        return ""
    if isinstance(value, BaseModel):
        given = value.model_dump(exclude_defaults=True)
        return "`{}`" if not given else f"`{given}`"
    if isinstance(value, list | dict):
        return "`[]`" if value == [] else f"`{value}`"
    kind = _kind(info.annotation, info.metadata)
    if kind is not None and kind.name == "fraction":
        return f"{value * 100:g} %"
    if kind is not None:
        return f"{value:g} {kind.symbol}"
    return f"`{value}`"


def _unit(info: FieldInfo) -> str:
    kind = _kind(info.annotation, info.metadata)
    if kind is None:
        return ""
    if kind.name == "fraction":
        return "fraction: `90 %` or 0.9"
    return f"{kind.name.replace('_', ' ')}, e.g. `{kind.example}`"


@dataclass(frozen=True)
class Row:
    path: str
    type: str
    unit: str
    default: str
    description: str
    read_by: str


@dataclass(frozen=True)
class Section:
    path: str  # "" for the top level
    model: type[BaseModel]
    rows: list[Row]


@cache
def _schema() -> dict[str, Any]:
    from facility.model.document import json_schema

    return json_schema()


def _properties(model: type[BaseModel]) -> dict[str, dict[str, Any]]:
    """The schema's property of each field of ``model``."""
    from facility.model.document import SiteDocument

    schema = _schema()
    node = schema if model is SiteDocument else schema["$defs"][model.__name__]
    return dict(node["properties"])


def _is_reference(info: FieldInfo) -> bool:
    """True for a field holding ids of other entities (``Id``, ``Id | None``, ``list[Id]``)."""
    from facility.model.fields import Id

    constraint = typing.get_args(Id)[1]  # Annotated[str, StringConstraints(...)]

    def refers(annotation: Any) -> bool:
        return annotation == Id or any(refers(a) for a in typing.get_args(annotation))

    return constraint in info.metadata or refers(info.annotation)


def _child_path(path: str, name: str, annotation: Any) -> str:
    """The path of a nested object: ``[]`` for a list item, ``.<key>`` for a map's values."""
    base = f"{path}.{name}" if path else name
    for arg in (annotation, *typing.get_args(annotation)):
        origin = typing.get_origin(arg)
        if origin is list:
            return f"{base}[]"
        if origin is dict:
            return f"{base}.<key>"
    return base


def sections() -> Iterator[Section]:
    from facility.model.document import SiteDocument

    seen: set[str] = set()
    work: list[tuple[str, type[BaseModel]]] = [("", SiteDocument)]
    while work:
        path, model = work.pop(0)
        if path in seen:
            continue
        seen.add(path)
        properties = _properties(model)
        rows = []
        for name, info in model.model_fields.items():
            full = f"{path}.{name}" if path else name
            subs = _submodels(info.annotation)
            if subs:
                rules = "see its fields"
            elif (_owner(model, name).__name__, name) in ROLES:
                rules = ROLES[(_owner(model, name).__name__, name)]
            elif name not in NOT_INPUTS and (
                _is_reference(info) or (_owner(model, name).__name__, name) in EXPANDS
            ):
                rules = STRUCTURE
            else:
                rules = ", ".join(read_by(model, name))
            rows.append(
                Row(
                    full,
                    _type(info.annotation, info.metadata) or _json_type(properties[name]),
                    _unit(info),
                    _default(info),
                    str(properties[name].get("description", "")).replace("\n", " "),
                    rules or "—",
                )
            )
            for sub in subs:
                work.append((_child_path(path, name, info.annotation), sub))
        yield Section(path, model, rows)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def render() -> str:
    lines = [
        "# The site file, field by field",
        "",
        f"<!-- Generated by `{COMMAND}` from the models and `facility schema`: do not edit. "
        "tests/model/test_schema_docs.py fails when this page is stale. -->",
        "",
        "Every field a site file can hold, by block. **Path** is where it goes (`[]`: each item "
        "of a list; `<key>`: each value of a map); **Unit** is the kind of quantity a "
        "physical number must be written as, with its unit (any unit of that kind: `132 kW` "
        "or `450000 BTU/h`); **Default** is what an absent field means (empty: not given, so a "
        "check that needs it is *not evaluated*); **Read by** lists the rules whose checks "
        "read the field (`facility rules explain CODE`).",
        "",
        "*Read by* is derived from the source: the rules whose derived quantities "
        "(`facility/engine/derive_*.py`) use a field of that name on that kind of entity, "
        "directly or through what each quantity declares it reads "
        "(`facility/engine/reads.py`). It says what a check *can* read, in any branch. "
        "*structure* marks a reference to other entities (`loop: TCS-A`, `fed_by`, "
        "`catalog`) or a count that makes entities (`racks: {prefix: A, count: 8}`): it "
        "decides which entities exist and what they connect to, so every check of those "
        "entities depends on it. A block's own row says *see its fields*. A field no check "
        "reads shows —: an id or a name (which entity a finding is about), words for people, "
        "document control and waivers, how the reports show figures (`display_units`), the "
        "file format, or a figure only the power account or an analysis reads "
        "(`efficiency`: the losses and pPUE). tests/model/test_schema_walk.py walks every "
        "row and fails on a — that is not in its reviewed table of such fields, each with its "
        "reason and the code that reads it, or in its short list of physical figures no check "
        "judges yet (`power.sources[].modules.required`, `cluster.storage.capacity`).",
        "",
        "The same descriptions are in the JSON Schema (`facility schema > site.schema.json`), "
        "which editors show while you type (see the README, *Writing a site file*).",
        "",
    ]
    for section in sections():
        title = f"`{section.path}`" if section.path else "Top level"
        lines += [f"## {title}", ""]
        doc = (section.model.__doc__ or "").strip().split("\n\n")[0]
        if doc and section.path:
            lines += [" ".join(doc.split()), ""]
        lines += [
            "| Path | Type | Unit | Default | Description | Read by |",
            "|---|---|---|---|---|---|",
        ]
        for row in section.rows:
            cells = [f"`{row.path}`", row.type, row.unit, row.default, row.description]
            lines.append("| " + " | ".join(_cell(c) for c in cells) + f" | {row.read_by} |")
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        current = OUTPUT.read_text(encoding="utf-8") if OUTPUT.exists() else ""
        if current != text:
            print(f"{OUTPUT.relative_to(ROOT)} is stale; refresh it with: {COMMAND}")
            return 1
        return 0
    OUTPUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUTPUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
