"""Pydantic's validation errors as messages people can read in their language.

A validator of ours raises its :class:`~facility.messages.Message` (``ValueError(Message(…))``
or, for quantities, ``PydanticCustomError`` with the message in ``ctx``); pydantic's own
errors ('Input should be a valid integer') are rebuilt here as messages from their type and
context. The English is always pydantic's own text: a rebuilt message is used only when it
says exactly what pydantic said, and pydantic's text as it is otherwise (a new pydantic
wording or an error type not listed stays English rather than wrong).
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel
from pydantic_core import ErrorDetails

from facility.messages import Join, Message, message_of
from facility.spelling import quoted_choices, suggestions

MAX_LISTED = 12  # valid field names listed when none is close to an unknown one


def did_you_mean(problem: str, word: str, choices: Iterable[str]) -> str:
    """``problem`` with "; did you mean 'x'?" when a choice is close to ``word``."""
    close = suggestions(word, choices)
    if not close:
        return problem
    return Message(
        "%(problem)s; did you mean %(choices)s?", problem=problem, choices=quoted_choices(close)
    )


def unknown_field(name: object, valid: Sequence[str] = ()) -> Message:
    """An ``extra_forbidden`` error: a key the schema does not have; with the ``valid`` keys
    of that place, the closest of them ('did you mean'), else the keys themselves."""
    problem = Message("unknown field '%(field)s'", field=shortened(str(name)))
    if not valid:
        return problem
    close = suggestions(str(name), valid)
    if close:
        return Message(
            "%(problem)s; did you mean %(choices)s?",
            problem=problem,
            choices=quoted_choices(close),
        )
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
    found = _model_of(node, None)
    if found is None:
        return []
    names: list[str] = []
    for name, info in found.model_fields.items():
        names.append(info.alias or name)
    return names


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


def _model_of(annotation: Any, part: Any) -> type[BaseModel] | None:
    """The model class among ``annotation``'s members (the one named ``part`` in a union)."""
    models = [m for m in _members(annotation) if isinstance(m, type) and issubclass(m, BaseModel)]
    for m in models:
        if m.__name__ == part:
            return m
    return models[0] if len(models) == 1 else None


def _step(node: Any, part: Any) -> Any:
    """The annotation one location part below ``node`` (None when it cannot be followed)."""
    model = _model_of(node, None)
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
        if origin is dict and len(args) == 2 and not isinstance(part, int):
            return args[1]
        if origin is dict and len(args) == 2 and isinstance(part, int):
            return args[1]
    if isinstance(part, str) and model is None and len(_members(node)) > 1:
        return node  # a tag pydantic adds ('function-after[…]'): stay at this node
    return None


def choices_of(expected: str) -> list[str]:
    """The quoted choices of pydantic's "'a', 'b' or 'c'" (a literal error's ``expected``)."""
    found: list[str] = []
    for piece in expected.replace(" or ", ", ").split(", "):
        piece = piece.strip()
        if len(piece) >= 2 and piece[0] == piece[-1] == "'":
            found.append(piece[1:-1])
    return found


MAX_ECHOED = 80  # characters of a key or value from the input that a message repeats


def shortened(text: str) -> str:
    """``text`` as a message quotes it: at most :data:`MAX_ECHOED` characters, then how many
    more there were (a 2,000-character key is not printed whole, twice)."""
    if len(text) <= MAX_ECHOED:
        return text
    return f"{text[:MAX_ECHOED]}… ({len(text) - MAX_ECHOED:,} more characters)"


def alternatives(expected: str) -> str:
    """Pydantic's "'a', 'b' or 'c'" of a literal error, with a translatable 'or'."""
    head, found, last = expected.rpartition(" or ")
    if not found:
        return expected
    return Message("%(items)s or %(last)s", items=head, last=last)


def _plural(
    one: Callable[[Mapping[str, Any]], Message],
    many: Callable[[Mapping[str, Any]], Message],
    key: str,
) -> Callable[[Mapping[str, Any]], Message]:
    return lambda ctx: one(ctx) if ctx[key] == 1 else many(ctx)


_CONTAINERS = {
    "List": Message("List"),
    "Dictionary": Message("Dictionary"),
    "Set": Message("Set"),
    "Tuple": Message("Tuple"),
}


def _container(ctx: Mapping[str, Any]) -> str:
    name = str(ctx["field_type"])
    return _CONTAINERS.get(name, name)


# Pydantic's messages by error type, rebuilt from the error's context.
_PYDANTIC: dict[str, Callable[[Mapping[str, Any]], Message]] = {
    "missing": lambda ctx: Message("Field required"),
    "string_type": lambda ctx: Message("Input should be a valid string"),
    "string_unicode": lambda ctx: Message(
        "Input should be a valid string, unable to parse raw data as a unicode string"
    ),
    "int_type": lambda ctx: Message("Input should be a valid integer"),
    "int_parsing": lambda ctx: Message(
        "Input should be a valid integer, unable to parse string as an integer"
    ),
    "int_from_float": lambda ctx: Message(
        "Input should be a valid integer, got a number with a fractional part"
    ),
    "float_type": lambda ctx: Message("Input should be a valid number"),
    "float_parsing": lambda ctx: Message(
        "Input should be a valid number, unable to parse string as a number"
    ),
    "finite_number": lambda ctx: Message("Input should be a finite number"),
    "bool_type": lambda ctx: Message("Input should be a valid boolean"),
    "bool_parsing": lambda ctx: Message(
        "Input should be a valid boolean, unable to interpret input"
    ),
    "list_type": lambda ctx: Message("Input should be a valid list"),
    "dict_type": lambda ctx: Message("Input should be a valid dictionary"),
    "model_type": lambda ctx: Message(
        "Input should be a valid dictionary or instance of %(name)s", name=ctx["class_name"]
    ),
    "model_attributes_type": lambda ctx: Message(
        "Input should be a valid dictionary or object to extract fields from"
    ),
    "date_type": lambda ctx: Message("Input should be a valid date"),
    "date_parsing": lambda ctx: Message(
        "Input should be a valid date in the format YYYY-MM-DD, %(error)s", error=ctx["error"]
    ),
    "date_from_datetime_inexact": lambda ctx: Message(
        "Datetimes provided to dates should have zero time - e.g. be exact dates"
    ),
    "date_from_datetime_parsing": lambda ctx: Message(
        "Input should be a valid date or datetime, %(error)s", error=ctx["error"]
    ),
    "greater_than": lambda ctx: Message("Input should be greater than %(limit)s", limit=ctx["gt"]),
    "greater_than_equal": lambda ctx: Message(
        "Input should be greater than or equal to %(limit)s", limit=ctx["ge"]
    ),
    "less_than": lambda ctx: Message("Input should be less than %(limit)s", limit=ctx["lt"]),
    "less_than_equal": lambda ctx: Message(
        "Input should be less than or equal to %(limit)s", limit=ctx["le"]
    ),
    "string_too_short": _plural(
        lambda ctx: Message("String should have at least %(n)s character", n=ctx["min_length"]),
        lambda ctx: Message("String should have at least %(n)s characters", n=ctx["min_length"]),
        "min_length",
    ),
    "string_too_long": _plural(
        lambda ctx: Message("String should have at most %(n)s character", n=ctx["max_length"]),
        lambda ctx: Message("String should have at most %(n)s characters", n=ctx["max_length"]),
        "max_length",
    ),
    "string_pattern_mismatch": lambda ctx: Message(
        "String should match pattern '%(pattern)s'", pattern=ctx["pattern"]
    ),
    "too_short": _plural(
        lambda ctx: Message(
            "%(type)s should have at least %(n)s item after validation, not %(actual)s",
            type=_container(ctx),
            n=ctx["min_length"],
            actual=ctx["actual_length"],
        ),
        lambda ctx: Message(
            "%(type)s should have at least %(n)s items after validation, not %(actual)s",
            type=_container(ctx),
            n=ctx["min_length"],
            actual=ctx["actual_length"],
        ),
        "min_length",
    ),
    "too_long": _plural(
        lambda ctx: Message(
            "%(type)s should have at most %(n)s item after validation, not %(actual)s",
            type=_container(ctx),
            n=ctx["max_length"],
            actual=ctx["actual_length"],
        ),
        lambda ctx: Message(
            "%(type)s should have at most %(n)s items after validation, not %(actual)s",
            type=_container(ctx),
            n=ctx["max_length"],
            actual=ctx["actual_length"],
        ),
        "max_length",
    ),
    "literal_error": lambda ctx: Message(
        "Input should be %(expected)s", expected=alternatives(str(ctx["expected"]))
    ),
    "enum": lambda ctx: Message(
        "Input should be %(expected)s", expected=alternatives(str(ctx["expected"]))
    ),
    "none_required": lambda ctx: Message("Input should be None"),
}


_WHOLE_NUMBER = frozenset({"int_type", "int_parsing", "int_from_float"})


def as_written(value: Any) -> str:
    """A value as the site file would spell it: true, 4.5, 'three'."""
    if isinstance(value, bool):
        return str(value).lower()
    return repr(value) if isinstance(value, str) else str(value)


def validation_message(error: ErrorDetails) -> str:
    """The message of one pydantic error, without pydantic's 'Value error, ' prefix: our own
    :class:`Message` when a validator of ours raised one, pydantic's rebuilt as a message when
    the rebuilt English is pydantic's exactly, else pydantic's text."""
    ctx: Mapping[str, Any] = error.get("ctx") or {}
    found = ctx.get("message")
    if isinstance(found, Message):
        return found
    cause = ctx.get("error")
    if error["type"] == "value_error" and isinstance(cause, BaseException):
        own = message_of(cause)
        if isinstance(own, Message):
            return own
    if error["type"] in _WHOLE_NUMBER:  # strict: true, 4.5 and "3" are not counts
        return Message("expected a whole number, got %(value)s", value=as_written(error["input"]))
    text = error["msg"].removeprefix("Value error, ")
    make = _PYDANTIC.get(error["type"])
    if make is None:
        return text
    try:
        rebuilt = make(ctx)
    except (KeyError, TypeError, ValueError):
        return text
    return rebuilt if rebuilt == text else text
