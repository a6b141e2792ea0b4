"""site.document: the report's document control, checked where it is written."""

from __future__ import annotations

import datetime as dt

from ._site import load, one_problem

SITE = """\
site:
  name: T
  document:
    number: DC-B3-RR-001
    revision: B
    status: for-review
    organisation: Example Engineering
    prepared_by: A. Ortiz
    checked_by: M. Lee
    revisions:
      - {revision: A, date: 2026-10-01, description: First issue for comment, by: A. Ortiz}
      - {revision: B, date: 2026-11-20, description: Row B floor rating revised}
    signers:
      - {discipline: electrical, name: J. Okafor, role: Electrical lead}
      - {discipline: mechanical, name: M. Lee}
      - {discipline: structural, name: R. Chen}
"""


def test_document_control_loads(tmp_path) -> None:
    doc = load(tmp_path, SITE).info.document
    assert doc is not None and (doc.number, doc.revision, doc.status) == (
        "DC-B3-RR-001", "B", "for-review",
    )  # fmt: skip
    assert [r.date for r in doc.revisions] == [dt.date(2026, 10, 1), dt.date(2026, 11, 20)]
    assert [s.discipline for s in doc.signers] == ["electrical", "mechanical", "structural"]


def test_the_current_revision_is_the_last_of_the_history(tmp_path) -> None:
    text = SITE.replace("    revision: B\n", "    revision: C\n")
    line, _, field, message = one_problem(tmp_path, text)
    assert (line, field) == (3, "site.document")
    assert message == "revision C is not the last of the revision history (B)"


def test_an_issued_document_names_its_approver(tmp_path) -> None:
    text = SITE.replace("status: for-review", "status: issued")
    _, _, field, message = one_problem(tmp_path, text)
    assert field == "site.document"
    assert message == "an issued document names who approved it (approved_by)"


def test_one_signer_per_discipline_and_known_statuses(tmp_path) -> None:
    text = SITE.replace(
        "{discipline: structural, name: R. Chen}", "{discipline: mechanical, name: R. Chen}"
    )
    assert one_problem(tmp_path, text)[3] == "two signers for discipline mechanical"
    text = SITE.replace("status: for-review", "status: final")
    _, _, field, message = one_problem(tmp_path, text)
    assert field == "site.document.status" and "draft" in message and "issued" in message
