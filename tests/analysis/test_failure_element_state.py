"""An element above a power loss whose PDUs below changed exactly as in an earlier loss (a
busway's partner, when its row's busway is lost and again when its source is) keeps the
findings it had then — the same results, to the last digit, as judging it again."""

from __future__ import annotations

import copy
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from facility.analysis import failures
from facility.engine.evaluate import audit
from facility.engine.rules import load_rules
from facility.model.load import load_site
from tests.analysis.test_failure_side_alike import _results

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from generate_campus import write_campus  # noqa: E402


def _three_sided(tmp_path: Path) -> Path:
    """Hall B3 with its power, row A's racks given a third side C on MCC-A (under UPS-A):
    BW-A-A lost takes side A, UPS-A lost takes A and C — the same B PDUs below BW-A-B and
    UPS-B changed both times, carrying different shares (a half, then the whole rack)."""
    data = yaml.safe_load((ROOT / "examples/hall-b3-power.yaml").read_text(encoding="utf-8"))
    data = copy.deepcopy(data)
    data["extends"] = str(ROOT / "examples/hall-b3.yaml")
    row_a = next(r for r in data["rows"] if r["id"] == "A")
    row_a["pdus"]["C"] = {"type": "pdu-415v-63a", "count": 2, "fed_by": "MCC-A"}
    path = tmp_path / "three-sided.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def _site_file(name: str, tmp_path: Path) -> Path:
    if name.startswith("campus"):
        path = tmp_path / "campus.yaml"
        write_campus(160, path, loads=name.endswith("loads"))
        return path
    if name == "three-sided":
        return _three_sided(tmp_path)
    return ROOT / name


@pytest.mark.parametrize(
    "name",
    ["campus", "campus with loads", "three-sided", "examples/hall-b3-power.yaml"],
)
def test_elements_kept_by_state_equal_judging_them_again(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = load_site(_site_file(name, tmp_path), allow_outside_bases=True)
    ruleset = load_rules(profile="tier-iii")
    baseline = audit(site, ruleset)
    judged: Counter[str] = Counter()
    evaluate = failures.evaluate_entities

    def counted(site: Any, ruleset: Any, rules: Any, entities: Any, *args: Any, **kw: Any) -> Any:
        judged["elements"] += len(entities.get("distribution", ()))
        judged["elements"] += len(entities.get("power_source", ()))
        return evaluate(site, ruleset, rules, entities, *args, **kw)

    monkeypatch.setattr(failures, "evaluate_entities", counted)
    kept = _results(failures.analyse_failures(site, ruleset, baseline))
    with_states = judged["elements"]
    judged.clear()
    monkeypatch.setattr(failures._PowerStates, "of", staticmethod(lambda *_: None))
    again = _results(failures.analyse_failures(site, ruleset, baseline))
    assert kept == again
    # some element was kept (a partner busway, each time its row's busway or its UPS is lost)
    assert with_states < judged["elements"]
