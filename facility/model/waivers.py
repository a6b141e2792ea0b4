"""Waivers as written: in the site file (``waivers:``) or a separate waiver file."""

from __future__ import annotations

import datetime as dt
from typing import Any

from pydantic import (
    Field,
    GetCoreSchemaHandler,
    GetJsonSchemaHandler,
    TypeAdapter,
    ValidationError,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import core_schema

from facility.messages import Message, message_of
from facility.model.base import Strict
from facility.model.errors import as_written, validation_message
from facility.model.fields import Id

ROW_PREFIX = "row:"
GLOB_CHARACTERS = frozenset("*?[")
MAX_PATTERNS = 10_000


def _check_pattern(text: str) -> str:
    """One entity pattern: an id, a glob (``*``, ``?``, ``[…]``) or ``row:<row id>``."""
    if text.startswith(ROW_PREFIX):
        row = text[len(ROW_PREFIX) :]
        if not row or row != row.strip():
            raise ValueError(
                Message("%(pattern)s names no row: write row:<row id>, e.g. row:A", pattern=text)
            )
        if GLOB_CHARACTERS & set(row):
            raise ValueError(
                Message("%(pattern)s: a row is named by its id, without * ? or [", pattern=text)
            )
        return text
    return text


_ID: TypeAdapter[str] = TypeAdapter(Id)


def _pattern(value: Any) -> str:
    """One pattern, an id's rules checked first (printable, no surrounding space, 200 long)."""
    if not isinstance(value, str):
        raise ValueError(
            Message("expected an entity id or pattern, got %(value)s", value=as_written(value))
        )
    try:
        _ID.validate_python(value, strict=True)
    except ValidationError as exc:
        raise ValueError(validation_message(exc.errors(include_url=False)[0])) from None
    return _check_pattern(value)


class EntityPatterns(str):
    """What a waiver's ``entity:`` names, as text (a list's patterns joined with ``, ``, as
    every report shows it), with :attr:`patterns` and the form written (:attr:`written`)."""

    patterns: tuple[str, ...]
    written: str | tuple[str, ...]

    def __new__(cls, written: str | list[str] | tuple[str, ...]) -> EntityPatterns:
        patterns = (written,) if isinstance(written, str) else tuple(written)
        made = super().__new__(cls, ", ".join(patterns))
        made.patterns = patterns
        made.written = written if isinstance(written, str) else patterns
        return made

    def __reduce__(self) -> tuple[Any, ...]:
        return (EntityPatterns, (self.written,))

    @classmethod
    def __get_pydantic_core_schema__(
        cls, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        return core_schema.no_info_plain_validator_function(
            _entity_patterns,
            serialization=core_schema.plain_serializer_function_ser_schema(
                lambda v: list(v.written) if isinstance(v.written, tuple) else str(v)
            ),
        )

    @classmethod
    def __get_pydantic_json_schema__(
        cls, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        return {
            "anyOf": [
                {"type": "string", "minLength": 1, "maxLength": 200},
                {
                    "type": "array",
                    "items": {"type": "string", "minLength": 1, "maxLength": 200},
                    "minItems": 1,
                    "maxItems": MAX_PATTERNS,
                    "uniqueItems": True,
                },
            ]
        }


def _entity_patterns(value: Any) -> EntityPatterns:
    """An id, a pattern or a list of them (one problem named at a time, with its item)."""
    if isinstance(value, EntityPatterns):
        return value
    if isinstance(value, str):
        return EntityPatterns(_pattern(value))
    if not isinstance(value, list):
        raise ValueError(
            Message(
                "expected an entity id, a pattern or a list of them, got %(value)s",
                value=as_written(value),
            )
        )
    if not value:
        raise ValueError(Message("an empty list names no entity"))
    if len(value) > MAX_PATTERNS:
        raise ValueError(Message("more than %(n)s patterns in one waiver", n=f"{MAX_PATTERNS:,}"))
    seen: set[str] = set()
    for n, item in enumerate(value, start=1):
        try:
            pattern = _pattern(item)
        except ValueError as exc:
            raise ValueError(
                Message("item %(n)s: %(problem)s", n=str(n), problem=message_of(exc))
            ) from None
        if pattern in seen:
            raise ValueError(
                Message("item %(n)s: %(pattern)s is listed twice", n=str(n), pattern=pattern)
            )
        seen.add(pattern)
    return EntityPatterns(value)


class Waiver(Strict):
    """Accepts the failing finding of ``rule`` for each entity ``entity`` names until
    ``expires``: an id, a glob (``A0*``), ``row:A`` (the racks of row A and their PDUs) or a
    list of these."""

    rule: str = Field(min_length=1, description="Rule code (PWR-001) or name")
    entity: EntityPatterns = Field(
        description="Entity id, glob (A0*-A?), row:<row id>, or a list of these"
    )
    reason: str = Field(min_length=1, description="Why the risk is accepted, shown in every report")
    owner: str = Field(min_length=1, description="Who accepts the risk")
    expires: dt.date = Field(
        strict=False, description="Last day the waiver applies (ISO 8601 date)"
    )
    ticket: str | None = Field(None, description="The change or risk ticket that records it")


class WaiverFile(Strict):
    waivers: list[Waiver]
