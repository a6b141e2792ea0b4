"""Document control of the report: what a signer's organisation needs on every page.

``site.document`` in the site file: the document's number and revision, its status (draft, for
review, issued), the revision history, the organisation, who prepared, checked and approved
it, and a signer per discipline. The report shows it on the cover, in the sign-off and in the
running header and footer of every printed page.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import Field, model_validator

from facility.messages import Message
from facility.model.base import Strict

Discipline = Literal["electrical", "mechanical", "structural", "civil", "controls", "general"]
Status = Literal["draft", "for-review", "issued"]


class Revision(Strict):
    """One line of the revision history."""

    revision: str = Field(min_length=1, max_length=20, description="e.g. 'A', 'P02', 'C1'")
    date: dt.date = Field(strict=False, description="ISO 8601 date")
    description: str = Field(
        description="What changed in this revision", min_length=1, max_length=500
    )
    by: str | None = Field(None, description="Who made it", min_length=1, max_length=200)


class Signer(Strict):
    """Who signs for one discipline."""

    discipline: Discipline = Field(description="The discipline signed for")
    name: str = Field(min_length=1, max_length=200, description="Signer's name")
    role: str | None = Field(None, description="Signer's role", min_length=1, max_length=200)
    organisation: str | None = Field(
        None, description="Signer's organisation", min_length=1, max_length=200
    )


class DocumentControl(Strict):
    number: str = Field(min_length=1, max_length=100, description="Document number")
    revision: str = Field(min_length=1, max_length=20, description="Current revision")
    status: Status = Field(description="draft, for-review or issued")
    organisation: str | None = Field(
        None, description="Organisation issuing the document", min_length=1, max_length=200
    )
    prepared_by: str | None = Field(
        None, description="Who prepared it", min_length=1, max_length=200
    )
    checked_by: str | None = Field(None, description="Who checked it", min_length=1, max_length=200)
    approved_by: str | None = Field(
        None, description="Who approved it", min_length=1, max_length=200
    )
    revisions: list[Revision] = Field([], description="Revision history, oldest first")
    signers: list[Signer] = Field([], description="A signer per discipline")

    @model_validator(mode="after")
    def _consistent(self) -> DocumentControl:
        if self.revisions and self.revisions[-1].revision != self.revision:
            raise ValueError(
                Message(
                    "revision %(revision)s is not the last of the revision history (%(last)s)",
                    revision=self.revision,
                    last=self.revisions[-1].revision,
                )
            )
        dates = [r.date for r in self.revisions]
        if dates != sorted(dates):
            raise ValueError(Message("the revision history is not in date order, oldest first"))
        if self.status == "issued" and self.approved_by is None:
            raise ValueError(Message("an issued document names who approved it (approved_by)"))
        seen: set[str] = set()
        for signer in self.signers:
            if signer.discipline in seen:
                raise ValueError(
                    Message(
                        "two signers for discipline %(discipline)s", discipline=signer.discipline
                    )
                )
            seen.add(signer.discipline)
        return self
