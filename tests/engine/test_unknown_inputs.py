"""A missing input is raised once, where it is found, and becomes the quantity's value.

``known(value)`` raises :class:`Unknown` with the input's reason; every registered quantity
(and a helper code outside the quantities calls) is ``guarded``: the reason becomes its value,
so a rule that needs it is not evaluated and names the input. No quantity guards by hand.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from facility.analysis.diff import full_findings
from facility.cli import app
from facility.engine.quantities import Unknown, Value, catalogue, guarded, known

ENGINE = Path(__file__).resolve().parents[2] / "facility" / "engine"


def test_known_gives_the_number_or_raises_the_reason() -> None:
    assert known(Value(3.0)) == 3.0
    missing = Value.unknown("rack type 'T' has no peak_power")
    with pytest.raises(Unknown) as raised:
        known(missing)
    assert raised.value.value is missing


def test_a_guarded_quantity_returns_the_reason_it_met() -> None:
    missing = Value.unknown("CDU 'C1' has no capacity")
    reached = []

    @guarded
    def total(ctx, entity) -> Value:
        first = known(Value(2.0))
        reached.append(first)
        return Value(first + known(missing))

    assert total(None, None) is missing
    assert reached == [2.0]  # it ran up to the missing input, no further


def test_every_registered_quantity_is_guarded() -> None:
    unguarded = [
        (scope, name)
        for scope, quantities in catalogue().items()
        for name, spec in quantities.items()
        if getattr(spec.compute, "__wrapped__", None) is None  # set by guarded() alone
    ]
    assert unguarded == []
    assert sum(len(q) for q in catalogue().values()) > 90


def test_no_quantity_guards_an_unknown_input_by_hand() -> None:
    # "x = …; if x.value is None: return x" is what known(…) replaced.
    guard = re.compile(r"^( +)(\w+) = .+\n\1if \2\.value is None:\n\1    return \2\n", re.M)
    found = {
        path.name: len(guard.findall(path.read_text(encoding="utf-8")))
        for path in ENGINE.glob("derive_*.py")
    }
    assert sum(found.values()) == 0, found
    assert guard.search("    v = f()\n    if v.value is None:\n        return v\n")  # can match


def test_a_quantity_whose_figures_overflow_is_not_evaluated(tmp_path: Path) -> None:
    """A cable of 1e300 mm is a length the model accepts; its cross-section π · d² / 4 is
    beyond floats (d² raises OverflowError). The tray's fill is then not evaluated, naming the
    quantity — the check exits 1 with a verdict, not 2 with an internal error."""
    cases = yaml.safe_load((ENGINE.parents[1] / "tests/engine/cases/FLR-016.yaml").read_text())
    site = cases["cases"][0]["site_file"]
    site["floor_zones"][0]["layout"]["cable_trays"][0]["cables"][0]["diameter"] = "1e300 mm"
    path = tmp_path / "site.yaml"
    path.write_text(yaml.safe_dump(site), encoding="utf-8")
    result = CliRunner().invoke(app, ["check", str(path), "-f", "json"])
    assert result.exit_code in (0, 1), result.output
    trays = {f["entity"]["id"]: f for f in full_findings(json.loads(result.stdout))
             if f["rule"] == "FLR-016"}  # fmt: skip
    first = next(iter(trays.values()))
    assert first["status"] == "not_evaluated"
    assert first["missing"] == [
        "tray_fill overflows: its figures are beyond the range of the arithmetic"
    ]
