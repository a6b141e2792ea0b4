"""The report's vocabulary: verdicts, severities, statuses, areas and entity kinds in words.

Each function returns the word in the current language (:mod:`facility.report.i18n`); the
keys (``not-ready``, ``error``, ``tcs_loop`` …) stay stable for CSS classes and anchors.
"""

from __future__ import annotations

from facility.report.i18n import N_, _, ngettext, npgettext, pgettext

VERDICTS = {
    "ready": N_("Ready"),
    "ready-with-warnings": N_("Ready with warnings"),
    "incomplete": N_("Incomplete"),
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
    "cluster": N_("Cluster plan"),
    "redundancy": N_("Single failures"),
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
    """'rack' / 'racks', 'TCS loop' / 'TCS loops' … for ``n`` entities of ``kind``.

    The bare noun (zh-CN '机柜'); right after a count ('20 racks') use :func:`counted_kind_word`,
    which carries a language's measure word (zh-CN '20 台机柜').
    """
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
    if kind == "supernode":
        return ngettext("supernode", "supernodes", n)
    if kind == "cluster":
        return ngettext("cluster", "clusters", n)
    if kind == "commissioning_item":
        return ngettext("commissioning item", "commissioning items", n)
    if kind == "thermal_test":
        return ngettext("single-rack thermal test", "single-rack thermal tests", n)
    if kind == "monitoring_layer":
        return ngettext("monitoring layer", "monitoring layers", n)
    if kind == "single_failure":
        return ngettext("single failure", "single failures", n)
    return kind.replace("_", " ")


def counted_kind_word(kind: str, n: int) -> str:
    """The kind after the count ``n`` of its entities: '20 racks' → 'racks' (zh-CN '台机柜').

    The same words as :func:`entity_kind_word` in English; in Chinese with the measure word.
    """
    if kind == "rack":
        return npgettext("after a count", "rack", "racks", n)
    if kind == "pdu":
        return npgettext("after a count", "rack PDU", "rack PDUs", n)
    if kind == "tcs_loop":
        return npgettext("after a count", "TCS loop", "TCS loops", n)
    if kind == "cdu":
        return npgettext("after a count", "CDU", "CDUs", n)
    if kind == "facility_water":
        return npgettext("after a count", "facility water loop", "facility water loops", n)
    if kind == "room":
        return npgettext("after a count", "room", "rooms", n)
    if kind == "floor_zone":
        return npgettext("after a count", "floor zone", "floor zones", n)
    if kind == "distribution":
        return npgettext("after a count", "busway, panel or RPP", "busways, panels or RPPs", n)
    if kind == "power_source":
        return npgettext("after a count", "power source", "power sources", n)
    if kind == "supernode":
        return npgettext("after a count", "supernode", "supernodes", n)
    if kind == "cluster":
        return npgettext("after a count", "cluster", "clusters", n)
    if kind == "commissioning_item":
        return npgettext("after a count", "commissioning item", "commissioning items", n)
    if kind == "thermal_test":
        return npgettext(
            "after a count", "single-rack thermal test", "single-rack thermal tests", n
        )
    if kind == "monitoring_layer":
        return npgettext("after a count", "monitoring layer", "monitoring layers", n)
    if kind == "single_failure":
        return npgettext("after a count", "single failure", "single failures", n)
    return kind.replace("_", " ")


def entity_kind_name(kind: str) -> str:
    """An entity kind before an entity id, in the machine outputs ('rack A01', 'tcs_loop TCS-A').

    English keeps the kind's key, as SARIF and JUnit always wrote it; other languages name it.
    """
    names = {
        "rack": pgettext("entity kind", "rack"),
        "pdu": pgettext("entity kind", "pdu"),
        "tcs_loop": pgettext("entity kind", "tcs_loop"),
        "cdu": pgettext("entity kind", "cdu"),
        "facility_water": pgettext("entity kind", "facility_water"),
        "room": pgettext("entity kind", "room"),
        "floor_zone": pgettext("entity kind", "floor_zone"),
        "distribution": pgettext("entity kind", "distribution"),
        "power_source": pgettext("entity kind", "power_source"),
        "supernode": pgettext("entity kind", "supernode"),
        "cluster": pgettext("entity kind", "cluster"),
        "commissioning_item": pgettext("entity kind", "commissioning_item"),
        "thermal_test": pgettext("entity kind", "thermal_test"),
        "monitoring_layer": pgettext("entity kind", "monitoring_layer"),
        "single_failure": pgettext("entity kind", "single_failure"),
    }
    return names.get(kind, kind)


def loaded_counts(counts: dict[str, int]) -> str:
    """'1 rooms, 2 floor zones, 20 racks …': what a site file holds (counts that are not 0)."""
    words = {
        "rooms": pgettext("loaded", "%(n)s rooms"),
        "floor_zones": pgettext("loaded", "%(n)s floor zones"),
        "rack_types": pgettext("loaded", "%(n)s rack types"),
        "racks": pgettext("loaded", "%(n)s racks"),
        "pdus": pgettext("loaded", "%(n)s pdus"),
        "power_sources": pgettext("loaded", "%(n)s power sources"),
        "distribution": pgettext("loaded", "%(n)s distribution"),
        "facility_water": pgettext("loaded", "%(n)s facility water"),
        "cdus": pgettext("loaded", "%(n)s cdus"),
        "tcs_loops": pgettext("loaded", "%(n)s tcs loops"),
        "air_units": pgettext("loaded", "%(n)s air units"),
    }
    return list_separator().join(
        words[name] % {"n": n} if name in words else f"{n} {name.replace('_', ' ')}"
        for name, n in counts.items()
        if n
    )


def list_separator() -> str:
    """Between the items of a list in running text: ', ' (zh-CN '、')."""
    return pgettext("list separator", ", ")


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
        "flow_table_coolant": N_("flow table coolant"),
        "design_flow": N_("design flow"),
        "pressure_drop": N_("pressure drop"),
        "power_inputs_per_side": N_("power inputs per side"),
        "accelerators_per_rack": N_("accelerators per rack"),
        "accelerator_peak": N_("peak rate per accelerator"),
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
