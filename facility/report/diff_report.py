"""A diff of two states as text, Markdown (a pull-request comment) and JSON.

Text and Markdown show the same sections in the same order, each grouped by rule (code and
title once, then its entities): new failures, worse, resolved, better, other status changes,
new checks that do not pass, checks gone. New passing checks and unchanged findings are
counts. Each entity shows status, observed value, limit and margin before → after, and marks
a limit that changed (a derating, a rating) apart from an observed value that moved.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from facility.analysis.diff import DiffReport, FindingChange
from facility.analysis.result_stream import CompactFinding
from facility.i18n import N_, _, current_language, ngettext
from facility.printable import printable
from facility.report.anchors import natural_key
from facility.report.entity_runs import ELLIPSIS, in_order
from facility.report.templating import MarkdownText, escape_markdown
from facility.report.words import entity_kind_word, status_word, verdict_word

SCHEMA = "facility-diff/1"

WORSE_MARK = "▼"
BETTER_MARK = "▲"


def _sections(report: DiffReport) -> list[tuple[str, str, list[FindingChange]]]:
    """(key, title, changes) in the order a reviewer reads them; empty ones left out."""
    sections = (
        ("new_failures", N_("NEW FAILURES"), report.new_failures),
        ("worse", N_("WORSE"), report.worse),
        ("resolved", N_("RESOLVED"), report.resolved),
        ("better", N_("BETTER"), report.better),
        ("status_changes", N_("OTHER STATUS CHANGES"), report.status_changes),
        ("added", N_("NEW CHECKS NOT PASSING"), report.added_other),
        ("removed", N_("CHECKS GONE"), report.removed),
    )
    return [(key, _(title), changes) for key, title, changes in sections if changes]


@dataclass(frozen=True, slots=True)
class _Row:
    """Changes of one rule with the same figures before and after, on one kind of entity."""

    kind: str
    entities: str  # ``A01 … A08``: runs in the order of every entity the rule judged
    count: int
    change: FindingChange  # the first: its figures are every one's
    figures: dict[str, str]  # status, observed, limit, margin: before → after, or once


@dataclass(frozen=True, slots=True)
class _Order:
    """Every entity id a rule judged on either side, in natural order, and where each stands."""

    ids: Sequence[str | None]  # None: entities between two changed ones (DiffReport.orders)
    position: dict[str, int]

    def runs(self, group: list[str]) -> str:
        """``A01 … A08, B03`` as :func:`~facility.report.entity_runs.compressed` writes it
        without a limit (a diff names every entity that changed), in time of the group's size
        (a campus's rule judges 10,000 entities; a diff may have thousands of rows)."""
        spans: list[list[int]] = []
        for at in sorted(self.position[i] for i in group):
            if spans and at == spans[-1][1] + 1:
                spans[-1][1] = at
            else:
                spans.append([at, at])
        parts: list[str] = []
        for first, last in spans:
            if last - first >= 2:
                parts.append(f"{self.ids[first]}{ELLIPSIS}{self.ids[last]}")
            else:
                parts += [str(entity) for entity in self.ids[first : last + 1]]
        return ", ".join(parts)


def _orders(report: DiffReport) -> dict[tuple[str, str], _Order]:
    """(rule, kind) → every entity id judged on either side, in natural order (the order
    runs are counted in: ``A01 … A08`` leaves none out)."""
    if report.orders is not None:  # made as the diff was: its changed entities, and gaps
        return {
            key: _Order(ids, {entity: n for n, entity in enumerate(ids) if entity is not None})
            for key, ids in report.orders.items()
        }
    ids: dict[tuple[str, str], set[str]] = {}
    for result in (report.old, report.new):
        for f in result["findings"]:
            ids.setdefault((f["rule"], f["entity"]["kind"]), set()).add(f["entity"]["id"])
    orders = {}
    for key, group in ids.items():
        ordered = in_order(group)
        orders[key] = _Order(ordered, {entity: n for n, entity in enumerate(ordered)})
    return orders


def _by_rule(
    changes: list[FindingChange], orders: dict[tuple[str, str], _Order]
) -> list[tuple[str, list[FindingChange], list[_Row]]]:
    """The changes grouped by rule code (natural order), each rule's identical changes as
    one row of runs."""
    groups: dict[str, list[FindingChange]] = {}
    for change in changes:
        groups.setdefault(change.rule, []).append(change)
    out = []
    for rule in sorted(groups, key=natural_key):
        alike: dict[tuple[Any, ...], tuple[dict[str, str], list[FindingChange]]] = {}
        for c in groups[rule]:
            figures = _figures(c)
            key = (c.entity.get("kind", ""), c.limit_changed, *figures.values())
            alike.setdefault(key, (figures, []))[1].append(c)
        rows = []
        for figures, same in alike.values():
            kind = str(same[0].entity.get("kind", ""))
            ids = [str(c.entity.get("id", "")) for c in same]
            order = orders[(rule, kind)]
            rows.append(_Row(kind, order.runs(ids), len(same), same[0], figures))
        rows.sort(key=lambda r: (r.kind, natural_key(str(r.change.entity.get("id", "")))))
        out.append((rule, groups[rule], rows))
    return out


def _title(rule: str, changes: list[FindingChange], titles: dict[str, str]) -> str:
    if rule in titles:
        return titles[rule]
    first = changes[0]
    return str((first.after or first.before or {}).get("title", ""))


def _status(f: Mapping[str, Any] | None) -> str:
    if f is None:
        return _("absent")
    word = status_word(f["status"])
    return word.lower() if current_language() == "en" else word


def _text_of(f: Mapping[str, Any] | None, key: str) -> str:
    value = (f or {}).get(key)
    return "—" if not value else str(value.get("text", "—"))


def _moved(before: str, after: str) -> str:
    """``a → b``, or ``a`` once when both sides read the same."""
    if before == after:
        return before
    return _("%(before)s → %(after)s") % {"before": before, "after": after}


def _figures(c: FindingChange) -> dict[str, str]:
    """Status, observed, limit and margin of one change, each ``before → after`` or once."""

    def side(key: str) -> tuple[str, str]:
        return _text_of(c.before, key), _text_of(c.after, key)

    return {
        "status": _moved(_status(c.before), _status(c.after)),
        "observed": _moved(*side("observed")),
        "limit": _moved(*side("limit")),
        "margin": _moved(*side("margin")),
    }


def _count(singular: str, plural: str, n: int) -> str:
    return ngettext(singular, plural, n) % {"n": f"{n:,}"}


def _counts(report: DiffReport) -> list[str]:
    """The headline: what changed (four counts, always), then what did not."""
    out = [
        _count("%(n)s new failure", "%(n)s new failures", len(report.new_failures)),
        _count("%(n)s worse", "%(n)s worse", len(report.worse)),
        _count("%(n)s resolved", "%(n)s resolved", len(report.resolved)),
        _count("%(n)s better", "%(n)s better", len(report.better)),
    ]
    if report.added_passing:
        passing = len(report.added_passing)
        out.append(_count("+%(n)s new passing check", "+%(n)s new passing checks", passing))
    out.append(_count("%(n)s unchanged", "%(n)s unchanged", report.unchanged))
    return out


def _side_line(result: dict[str, Any]) -> str:
    site = result["site"]
    short = printable(site["sha256"][:12])
    return f"{printable(site['name'])} ({short}…, {verdict_word(result['verdict'])})"


def diff_text(report: DiffReport, titles: dict[str, str] | None = None) -> str:
    """The diff for a terminal, in the current language. ``titles``: rule code → title in that
    language (else each finding's own title)."""
    titles = titles or {}
    lines = [f"{_side_line(report.old)} → {_side_line(report.new)}"]
    sections = _sections(report)
    if not sections and not report.added_passing:
        return "\n".join([*lines, "", _("No finding changed.")]) + "\n"
    lines.append(" · ".join(_counts(report)))
    orders = _orders(report)
    for key, title, changes in sections:
        lines += ["", f"{title} ({len(changes):,})"]
        for rule, group, rows in _by_rule(changes, orders):
            lines.append(f"  {printable(rule)} {printable(_title(rule, group, titles))}")
            for row in rows:
                lines.append("    " + _text_line(key, row))
    return "\n".join(lines) + "\n"


def _entities(row: _Row) -> str:
    """``rack A01 … A08 (8)``: the kind in the current language, the runs, a count over one."""
    kind = entity_kind_word(row.kind, row.count) if current_language() != "en" else row.kind
    text = f"{kind} {row.entities}"
    return text if row.count == 1 else f"{text} ({row.count:,})"


def _text_line(key: str, row: _Row) -> str:
    figures = {k: printable(v) for k, v in row.figures.items()}
    if row.change.limit_changed:
        figures["limit"] += " " + _("(limit changed)")
    mark = {"worse": WORSE_MARK + " ", "better": BETTER_MARK + " "}.get(key, "")
    return mark + _(
        "%(entities)s: %(status)s; observed %(observed)s; limit %(limit)s; margin %(margin)s"
    ) % {"entities": printable(_entities(row)), **figures}


# Sections a reviewer must read are open; the others fold into <details>.
_OPEN = ("new_failures", "worse")


def diff_markdown(report: DiffReport, titles: dict[str, str] | None = None) -> str:
    """The diff as GitHub-flavoured Markdown for a pull-request comment: headline counts,
    the two states, then a table per rule in each section. Every value is escaped."""
    titles = titles or {}
    md = escape_markdown
    old, new = report.old, report.new
    lines = [
        "### "
        + md(
            _("facility diff: %(old)s → %(new)s")
            % {
                "old": old["site"]["name"],
                "new": new["site"]["name"],
            }
        ),
        "",
    ]
    sections = _sections(report)
    orders = _orders(report)
    if not sections and not report.added_passing:
        lines += [md(_("No finding changed.")), ""]
    else:
        lines += [
            " · ".join(f"**{md(p)}**" if i < 4 else md(p) for i, p in enumerate(_counts(report))),
            "",
        ]
    # (gettext calls outside the f-strings: pybabel extracts none from inside one)
    old_word, new_word, site_word = md(_("Old")), md(_("New")), md(_("Site"))
    file_word, verdict = md(_("File")), md(_("Verdict"))
    lines += [
        f"| | {old_word} | {new_word} |",
        "|---|---|---|",
        f"| {site_word} | {md(old['site']['name'])} | {md(new['site']['name'])} |",
        f"| {file_word} | {md(old['site']['file'])} | {md(new['site']['file'])} |",
        f"| SHA-256 | {md(old['site']['sha256'][:12])}… | {md(new['site']['sha256'][:12])}… |",
        f"| {verdict} | {md(verdict_word(old['verdict']))} | {md(verdict_word(new['verdict']))} |",
        "",
    ]
    for key, title, changes in sections:
        heading = (
            f"{title.capitalize() if current_language() == 'en' else title} ({len(changes):,})"
        )
        body = _markdown_section(key, changes, titles, orders)
        if key in _OPEN:
            lines += [f"#### {md(heading)}", "", *body]
        else:
            lines += [
                "<details>",
                f"<summary>{md(heading)}</summary>",
                "",
                *body,
                "</details>",
                "",
            ]
    return "\n".join(lines).rstrip("\n") + "\n"


def _markdown_section(
    key: str,
    changes: list[FindingChange],
    titles: dict[str, str],
    orders: dict[tuple[str, str], _Order],
) -> list[str]:
    md = escape_markdown
    words = [md(_("Entity")), md(_("Status")), md(_("Observed")), md(_("Limit")), md(_("Margin"))]
    head = "| " + " | ".join(words) + " |"
    lines: list[str] = []
    mark = {"worse": WORSE_MARK + " ", "better": BETTER_MARK + " "}.get(key, "")
    for rule, group, rows in _by_rule(changes, orders):
        lines += [
            f"**{md(rule)}** {md(_title(rule, group, titles))}",
            "",
            head,
            "|---|---|---|---|---|",
        ]
        for row in rows:
            f = row.figures
            limit = md(f["limit"])
            if row.change.limit_changed:
                changed = md(_("(limit changed)"))
                limit = MarkdownText(f"{limit} **{changed}**")
            lines.append(
                f"| {md(mark)}{md(_entities(row))} | {md(f['status'])} | {md(f['observed'])} "
                f"| {limit} | {md(f['margin'])} |"
            )
        lines.append("")
    return lines


def diff_json(report: DiffReport) -> str:
    """The diff as one JSON document (:func:`iter_diff_json` joined)."""
    return "".join(iter_diff_json(report))


_LISTS = ("new_failures", "resolved", "changed", "status_changes", "added", "removed")


def iter_diff_json(report: DiffReport) -> Iterator[str]:
    """The diff as JSON (``facility-diff/1``), piece by piece: the text
    ``json.dumps(..., indent=1)`` writes of the whole document, each change encoded as it
    is written (a campus's diff is 100s of MB; its changes are held, their text is not)."""
    head = {
        "schema": SCHEMA,
        "old": {k: report.old[k] for k in ("site", "profile", "rules_version", "verdict")},
        "new": {k: report.new[k] for k in ("site", "profile", "rules_version", "verdict")},
        "counts": {
            "new_failures": len(report.new_failures),
            "worse": len(report.worse),
            "resolved": len(report.resolved),
            "better": len(report.better),
            "status_changes": len(report.status_changes),
            "added": len(report.added),
            "added_passing": len(report.added_passing),
            "removed": len(report.removed),
            "unchanged": report.unchanged,
        },
    }
    yield _dumps(head)[:-2]  # without its closing "\n}"
    shared = _Shared()
    for key in _LISTS:
        changes: list[FindingChange] = getattr(report, key)
        if not changes:
            yield f',\n "{key}": []'
            continue
        pieces = [f',\n "{key}": [']
        for n, c in enumerate(changes):
            # an element of a list in the document: two spaces deeper than alone
            pieces.append(("\n  " if n == 0 else ",\n  ") + _item_text(c, shared))
            if len(pieces) >= 256:
                yield "".join(pieces)
                pieces = []
        pieces.append("\n ]")
        yield "".join(pieces)
    yield "\n}\n"


_ENCODER = json.JSONEncoder(indent=1, ensure_ascii=False, allow_nan=False)  # one, not one a call


def _dumps(data: Any) -> str:
    """``json.dumps(data, indent=1, ensure_ascii=False, allow_nan=False)``."""
    text: str = _ENCODER.encode(data)
    return text


def _item_text(c: FindingChange, shared: _Shared) -> str:
    """``_dumps(_item(c))`` indented as an element of a list of the document, the members
    of a streamed finding its rule and figures entries share encoded once."""
    members = [
        f' "id": {_dumps(c.id)}',
        f' "rule": {_dumps(c.rule)}',
        f' "worse": {_dumps(c.worse)}',
        f' "limit_changed": {_dumps(c.limit_changed)}',
        f' "observed_changed": {_dumps(c.observed_changed)}',
    ]
    for side, finding in (("before", c.before), ("after", c.after)):
        if isinstance(finding, CompactFinding):
            text = _compact_text(finding, shared)
        else:
            text = _dumps(_plain(finding)).replace("\n", "\n ")
        members.append(f' "{side}": {text}')
    return ("{\n" + ",\n".join(members) + "\n}").replace("\n", "\n  ")


class _Shared:
    """The members of rule and figures entries, encoded as a finding's at its depth in the
    document (the text of a few thousand entries, not of every change)."""

    def __init__(self) -> None:
        self.text: dict[tuple[int, Any], str] = {}

    def members(self, key: tuple[int, Any], entry: dict[str, Any]) -> str:
        text = self.text.get(key)
        if text is None:
            if len(self.text) > 20_000:
                self.text.clear()
            text = self.text[key] = "".join(_member(k, v) + ",\n" for k, v in entry.items())
        return text


def _member(key: str, value: Any) -> str:
    """``key: value`` as a member of a finding in an element of the document's lists."""
    return f"  {_dumps(key)}: {_dumps(value)}".replace("\n", "\n  ")


_string = json.encoder.encode_basestring  # type: ignore[attr-defined]  # str as _dumps writes it


def _compact_text(f: CompactFinding, shared: _Shared) -> str:
    """``_dumps(dict(f))`` as a member's value of an item (see :func:`_item_text`)."""
    rule_key, rule, figures_key, figures = f.shared()
    fid = f["id"]
    _, kind, entity = fid.split(":", 2)
    return (
        f'{{\n  "id": {_string(fid)},\n  "rule": {_string(f["rule"])},\n'
        + shared.members(rule_key, rule)
        + f'  "status": {_string(f["status"])},\n'
        + f'  "entity": {{\n   "kind": {_string(kind)},\n   "id": {_string(entity)}\n  }},\n'
        + shared.members(figures_key, figures)
        + _member("source", f["source"])
        + ",\n"
        + _member("waiver", f["waiver"])
        + "\n }"
    )


def _item(c: FindingChange) -> dict[str, Any]:
    return {
        "id": c.id,
        "rule": c.rule,
        "worse": c.worse,
        "limit_changed": c.limit_changed,
        "observed_changed": c.observed_changed,
        "before": _plain(c.before),
        "after": _plain(c.after),
    }


def _plain(finding: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """A finding as a dict (a streamed diff's view of one, written out)."""
    return finding if finding is None or isinstance(finding, dict) else dict(finding)
