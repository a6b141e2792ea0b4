"""The embedded catalog: known rack types, CDUs and PDUs, each figure with its source.

A site says ``catalog: gb300-nvl72`` and overrides what differs. Each figure carries where it
comes from and a confidence (H: seen in a primary source or standard; M: vendor figure via a
secondary transcription or several consistent sources; L: single or inconsistent sources).
Figures no public source gives are marked ``assumption: true`` and shown as such in reports.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationError

from facility.model.base import Strict
from facility.model.cluster import ScalableUnitFigures
from facility.model.cooling import CduFigures
from facility.model.equipment import RackFigures
from facility.model.fields import Id
from facility.model.power import PduType
from facility.model.source import parse_plain

_DIR = Path(__file__).parent
# scalable_unit: a block of supernodes (a DGX SuperPOD SU) that no site entity names; shown
# by `facility catalog` for planning (facility.model.cluster.ScalableUnitFigures).
Kind = Literal["rack_type", "cdu", "pdu_type", "scalable_unit"]
_FIGURE_MODELS: dict[str, type[Strict]] = {
    "rack_type": RackFigures,
    "cdu": CduFigures,
    "pdu_type": PduType,
    "scalable_unit": ScalableUnitFigures,
}


class Figure(Strict):
    value: Any
    source: str = Field(min_length=1)
    confidence: Literal["H", "M", "L"]
    assumption: bool = False
    note: str | None = None


class CatalogEntry(Strict):
    id: Id
    kind: Kind
    name: str
    summary: str
    figures: dict[str, Figure]

    def values(self) -> dict[str, Any]:
        return {name: figure.value for name, figure in self.figures.items()}

    def validated(self) -> Strict:
        """The figures as the site model reads them (catalog files are checked by a test)."""
        return _validated(self.id)

    def _validate(self) -> Strict:
        values = self.values()
        if self.kind == "pdu_type":
            values["id"] = self.id
        return _FIGURE_MODELS[self.kind].model_validate(values)


@cache
def entries() -> dict[str, CatalogEntry]:
    """All catalog entries by id."""
    found: dict[str, CatalogEntry] = {}
    for path in sorted(_DIR.glob("*.yaml")):
        data, _ = parse_plain(path.read_text(encoding="utf-8"), str(path))
        for raw in data["entries"]:
            try:
                entry = CatalogEntry.model_validate(raw)
            except ValidationError as exc:  # pragma: no cover - caught by the catalog test
                raise RuntimeError(f"bad catalog entry in {path.name}: {exc}") from exc
            if entry.id in found:  # pragma: no cover
                raise RuntimeError(f"duplicate catalog id {entry.id}")
            found[entry.id] = entry
    return found


def entry(kind: Kind, entry_id: str) -> CatalogEntry | None:
    """The catalog entry of ``kind`` with ``entry_id``, if there is one."""
    found = entries().get(entry_id)
    return found if found is not None and found.kind == kind else None


@cache
def _validated(entry_id: str) -> Strict:
    """Each catalog entry is validated once per process, not once per CDU that uses it."""
    return entries()[entry_id]._validate()
