"""The figures of the equipment a site uses, with where each came from.

For every rack type, CDU and rack PDU type in use: each figure's value, its origin (a line
of the site file, or a catalog entry), and for catalog figures the source, the confidence
and whether no public source gives it (an *assumption*). Auditors sign these figures too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from facility import catalog
from facility.messages import localized
from facility.model.cooling import FLUID_NAMES, CduFigures, Coolant
from facility.model.equipment import RackFigures
from facility.model.power import PduType
from facility.model.site import Provenance, ResolvedRackType, Site
from facility.model.source import Location
from facility.report.anchors import natural_key, slug
from facility.report.i18n import _, ngettext, pgettext
from facility.report.quantities import format_quantity
from facility.report.words import confidence_word, counted_kind_word, figure_word

MAX_USERS = 12  # entity ids named in "used by"
NO_BREAK = "\u00a0"

# figure -> quantity kind, for figures that are plain quantities
FIGURE_KINDS = {
    "nominal_power": "power",
    "peak_power": "power",
    "power_factor": "fraction",
    "filled_mass": "mass",
    "empty_mass": "mass",
    "coolant_volume": "volume",
    "max_payload": "mass",
    "height": "length",
    "liquid_heat_fraction": "fraction",
    "design_coolant_rise": "temperature_difference",
    "design_flow": "volumetric_flow",
    "pressure_drop": "pressure",
    "capacity": "power",
    "rated_approach": "temperature_difference",
    "rated_flow": "volumetric_flow",
    "available_head": "pressure",
    "primary_pressure_drop": "pressure",
    "voltage": "voltage",
    "breaker_rating": "current",
    "derating": "fraction",
    "accelerator_peak": "computation_rate",
}


@dataclass(frozen=True, slots=True)
class FigureRow:
    figure: str
    value: str
    origin: str
    source: str
    confidence: str
    assumption: bool


@dataclass(frozen=True, slots=True)
class Equipment:
    anchor: str
    kind: str  # rack_type | cdu | pdu_type
    kind_label: str
    id: str
    catalog: str
    used_by: str
    figures: list[FigureRow]
    assumptions: int


def figure_text(name: str, value: Any) -> str:
    """A figure's value for people: '135.0 kW', '600 mm × 1,200 mm', '20.0 °C – 45.0 °C'."""
    if value is None:
        return _("not set")
    if name in FIGURE_KINDS:
        return format_quantity(float(value), FIGURE_KINDS[name])
    if name == "footprint":
        return (
            f"{format_quantity(value.width, 'length')} × {format_quantity(value.depth, 'length')}"
        )
    if name == "allowed_supply_temperature":
        low, high = (
            format_quantity(value.min, "temperature"),
            format_quantity(value.max, "temperature"),
        )
        return f"{low} – {high}"
    if name == "pumps":
        return _("%(installed)d installed, %(required)d required") % {
            "installed": value.installed,
            "required": value.required,
        }
    if name == "flow_table":  # a point never breaks across lines ("45.0 °C: 177 L/min")
        return "; ".join(
            f"{format_quantity(p.supply_temperature, 'temperature')}: "
            f"{format_quantity(p.flow, 'volumetric_flow')}".replace(" ", NO_BREAK)
            for p in value
        )
    if name == "flow_table_coolant":
        return coolant_text(value)
    if name == "cooling":
        return {"liquid": _("liquid"), "air": _("air")}.get(value, str(value))
    return str(value)


def coolant_text(coolant: Coolant) -> str:
    """A coolant for people: 'water', 'propylene glycol, 25 % by volume'."""
    name = localized(FLUID_NAMES[coolant.fluid])
    volume, mass = coolant.volume_fraction, coolant.mass_fraction
    if volume:
        return _("%(fluid)s, %(share)s by volume") % {
            "fluid": name, "share": format_quantity(volume, "fraction", 0)}  # fmt: skip
    if mass:
        return _("%(fluid)s, %(share)s by mass") % {
            "fluid": name, "share": format_quantity(mass, "fraction", 0)}  # fmt: skip
    return name


def _row(
    name: str,
    value: Any,
    origin: Provenance | None,
    fallback: Location | None,
    located: bool = True,
) -> FigureRow:
    if origin is not None and origin.origin == "catalog":
        return FigureRow(
            figure_word(name),
            figure_text(name, value),
            _("catalog %(id)s") % {"id": origin.catalog_id},
            " ".join((origin.source or "").split()),
            confidence_word(origin.confidence),
            origin.assumption,
        )
    where = origin.location if origin is not None and origin.location else fallback
    if not located:  # one row stands for the same figure of several entities
        return FigureRow(figure_word(name), figure_text(name, value), _each_entry(), "", "", False)
    text = f"{where.file}:{where.line}" if where else _("site file")
    return FigureRow(figure_word(name), figure_text(name, value), text, "", "", False)


def _users(ids: list[str], kind: str) -> str:
    ordered = sorted(ids, key=natural_key)
    shown = ", ".join(ordered[:MAX_USERS])
    if len(ordered) > MAX_USERS:
        shown += " " + _("and %(n)s more") % {"n": f"{len(ordered) - MAX_USERS:,}"}
    return _("%(n)s %(kind)s: %(ids)s") % {
        "n": f"{len(ordered):,}",
        "kind": counted_kind_word(kind, len(ordered)),
        "ids": shown,
    }


def _equipment(
    kind: str, label: str, entity_id: str, catalog_id: str | None, users: str, rows: list[FigureRow]
) -> Equipment:
    return Equipment(
        anchor=f"equipment-{slug(kind)}--{slug(entity_id)}",
        kind=kind,
        kind_label=label,
        id=entity_id,
        catalog=catalog_id or "",
        used_by=users,
        figures=rows,
        assumptions=sum(r.assumption for r in rows),
    )


def equipment_figures(site: Site) -> list[Equipment]:
    """Rack types, CDUs and PDU types in use, each with its figures and their origins."""
    return [*_rack_types(site), *_cdus(site), *_pdu_types(site)]


def _rack_types(site: Site) -> list[Equipment]:
    variants: dict[int, tuple[ResolvedRackType, list[str]]] = {}
    for rack in site.racks:
        variants.setdefault(id(rack.type), (rack.type, []))[1].append(rack.id)
    found = []
    for rack_type, racks in variants.values():
        rows = [
            _row(name, getattr(rack_type.figures, name), rack_type.provenance[name], None)
            for name in RackFigures.model_fields
            if name in rack_type.provenance
        ]
        catalog_ids = sorted({p.catalog_id for p in rack_type.provenance.values() if p.catalog_id})
        found.append(
            (
                (natural_key(min(racks, key=natural_key)), natural_key(rack_type.id)),
                _equipment(
                    "rack_type",
                    _("Rack type"),
                    rack_type.id,
                    ", ".join(catalog_ids),
                    _users(racks, "rack"),
                    rows,
                ),
            )
        )
    found.sort(key=lambda item: item[0])
    return [equipment for _, equipment in found]


def _cdus(site: Site) -> list[Equipment]:
    """CDUs with the same figures from the same origins share one table (a campus has
    thousands of identical CDUs); each table names the CDUs and their loops."""
    groups: dict[tuple[object, ...], list[str]] = {}
    for cdu_id in sorted(site.cdus, key=natural_key):
        cdu = site.cdus[cdu_id]
        figures = tuple(
            (name, figure_text(name, getattr(cdu.figures, name)), _origin_key(cdu.provenance[name]))
            for name in CduFigures.model_fields
            if name in cdu.provenance
        )
        groups.setdefault((cdu.spec.catalog, cdu.spec.approach, figures), []).append(cdu_id)
    found = []
    for members in groups.values():
        cdu = site.cdus[members[0]]
        alone = len(members) == 1
        rows = [
            _row(name, getattr(cdu.figures, name), cdu.provenance[name], None, alone)
            for name in CduFigures.model_fields
            if name in cdu.provenance
        ]
        if cdu.spec.approach is not None:
            where = f"{cdu.location.file}:{cdu.location.line}" if alone else _each_entry()
            rows.append(
                FigureRow(
                    _("approach in this site"),
                    format_quantity(cdu.spec.approach, "temperature_difference"),
                    where,
                    "",
                    "",
                    False,
                )
            )
        if alone:
            users = _("TCS loop %(loop)s") % {"loop": cdu.loop} if cdu.loop else _("no TCS loop")
            found.append(
                _equipment(
                    "cdu", pgettext("equipment", "CDU"), cdu.id, cdu.spec.catalog, users, rows
                )
            )
        else:
            loops = sorted({site.cdus[m].loop or "" for m in members} - {""}, key=natural_key)
            users = _users(members, "cdu")
            if loops:
                users += " — " + _users(loops, "tcs_loop")
            found.append(
                _equipment("cdu", _("CDUs"), ", ".join(members[:3]) + (" …" if len(members) > 3
                           else ""), cdu.spec.catalog, users, rows)
            )  # fmt: skip
    return found


def _origin_key(origin: Provenance) -> tuple[object, ...]:
    """A figure's origin without its line: CDUs written alike share their figures' table."""
    return (origin.origin, origin.catalog_id, origin.source, origin.confidence, origin.assumption)


def _each_entry() -> str:
    return _("site file, each one's entry")


def _pdu_types(site: Site) -> list[Equipment]:
    used: dict[str, tuple[PduType, list[str]]] = {}
    for pdu_id, pdu in site.pdus.items():
        used.setdefault(pdu.type_id, (pdu.figures, []))[1].append(pdu_id)
    found = []
    for type_id in sorted(used, key=natural_key):
        figures, pdus = used[type_id]
        declared = site.where("pdu_type", type_id)
        catalog_id = figures.catalog if declared is not None else type_id
        entry = catalog.entry("pdu_type", catalog_id) if catalog_id else None
        from_catalog = _catalog_values(entry)
        rows = []
        for name in ("voltage", "phases", "breaker_rating", "derating"):
            value = getattr(figures, name)
            if value is None:
                continue
            origin = None
            if entry is not None and name in entry.figures and from_catalog.get(name) == value:
                figure = entry.figures[name]
                origin = Provenance(
                    "catalog", entry.id, figure.source, figure.confidence, figure.assumption
                )
            rows.append(_row(name, value, origin, declared))
        found.append(
            _equipment(
                "pdu_type",
                _("Rack PDU type"),
                type_id,
                entry.id if entry else None,
                _users(pdus, "pdu"),
                rows,
            )
        )
    return found


def _catalog_values(entry: catalog.CatalogEntry | None) -> dict[str, Any]:
    if entry is None:
        return {}
    validated = entry.validated()
    return {name: getattr(validated, name, None) for name in entry.figures}


def assumption_count(equipment: list[Equipment]) -> str:
    """'3 figures are assumptions without a public source' (or that none are)."""
    n = sum(e.assumptions for e in equipment)
    if not n:
        return _("No figure in use is an assumption: each has a site line or a published source.")
    return ngettext(
        "%(n)d figure in use is an assumption without a public source.",
        "%(n)d figures in use are assumptions without a public source.",
        n,
    ) % {"n": n}
