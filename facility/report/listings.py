"""The listings people read and script: ``rules list``, ``catalog`` and ``inventory``.

Each listing is built once as plain rows (dicts of strings, numbers and lists), then shown
either as aligned columns under a header row (:func:`columns`) or as JSON (:func:`as_json`:
sorted keys, the same shape for every site). The JSON shapes are documented in the README
("Listings for scripts").
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any

from facility.catalog import CatalogEntry
from facility.engine.rules import Rule, RuleSet
from facility.model.site import Site
from facility.report.i18n import _
from facility.report.inventory import site_account
from facility.report.json_report import account_json

INVENTORY_SCHEMA = "facility-inventory/1"


def width(text: str) -> int:
    """Columns ``text`` takes on a terminal (wide CJK characters take two)."""
    return sum(2 if unicodedata.east_asian_width(c) in ("W", "F") else 1 for c in text)


def columns(header: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """``rows`` under ``header``, each column as wide as its widest cell plus two spaces; the
    last column is not padded (no trailing spaces)."""
    table = [list(header), *(list(row) for row in rows)]
    widths = [max(width(row[i]) for row in table) for i in range(len(header) - 1)]
    lines = []
    for row in table:
        cells = [cell + " " * (w - width(cell)) for cell, w in zip(row, widths, strict=False)]
        lines.append("  ".join([*cells, row[-1]]))
    return "\n".join(lines)


def as_json(data: Any) -> str:
    """A listing as JSON: two-space indent, sorted keys, no NaN."""
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False, allow_nan=False)


# --- rules list ---------------------------------------------------------------------------


def find_rule(ruleset: RuleSet, code: str) -> Rule | None:
    """The rule whose code, name or retired alias is ``code``, in any letter case
    (``pwr-001``, ``PWR-001``, ``Power.Side_Cannot_Carry_Rack``)."""
    wanted = code.strip().casefold()
    for rule in ruleset.rules:
        names = (rule.code, rule.spec.name, *rule.spec.aliases)
        if any(name.casefold() == wanted for name in names):
            return rule
    return None


def rule_rows(ruleset: RuleSet) -> list[dict[str, Any]]:
    """Every rule of ``ruleset`` with its severity under the ruleset's profile."""
    return [
        {
            "code": rule.code,
            "name": rule.spec.name,
            "area": rule.spec.area,
            "scope": rule.spec.scope,
            "severity": rule.severity,
            "profile": ruleset.profile,
            "title": rule.spec.title,
            "requirement": rule.spec.requirement,
            "tags": list(rule.spec.tags),
            "aliases": list(rule.spec.aliases),
        }
        for rule in ruleset.rules
    ]


def rules_text(ruleset: RuleSet) -> str:
    header = [_("CODE"), _("SEVERITY"), _("SCOPE"), _("TITLE")]
    return columns(
        header, ([r["code"], r["severity"], r["scope"], r["title"]] for r in rule_rows(ruleset))
    )


# --- catalog -------------------------------------------------------------------------------


def find_entry(entries: dict[str, CatalogEntry], entry_id: str) -> CatalogEntry | None:
    """The catalog entry ``entry_id`` names, in any letter case (``GB300-NVL72``)."""
    wanted = entry_id.strip().casefold()
    for key, entry in entries.items():
        if key.casefold() == wanted:
            return entry
    return None


def catalog_rows(entries: dict[str, CatalogEntry]) -> list[dict[str, Any]]:
    """The entries by kind, then id: id, kind, name, summary."""
    ordered = sorted(entries.values(), key=lambda e: (e.kind, e.id))
    return [{"id": e.id, "kind": e.kind, "name": e.name, "summary": e.summary} for e in ordered]


def catalog_text(entries: dict[str, CatalogEntry]) -> str:
    header = [_("ID"), _("KIND"), _("NAME")]
    return columns(header, ([r["id"], r["kind"], r["name"]] for r in catalog_rows(entries)))


def entry_json(entry: CatalogEntry) -> dict[str, Any]:
    """One entry with each figure's value, source, confidence (H, M, L) and flags."""
    return {
        "id": entry.id,
        "kind": entry.kind,
        "name": entry.name,
        "summary": entry.summary,
        "figures": {
            name: {
                "value": figure.value,
                "source": figure.source,
                "confidence": figure.confidence,
                "assumption": figure.assumption,
                "note": figure.note,
            }
            for name, figure in entry.figures.items()
        },
    }


# --- inventory -----------------------------------------------------------------------------


def inventory_json(site: Site) -> dict[str, Any]:
    """What ``facility inventory`` prints, for scripts: counts of what was loaded and the
    account (the shape of the ``account`` of the JSON result, docs/json-result.md)."""
    return {
        "schema": INVENTORY_SCHEMA,
        "site": site.info.name,
        "file": str(site.file),
        "counts": site.summary(),
        "account": account_json(site_account(site)),
    }
