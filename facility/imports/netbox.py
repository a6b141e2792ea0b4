"""``facility import netbox``: a site file of our format from each NetBox site selected.

    snapshot = fetch(url, token, "hall-b3")          # netbox_fetch: REST reads via pynetbox
    document, report = map_site(snapshot, source)    # netbox_map: pure, offline
    text = render(document, report)                  # YAML with the gaps in its header

:func:`fetch_selection` reads one site or many (``--site`` again, ``--region``), whole or only
the racks of one location or tenant; :func:`import_snapshot` maps, renders and checks one.

The written file holds what NetBox knows; what it cannot know (supply temperatures, approach,
pressure drops, liquid fraction, floor ratings, CDUs and loops …) is listed in the header as
gaps. The engineer adds those in a file of their own that says ``extends: <imported file>``,
so a re-import never wipes them. The token is never written anywhere.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from facility.imports.netbox_map import RACK_TYPE_GAPS, SITE_GAPS, MappingError, Snapshot, map_site
from facility.imports.netbox_report import MappingReport
from facility.printable import printable

if TYPE_CHECKING:
    from facility.imports.netbox_fetch import Selection

_SHAPE_ERRORS = (KeyError, TypeError, AttributeError, ValueError, IndexError, RecursionError)

__all__ = [
    "MappingError",
    "Snapshot",
    "check_document",
    "fetch_selection",
    "import_site",
    "import_snapshot",
    "render",
    "site_slug",
    "source_text",
]


def source_text(
    snapshot: Snapshot,
    url: str,
    site_slug: str,
    *,
    location: str | None = None,
    tenant: str | None = None,
) -> str:
    """Where the data came from, and what of the site, for the file and the report (``url``
    already public): ``NetBox 4.7.3 at https://…, site hall-b3, location row-a``. One line,
    every control character escaped (the version is the server's text)."""
    status = snapshot.status if isinstance(snapshot.status, dict) else {}
    version = str(status.get("netbox-version") or "?")[:40]
    text = f"NetBox {version} at {url}, site {site_slug}"
    if location is not None:
        text += f", location {location}"
    if tenant is not None:
        text += f", tenant {tenant}"
    return printable(text)


def site_slug(snapshot: Snapshot, default: str = "?") -> str:
    """The slug of the snapshot's site, or ``default`` when it has none."""
    site = snapshot.site if isinstance(snapshot.site, dict) else {}
    slug = site.get("slug")
    return slug if isinstance(slug, str) and slug else default


def render(document: dict, report: MappingReport) -> str:
    """The site file: a header naming the source and the gaps, then the YAML."""
    lines = [
        f"# Imported by 'facility import netbox' from {report.source}.",
        "# Re-importing overwrites this file: put your own additions in a file that says",
        f"#   extends: {'<this file>'}",
        "# and add there what NetBox cannot know (reported as 'not evaluated' until then):",
        *(f"#   - {gap}" for gap in SITE_GAPS),
        "#   - rack types: " + ", ".join(RACK_TYPE_GAPS),
        "# Conventions: PDUs are NetBox power feeds (primary = side A, redundant = side B), each",
        "# with capacity √3·V·I·max_utilisation (three-phase) or V·I·max_utilisation; rack power",
        "# is its ports' allocated (nominal) and maximum (peak) draw in W as NetBox's model adds",
        "# them (each outlet through its own inlet; a device's supplies on sides A and B once,",
        "# the larger side, unless --redundant-supplies sum); empty_mass is the rack's weight",
        "# plus its devices' type weights (no coolant); devices count by their status.",
        f"# {report.summary()}",
        "",
    ]
    body = yaml.dump(document, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)
    return "\n".join(lines) + body


class _Dumper(yaml.SafeDumper):
    """Block style, except short mappings and lists of plain values, which stay on one line
    (``footprint: {width: 600 mm, depth: 1200 mm}``, ``names: [A01-A1, A01-A2]``)."""


def _short_flow(value: dict | list) -> bool:
    """True for a mapping or list of plain values whose one-line form fits 90 characters,
    estimated from the values' texts with room for quotes (dumping each one to measure it
    took a fifth of the whole render of a large site)."""
    values = list(value.values()) if isinstance(value, dict) else list(value)
    if any(isinstance(v, dict | list) for v in values):
        return False
    if isinstance(value, dict):
        texts = [f"{k}: {v}" for k, v in value.items()]
    else:
        texts = [str(v) for v in values]
    return 2 + sum(len(text) + 4 for text in texts) <= 90  # "{", "}"; ", " and quotes each


def _represent_dict(dumper: yaml.SafeDumper, value: dict) -> yaml.Node:
    return dumper.represent_mapping(
        "tag:yaml.org,2002:map", value.items(), flow_style=_short_flow(value)
    )


def _represent_list(dumper: yaml.SafeDumper, value: list) -> yaml.Node:
    return dumper.represent_sequence("tag:yaml.org,2002:seq", value, flow_style=_short_flow(value))


_Dumper.add_representer(dict, _represent_dict)
_Dumper.add_representer(list, _represent_list)


def check_document(text: str, name: str = "imported.yaml") -> None:
    """Load ``text`` as a site file, as ``facility check`` would; raises InputError if not.

    Read from memory, so that a problem names ``name`` (the file about to be written), never
    a temporary file that is gone by the time the message is read. The import writes no
    ``extends:``, so nothing else is read."""
    from facility.model.load import resolve, validate_document
    from facility.model.source import parse_document

    data, source = parse_document(text, Path(name).name)
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    resolve(validate_document(data, source), source, digest)


def fetch_selection(url: str, token: str, selection: Selection) -> list[Snapshot]:
    """The snapshots of the sites ``selection`` names (netbox_fetch): one site through
    :func:`~facility.imports.netbox_fetch.fetch`, several under one set of bounds."""
    from facility.imports import netbox_fetch

    if len(selection.sites) == 1 and not selection.regions:
        one = netbox_fetch.fetch(
            url, token, selection.sites[0], location=selection.location, tenant=selection.tenant
        )
        return [one]
    return list(netbox_fetch.fetch_sites(url, token, selection))


def import_snapshot(
    snapshot: Snapshot, url: str, name: str = "imported.yaml", **options: Any
) -> tuple[str, MappingReport]:
    """Map and render one fetched site (``url`` already public); the text is checked to load
    as a site file named ``name``. ``options`` go to :func:`map_site` (include_planned,
    redundant_supplies): only those set away from their defaults."""
    from facility.imports.netbox_fetch import Fetched

    narrowed = snapshot if isinstance(snapshot, Fetched) else None
    source = source_text(
        snapshot,
        url,
        site_slug(snapshot),
        location=narrowed.location if narrowed else None,
        tenant=narrowed.tenant if narrowed else None,
    )
    try:
        document, report = map_site(snapshot, source, **options)
    except MappingError:
        raise
    except _SHAPE_ERRORS as exc:  # NetBox's data, of a shape the mapping did not foresee
        detail = f"{type(exc).__name__}: {exc}"[:200]
        raise MappingError(f"an object of an unexpected shape ({detail})") from exc
    text = render(document, report)
    check_document(text, name)
    return text, report


def import_site(
    url: str, token: str, site: str, name: str = "imported.yaml", **options: Any
) -> tuple[str, MappingReport]:
    """Fetch, map and render one NetBox site (its slug, name or id)."""
    from facility.imports.netbox_fetch import Selection, public_url

    (snapshot,) = fetch_selection(url, token, Selection((site,)))
    return import_snapshot(snapshot, public_url(url), name, **options)
