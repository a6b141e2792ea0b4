"""A rack losing the same PDU positions in several scenarios (its side, its busway, its source)
is mapped from its class's model once, and a rack's class layout is worked out once."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from facility.analysis import failures
from facility.engine.evaluate import audit
from facility.engine.rules import load_rules
from facility.model.load import load_site

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from generate_campus import write_campus  # noqa: E402


def test_each_rack_mapped_once_per_class(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "campus.yaml"
    write_campus(60, path)
    site = load_site(path)
    ruleset = load_rules(profile="tier-iii")
    baseline = audit(site, ruleset)
    calls: Counter[str] = Counter()
    made: Counter[tuple[int, str]] = Counter()
    mapped, anew = failures._mapped, failures._mapped_anew

    def counted_mapped(rack_class: Any, rack: Any, *args: Any) -> Any:
        calls["mapped"] += 1
        return mapped(rack_class, rack, *args)

    def counted_anew(rack_class: Any, rack: Any, *args: Any) -> Any:
        made[(id(rack_class), rack.id)] += 1
        return anew(rack_class, rack, *args)

    monkeypatch.setattr(failures, "_mapped", counted_mapped)
    monkeypatch.setattr(failures, "_mapped_anew", counted_anew)
    failures.analyse_failures(site, ruleset, baseline)
    assert made and max(made.values()) == 1  # never the same rack of a class twice
    # each rack loses a side in its own scenario and again with its busway and its source
    assert calls["mapped"] >= 2 * sum(made.values())
