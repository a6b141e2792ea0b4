"""Coverage counts the non-IT loads fed from a three-phase element: the site model gives them
no phase, so the element's line currents (PWR-019, PWR-020) leave them out — said in the
report, never left out silently."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from facility.engine.coverage import coverage
from facility.engine.evaluate import audit
from facility.engine.rules import load_rules
from facility.messages import localized
from facility.model.load import load_site

SITE = Path(__file__).resolve().parents[2] / "examples" / "small-ready.yaml"


def _statements(site, ruleset, findings) -> list[str]:
    found = coverage(site, ruleset, findings)
    texts = [localized(t) for area in found.areas for t in area.not_modelled]
    return [t for t in texts if t.startswith("non-IT loads fed from a three-phase")]


def test_loads_on_three_phase_elements_are_counted_in_coverage() -> None:
    site = load_site(SITE)
    ruleset = load_rules(profile="tier-iii")
    findings = audit(site, ruleset).findings
    three_phase = {e.id for e in site.distribution.values() if e.phases == 3}
    on_three = [load for load in site.loads.values() if three_phase & set(load.fed_by.values())]
    assert len(on_three) == 3  # the CDU pumps and the CRAH fans on MCC-A and MCC-B
    assert len(site.loads) == 5  # the dry coolers are on transformers (sources)
    (statement,) = _statements(site, ruleset, findings)
    assert statement.startswith("non-IT loads fed from a three-phase busway, panel or RPP: 3; ")

    single = {
        i: e.model_copy(update={"phases": 1}) if i in three_phase else e
        for i, e in site.distribution.items()
    }
    assert _statements(dataclasses.replace(site, distribution=single), ruleset, findings) == []
