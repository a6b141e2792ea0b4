"""Waivers as written: in the site file (``waivers:``) or a separate waiver file."""

from __future__ import annotations

import datetime as dt

from pydantic import Field

from facility.model.base import Strict
from facility.model.fields import Id


class Waiver(Strict):
    """Accepts the failing finding of ``rule`` for ``entity`` until ``expires``."""

    rule: str = Field(min_length=1, description="Rule code (PWR-001) or name")
    entity: Id = Field(description="Entity id the waiver accepts the finding for")
    reason: str = Field(min_length=1)
    owner: str = Field(min_length=1, description="Who accepts the risk")
    expires: dt.date = Field(
        strict=False, description="Last day the waiver applies (ISO 8601 date)"
    )
    ticket: str | None = None


class WaiverFile(Strict):
    waivers: list[Waiver]
