"""What a site holds, in numbers: counts, and where its load, heat and mass land.

The figures are the engine's conservation account (:mod:`facility.engine.account`), said in
words by :mod:`facility.report.coverage_view`; ``facility inventory`` uses the default bases
(peak electrical, nominal thermal), ``facility check`` the bases of its profile.
"""

from __future__ import annotations

from facility.engine.account import Account, account
from facility.engine.power_account import PowerAccount
from facility.engine.quantities import Assumptions, Context
from facility.model.site import Site
from facility.report.coverage_view import account_lines
from facility.report.i18n import _
from facility.report.power_account_view import power_account_lines
from facility.report.words import loaded_counts


def site_account(site: Site, assumptions: Assumptions | None = None) -> Account:
    """The account of ``site`` without an audit (``facility inventory``)."""
    return account(Context(site, assumptions or Assumptions()))


def inventory_text(site: Site) -> str:
    """A short, plain-text summary of what was loaded."""
    return "\n".join(
        [f"{site.info.name} — {site.file}", "", *key_figures(site, site_account(site))]
    )


def key_figures(site: Site, ledger: Account | None, power: PowerAccount | None = None) -> list[str]:
    """Counts, the account and the hall's power account, as lines of text (current
    language)."""
    lines = [_("loaded: %(counts)s") % {"counts": loaded_counts(site.summary())}]
    for line in [*account_lines(ledger), *power_account_lines(power)]:
        lines.append(
            _("%(label)s: %(total)s = %(parts)s")
            % {"label": line.label, "total": line.total, "parts": line.parts}
        )
        if line.nowhere:
            lines.append("  " + _("on nothing: %(what)s") % {"what": line.nowhere})
        if line.note:
            lines.append("  " + _("(%(note)s)") % {"note": line.note})
    return lines
