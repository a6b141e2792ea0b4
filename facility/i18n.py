"""Translations of the words people read: the gettext core of the whole program.

Every user-facing English string goes through :func:`_` (or :func:`ngettext`,
:func:`pgettext`) when it is shown, or is a :class:`facility.messages.Message` that is
translated when shown (:func:`facility.messages.localized`); the report templates use
Jinja2's i18n extension with the same translations object.

The messages are English; other languages come from compiled gettext catalogs
(``facility/locale/<lang>/LC_MESSAGES/facility.mo``, stdlib :mod:`gettext` at run time).
The catalogs are made with Babel from ``facility/locale/facility.pot``: see ``i18n/README.md``
for extracting, updating and compiling them. :data:`LANGUAGES` are the languages a report
and the command line's messages can be written in (``--lang``).

This module depends on the standard library only, so that the engine and the model can
import it; :mod:`facility.report.i18n` re-exports it for the report code.
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
LANGUAGES = ("en", "zh-CN")  # language tags; the catalog of zh-CN is locale/zh_CN

_ENGLISH = gettext.NullTranslations()
_current: ContextVar[gettext.NullTranslations | None] = ContextVar(
    "facility_translations", default=None
)
_language: ContextVar[str] = ContextVar("facility_language", default=DEFAULT_LANGUAGE)


def locale_dir() -> Path:
    """Where compiled message catalogs live (``<lang>/LC_MESSAGES/facility.mo``)."""
    return Path(__file__).resolve().parent / "locale"


@cache
def translations_for(lang: str) -> gettext.NullTranslations:
    """The translations of ``lang`` (English: none needed, the messages are English).

    A language of :data:`LANGUAGES` must have its compiled catalog (``OSError`` otherwise: a
    report is never silently English); any other tag falls back to the English messages.
    """
    if lang == DEFAULT_LANGUAGE:
        return _ENGLISH
    gettext_lang = lang.replace("-", "_")
    return gettext.translation(
        DOMAIN, localedir=locale_dir(), languages=[gettext_lang], fallback=lang not in LANGUAGES
    )


def set_language(lang: str) -> gettext.NullTranslations:
    """Make ``lang`` the language of :func:`_` in this context; returns its translations."""
    found = translations_for(lang)
    _current.set(found)
    _language.set(lang)
    return found


@contextmanager
def using_language(lang: str) -> Iterator[gettext.NullTranslations]:
    """Within the block, :func:`_` speaks ``lang``; the previous language is restored after."""
    token = _current.set(translations_for(lang))
    lang_token = _language.set(lang)
    try:
        yield translations()
    finally:
        _language.reset(lang_token)
        _current.reset(token)


def current_language() -> str:
    """The language tag :func:`_` speaks in this context (``en`` unless one was set)."""
    return _language.get()


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


def pgettext(context: str, message: str) -> str:
    """The translation of ``message`` in ``context`` (for short words with several meanings)."""
    return translations().pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    """The translation of ``singular``/``plural`` for ``n`` in ``context``."""
    return translations().npgettext(context, singular, plural, n)
