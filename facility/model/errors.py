"""Pydantic's validation errors as messages people can act on, in their language.

A validator of ours raises its :class:`~facility.messages.Message` (``ValueError(Message(…))``
or, for quantities, ``PydanticCustomError`` with the message in ``ctx``); pydantic's own
errors are said here in our words from their type and context, with what was found ('expected
a list, got a mapping', 'must be at least 1, got 0'): pydantic's wording ('Input should be a
valid dictionary or instance of Room') names classes and never reaches a user. An unknown key
names the closest valid key of that place (:func:`unknown_field`, :func:`fields_at`).
"""

from __future__ import annotations

import re
import types
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel
from pydantic_core import ErrorDetails

from facility.messages import Join, Message, message_of
from facility.spelling import found, quoted_choices, shortened, suggestions

MAX_LISTED = 12  # valid field names listed when none is close to an unknown one


def did_you_mean(problem: str, word: str, choices: Iterable[str]) -> str:
    """``problem`` with "; did you mean 'x'?" when a choice is close to ``word``."""
    close = suggestions(word, choices)
    if not close:
        return problem
    return Message(
        "%(problem)s; did you mean %(choices)s?", problem=problem, choices=quoted_choices(close)
    )


def unknown_field(name: object, valid: Sequence[str] = ()) -> str:
    """An ``extra_forbidden`` error: a key the schema does not have; with the ``valid`` keys
    of that place, the closest of them ('did you mean'), else the keys themselves."""
    problem = Message("unknown field '%(field)s'", field=shortened(str(name)))
    if not valid:
        return problem
    meant = did_you_mean(problem, str(name), valid)
    if meant is not problem:
        return meant
    listed: Message = Join(sorted(valid)[:MAX_LISTED], ", ")
    if len(valid) > MAX_LISTED:
        listed = Message("%(names)s, …", names=listed)
    return Message("%(problem)s (the fields here: %(names)s)", problem=problem, names=listed)


def fields_at(model: type[BaseModel], loc: Sequence[Any]) -> list[str]:
    """The field names (and aliases) of the model at pydantic location ``loc`` inside
    ``model`` (``("racks", 3)`` → the fields of a rack); empty when no model is there."""
    node: Any = model
    for part in loc:
        node = _step(node, part)
        if node is None:
            return []
    model_there = _model_of(node)
    if model_there is None:
        return []
    return [info.alias or name for name, info in model_there.model_fields.items()]


def _members(annotation: Any) -> list[Any]:
    """The types an annotation may hold: Annotated, Optional and unions unwrapped."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _members(typing.get_args(annotation)[0])
    if origin is typing.Union or origin is types.UnionType:
        return [m for arg in typing.get_args(annotation) for m in _members(arg)]
    if annotation is type(None):
        return []
    return [annotation]


def _model_of(annotation: Any) -> type[BaseModel] | None:
    """The model class among ``annotation``'s members, when there is one."""
    models = [m for m in _members(annotation) if isinstance(m, type) and issubclass(m, BaseModel)]
    return models[0] if len(models) == 1 else None


def _step(node: Any, part: Any) -> Any:
    """The annotation one location part below ``node`` (None when it cannot be followed)."""
    model = _model_of(node)
    if model is not None and isinstance(part, str):
        for name, info in model.model_fields.items():
            if part in (name, info.alias):
                return info.annotation
    for member in _members(node):
        if isinstance(member, type) and issubclass(member, BaseModel):
            if member.__name__ == part:  # a union's tag in the location
                return member
            continue
        origin = typing.get_origin(member)
        args = typing.get_args(member)
        if origin in (list, tuple, set, frozenset) and args and isinstance(part, int):
            return args[0]
        if origin is dict and len(args) == 2:  # a key of any type
            return args[1]
    if isinstance(part, str) and model is None and len(_members(node)) > 1:
        return node  # a tag pydantic adds ('function-after[…]'): stay at this node
    return None


def choices_of(expected: str) -> list[str]:
    """The quoted choices of pydantic's "'a', 'b' or 'c'" (a literal error's ``expected``)."""
    choices: list[str] = []
    for piece in expected.replace(" or ", ", ").split(", "):
        piece = piece.strip()
        if len(piece) >= 2 and piece[0] == piece[-1] == "'":
            choices.append(piece[1:-1])
    return choices


def alternatives(expected: str) -> str:
    """Pydantic's "'a', 'b' or 'c'" of a literal error, with a translatable 'or'."""
    head, found, last = expected.rpartition(" or ")
    if not found:
        return expected
    return Message("%(items)s or %(last)s", items=head, last=last)


def _plural(
    one: Callable[[Mapping[str, Any], Any], Message],
    many: Callable[[Mapping[str, Any], Any], Message],
    key: str,
) -> Callable[[Mapping[str, Any], Any], Message]:
    return lambda ctx, value: one(ctx, value) if ctx[key] == 1 else many(ctx, value)


# What an id may not be (facility.model.fields.Id's pattern), in words.
_ID_PATTERN = r"^[^\s\x00-\x1f\x7f]([^\x00-\x1f\x7f]*[^\s\x00-\x1f\x7f])?$"


def _pattern(ctx: Mapping[str, Any], value: Any) -> Message:
    if ctx["pattern"] == _ID_PATTERN:
        return Message(
            "an id must not start or end with a space or hold a control character, got %(found)s",
            found=found(value),
        )
    return Message(
        "does not match the pattern '%(pattern)s', got %(found)s",
        pattern=ctx["pattern"],
        found=found(value),
    )


_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def _date(value: Any) -> Message:
    if isinstance(value, str) and _DAY.fullmatch(value.strip()):  # 2027-02-30, 2027-13-01
        return Message(
            "expected a date like 2027-03-31, got %(found)s, which is not a day of the calendar",
            found=found(value),
        )
    return Message("expected a date like 2027-03-31, got %(found)s", found=found(value))


# Pydantic's errors by type, as our own messages: what was expected, and what was found.
_PYDANTIC: dict[str, Callable[[Mapping[str, Any], Any], Message]] = {
    "missing": lambda ctx, v: Message("a required field is missing"),
    "string_type": lambda ctx, v: Message("expected text, got %(found)s", found=found(v)),
    "string_unicode": lambda ctx, v: Message("expected text, got bytes that are not Unicode"),
    "int_type": lambda ctx, v: Message("expected a whole number, got %(value)s", value=found(v)),
    "int_parsing": lambda ctx, v: Message("expected a whole number, got %(value)s", value=found(v)),
    "int_from_float": lambda ctx, v: Message(
        "expected a whole number, got %(value)s", value=found(v)
    ),
    "float_type": lambda ctx, v: Message("expected a number, got %(found)s", found=found(v)),
    "float_parsing": lambda ctx, v: Message("expected a number, got %(found)s", found=found(v)),
    "finite_number": lambda ctx, v: Message(
        "expected a finite number, got %(text)s", text=found(v)
    ),
    "bool_type": lambda ctx, v: Message("expected true or false, got %(found)s", found=found(v)),
    "bool_parsing": lambda ctx, v: Message("expected true or false, got %(found)s", found=found(v)),
    "list_type": lambda ctx, v: Message("expected a list, got %(found)s", found=found(v)),
    "tuple_type": lambda ctx, v: Message("expected a list, got %(found)s", found=found(v)),
    "set_type": lambda ctx, v: Message("expected a list, got %(found)s", found=found(v)),
    "dict_type": lambda ctx, v: Message(
        "expected a mapping (key: value), got %(found)s", found=found(v)
    ),
    "model_type": lambda ctx, v: Message(
        "expected a mapping (key: value), got %(found)s", found=found(v)
    ),
    "model_attributes_type": lambda ctx, v: Message(
        "expected a mapping (key: value), got %(found)s", found=found(v)
    ),
    "date_type": lambda ctx, v: Message(
        "expected a date like 2027-03-31, got %(found)s", found=found(v)
    ),
    "date_parsing": lambda ctx, v: _date(v),
    "date_from_datetime_parsing": lambda ctx, v: _date(v),
    "date_from_datetime_inexact": lambda ctx, v: Message(
        "expected a date without a time of day, got %(found)s", found=found(v)
    ),
    "datetime_type": lambda ctx, v: Message(
        "expected a date and time like 2027-03-31T12:00:00Z, got %(found)s", found=found(v)
    ),
    "datetime_parsing": lambda ctx, v: Message(
        "expected a date and time like 2027-03-31T12:00:00Z, got %(found)s", found=found(v)
    ),
    "greater_than": lambda ctx, v: Message(
        "must be greater than %(limit)s, got %(found)s", limit=ctx["gt"], found=found(v)
    ),
    "greater_than_equal": lambda ctx, v: Message(
        "must be at least %(limit)s, got %(found)s", limit=ctx["ge"], found=found(v)
    ),
    "less_than": lambda ctx, v: Message(
        "must be less than %(limit)s, got %(found)s", limit=ctx["lt"], found=found(v)
    ),
    "less_than_equal": lambda ctx, v: Message(
        "must be at most %(limit)s, got %(found)s", limit=ctx["le"], found=found(v)
    ),
    "string_too_short": lambda ctx, v: (
        Message("must not be empty")
        if ctx["min_length"] == 1
        else Message(
            "must be at least %(n)s characters long, got %(found)s",
            n=ctx["min_length"],
            found=found(v),
        )
    ),
    "string_too_long": lambda ctx, v: Message(
        "must be at most %(n)s characters long, got %(length)s",
        n=ctx["max_length"],
        length=f"{len(v):,}" if isinstance(v, str) else "?",
    ),
    "string_pattern_mismatch": _pattern,
    "too_short": _plural(
        lambda ctx, v: Message(
            "must hold at least %(n)s item, got %(actual)s",
            n=ctx["min_length"],
            actual=ctx["actual_length"],
        ),
        lambda ctx, v: Message(
            "must hold at least %(n)s items, got %(actual)s",
            n=ctx["min_length"],
            actual=ctx["actual_length"],
        ),
        "min_length",
    ),
    "too_long": _plural(
        lambda ctx, v: Message(
            "must hold at most %(n)s item, got %(actual)s",
            n=ctx["max_length"],
            actual=ctx["actual_length"],
        ),
        lambda ctx, v: Message(
            "must hold at most %(n)s items, got %(actual)s",
            n=ctx["max_length"],
            actual=ctx["actual_length"],
        ),
        "max_length",
    ),
    "literal_error": lambda ctx, v: Message(
        "must be %(expected)s, got %(input)s",
        expected=alternatives(str(ctx["expected"])),
        input=found(v),
    ),
    "enum": lambda ctx, v: Message(
        "must be %(expected)s, got %(input)s",
        expected=alternatives(str(ctx["expected"])),
        input=found(v),
    ),
    "none_required": lambda ctx, v: Message("must be null, got %(found)s", found=found(v)),
}


def as_written(value: Any) -> str:
    """A value as the site file would spell it: true, 4.5, 'three'; null, a list, a mapping
    (:func:`facility.spelling.found`) for what is not text or a number."""
    if isinstance(value, bool) or value is None or isinstance(value, list | dict | tuple):
        return found(value)
    return repr(value) if isinstance(value, str) else str(value)


def validation_message(error: ErrorDetails) -> str:
    """The message of one pydantic error: our own :class:`Message` when a validator of ours
    raised one, else one of ours for pydantic's error type — never pydantic's wording ('Input
    should be…', 'Value error, …'): what was expected and what was found."""
    ctx: Mapping[str, Any] = error.get("ctx") or {}
    own = ctx.get("message")
    if isinstance(own, Message):
        return own
    cause = ctx.get("error")
    if error["type"] in ("value_error", "assertion_error") and isinstance(cause, BaseException):
        text = message_of(cause)
        if isinstance(text, Message):
            return text
        return Message("not a valid value: %(reason)s", reason=shortened(str(text)))
    make = _PYDANTIC.get(error["type"])
    if make is not None:
        try:
            return make(ctx, error.get("input"))
        except (KeyError, TypeError, ValueError):
            pass
    return Message("not a valid value here, got %(found)s", found=found(error.get("input")))
