"""Turning findings into plain, formatted values: shared by every output format."""

from __future__ import annotations

import functools
import math
from typing import Any

from facility.engine.findings import Finding
from facility.engine.quantities import Value
from facility.engine.rules import RuleText
from facility.messages import localized, localized_all
from facility.report.i18n import _, pgettext, translations
from facility.report.quantities import (
    DISPLAY,
    current_units,
    display_unit,
    display_value,
    format_quantity,
    unbounded_text,
)


def unit_of(kind: str) -> str:
    """The symbol ``kind`` is shown in (in the display units in force)."""
    return display_unit(kind)[1] if kind in DISPLAY else ""


def text_of(value: float | None, kind: str) -> str:
    if value is None:
        return "—"
    if math.isinf(value):
        return unbounded_text(value)
    if kind in DISPLAY:
        return format_quantity(value, kind)
    if kind == "count":
        return f"{value:g}"
    return f"{value:.6g}"


@functools.lru_cache(maxsize=1 << 16)
def _text_in(value: float | None, kind: str, _language: object, _units: str) -> str:
    return text_of(value, kind)


def text_cached(value: float | None, kind: str) -> str:
    """:func:`text_of`, remembered per (value, kind) and language: a campus repeats the same
    figures over thousands of identical racks (an unbounded limit is a word, so the language
    is part of the key)."""
    return _text_in(value, kind, translations(), current_units())


def quantity_json(value: float | None, kind: str) -> dict[str, Any] | None:
    """``{value, unit, text}``; an unbounded limit (or margin) has ``value`` null and says so in
    ``text``. NaN is left as it is, for the JSON writers (``allow_nan=False``) to refuse."""
    if value is None:
        return None
    if math.isinf(value):
        return {"value": None, "unit": unit_of(kind), "text": unbounded_text(value)}
    shown, unit, text = _quantity_parts(value, kind, current_units())
    return {"value": shown, "unit": unit, "text": text}


@functools.lru_cache(maxsize=1 << 16)  # repeated figures of a campus, formatted once
def _quantity_parts(value: float, kind: str, _units: str) -> tuple[float, str, str]:
    # a float whatever came in: the cache holds 8 and 8.0 as one key, so an int count here
    # would make the JSON's "8" or "8.0" depend on which was formatted first
    shown = float(display_value(value, kind) if kind in DISPLAY else value)
    return round(shown, 6), unit_of(kind), text_of(value, kind)


def working(value: Value | None, kind: str) -> str:
    """'√3 · V_LL · I · DF, with V = 415 V, I = 63 A, DF = 80.0 % → 36.2 kVA'.

    The formula's symbols are the engine's (not translated); its words ('Σ CDUs − largest')
    and the words around it are, in the current language.
    """
    if value is None or value.value is None:
        return ""
    result = text_of(value.value, kind)
    if not value.formula:
        return result
    formula = localized(value.formula)
    if not value.inputs:
        return f"{formula} = {result}"
    inputs = ", ".join(f"{symbol} = {text_of(v, k)}" for symbol, v, k in value.inputs)
    return _("%(formula)s, with %(inputs)s → %(result)s") % {
        "formula": formula,
        "inputs": inputs,
        "result": result,
    }


def missing_text(f: Finding) -> str:
    """Why ``f`` was not evaluated: the engine's reasons in the current language, joined."""
    return localized_all(f.missing)


def message(f: Finding) -> str:
    """One line saying what was found, in the current language (with the reasons a check was
    not evaluated, translated too)."""
    if f.status == "not_evaluated":
        return _("not evaluated: %(missing)s") % {"missing": missing_text(f)}
    limit = f.limit.value if f.limit else None
    values = {
        "observed": text_of(f.observed.value if f.observed else None, f.kind),
        "relation": f.relation,
        "limit": text_of(limit, f.kind),
    }
    unbounded = limit is not None and math.isinf(limit)
    if f.status == "pass" and unbounded:  # '50.0 °C within the limit: no upper limit'
        return _("%(observed)s within the limit: %(limit)s") % values
    if f.status == "pass":
        text = _("%(observed)s within the limit: must be %(relation)s %(limit)s") % values
    elif f.status == "waived":
        text = (
            _("%(observed)s violates (waived) the limit: must be %(relation)s %(limit)s") % values
        )
    else:
        text = _("%(observed)s violates the limit: must be %(relation)s %(limit)s") % values
    margin = margin_text(f)
    if margin is not None and not unbounded:
        text += _(", margin %(margin)s") % {"margin": margin}
    return text


def margin_says_nothing(f: Finding) -> bool:
    """A pass with margin 0 on a count ('2 power sides, must be ≥ 2'; '0 new failures, must be
    ≤ 0'), or on a presence check whose observed and limit are both 0 ('0.0 kW on no loop,
    must be ≤ 0.0 kW'): the margin repeats that the limit is met and nothing more.

    A pass exactly at a measured limit keeps its 'margin 0.0 K' (it says: no headroom left),
    and a failing margin is always shown ('margin -2': two over, or two short of, the limit).
    """
    if f.status != "pass" or f.margin != 0:
        return False
    if f.kind == "count":
        return True
    observed = f.observed.value if f.observed else None
    limit = f.limit.value if f.limit else None
    return f.kind != "temperature" and observed == 0 and limit == 0


def margin_text(f: Finding) -> str | None:
    """The margin as shown in every format ('9.0 K', '-18.2 kVA', '2'); None when there is
    none or it says nothing (:func:`margin_says_nothing`). A margin between two temperatures
    is a temperature difference (K)."""
    if f.margin is None or margin_says_nothing(f):
        return None
    if f.kind == "temperature":
        return format_quantity(f.margin, "temperature_difference")
    return text_of(f.margin, f.kind)


def rule_title(f: Finding, text: RuleText | None) -> str:
    """The rule's title for ``f``: what holds ('Each power side carries the whole rack') for
    a pass, the failure ('One power side cannot carry the whole rack') otherwise; ``text`` is
    the rule's words in the report's language (None: the finding's own English title)."""
    if text is None:
        return f.title
    return text.requirement_title if f.status == "pass" else text.title


def status_label(f: Finding) -> str:
    """The word before a finding's rule code in the terminal: its status for a pass ('PASS'),
    a waiver or a check not evaluated, its severity for a failure ('ERROR')."""
    words = {
        "pass": pgettext("terminal status", "PASS"),
        "waived": pgettext("terminal status", "WAIVED"),
        "not_evaluated": pgettext("terminal status", "NOT EVALUATED"),
    }
    if f.status in words:
        return words[f.status]
    severities = {
        "error": pgettext("terminal severity", "ERROR"),
        "warning": pgettext("terminal severity", "WARNING"),
        "info": pgettext("terminal severity", "INFO"),
    }
    return severities.get(f.severity, f.severity.upper())
