"""The base of every input model: strict (unknown keys are errors), plain data."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from facility.model.fields import Id


class Strict(BaseModel):
    """A block of the site file. Unknown keys are errors, so typos never vanish."""

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=False, strict=True)


class Entity(Strict):
    """Something a finding can point at: it has an id, unique within its kind."""

    id: Id = Field(
        description="Unique id among the entities of its kind; findings and references use it"
    )
