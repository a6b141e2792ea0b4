"""The Not evaluated table stays bounded on a campus: a reason naming one entity per row (CDU
'CDU-A1' has no max_racks) is a row per entity up to MAX_LISTED such rows, then one row with
the entity written '…' and every entity counted."""

from __future__ import annotations

import pytest

from facility.i18n import using_language
from facility.report import view
from facility.report.context import ReportInput


def _rows(report: ReportInput, rule: str) -> list[view.RuleEntities]:
    return [r for r in view.build_view(report).not_evaluated if r.rule == rule]


def test_a_few_named_reasons_keep_their_rows(hall_b3: ReportInput) -> None:
    rows = _rows(hall_b3, "LIQ-014")  # each loop's CDU lacks max_racks
    assert [(r.detail, r.count, r.entities) for r in rows] == [
        ("CDU 'CDU-A1' has no max_racks", 1, ["TCS-A"]),
        ("CDU 'CDU-B1' has no max_racks", 1, ["TCS-B"]),
    ]


def test_past_the_cap_they_are_one_row(
    hall_b3: ReportInput, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(view, "MAX_LISTED", 1)  # two CDUs named: past a cap of one
    (row,) = _rows(hall_b3, "LIQ-014")
    assert (row.detail, row.count, row.entities, row.more) == (
        "CDU '…' has no max_racks",
        2,
        ["TCS-A"],
        "and 1 more",
    )
    # a reason naming a type is not merged: the type is the input to supply
    types = {r.detail for r in _rows(hall_b3, "FLR-004")}
    assert types == {
        "rack type 'atlas-b3' has no max_payload",
        "rack type 'gb300-b3' has no max_payload",
    }
    with using_language("zh-CN"):
        (chinese,) = _rows(hall_b3, "LIQ-014")
    assert (
        "…" in chinese.detail and "max_racks" in chinese.detail and "CDU-A1" not in chinese.detail
    )


def test_a_quoted_reason_is_unnamed_too() -> None:
    """A single failure's reason quotes the first reason of the check it could not judge: the
    entity named in that one is left out as well, so such losses group."""
    from facility.messages import Message

    def lost(cdu: str) -> Message:
        inner = Message("CDU '%(cdu)s' has no %(field)s", cdu=cdu, field="available_head")
        return Message(
            "%(checks)s not evaluated after the loss (%(reason)s)",
            checks="LIQ-009 ×1",
            reason=inner,
        )

    named = {"CDU-A1", "CDU-B1"}
    assert view._reason_shape(lost("CDU-A1"), named) == view._reason_shape(lost("CDU-B1"), named)
    assert view._reason_shape(lost("CDU-A1"), named) != view._reason_shape(lost("CDU-X"), named)
    (text,) = view._unnamed((lost("CDU-A1"),), named)
    assert text == "LIQ-009 ×1 not evaluated after the loss (CDU '…' has no available_head)"
