"""The hall's power account in words (:mod:`facility.engine.power_account`): one place for
every report that shows it (terminal key figures, HTML and Markdown key figures)."""

from __future__ import annotations

from facility.engine.power_account import PowerAccount
from facility.report.coverage_view import MAX_PARTS, AccountLine
from facility.report.i18n import _
from facility.report.quantities import format_quantity
from facility.report.words import list_separator

_KIND_WORDS = {
    "compute": lambda: _("compute"),
    "network": lambda: _("network"),
    "storage": lambda: _("storage"),
    "cdu": lambda: _("CDU pumps"),
    "air_unit": lambda: _("air unit fans"),
    "heat_rejection": lambda: _("heat rejection"),
    "lighting": lambda: _("lighting"),
    "other": lambda: _("other loads"),
}


def _power(value: float) -> str:
    return format_quantity(value, "power")


def _capped(items: list[str], separator: str) -> str:
    """The first MAX_PARTS of ``items`` joined, the rest counted: a campus has 1,000s of
    sources (the JSON result names every one)."""
    shown = separator.join(items[:MAX_PARTS])
    if len(items) > MAX_PARTS:
        shown += separator + _("%(n)s more") % {"n": f"{len(items) - MAX_PARTS:,}"}
    return shown


def _group(word: str, amounts: dict[str, float]) -> str:
    each = list_separator().join(
        f"{_KIND_WORDS[kind]()} {_power(value)}" for kind, value in amounts.items()
    )
    return _("%(what)s %(total)s (%(each)s)") % {
        "what": word,
        "total": _power(sum(amounts.values())),
        "each": each,
    }


def power_account_lines(account: PowerAccount | None) -> list[AccountLine]:
    """The account, the critical / facility split, the sources and the pPUE, as lines."""
    if account is None:
        return []
    basis = {"peak": _("peak"), "nominal": _("nominal")}.get(account.basis, account.basis)
    parts = [_group(_("IT"), account.it)] if account.it else [_("IT %(total)s") % {
        "total": _power(0.0)}]  # fmt: skip
    if account.cooling:
        parts.append(_group(_("cooling"), account.cooling))
    if account.other:
        parts.append(_group(_("other"), account.other))
    losses = {s.id: s.loss for s in account.sources if s.loss is not None}
    if losses:
        parts.append(
            _("losses %(total)s (%(each)s)")
            % {
                "total": _power(account.losses),
                "each": _capped([f"{k} {_power(v)}" for k, v in losses.items()], list_separator()),
            }
        )
    notes = []
    if account.losses_unknown:
        notes.append(
            _("losses not counted of %(ids)s: no efficiency")
            % {"ids": _capped(list(account.losses_unknown), ", ")}
        )
    if account.unknown_racks:
        notes.append(
            _("%(n)s racks not counted: their power is unknown")
            % {"n": f"{account.unknown_racks:,}"}
        )
    lines = [
        AccountLine(
            "power_account",
            _("Hall power at %(basis)s power") % {"basis": basis},
            _power(account.total),
            " + ".join(parts),
            "",
            "; ".join(notes),
        )
    ]
    paths = [
        (_("critical (on a UPS)"), account.critical),
        (_("facility (utility, transformer or generator only)"), account.facility),
        (_("upstream not modelled"), account.unmodelled),
    ]
    lines.append(
        AccountLine(
            "power_paths",
            _("Critical and facility power"),
            _power(account.critical + account.facility + account.unmodelled),
            " + ".join(f"{word} {_power(value)}" for word, value in paths if value > 0.0)
            or _power(0.0),
            "",
            "",
        )
    )
    if account.sources:
        each = []
        for s in account.sources:
            real = _power(s.real) if s.real is not None else _("unknown")
            apparent = (
                format_quantity(s.apparent, "apparent_power")
                if s.apparent is not None
                else _("unknown")
            )
            each.append(f"{s.id} {real}, {apparent}")
        lines.append(
            AccountLine(
                "power_sources",
                _("Delivered by each source (normal operation)"),
                _power(sum(s.real or 0.0 for s in account.sources)),
                _capped(each, list_separator()),
                "",
                "",
            )
        )
    ppue = account.ppue
    if ppue is None:
        working = _("not estimated: %(why)s") % {
            "why": _("no cooling load is modelled (power.loads)")
            if not account.cooling
            else _("the IT power is zero or not known for every rack")
        }
        shown = "—"
    else:
        shown = f"{ppue:.2f}"
        working = _(
            "(IT %(it)s + cooling %(cooling)s + other %(other)s + losses %(losses)s) / IT "
            "%(it)s = %(ppue)s: an estimate at design load, from the racks' power at the "
            "electrical basis, the loads' design power and the sources' efficiencies"
        ) % {
            "it": _power(account.it_total),
            "cooling": _power(account.cooling_total),
            "other": _power(account.other_total),
            "losses": _power(account.losses),
            "ppue": shown,
        }
    lines.append(AccountLine("ppue", _("pPUE of the hall"), shown, working, "", ""))
    return lines
