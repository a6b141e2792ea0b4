"""Properties of the whole audit: unit invariance and monotonicity in load."""

from __future__ import annotations

import copy
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from facility.engine.evaluate import audit
from facility.engine.rules import load_rules
from facility.model.document import SiteDocument
from facility.model.load import resolve
from facility.model.source import SourceMap

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "hall-b3.yaml"
BASE = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
RULES = load_rules(profile="tier-iii")
# 1 kW = 3412.14163 BTU/h (1 BTU_IT = 1055.05585262 J); 1 bar = 14.5037738 psi
BTU_PER_HOUR_PER_KW = 3_600_000 / 1055.05585262
PSI_PER_BAR = 100_000 / 6894.757293168


def statuses(data: dict) -> dict[str, str]:
    site = resolve(SiteDocument.model_validate(data), SourceMap("generated.yaml"), "0" * 64)
    return {f.id: f.status for f in audit(site, RULES).findings}


def with_power(nominal_a: float, peak_extra_a: float, nominal_b: float, us: bool = False) -> dict:
    data = copy.deepcopy(BASE)
    a, b = data["rack_types"]
    peak_a = nominal_a + peak_extra_a
    if us:
        a["nominal_power"] = f"{nominal_a * BTU_PER_HOUR_PER_KW!r} BTU/h"
        a["peak_power"] = f"{peak_a * BTU_PER_HOUR_PER_KW!r} BTU/h"
        a["pressure_drop"] = f"{1.27 * PSI_PER_BAR!r} psi"
        b["nominal_power"] = f"{nominal_b * BTU_PER_HOUR_PER_KW!r} BTU/h"
    else:
        a["nominal_power"] = f"{nominal_a!r} kW"
        a["peak_power"] = f"{peak_a!r} kW"
        b["nominal_power"] = f"{nominal_b!r} kW"
    b["peak_power"] = (
        f"{max(38.0, nominal_b)!r} kW"
        if not us
        else f"{max(38.0, nominal_b) * BTU_PER_HOUR_PER_KW!r} BTU/h"
    )
    return data


power = st.floats(min_value=20.0, max_value=200.0, allow_nan=False)
fast = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@fast
@given(nominal_a=power, extra=st.floats(0.0, 40.0), nominal_b=st.floats(10.0, 60.0))
def test_si_and_us_units_give_identical_verdicts(
    nominal_a: float, extra: float, nominal_b: float
) -> None:
    assert statuses(with_power(nominal_a, extra, nominal_b)) == statuses(
        with_power(nominal_a, extra, nominal_b, us=True)
    )


@fast
@given(
    nominal_a=power,
    extra=st.floats(0.0, 40.0),
    nominal_b=st.floats(10.0, 60.0),
    more=st.floats(1.0, 1.5),
)
def test_more_load_never_turns_a_failure_into_a_pass(
    nominal_a: float, extra: float, nominal_b: float, more: float
) -> None:
    before = statuses(with_power(nominal_a, extra, nominal_b))
    after = statuses(with_power(nominal_a * more, extra * more, nominal_b * more))
    failed_before = {k for k, v in before.items() if v == "fail"}
    failed_after = {k for k, v in after.items() if v == "fail"}
    assert failed_before <= failed_after
