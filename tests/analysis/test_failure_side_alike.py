"""Identical racks losing the same side change the elements above them alike: those elements
are judged once per such loss and the findings shared — the same results, to the last digit,
as judging them again for every rack."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from facility.analysis import failures
from facility.engine.evaluate import audit
from facility.engine.findings import Finding
from facility.engine.rules import load_rules
from facility.model.load import load_site

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from generate_campus import write_campus  # noqa: E402


def _value(v: Any) -> Any:
    return None if v is None else (v.value, str(v.formula), v.inputs, str(v.missing or ""))


def _finding(f: Finding) -> tuple[Any, ...]:
    return (
        f.id,
        f.status,
        _value(f.observed),
        _value(f.limit),
        f.margin,
        f.relation,
        tuple(map(str, f.missing)),
        f.location,
    )


def _results(report: failures.FailureReport) -> list[tuple[Any, ...]]:
    return [
        (
            r.id,
            [_finding(f) for f in r.changed],
            [f.id for f in r.new_failures],
            None if r.worst is None else r.worst.id,
            r.worst_utilisation,
            [_finding(f) for f in r.unchanged],
        )
        for r in report.results
    ]


def _campus(tmp_path: Path, loads: bool = False) -> Path:
    path = tmp_path / "campus.yaml"
    write_campus(160, path, loads=loads)  # loads: CDU pumps on both UPS
    return path


@pytest.mark.parametrize(
    "site_file",
    [
        "campus",
        "campus with loads",
        "examples/hall-b3-power.yaml",
        "examples/small-ready.yaml",
        "examples/hall-b3.yaml",
    ],
)
def test_shared_findings_above_equal_judging_every_loss_anew(
    site_file: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if site_file.startswith("campus"):
        path = _campus(tmp_path, loads=site_file.endswith("loads"))
    else:
        path = ROOT / site_file
    site = load_site(path)
    ruleset = load_rules(profile="tier-iii")
    baseline = audit(site, ruleset)
    judged: Counter[str] = Counter()
    evaluate = failures.evaluate_entities

    def counted(site: Any, ruleset: Any, rules: Any, entities: Any, *args: Any, **kw: Any) -> Any:
        if "rack" not in entities and {"distribution", "power_source"} & set(entities):
            judged["above"] += 1
        return evaluate(site, ruleset, rules, entities, *args, **kw)

    apply = failures._Failer.apply

    def counted_apply(failer: Any, scenario: Any) -> Any:
        judged["built"] += 1
        return apply(failer, scenario)

    monkeypatch.setattr(failures, "evaluate_entities", counted)
    monkeypatch.setattr(failures._Failer, "apply", counted_apply)
    shared = _results(failures.analyse_failures(site, ruleset, baseline))
    with_sharing, built = judged["above"], judged["built"]
    judged.clear()
    monkeypatch.setattr(failures, "_side_alike", lambda *_: None)  # every loss judged anew
    anew = _results(failures.analyse_failures(site, ruleset, baseline))
    assert shared == anew
    sides = sum(1 for r in shared if r[0].startswith("rack_side:"))
    assert sides
    if site.distribution:  # judged anew: the busways above, at least once per side lost
        assert judged["above"] >= sides
    assert judged["built"] == len(anew)  # judged anew: every failed site built
    if site_file.startswith("campus"):  # 320 sides lost, on a few kinds of rack and row
        assert with_sharing < judged["above"] / 4
        assert built < len(anew) / 2  # a side lost alike an earlier one: no failed site
