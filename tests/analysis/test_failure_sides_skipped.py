"""The single failures that only count when they touch something (headroom's: what the added
racks change): a rack side lost alike an earlier one, which touched its rack, its PDUs and
the elements above, is skipped without building its failed site when it touches none of
them — the same results as building every one."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from facility.analysis import failures
from facility.analysis.headroom import headroom
from facility.engine.evaluate import audit
from facility.engine.rules import load_rules
from facility.model.load import load_site
from tests.analysis.test_failure_side_alike import _results

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from generate_campus import write_campus  # noqa: E402


def _campus(tmp_path: Path) -> Path:
    path = tmp_path / "campus.yaml"
    write_campus(160, path, loads=True)
    return path


@pytest.mark.parametrize(
    ("name", "touch"),
    [
        ("campus", [("distribution", "BW-H01-R01-A")]),
        ("campus", [("rack", "H01-R02-03"), ("power_source", "UPS-H01-B")]),
        ("campus", [("pdu", "H01-R01-02-B1")]),
        ("examples/hall-b3-power.yaml", [("distribution", "BW-B-B")]),
        ("examples/hall-b3.yaml", [("rack", "A03")]),
    ],
)
def test_skipped_sides_equal_building_every_one(
    name: str, touch: list[tuple[str, str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = load_site(_campus(tmp_path) if name == "campus" else ROOT / name)
    ruleset = load_rules(profile="tier-iii")
    baseline = audit(site, ruleset)
    touching = set(touch)
    built: Counter[str] = Counter()
    apply = failures._Failer.apply

    def counted(failer: Any, scenario: Any) -> Any:
        built["sites"] += 1
        return apply(failer, scenario)

    monkeypatch.setattr(failures._Failer, "apply", counted)
    skipping = _results(failures.analyse_failures(site, ruleset, baseline, touching))
    with_skips, built["sites"] = built["sites"], 0
    monkeypatch.setattr(failures, "_side_reach", lambda *_: None)  # every side built
    every = _results(failures.analyse_failures(site, ruleset, baseline, touching))
    assert skipping == every
    assert every  # some loss touches what was asked
    if name == "campus" and all(scope != "power_source" for scope, _ in touch):
        assert with_skips < built["sites"] / 2  # the sides of the other rows: not built
    else:  # (every side below a UPS touched touches it)
        assert with_skips <= built["sites"]


def test_headroom_is_the_same_with_the_sides_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = load_site(_campus(tmp_path))
    ruleset = load_rules(profile="tier-iii")
    baseline = audit(site, ruleset)
    skipping = headroom(site, ruleset, baseline, "gb300-nvl72", zone="H01-Z01")
    monkeypatch.setattr(failures, "_side_reach", lambda *_: None)
    every = headroom(site, ruleset, baseline, "gb300-nvl72", zone="H01-Z01")
    assert repr(skipping) == repr(every)
