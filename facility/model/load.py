"""Loading a site file: parse, validate, resolve references. Every problem, not the first.

``load_site(path)`` returns a :class:`~facility.model.site.Site` or raises
:class:`~facility.model.source.InputError` listing each problem with file, line, column and
field path.
"""

from __future__ import annotations

import contextlib
import hashlib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from facility import catalog
from facility.gcpause import paused_gc
from facility.messages import Join, Message, message_of
from facility.model.cluster import resolve_cluster
from facility.model.cooling import AirUnit, CduFigures
from facility.model.document import SiteDocument
from facility.model.equipment import RackFigures, RackType, inconsistencies
from facility.model.errors import (
    choices_of,
    did_you_mean,
    fields_at,
    unknown_field,
    validation_message,
)
from facility.model.floor import Room
from facility.model.power import NonItLoad, PduType
from facility.model.racks import PduGroup, RackPlacement, Row
from facility.model.racks import Rack as RackSpec
from facility.model.site import (
    Layer,
    Pdu,
    Provenance,
    Rack,
    ResolvedCdu,
    ResolvedRackType,
    Site,
)
from facility.model.source import (
    InputError,
    Location,
    Path_,
    Problem,
    SourceMap,
    field_name,
    read_document,
)
from facility.physics.thermal import w_class_max_supply_temperature
from facility.spelling import suggestions

IMPLICIT_ROOM = "hall"


def load_site(path: str | Path, *, allow_outside_bases: bool | None = None) -> Site:
    """Load, validate and resolve one site file (YAML or JSON), over its bases if it has
    ``extends:`` (:mod:`facility.model.layers`; bases outside the file's directory tree are
    refused unless ``allow_outside_bases``, by default ``facility --allow-outside-bases``)."""
    path = Path(path)
    with paused_gc():
        data, source, raw = read_document(path)
        sha256 = hashlib.sha256(raw).hexdigest()
        layers = [Layer(str(path), sha256)]
        if isinstance(data, dict) and "extends" in data:
            from facility.model.layers import apply_extends

            data, source, layers = apply_extends(
                path, data, source, sha256, allow_outside=allow_outside_bases
            )
        document = validate_document(data, source)
        site = resolve(document, source, sha256)
        site.layers = layers
        return site


def validate_document(data: Any, source: SourceMap) -> SiteDocument:
    if not isinstance(data, dict):
        raise InputError(
            [
                Problem(
                    source.locate(()), "", Message("a site file is a mapping with at least 'site:'")
                )
            ]
        )
    if str(data.get("schema", "")).startswith("facility-result/"):  # an output given as input
        raise InputError(
            [
                Problem(
                    source.locate(("schema",)),
                    "schema",
                    Message(
                        "this is a facility result (the JSON output of facility check), not a "
                        "site file"
                    ),
                )
            ]
        )
    try:
        return SiteDocument.model_validate(data)
    except ValidationError as exc:
        failed = exc
    problems = _problems_from(failed, data, source)
    seen = {(p.location, p.field) for p in problems}
    try:
        beside = _references_beside(failed, data, source)
    except (KeyError, IndexError, TypeError, AttributeError, ValueError, RecursionError):
        beside = []  # a defect of this extra pass must not hide the problems found
    for found in beside:
        if (found.location, found.field) not in seen:
            problems.append(found)
    problems.sort(key=lambda p: (p.location.line, p.location.column, p.field))
    raise InputError(problems)


MAX_PRUNING_ROUNDS = 3  # validations of a document with its invalid parts left out


class _Pruned(SourceMap):
    """The source map of a document with entries left out: paths renumbered back."""

    renumbered: dict[Path_, list[int]]

    def original(self, path: Path_) -> Path_:
        return _original(tuple(path), self.renumbered)


def _references_beside(exc: ValidationError, data: dict, source: SourceMap) -> list[Problem]:
    """The reference problems (unknown ids, duplicates) of the parts of a document that did
    validate, so that a typo in one field does not hide a dangling reference elsewhere.

    What failed is left out (the key, then if need be the whole list entry) and the rest
    validated again, at most MAX_PRUNING_ROUNDS times; a reference to an entry left out is
    not reported, and nothing else the resolver finds is (a figure left out could make a
    check of the merged figures wrong). Nothing when the failure is the document's own."""
    drops: set[Path_] = set()
    error: ValidationError | None = exc
    pruned: Any = data
    renumbered: dict[Path_, list[int]] = {}
    for _round in range(MAX_PRUNING_ROUNDS):
        if error is None:
            break
        for detail in error.errors(include_url=False):
            path = _original(_data_path(detail["loc"], pruned), renumbered)
            if _round > 0 or detail["type"] == "missing":
                path = _entry_of(path)
            if not _may_leave_out(data, path, detail["type"]):
                return []
            drops.add(path)
        renumbered = {}
        pruned = _without(data, drops, _prefixes(drops), (), (), renumbered)
        if any(d[0] in ("rows", "racks") for d in drops) and isinstance(pruned, dict):
            pruned.pop("cluster", None)  # it names racks, and some were left out
        try:
            document = SiteDocument.model_validate(pruned)
            error = None
        except ValidationError as again:
            error = again
    if error is not None:
        return []
    mapped = _Pruned(source.file, source.positions, source.written_in)
    mapped.renumbered = renumbered
    resolver = _Resolver(document, mapped)
    resolver.tolerated = frozenset(_ids_of(data, drops))
    with contextlib.suppress(InputError):  # its problems: resolver.references among them
        resolver.resolve("")
    return resolver.references


def _may_leave_out(data: Any, path: Path_, kind: str) -> bool:
    """Whether leaving out the value at ``path`` hides no entry that others may name: a list
    entry (its id is tolerated), a key the schema does not have, a value holding no list of
    entries. Never the document or a whole top-level block (``site:`` is required)."""
    if not path or (len(path) < 2 and kind != "extra_forbidden") or path == ("site",):
        return False
    if kind == "extra_forbidden" or isinstance(path[-1], int):
        return True
    node = data
    for part in path:
        node = node[part]
    if isinstance(node, list):
        return False
    if isinstance(node, dict):
        return not any(
            isinstance(v, list) and any(isinstance(x, dict) for x in v) for v in node.values()
        )
    return True


def _entry_of(path: Path_) -> Path_:
    """The list entry ``path`` is in (``racks[3]`` for ``racks[3].pdus.A``), else ``path``."""
    for end in range(len(path), 0, -1):
        if isinstance(path[end - 1], int):
            return path[:end]
    return path


def _original(path: Path_, renumbered: dict[Path_, list[int]]) -> Path_:
    out: list[str | int] = []
    for i, part in enumerate(path):
        kept = renumbered.get(tuple(path[:i]))
        out.append(kept[part] if kept is not None and isinstance(part, int) else part)
    return tuple(out)


def _prefixes(paths: set[Path_]) -> set[Path_]:
    return {path[:end] for path in paths for end in range(len(path))}


_LEFT_OUT = object()


def _without(
    node: Any,
    drops: set[Path_],
    above: set[Path_],
    at: Path_,
    renamed: Path_,
    renumbered: dict[Path_, list[int]],
) -> Any:
    """``node`` without the values at ``drops`` (copies only of what holds one); a list
    with entries left out is recorded in ``renumbered`` (its path there → original indices)."""
    if at in drops:
        return _LEFT_OUT
    if at not in above:
        return node
    if isinstance(node, dict):
        out = {}
        for key, value in node.items():
            kept = _without(value, drops, above, (*at, key), (*renamed, key), renumbered)
            if kept is not _LEFT_OUT:
                out[key] = kept
        return out
    if isinstance(node, list):
        items: list[Any] = []
        indices: list[int] = []
        for i, value in enumerate(node):
            kept = _without(value, drops, above, (*at, i), (*renamed, len(items)), renumbered)
            if kept is not _LEFT_OUT:
                items.append(kept)
                indices.append(i)
        if len(indices) != len(node):
            renumbered[renamed] = indices
        return items
    return node


def _ids_of(data: Any, drops: set[Path_]) -> list[str]:
    """The ids of the entries left out (a row's racks are not: the cluster, which names
    them, is left out with it)."""
    found: list[str] = []
    for path in drops:
        node = data
        for part in path:
            node = node[part]
        if isinstance(node, dict) and isinstance(node.get("id"), str):
            found.append(node["id"])
    return found


# The models whose validation errors are turned into problems, by pydantic's title.
_MODELS: dict[str, type[BaseModel]] = {SiteDocument.__name__: SiteDocument, "Rack": RackSpec}


def _problems_from(exc: ValidationError, data: Any, source: SourceMap) -> list[Problem]:
    model = _MODELS.get(exc.title)
    errors = exc.errors(include_url=False)
    typos = _typos(errors, model)
    problems = []
    for error in errors:
        path = _data_path(error["loc"], data)
        kind = error["type"]
        message: str
        if kind == "extra_forbidden":
            valid = fields_at(model, error["loc"][:-1]) if model is not None else []
            message = unknown_field(path[-1] if path else error["loc"][-1], valid)
        elif kind == "missing":
            if (error["loc"][:-1], error["loc"][-1]) in typos:
                continue  # the unknown key beside it is this field misspelt, and says so
            message = Message("missing required field '%(field)s'", field=str(error["loc"][-1]))
            path = (*path, str(error["loc"][-1]))
        elif kind in ("literal_error", "enum"):
            expected = str((error.get("ctx") or {}).get("expected", ""))
            message = validation_message(error)
            if isinstance(error["input"], str):
                message = did_you_mean(message, error["input"], choices_of(expected))
        else:
            message = validation_message(error)
        problems.append(Problem(source.locate(path), field_name(path), message))
    problems.sort(key=lambda p: (p.location.line, p.location.column, p.field))
    return problems


def _typos(errors: list[Any], model: type[BaseModel] | None) -> set[tuple[Any, str]]:
    """(place, field) of each missing field that an unknown key at the same place is closest
    to ('widht' beside a missing 'width'): one mistake, reported once, at the key."""
    if model is None:
        return set()
    missing: dict[Any, list[str]] = {}
    for error in errors:
        if error["type"] == "missing":
            missing.setdefault(error["loc"][:-1], []).append(str(error["loc"][-1]))
    found = set()
    for error in errors:
        place = error["loc"][:-1]
        if error["type"] == "extra_forbidden" and place in missing:
            close = suggestions(str(error["loc"][-1]), fields_at(model, place))
            if close and close[0] in missing[place]:
                found.add((place, close[0]))
    return found


def _data_path(loc: tuple[Any, ...], data: Any) -> Path_:
    """Keep the parts of a pydantic error location that exist in the data (drop union tags)."""
    path: list[str | int] = []
    node = data
    for part in loc:
        if (isinstance(node, dict) and isinstance(part, str) and part in node) or (
            isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)
        ):
            path.append(part)
            node = node[part]  # type: ignore[index]
    return tuple(path)


def _duplicate(kind: str, entity_id: str, first: Location, given: str = "") -> Message:
    if given and first.file != given:  # a layered site: the first one is in a base file
        return Message(
            "duplicate id '%(id)s' (first defined at %(where)s)", id=entity_id, where=str(first)
        )
    make = _DUPLICATE.get(kind)
    if make is not None:
        return make(entity_id, first.line)
    return Message(
        "duplicate %(kind)s id '%(id)s' (first defined at line %(line)s)",
        kind=kind,
        id=entity_id,
        line=first.line,
    )


# An id defined twice, by the kind of entity (whole sentences, so that each can be translated).
_DUPLICATE = {
    "room": lambda i, line: Message(
        "duplicate room id '%(id)s' (first defined at line %(line)s)", id=i, line=line
    ),
    "floor_zone": lambda i, line: Message(
        "duplicate floor_zone id '%(id)s' (first defined at line %(line)s)", id=i, line=line
    ),
    "rack_type": lambda i, line: Message(
        "duplicate rack_type id '%(id)s' (first defined at line %(line)s)", id=i, line=line
    ),
    "power_source": lambda i, line: Message(
        "duplicate power_source id '%(id)s' (first defined at line %(line)s)", id=i, line=line
    ),
    "distribution": lambda i, line: Message(
        "duplicate distribution id '%(id)s' (first defined at line %(line)s)", id=i, line=line
    ),
    "pdu_type": lambda i, line: Message(
        "duplicate pdu_type id '%(id)s' (first defined at line %(line)s)", id=i, line=line
    ),
    "facility_water": lambda i, line: Message(
        "duplicate facility_water id '%(id)s' (first defined at line %(line)s)", id=i, line=line
    ),
    "cdu": lambda i, line: Message(
        "duplicate cdu id '%(id)s' (first defined at line %(line)s)", id=i, line=line
    ),
    "tcs_loop": lambda i, line: Message(
        "duplicate tcs_loop id '%(id)s' (first defined at line %(line)s)", id=i, line=line
    ),
    "row": lambda i, line: Message(
        "duplicate row id '%(id)s' (first defined at line %(line)s)", id=i, line=line
    ),
    "rack": lambda i, line: Message(
        "duplicate rack id '%(id)s' (first defined at line %(line)s)", id=i, line=line
    ),
    "PDU": lambda i, line: Message(
        "duplicate PDU id '%(id)s' (first defined at line %(line)s)", id=i, line=line
    ),
    "load": lambda i, line: Message(
        "duplicate load id '%(id)s' (first defined at line %(line)s)", id=i, line=line
    ),
    "heat_rejection": lambda i, line: Message(
        "duplicate heat_rejection id '%(id)s' (first defined at line %(line)s)", id=i, line=line
    ),
}


# A reference to an id that is not defined, by what it should name.
_UNKNOWN = {
    "room": lambda ref, known: Message(
        "unknown room '%(ref)s' (known: %(known)s)", ref=ref, known=known
    ),
    "floor zone": lambda ref, known: Message(
        "unknown floor zone '%(ref)s' (known: %(known)s)", ref=ref, known=known
    ),
    "TCS loop": lambda ref, known: Message(
        "unknown TCS loop '%(ref)s' (known: %(known)s)", ref=ref, known=known
    ),
    "CDU": lambda ref, known: Message(
        "unknown CDU '%(ref)s' (known: %(known)s)", ref=ref, known=known
    ),
    "facility water loop": lambda ref, known: Message(
        "unknown facility water loop '%(ref)s' (known: %(known)s)", ref=ref, known=known
    ),
    "upstream element": lambda ref, known: Message(
        "unknown upstream element '%(ref)s' (known: %(known)s)", ref=ref, known=known
    ),
    "air unit": lambda ref, known: Message(
        "unknown air unit '%(ref)s' (known: %(known)s)", ref=ref, known=known
    ),
}


# A catalog id that the embedded catalog does not have, by the kind of entry.
_UNKNOWN_ENTRY = {
    "rack_type": lambda i, known: Message(
        "unknown catalog rack_type '%(id)s' (known: %(known)s)", id=i, known=known
    ),
    "pdu_type": lambda i, known: Message(
        "unknown catalog pdu_type '%(id)s' (known: %(known)s)", id=i, known=known
    ),
    "cdu": lambda i, known: Message(
        "unknown catalog cdu '%(id)s' (known: %(known)s)", id=i, known=known
    ),
}


class _Resolver:
    """Follows every reference of a validated document, collecting problems."""

    def __init__(self, document: SiteDocument, source: SourceMap):
        self.doc = document
        self.source = source
        self.problems: list[Problem] = []
        self.locations: dict[tuple[str, str], Location] = {}
        self.pdus: dict[str, Pdu] = {}  # every PDU of every rack, by id
        self.pdu_declared: dict[str, Path_] = {}  # where each PDU id was written (data path)
        # Ids of entries left out because they did not validate: a reference to one is not
        # reported (the entry has its own problem). See _references_beside.
        self.tolerated: frozenset[str] = frozenset()
        self.references: list[Problem] = []  # unknown ids and duplicates, also in problems

    def problem(self, path: Path_, message: str, *, reference: bool = False) -> None:
        found = Problem(self.source.locate(path), field_name(self.source.original(path)), message)
        self.problems.append(found)
        if reference:
            self.references.append(found)

    def index(self, kind: str, items: list[Any], path: Path_, ids: list[str] | None = None) -> dict:
        """Entities by id; a duplicate id is a problem at the second definition."""
        found: dict[str, Any] = {}
        for i, item in enumerate(items):
            entity_id = ids[i] if ids is not None else item.id
            where = (*path, i, "id")
            if entity_id in found:
                first = self.locations[(kind, entity_id)]
                self.problem(
                    where, _duplicate(kind, entity_id, first, self.source.file), reference=True
                )
                continue
            found[entity_id] = item
            self.locations[(kind, entity_id)] = self.source.locate(where)
        return found

    def reference(self, target: dict, ref: str | None, kind: str, path: Path_) -> str | None:
        if ref is None:
            return None
        if ref not in target:
            if ref in self.tolerated:
                return None
            if kind == "room" and not self.doc.rooms:
                self.problem(
                    path,
                    Message("unknown room '%(ref)s' (the site declares no rooms)", ref=ref),
                    reference=True,
                )
                return None
            known = ", ".join(sorted(target)[:8]) or Message("none are defined")
            self.problem(
                path, did_you_mean(_UNKNOWN[kind](ref, known), ref, target), reference=True
            )
            return None
        return ref

    # --- catalog merging -------------------------------------------------------------

    def merged(
        self, kind: catalog.Kind, spec: BaseModel, figures_model: type[BaseModel], path: Path_
    ) -> tuple[Any, dict[str, Provenance]]:
        """Catalog figures overlaid by the figures the site file sets explicitly."""
        values: dict[str, Any] = {}
        provenance: dict[str, Provenance] = {}
        catalog_id = getattr(spec, "catalog", None)
        if catalog_id is not None:
            entry = catalog.entry(kind, catalog_id)
            if entry is None:
                known = ", ".join(
                    sorted(e.id for e in catalog.entries().values() if e.kind == kind)
                )
                self.problem(
                    (*path, "catalog"),
                    did_you_mean(
                        _UNKNOWN_ENTRY[kind](catalog_id, known), catalog_id, known.split(", ")
                    ),
                    reference=True,
                )
            else:
                base = entry.validated()
                for name, figure in entry.figures.items():
                    values[name] = getattr(base, name)
                    provenance[name] = Provenance(
                        "catalog", entry.id, figure.source, figure.confidence, figure.assumption
                    )
        for name in spec.model_fields_set & set(figures_model.model_fields):
            values[name] = getattr(spec, name)
            provenance[name] = Provenance("site", location=self.source.locate((*path, name)))
        if kind == "pdu_type":
            values["id"] = spec.id  # type: ignore[attr-defined]
        return figures_model.model_construct(**values), provenance

    def rack_type(self, spec: RackType, path: Path_) -> ResolvedRackType:
        figures, provenance = self.merged("rack_type", spec, RackFigures, path)
        self.check_merged(figures, provenance, path, spec.model_fields_set)
        return ResolvedRackType(spec.id, figures, provenance, self.source.locate((*path, "id")))

    def check_merged(
        self, figures: RackFigures, provenance: dict[str, Provenance], path: Path_, own: set[str]
    ) -> None:
        """Figures that contradict each other only once catalog and site figures are merged.

        Reported at a figure of this block (``own``); contradictions within the catalog are
        the catalog test's business, and those of a rack type are reported once, at the type.
        """
        for fields, message in inconsistencies(figures):
            mine = [name for name in fields if name in own]
            if not mine:
                continue
            notes: list[str] = []
            for name in fields:
                origin = provenance.get(name)
                if name in own or origin is None:
                    continue
                if origin.origin == "catalog":
                    notes.append(
                        Message(
                            "%(field)s from catalog '%(catalog)s'",
                            field=name,
                            catalog=origin.catalog_id,
                        )
                    )
                elif origin.location is not None:
                    notes.append(
                        Message(
                            "%(field)s set at line %(line)s",
                            field=name,
                            line=origin.location.line,
                        )
                    )
            if notes:
                message = Message("%(problem)s (%(notes)s)", problem=message, notes=Join(notes))
            self.problem((*path, mine[0]), message)

    # --- the whole site ----------------------------------------------------------------

    def resolve(self, sha256: str) -> Site:
        doc = self.doc
        rooms = self.index("room", doc.rooms, ("rooms",))
        if not rooms:
            rooms = {IMPLICIT_ROOM: Room(id=IMPLICIT_ROOM, name=doc.site.name)}
        default_room = next(iter(rooms)) if len(rooms) == 1 else None

        def room_of(ref: str | None, path: Path_) -> str | None:
            if ref is None:
                return default_room
            return self.reference(rooms, ref, "room", path)

        zones = self.index("floor_zone", doc.floor_zones, ("floor_zones",))
        zone_rooms = {
            z.id: room_of(z.room, ("floor_zones", i, "room")) for i, z in enumerate(doc.floor_zones)
        }

        specs = self.index("rack_type", doc.rack_types, ("rack_types",))
        rack_types = {
            t.id: self.rack_type(t, ("rack_types", i))
            for i, t in enumerate(doc.rack_types)
            if specs.get(t.id) is t
        }

        power = doc.power
        sources = self.index("power_source", power.sources, ("power", "sources"))
        distribution = self.index("distribution", power.distribution, ("power", "distribution"))
        for i, d in enumerate(power.distribution):
            if d.id in sources and distribution.get(d.id) is d:  # one namespace for fed_by
                self.problem(
                    ("power", "distribution", i, "id"),
                    Message(
                        "distribution id '%(id)s' is also the id of a power source (line "
                        "%(line)s): fed_by could not tell them apart",
                        id=d.id,
                        line=self.locations[("power_source", d.id)].line,
                    ),
                )
        upstream = {**sources, **distribution}
        for i, d in enumerate(power.distribution):
            self.reference(
                upstream, d.fed_by, "upstream element", ("power", "distribution", i, "fed_by")
            )
        self.check_power_cycles(power.distribution)
        pdu_specs = self.index("pdu_type", power.pdu_types, ("power", "pdu_types"))
        pdu_types: dict[str, PduType] = {}
        for i, spec in enumerate(power.pdu_types):
            if pdu_specs.get(spec.id) is spec:
                pdu_types[spec.id], _ = self.merged(
                    "pdu_type", spec, PduType, ("power", "pdu_types", i)
                )

        cooling = doc.cooling
        water = self.index("facility_water", cooling.facility_water, ("cooling", "facility_water"))
        for i, w in enumerate(cooling.facility_water):
            if w.ashrae_class is not None:
                try:
                    w_class_max_supply_temperature(w.ashrae_class)
                except ValueError as exc:
                    self.problem(("cooling", "facility_water", i, "ashrae_class"), message_of(exc))
            for j, room_id in enumerate(w.rooms):  # where its pipes run (LIQ-023)
                self.reference(rooms, room_id, "room", ("cooling", "facility_water", i, "rooms", j))
        cdu_specs = self.index("cdu", cooling.cdus, ("cooling", "cdus"))
        cdus: dict[str, ResolvedCdu] = {}
        for i, cdu_spec in enumerate(cooling.cdus):
            if cdu_specs.get(cdu_spec.id) is not cdu_spec:
                continue
            path = ("cooling", "cdus", i)
            figures, provenance = self.merged("cdu", cdu_spec, CduFigures, path)
            self.reference(
                water, cdu_spec.facility_water, "facility water loop", (*path, "facility_water")
            )
            cdus[cdu_spec.id] = ResolvedCdu(
                cdu_spec.id, cdu_spec, figures, provenance, self.source.locate((*path, "id"))
            )
        loops = self.index("tcs_loop", cooling.tcs_loops, ("cooling", "tcs_loops"))
        loop_rooms: dict[str, str | None] = {}
        for i, loop in enumerate(cooling.tcs_loops):
            path = ("cooling", "tcs_loops", i)
            loop_rooms[loop.id] = room_of(loop.room, (*path, "room"))
            for j, cdu_id in enumerate(loop.cdus):
                if self.reference(cdus, cdu_id, "CDU", (*path, "cdus", j)) is None:
                    continue
                owner = cdus[cdu_id].loop
                if owner is not None and owner != loop.id:
                    self.problem(
                        (*path, "cdus", j),
                        Message(
                            "CDU '%(cdu)s' already serves loop '%(loop)s'", cdu=cdu_id, loop=owner
                        ),
                    )
                cdus[cdu_id].loop = loop.id
        air_units = self.air_units(cooling.air_units, room_of)
        plant = self.index("heat_rejection", cooling.heat_rejection, ("cooling", "heat_rejection"))
        on_water: tuple[tuple[str, list[Any]], ...] = (
            ("air_units", cooling.air_units),
            ("heat_rejection", cooling.heat_rejection),
        )
        for key, entries in on_water:  # what rejects heat into (or out of) a facility water loop
            for i, entry in enumerate(entries):
                where: Path_ = ("cooling", key, i, "facility_water")
                self.reference(water, entry.facility_water, "facility water loop", where)
        leak_zones = self.index("leak_zone", cooling.leak_detection, ("cooling", "leak_detection"))
        for i, zone in enumerate(cooling.leak_detection):  # LIQ-036
            path = ("cooling", "leak_detection", i)
            self.reference(loops, zone.tcs_loop, "TCS loop", (*path, "tcs_loop"))
            if zone.room is not None:
                self.reference(rooms, zone.room, "room", (*path, "room"))
        loads = self.loads(power.loads, upstream, cdus, {u.id for u in cooling.air_units})

        racks = self.racks(rack_types, zones, zone_rooms, loops, loop_rooms, pdu_types, upstream)
        pdus = self.pdus
        cluster = resolve_cluster(self, doc.cluster, racks)

        if self.problems:
            self.problems.sort(key=lambda p: (p.location.line, p.location.column, p.field))
            raise InputError(self.problems)
        site = Site(
            file=self.source.file,
            sha256=sha256,
            info=doc.site,
            conventions=doc.conventions,
            rooms=rooms,
            zones=zones,
            rack_types=rack_types,
            racks=racks,
            pdus=pdus,
            sources=sources,
            distribution=distribution,
            facility_water=water,
            cdus=cdus,
            loops=loops,
            air_units=air_units,
            loads=loads,
            heat_rejection=plant,
            leak_detection=leak_zones,
            locations=self.locations,
            waivers=[(w, self.source.locate(("waivers", i))) for i, w in enumerate(doc.waivers)],
            cluster=cluster,
        )
        site.topology  # noqa: B018 - the relations, built once here (facility.model.topology)
        return site

    def check_power_cycles(self, items: list[Any]) -> None:
        parent = {d.id: d.fed_by for d in items}
        for i, d in enumerate(items):
            seen = [d.id]
            node = d.fed_by
            while node is not None and node in parent:
                if node == d.id:
                    chain = " → ".join([*seen, node])
                    self.problem(
                        ("power", "distribution", i, "fed_by"),
                        Message("the power chain loops back on itself: %(chain)s", chain=chain),
                    )
                    break
                if node in seen:
                    break  # a loop further up; reported at its own members
                seen.append(node)
                node = parent[node]

    def loads(
        self, items: list[NonItLoad], upstream: dict, cdus: dict, air_units: set[str]
    ) -> dict[str, NonItLoad]:
        """The non-IT loads by id, each feed and what it serves followed."""
        found = self.index("load", items, ("power", "loads"))
        for i, load in enumerate(items):
            path: Path_ = ("power", "loads", i)
            for side, element in load.fed_by.items():
                self.reference(upstream, element, "upstream element", (*path, "fed_by", side))
            if load.serves is None:
                continue
            if load.kind == "cdu":
                self.reference(cdus, load.serves, "CDU", (*path, "serves"))
            elif load.kind == "air_unit":
                self.reference(dict.fromkeys(air_units), load.serves, "air unit", (*path, "serves"))
            else:
                self.problem(
                    (*path, "serves"),
                    Message(
                        "only a load of kind cdu or air_unit serves a CDU or air unit; "
                        "this one is %(kind)s",
                        kind=load.kind,
                    ),
                )
        return found

    def air_units(self, units: list[AirUnit], room_of: Any) -> dict[str, AirUnit]:
        expanded: list[AirUnit] = []
        paths: list[Path_] = []
        for i, unit in enumerate(units):
            path: Path_ = ("cooling", "air_units", i)
            room = room_of(unit.room, (*path, "room"))
            if unit.count is None:
                expanded.append(unit.model_copy(update={"room": room}))
                paths.append(path)
            else:
                for n in range(1, unit.count + 1):
                    expanded.append(
                        unit.model_copy(
                            update={"id": f"{unit.id}-{n}", "room": room, "count": None}
                        )
                    )
                    paths.append(path)
        found: dict[str, AirUnit] = {}
        for unit, path in zip(expanded, paths, strict=True):
            if unit.id in found:
                self.problem((*path, "id"), Message("duplicate air unit id '%(id)s'", id=unit.id))
                continue
            found[unit.id] = unit
            self.locations[("air_unit", unit.id)] = self.source.locate((*path, "id"))
        return found

    def racks(
        self, rack_types, zones, zone_rooms, loops, loop_rooms, pdu_types, upstream
    ) -> list[Rack]:
        doc = self.doc
        # (id, placement, row, position, path of the declaration)
        declared: list[tuple[str, RackPlacement, str | None, int | None, Path_]] = []
        self.index("row", doc.rows, ("rows",))
        for i, row in enumerate(doc.rows):
            n = row.racks
            for k in range(n.count):
                rack_id = f"{n.prefix}{n.first + k:0{n.digits}d}"
                declared.append((rack_id, row, row.id, k + 1, ("rows", i)))
        for i, spec in enumerate(doc.racks):
            declared.append((spec.id, spec, spec.row, spec.position, ("racks", i)))

        type_cache: dict[tuple[str, int], ResolvedRackType] = {}
        checked: set[int] = set()  # placements (rows) whose references were checked once
        racks: list[Rack] = []
        seen: dict[str, Location] = {}
        for rack_id, placement, row_id, position, path in declared:
            id_path = (*path, "id") if isinstance(placement, RackSpec) else (*path, "racks")
            location = self.source.locate(id_path)
            if rack_id in seen:
                self.problem(
                    id_path,
                    _duplicate("rack", rack_id, seen[rack_id], self.source.file),
                    reference=True,
                )
                continue
            seen[rack_id] = location
            self.locations[("rack", rack_id)] = location
            first_time = id(placement) not in checked
            checked.add(id(placement))
            rack_type = self.rack_type_for(
                placement, path, rack_types, type_cache, report=first_time
            )
            zone = (
                self.reference(zones, placement.zone, "floor zone", (*path, "zone"))
                if first_time
                else (placement.zone if placement.zone in zones else None)
            )
            loop = (
                self.reference(loops, placement.loop, "TCS loop", (*path, "loop"))
                if first_time
                else (placement.loop if placement.loop in loops else None)
            )
            # A rack's room is its floor zone's, else its loop's.
            room = zone_rooms.get(zone) if zone else (loop_rooms.get(loop) if loop else None)
            if (
                first_time
                and zone
                and loop
                and loop_rooms.get(loop)
                and room
                and loop_rooms[loop] != room
            ):
                self.problem(
                    (*path, "loop"),
                    Message(
                        "rack '%(rack)s' is in room '%(room)s' (zone '%(zone)s') but loop "
                        "'%(loop)s' serves room '%(loop_room)s'",
                        rack=rack_id,
                        room=room,
                        zone=zone,
                        loop=loop,
                        loop_room=loop_rooms[loop],
                    ),
                )
            pdus = self.rack_pdus(
                rack_id, placement, path, pdu_types, upstream, location, report=first_time
            )
            if rack_type is None:
                continue
            racks.append(
                Rack(rack_id, rack_type, zone, room, row_id, position, loop, pdus, location)
            )
        return racks

    def rack_type_for(
        self, placement, path, rack_types, cache, report: bool
    ) -> ResolvedRackType | None:
        key = (placement.type, id(placement.overrides) if placement.overrides else 0)
        if key in cache:
            return cache[key]
        base = rack_types.get(placement.type)
        if base is None:
            entry = catalog.entry("rack_type", placement.type)
            if entry is None:
                if report and placement.type not in self.tolerated:
                    known = sorted(
                        [
                            *rack_types,
                            *(e.id for e in catalog.entries().values() if e.kind == "rack_type"),
                        ]
                    )
                    self.problem(
                        (*path, "type"),
                        did_you_mean(
                            Message(
                                "unknown rack type '%(type)s' (known: %(known)s)",
                                type=placement.type,
                                known=", ".join(known),
                            ),
                            placement.type,
                            known,
                        ),
                        reference=True,
                    )
                return None
            base = self.rack_type(RackType(id=entry.id, catalog=entry.id), (*path, "type"))
        resolved = base
        if placement.overrides is not None:
            override = placement.overrides
            values = {name: getattr(base.figures, name) for name in RackFigures.model_fields}
            provenance = dict(base.provenance)
            for name in override.model_fields_set:
                values[name] = getattr(override, name)
                provenance[name] = Provenance(
                    "site", location=self.source.locate((*path, "overrides", name))
                )
            figures = RackFigures.model_construct(**values)
            if report:
                self.check_merged(
                    figures, provenance, (*path, "overrides"), override.model_fields_set
                )
            resolved = ResolvedRackType(base.id, figures, provenance, base.location)
        cache[key] = resolved
        return resolved

    def rack_pdus(
        self, rack_id, placement, path, pdu_types, upstream, location, report
    ) -> dict[str, list[Pdu]]:
        sides: dict[str, list[Pdu]] = {}
        rows = placement.racks if isinstance(placement, Row) else None
        for side, group in placement.pdus.items():
            group_path = (*path, "pdus", side)
            figures = self.pdu_type(group, group_path, pdu_types, report)
            if report:
                self.reference(upstream, group.fed_by, "upstream element", (*group_path, "fed_by"))
                if group.names is not None and len(group.names) != group.count:
                    self.problem(
                        (*group_path, "names"),
                        Message(
                            "%(n)s names for %(count)s PDUs", n=len(group.names), count=group.count
                        ),
                    )
                if (
                    group.names is not None
                    and rows is not None
                    and rows.count > 1
                    and not all("{rack}" in n for n in group.names)
                ):
                    self.problem(
                        (*group_path, "names"),
                        Message(
                            "in a row of several racks, PDU names must contain {rack} "
                            "(e.g. '{rack}-PDU-A1'), or every rack would get the same ids"
                        ),
                    )
            if figures is None:
                continue
            derating = (
                figures.derating
                if figures.derating is not None
                else self.doc.conventions.continuous_load_derating
            )
            usable = (
                group.names is not None
                and len(group.names) == group.count
                and (rows is None or rows.count == 1 or all("{rack}" in n for n in group.names))
            )
            names = (
                [n.replace("{rack}", rack_id) for n in group.names]  # type: ignore[union-attr]
                if usable
                else [f"{rack_id}-{side}{n}" for n in range(1, group.count + 1)]
            )
            sides[side] = []
            group_location = self.source.locate(group_path)
            for k, name in enumerate(names):
                pdu = Pdu(
                    name,
                    rack_id,
                    side,
                    group.type,
                    figures,
                    derating,
                    group.fed_by,
                    group_location,
                    k,
                    len(names),
                )
                sides[side].append(pdu)
                declared = (*group_path, "names", k) if usable else group_path
                if name in self.pdus:
                    first = self.source.locate(self.pdu_declared[name])
                    self.problem(declared, _duplicate("PDU", name, first, self.source.file))
                    continue
                self.pdus[name] = pdu
                self.pdu_declared[name] = declared
                self.locations[("pdu", name)] = pdu.location
        return sides

    def pdu_type(
        self, group: PduGroup, path: Path_, pdu_types: dict[str, PduType], report: bool
    ) -> PduType | None:
        if group.type in pdu_types:
            return pdu_types[group.type]
        entry = catalog.entry("pdu_type", group.type)
        if entry is None:
            if report and group.type not in self.tolerated:
                known = sorted(
                    [
                        *pdu_types,
                        *(e.id for e in catalog.entries().values() if e.kind == "pdu_type"),
                    ]
                )
                self.problem(
                    (*path, "type"),
                    did_you_mean(
                        Message(
                            "unknown PDU type '%(type)s' (known: %(known)s)",
                            type=group.type,
                            known=", ".join(known),
                        ),
                        group.type,
                        known,
                    ),
                    reference=True,
                )
            return None
        figures = entry.validated()
        pdu_types[group.type] = figures  # type: ignore[assignment]
        return figures  # type: ignore[return-value]


def resolve(document: SiteDocument, source: SourceMap, sha256: str) -> Site:
    """Follow every reference of a validated document into a :class:`Site`."""
    return _Resolver(document, source).resolve(sha256)


def catalog_rack_type(catalog_id: str) -> ResolvedRackType | None:
    """The catalog's rack type ``catalog_id`` as a site would resolve ``type: <id>`` (None when
    the catalog has no such rack type): what ``facility headroom --rack-type`` adds."""
    entry = catalog.entry("rack_type", catalog_id)
    if entry is None:
        return None
    document = SiteDocument.model_validate({"site": {"name": "catalog"}})
    resolver = _Resolver(document, SourceMap("catalog"))
    return resolver.rack_type(RackType(id=entry.id, catalog=entry.id), ("rack_types", 0))
