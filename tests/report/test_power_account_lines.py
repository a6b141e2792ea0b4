"""The power account's lines name at most MAX_PARTS sources each and count the rest (issue 21:
the 100,000-rack campus's terminal summary named all 1,110 UPS without an efficiency on one
line); the JSON result keeps every source."""

from __future__ import annotations

from facility.engine.power_account import PowerAccount, SourceLine
from facility.report.coverage_view import MAX_PARTS
from facility.report.power_account_view import power_account_lines


def _account(n: int, efficiency: bool) -> PowerAccount:
    sources = [
        SourceLine(
            id=f"UPS-{i:04d}",
            kind="ups",
            real=100_000.0,
            apparent=110_000.0,
            loss=5_000.0 if efficiency else None,
            efficiency=0.95 if efficiency else None,
        )
        for i in range(1, n + 1)
    ]
    return PowerAccount(basis="peak", it={"compute": 100_000.0 * n}, sources=sources)


def test_sources_without_an_efficiency_are_named_up_to_the_cap() -> None:
    (line, _paths, sources, *_) = power_account_lines(_account(MAX_PARTS + 12, False))
    named = [f"UPS-{i:04d}" for i in range(1, MAX_PARTS + 1)]
    assert f"losses not counted of {', '.join(named)}, 12 more: no efficiency" in line.note
    assert f"UPS-{MAX_PARTS + 1:04d}" not in line.note
    # each source's delivered power: the same cap
    assert sources.parts.count("UPS-") == MAX_PARTS and sources.parts.endswith("12 more")


def test_each_sources_losses_are_named_up_to_the_cap() -> None:
    (line, *_) = power_account_lines(_account(MAX_PARTS + 3, True))
    assert line.parts.count("UPS-") == MAX_PARTS and "3 more)" in line.parts
    # the total counts every source: (8 + 3) × 5 kW
    assert f"losses {5.0 * (MAX_PARTS + 3):,.1f} kW (" in line.parts


def test_up_to_the_cap_every_source_is_named() -> None:
    (line, _paths, sources, *_) = power_account_lines(_account(MAX_PARTS, False))
    assert line.note.count("UPS-") == sources.parts.count("UPS-") == MAX_PARTS
    assert "more" not in line.note + sources.parts
