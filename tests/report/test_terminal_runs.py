"""The terminal names every failing entity in few lines: one line per rule and identical
figures, the entities as runs of the order the rule judged them in, the verdict again at the
bottom."""

from __future__ import annotations

from pathlib import Path

from facility.report.context import ReportInput
from facility.report.entity_runs import compressed, in_order, runs
from facility.report.terminal import render_text

ROOT = Path(__file__).resolve().parents[2]


def test_runs_are_stretches_of_the_rules_own_order() -> None:
    order = in_order(["A10", "A2", "A1", "A3", "B1", "A4"])
    assert order == ["A1", "A2", "A3", "A4", "A10", "B1"]  # natural order: A2 before A10
    assert runs(["A1", "A2", "A3", "A10"], order) == [("A1", "A3", 3), ("A10", "A10", 1)]
    # three or more as first … last; one or two written out; a gap (A4 passed) breaks a run
    assert compressed(["A1", "A2", "A3", "A10", "B1"], order) == "A1 … A3, A10, B1"
    assert compressed(["A1", "A2"], order) == "A1, A2"


def test_hall_b3_fits_one_screen_and_names_every_failing_entity(hall_b3: ReportInput) -> None:
    # the frozen rule set (tests/frozen_rules): a new rule changes the bundled set's output
    out = render_text(hall_b3)
    assert len(out.rstrip().splitlines()) <= 40  # the whole summary (test_terminal_modes.py)
    section = out[out.index("\n6 CAUSES\n") : out.index("\nCOVERAGE")].strip().splitlines()
    assert len(section) == 1 + 6 + 10  # 107 failing findings: 6 causes, 10 rules × figures
    # PWR-003 fails on the 64 PDUs of racks A01 … A08 (both sides) and passes on B01 … B12's
    assert "       ERROR PWR-003 A01-A1 … A08-B4 (64 rack PDUs): " in out
    assert "  1. A01 … A08 (8 racks): " in out and "  2. B01 … B12 (12 racks): " in out
    assert out.rstrip().endswith(
        "verdict: NOT READY — checks: 107 failed, 306 passed, 34 not evaluated, 0 waived"
    )


def test_a_list_of_many_runs_names_the_first_parts_and_counts_the_rest() -> None:
    # A campus's cause of 41,184 PDUs in 5,000 runs was one 117 kB line (issue 21)
    from facility.report.entity_runs import MAX_RUN_PARTS, compressed, expanded

    order = [f"R{n:03d}" for n in range(1, 301)]
    group = order[0::2]  # every other entity: 150 runs of one
    text = compressed(group, order)
    named, _, rest = text.rpartition(" and ")
    assert named.split(", ") == group[:MAX_RUN_PARTS]
    assert rest == f"{150 - MAX_RUN_PARTS} more"  # every entity named or counted
    # runs of three count as one part each: 12 runs named, each of its three entities
    triples = [e for n, e in enumerate(order) if n % 4 != 3]  # 75 runs of three
    text = compressed(triples, order)
    head, _, rest = text.rpartition(" and ")
    assert expanded(head, order) == triples[: 3 * MAX_RUN_PARTS]
    assert rest == f"{len(triples) - 3 * MAX_RUN_PARTS} more"
    assert "more" not in compressed(group, order, limit=None)
    assert compressed(order[: MAX_RUN_PARTS * 2 : 2], order) == ", ".join(
        order[: MAX_RUN_PARTS * 2 : 2]
    )
