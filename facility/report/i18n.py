"""Translations of the words reports show to people.

Every user-facing English string of the report code goes through :func:`_` (or
:func:`ngettext`), and the templates use Jinja2's i18n extension (``{% trans %}``, ``_()``)
with the same translations object, so a message catalog can later translate them all.

For now only English exists: :func:`set_language` accepts a language tag and looks for a
compiled gettext catalog (``facility/locale/<lang>/LC_MESSAGES/facility.mo``), falling back
to the English text. Issue 9 (zh-CN) adds the Babel catalogs behind this hook.
"""

from __future__ import annotations

import gettext
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path

DOMAIN = "facility"
DEFAULT_LANGUAGE = "en"

_ENGLISH = gettext.NullTranslations()
_current: ContextVar[gettext.NullTranslations | None] = ContextVar(
    "facility_translations", default=None
)


def locale_dir() -> Path:
    """Where compiled message catalogs live (``<lang>/LC_MESSAGES/facility.mo``)."""
    return Path(__file__).resolve().parent.parent / "locale"


@cache
def translations_for(lang: str) -> gettext.NullTranslations:
    """The translations of ``lang`` (English: none needed, the messages are English)."""
    if lang == DEFAULT_LANGUAGE:
        return _ENGLISH
    gettext_lang = lang.replace("-", "_")
    return gettext.translation(
        DOMAIN, localedir=locale_dir(), languages=[gettext_lang], fallback=True
    )


def set_language(lang: str) -> gettext.NullTranslations:
    """Make ``lang`` the language of :func:`_` in this context; returns its translations."""
    found = translations_for(lang)
    _current.set(found)
    return found


@contextmanager
def using_language(lang: str) -> Iterator[gettext.NullTranslations]:
    """Within the block, :func:`_` speaks ``lang``; the previous language is restored after."""
    token = _current.set(translations_for(lang))
    try:
        yield translations()
    finally:
        _current.reset(token)


def translations() -> gettext.NullTranslations:
    """The translations in use (for Jinja2's ``install_gettext_translations``)."""
    current = _current.get()
    return _ENGLISH if current is None else current


def _(message: str) -> str:
    """The translation of ``message`` in the current language."""
    return translations().gettext(message)


def N_(message: str) -> str:
    """Mark ``message`` for translation without translating it now (``gettext_noop``).

    For tables of labels built at import time; translate them with :func:`_` when used.
    """
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The translation of ``singular``/``plural`` for ``n`` in the current language."""
    return translations().ngettext(singular, plural, n)
