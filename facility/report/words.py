"""The report's vocabulary: verdicts, severities, statuses, areas and entity kinds in words.

Each function returns the word in the current language (:mod:`facility.report.i18n`); the
keys (``not-ready``, ``error``, ``tcs_loop`` …) stay stable for CSS classes and anchors.
"""

from __future__ import annotations

from facility.report.i18n import N_, _, ngettext

VERDICTS = {
    "ready": N_("Ready"),
    "ready-with-warnings": N_("Ready with warnings"),
    "not-ready": N_("Not ready"),
}

SEVERITIES = {"error": N_("Error"), "warning": N_("Warning"), "info": N_("Info")}

STATUSES = {
    "fail": N_("Fails"),
    "pass": N_("Passes"),
    "not_evaluated": N_("Not evaluated"),
    "waived": N_("Waived"),
}

AREAS = {
    "power": N_("Power"),
    "liquid": N_("Liquid cooling"),
    "air": N_("Room air"),
    "floor": N_("Floor"),
}

CONFIDENCE = {"H": N_("high"), "M": N_("medium"), "L": N_("low")}


def verdict_word(key: str) -> str:
    return _(VERDICTS[key])


def severity_word(key: str) -> str:
    return _(SEVERITIES.get(key, key))


def status_word(key: str) -> str:
    return _(STATUSES.get(key, key))


def area_word(key: str) -> str:
    return _(AREAS.get(key, key))


def confidence_word(key: str | None) -> str:
    return _(CONFIDENCE[key]) if key in CONFIDENCE else (key or "")


def entity_kind_word(kind: str, n: int = 1) -> str:
    """'rack' / 'racks', 'TCS loop' / 'TCS loops' … for ``n`` entities of ``kind``."""
    if kind == "rack":
        return ngettext("rack", "racks", n)
    if kind == "pdu":
        return ngettext("rack PDU", "rack PDUs", n)
    if kind == "tcs_loop":
        return ngettext("TCS loop", "TCS loops", n)
    if kind == "cdu":
        return ngettext("CDU", "CDUs", n)
    if kind == "facility_water":
        return ngettext("facility water loop", "facility water loops", n)
    if kind == "room":
        return ngettext("room", "rooms", n)
    if kind == "floor_zone":
        return ngettext("floor zone", "floor zones", n)
    if kind == "distribution":
        return ngettext("busway, panel or RPP", "busways, panels or RPPs", n)
    if kind == "power_source":
        return ngettext("power source", "power sources", n)
    return kind.replace("_", " ")


def figure_word(name: str) -> str:
    """A figure of a rack type, CDU or PDU type, in words ('nominal_power' → 'nominal power')."""
    words = {
        "name": N_("name"),
        "cooling": N_("cooling"),
        "nominal_power": N_("nominal power"),
        "peak_power": N_("peak power"),
        "power_factor": N_("power factor"),
        "filled_mass": N_("filled mass"),
        "empty_mass": N_("empty mass"),
        "coolant_volume": N_("coolant volume"),
        "max_payload": N_("rated payload"),
        "footprint": N_("footprint"),
        "height": N_("height"),
        "casters": N_("casters"),
        "liquid_heat_fraction": N_("liquid heat fraction"),
        "allowed_supply_temperature": N_("allowed supply temperature"),
        "design_coolant_rise": N_("design coolant rise"),
        "flow_table": N_("flow table"),
        "design_flow": N_("design flow"),
        "pressure_drop": N_("pressure drop"),
        "power_inputs_per_side": N_("power inputs per side"),
        "capacity": N_("capacity"),
        "rated_approach": N_("rated approach"),
        "rated_flow": N_("rated flow"),
        "available_head": N_("available head"),
        "pumps": N_("pumps"),
        "primary_pressure_drop": N_("primary pressure drop"),
        "max_racks": N_("racks supported"),
        "voltage": N_("voltage"),
        "phases": N_("phases"),
        "breaker_rating": N_("breaker rating"),
        "derating": N_("continuous-load derating"),
    }
    return _(words[name]) if name in words else name.replace("_", " ")
