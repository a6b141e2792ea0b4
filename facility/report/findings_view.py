"""Turning findings into plain, formatted values: shared by every output format."""

from __future__ import annotations

import functools
import math
from typing import Any

from facility.engine.findings import Finding
from facility.engine.quantities import Value
from facility.messages import localized, localized_all
from facility.report.i18n import _, translations
from facility.report.quantities import DISPLAY, display_value, format_quantity, unbounded_text


def unit_of(kind: str) -> str:
    return DISPLAY[kind][1] if kind in DISPLAY else ""


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
def _text_in(value: float | None, kind: str, _language: object) -> str:
    return text_of(value, kind)


def text_cached(value: float | None, kind: str) -> str:
    """:func:`text_of`, remembered per (value, kind) and language: a campus repeats the same
    figures over thousands of identical racks (an unbounded limit is a word, so the language
    is part of the key)."""
    return _text_in(value, kind, translations())


def quantity_json(value: float | None, kind: str) -> dict[str, Any] | None:
    """``{value, unit, text}``; an unbounded limit (or margin) has ``value`` null and says so in
    ``text``. NaN is left as it is, for the JSON writers (``allow_nan=False``) to refuse."""
    if value is None:
        return None
    if math.isinf(value):
        return {"value": None, "unit": unit_of(kind), "text": unbounded_text(value)}
    shown, unit, text = _quantity_parts(value, kind)
    return {"value": shown, "unit": unit, "text": text}


@functools.lru_cache(maxsize=1 << 16)  # repeated figures of a campus, formatted once
def _quantity_parts(value: float, kind: str) -> tuple[float, str, str]:
    shown = display_value(value, kind) if kind in DISPLAY else value
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
    if f.margin is not None and not unbounded:
        margin = (
            format_quantity(f.margin, "temperature_difference")
            if f.kind == "temperature"
            else text_of(f.margin, f.kind)
        )
        text += _(", margin %(margin)s") % {"margin": margin}
    return text
