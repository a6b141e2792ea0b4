"""Field types for the site model: unit-bearing quantities, fractions, ids.

A quantity field is declared as ``Power = Quantity("power", gt=0)`` and stored as a float
in the canonical unit of its kind (``facility.units.KINDS``). Validation happens once, at
load time; errors are ``PydanticCustomError`` so that pydantic collects all of them with
their field paths, and the loader turns each path into a file, line and column.
"""

from __future__ import annotations

import math
from typing import Annotated, Any

from pydantic import BeforeValidator, GetCoreSchemaHandler, GetJsonSchemaHandler, StringConstraints
from pydantic_core import PydanticCustomError, core_schema

from facility.messages import Message, message_of
from facility.units import KINDS, QuantityError, article, parse_quantity


def _error(kind: str, message: str) -> PydanticCustomError:
    """A validation error whose message stays a :class:`Message` (in ``ctx['message']``), so
    the loader can show it in the language of the command line."""
    return PydanticCustomError(kind, "{message}", {"message": message})


class _QuantityValidator:
    """Pydantic hook: parse a quantity string and check its bounds in canonical units."""

    __slots__ = ("ge", "gt", "kind", "le", "lt", "upper_text")

    def __init__(
        self,
        kind: str,
        *,
        gt: float | None = None,
        ge: float | None = None,
        lt: float | None = None,
        le: float | None = None,
        upper_text: str | None = None,
    ) -> None:
        self.kind = KINDS[kind]
        self.gt, self.ge, self.lt, self.le = gt, ge, lt, le
        self.upper_text = upper_text

    def validate(self, value: Any) -> float:
        try:
            magnitude = parse_quantity(value, self.kind.name)
        except QuantityError as exc:
            raise _error("quantity", message_of(exc)) from None
        if self.gt is not None and not magnitude > self.gt:
            if self.gt == 0:
                message = Message("must be positive, got %(value)s", value=_show(value))
            else:
                message = Message(
                    "must be greater than %(limit)s, got %(value)s",
                    limit=str(self.gt),
                    value=_show(value),
                )
            raise _error("quantity_bound", message)
        if self.ge is not None and not magnitude >= self.ge:
            if self.ge == 0:
                message = Message("must not be negative, got %(value)s", value=_show(value))
            else:
                message = Message(
                    "must not be below %(limit)s, got %(value)s",
                    limit=str(self.ge),
                    value=_show(value),
                )
            raise _error("quantity_bound", message)
        if self.le is not None and not magnitude <= self.le:
            limit = self.upper_text or str(self.le)
            if self.kind.name == "fraction" and not isinstance(value, str):
                message = Message(
                    "must be at most %(limit)s, got %(value)s (a bare number is a fraction of 1: "
                    "write '%(number)s %%' or %(fraction)s)",
                    limit=limit,
                    value=_show(value),
                    number=str(value),
                    fraction=format(value / 100, "g"),
                )
            else:
                message = Message(
                    "must be at most %(limit)s, got %(value)s", limit=limit, value=_show(value)
                )
            raise _error("quantity_bound", message)
        if self.lt is not None and not magnitude < self.lt:
            limit = self.upper_text or str(self.lt)
            raise _error(
                "quantity_bound",
                Message("must be below %(limit)s, got %(value)s", limit=limit, value=_show(value)),
            )
        return magnitude

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        return core_schema.no_info_plain_validator_function(self.validate)

    def __get_pydantic_json_schema__(
        self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> dict[str, Any]:
        description = f"{article(self.kind).capitalize()} with its unit, e.g. '{self.kind.example}'"
        if self.kind.name == "fraction":
            return {
                "anyOf": [
                    {"type": "string", "pattern": r"^\s*[0-9.]+\s*%\s*$"},
                    {"type": "number", "minimum": 0, "maximum": 1},
                ],
                "description": "A fraction: '90 %' or a number from 0 to 1",
            }
        return {"type": "string", "description": description, "examples": [self.kind.example]}


def _show(value: Any) -> str:
    return f"'{value}'" if isinstance(value, str) else repr(value)


def Quantity(kind: str, **bounds: Any) -> Any:
    """``Annotated[float, ...]`` for a quantity of ``kind`` with optional bounds."""
    return Annotated[float, _QuantityValidator(kind, **bounds)]


Power = Quantity("power", gt=0)
ApparentPower = Quantity("apparent_power", gt=0)
Voltage = Quantity("voltage", gt=0)
Current = Quantity("current", gt=0)
Mass = Quantity("mass", gt=0)
Length = Quantity("length", gt=0)
Area = Quantity("area", gt=0)
Volume = Quantity("volume", ge=0)
Pressure = Quantity("pressure", gt=0)
PressureDrop = Quantity("pressure", ge=0)
FloorLoad = Quantity("floor_load", gt=0)
Force = Quantity("force", gt=0)
Flow = Quantity("volumetric_flow", gt=0)
FlowPerPower = Quantity("flow_per_power", gt=0)
# Absolute temperatures of liquids and air in a hall: above absolute zero, below boiling water.
Temperature = Quantity("temperature", gt=-273.15, lt=150.0, upper_text="150 degC")
TemperatureRise = Quantity("temperature_difference", gt=0)
Fraction = Quantity("fraction", ge=0, le=1.0, upper_text="100 %")
PositiveFraction = Quantity("fraction", gt=0, le=1.0, upper_text="100 %")

# An id that findings can point at: printable, no surrounding whitespace, bounded length.
Id = Annotated[
    str,
    StringConstraints(
        min_length=1,
        max_length=200,
        pattern=r"^[^\s\x00-\x1f\x7f]([^\x00-\x1f\x7f]*[^\s\x00-\x1f\x7f])?$",
    ),
]


def finite(value: float) -> bool:
    """True for a real, finite float (used by model validators on derived numbers)."""
    return math.isfinite(value)


def _not_a_truth_value(value: Any) -> Any:
    if isinstance(value, bool):  # YAML's yes/no/true/false: True == 1, but not a count
        raise ValueError(
            Message("expected a whole number, got %(value)s", value=str(value).lower())
        )
    return value


# A whole-number choice (``phases: 1 | 3``, ``schema_version: 1``): a truth value is refused,
# which a Literal of ints would take (True == 1).
NotATruthValue = BeforeValidator(_not_a_truth_value)
