"""Headroom and stranded capacity as text and JSON."""

from __future__ import annotations

import json
from typing import Any

from facility.analysis.headroom import SEARCH_LIMIT, DomainHeadroom, HeadroomReport
from facility.i18n import _, pgettext
from facility.report.findings_view import message, text_of
from facility.report.json_report import finding_json
from facility.report.presenting import for_machines
from facility.report.words import entity_kind_word

SCHEMA = "facility-headroom/1"


def _count(d: DomainHeadroom) -> str:
    if d.failing_already:
        return _("0 (a check fails already)")
    if d.unbounded and not d.upstream_modelled:
        return _("upstream not modelled")
    if d.unbounded:
        return _("≥ %(limit)s (nothing binds)") % {"limit": f"{SEARCH_LIMIT:,}"}
    return f"{d.racks:,}"


def _title(f: Any, titles: dict[str, str] | None) -> str:
    return (titles or {}).get(f.rule, f.title)


def headroom_text(report: HeadroomReport, titles: dict[str, str] | None = None) -> str:
    """Headroom for a terminal, in the current language; ``titles``: rule code -> title."""
    sep = pgettext("list separator", ", ")
    o = report.overall
    lines = [
        _(
            "Headroom for more '%(type)s' racks on %(kind)s %(target)s (placed and fed like rack %(template)s)"
        )
        % {
            "type": report.rack_type,
            "kind": target_word(report.target_kind),
            "target": report.target,
            "template": report.template,
        },
        "",
        _("more racks that fit: %(count)s") % {"count": _count(o)},
    ]
    failing_today = {f.id for f in report.already_failing}
    for f in o.binding:
        who = (
            _("each new rack")
            if f.entity_id.startswith("new-")
            else f"{entity_kind_word(f.entity_kind)} {f.entity_id}"
        )
        words = {"rule": f.rule, "title": _title(f, titles), "who": who, "message": message(f)}
        if f.id in failing_today:
            line = _("fails already: %(rule)s %(title)s — %(who)s: %(message)s") % words
        else:
            line = (
                _("binds first: %(rule)s %(title)s — %(who)s, with one more: %(message)s") % words
            )
        lines.append("  " + line)
    if report.already_failing:
        lines += ["", _("already failing today (no more racks fit where these fail):")]
        for f in report.already_failing:
            lines.append(
                f"  {f.rule} {entity_kind_word(f.entity_kind)} {f.entity_id}: {message(f)}"
            )
    lines += ["", _("per domain:")]
    for d in report.domains:
        binds = sep.join(sorted({f.rule for f in d.binding})) or "—"
        name = domain_word(d.domain)
        lines.append(f"  {name:<15} {_count(d):>26}   " + _("binds: %(rules)s") % {"rules": binds})
    stranded = [(d, f) for d in report.domains for f in d.stranded]
    if stranded:
        lines += [
            "",
            _("stranded at the limit of %(count)s more (capacity another domain leaves unusable):")
            % {"count": f"{o.racks:,}"},
        ]
        for d, f in stranded:
            margin_kind = "temperature_difference" if f.kind == "temperature" else f.kind
            lines.append(
                "  "
                + domain_word(d.domain)
                + pgettext("label separator", ": ")
                + f"{entity_kind_word(f.entity_kind)} {f.entity_id} {f.rule} — "
                + _("%(margin)s left (%(observed)s of %(limit)s)")
                % {
                    "margin": text_of(f.margin, margin_kind),
                    "observed": text_of(f.observed.value if f.observed else None, f.kind),
                    "limit": text_of(f.limit.value if f.limit else None, f.kind),
                }
            )
    return "\n".join(lines) + "\n"


def target_word(kind: str) -> str:
    words = {
        "loop": pgettext("headroom target", "loop"),
        "zone": pgettext("headroom target", "floor zone"),
        "row": pgettext("headroom target", "row"),
    }
    return words.get(kind, kind)


def domain_word(label: str) -> str:
    """A headroom domain (facility.analysis.headroom.DOMAINS) as people read it."""
    words = {
        "power path": pgettext("headroom domain", "power path"),
        "liquid loop": pgettext("headroom domain", "liquid loop"),
        "room air": pgettext("headroom domain", "room air"),
        "floor zone": pgettext("headroom domain", "floor zone"),
        "single failures": pgettext("headroom domain", "single failures"),
        "overall": pgettext("headroom domain", "overall"),
    }
    return words.get(label, label)


def _domain_json(d: DomainHeadroom) -> dict[str, Any]:
    return {
        "domain": d.domain,
        "racks": d.racks,
        "unbounded": d.unbounded,
        "failing_already": d.failing_already,
        "upstream_modelled": d.upstream_modelled,
        "binding": [finding_json(f) for f in d.binding],
        "stranded": [finding_json(f) for f in d.stranded],
    }


def headroom_json(report: HeadroomReport, site: dict[str, str]) -> str:
    with for_machines():  # a machine format: English
        return _headroom_json(report, site)


def _headroom_json(report: HeadroomReport, site: dict[str, str]) -> str:
    data = {
        "schema": SCHEMA,
        "site": site,
        "rack_type": report.rack_type,
        "target": {"kind": report.target_kind, "id": report.target},
        "template_rack": report.template,
        "search_limit": SEARCH_LIMIT,
        "overall": _domain_json(report.overall),
        "domains": [_domain_json(d) for d in report.domains],
        "already_failing": [finding_json(f) for f in report.already_failing],
    }
    return json.dumps(data, indent=1, ensure_ascii=False, allow_nan=False) + "\n"
