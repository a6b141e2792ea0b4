"""Messages the engine and the loader write for people, translated only when shown.

The engine and the loader do not know the language of the report or of the command line that
will show their words, so they do not translate: they build a :class:`Message`,

    Message("rack type '%(type)s' has no %(field)s", type=rack.type.id, field="pressure_drop")

which *is* the English text (a ``str``: it sorts, joins, compares, hashes and goes into JSON
as that text, so the JSON result and every English output are exactly what they were), and
also keeps its template and parameters. Whoever shows it to a person passes it through
:func:`localized`, which translates the template in the current language
(:mod:`facility.i18n`) and fills in the parameters. Ids, field names, units and numbers are
parameters and are never translated; a parameter that is itself a :class:`Message` (or a
:class:`Join` of messages) is translated too.

Babel extracts the templates (``Message`` is a keyword in ``babel.cfg``), so a template must
be a string literal, never an f-string, and a literal ``%`` is written ``%%``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from facility.i18n import _ENGLISH, _, pgettext, translations


class Message(str):
    """An English message that can be shown in another language (see the module docstring)."""

    template: str
    params: dict[str, Any]

    def __new__(cls, template: str, /, **params: Any) -> Message:
        self = super().__new__(cls, template % params)
        self.template = template
        self.params = params
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.template, self.params))

    def __repr__(self) -> str:
        return f"Message({str.__repr__(self)})"

    def with_params(self, **params: Any) -> Message:
        """This message with some of its parameters replaced (the same template)."""
        return _rebuild(self.template, {**self.params, **params})

    def localized(self) -> str:
        """This message in the current language."""
        if translations() is _ENGLISH:
            return str(self)
        return _(self.template) % {name: _shown(value) for name, value in self.params.items()}


def _rebuild(template: str, params: dict[str, Any]) -> Message:
    return Message(template, **params)


# Separators of joined messages, in the current language.
_SEPARATORS = {
    "; ": lambda: pgettext("list of reasons", "; "),
    ", ": lambda: pgettext("list separator", ", "),
}


class Join(Message):
    """Messages joined by a separator ('; ' or ', '), each translated when shown."""

    items: tuple[str, ...]
    separator: str

    def __new__(cls, items: Iterable[str], separator: str = "; ") -> Join:
        parts = tuple(items)
        text = separator.join(parts)
        self = str.__new__(cls, text)
        self.template = text.replace("%", "%%")
        self.params = {}
        self.items = parts
        self.separator = separator
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Join, (self.items, self.separator))

    def __repr__(self) -> str:
        return f"Join({self.items!r}, {self.separator!r})"

    def localized(self) -> str:
        if translations() is _ENGLISH:
            return str(self)
        separator = _SEPARATORS.get(self.separator, lambda: self.separator)()
        return separator.join(localized(item) for item in self.items)


def localized(text: str) -> str:
    """``text`` in the current language when it is a :class:`Message`; else ``text`` itself."""
    if isinstance(text, Message):
        return text.localized()
    return text


def _shown(value: Any) -> Any:
    return value.localized() if isinstance(value, Message) else value


def localized_all(texts: Iterable[str], separator: str = "; ") -> str:
    """Several messages (a finding's missing inputs) in the current language, joined."""
    return Join(texts, separator).localized()


def message_of(error: BaseException) -> str:
    """The message of an exception: its :class:`Message` when it was raised with one."""
    if len(error.args) == 1 and isinstance(error.args[0], Message):
        return error.args[0]
    return str(error)
