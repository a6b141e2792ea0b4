"""Coverage names the air units whose heat leaves the model: a unit with its own condenser
(naming no facility water) cools the room, but how its condenser rejects that heat outdoors
is judged nowhere — said in the report, never left out."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from facility.engine.coverage import coverage
from facility.engine.evaluate import audit
from facility.engine.rules import load_rules
from facility.messages import localized
from facility.model.load import load_site

SITE = Path(__file__).resolve().parents[2] / "examples" / "small-ready.yaml"


def _own_condenser_statements(site, ruleset, findings) -> list[str]:
    found = coverage(site, ruleset, findings)
    texts = [localized(t) for area in found.areas for t in area.not_modelled]
    return [t for t in texts if "own condenser" in t]


def test_air_units_with_their_own_condenser_are_counted_in_coverage() -> None:
    site = load_site(SITE)
    ruleset = load_rules(profile="tier-iii")
    findings = audit(site, ruleset).findings
    own = [u for u in site.air_units.values() if u.facility_water is None]
    assert own  # the example's CRAHs name no facility water
    (statement,) = _own_condenser_statements(site, ruleset, findings)
    assert re.search(rf": {len(own)}; how their condensers reject", statement), statement

    water = next(iter(site.facility_water))
    cooled = {i: u.model_copy(update={"facility_water": water}) for i, u in site.air_units.items()}
    on_water = dataclasses.replace(site, air_units=cooled)
    assert _own_condenser_statements(on_water, ruleset, findings) == []
