"""Translations of the words reports show to people (the report code's view of
:mod:`facility.i18n`, where the gettext core lives so that the engine and the model can use it).

Every user-facing English string of the report code goes through :func:`_` (or
:func:`ngettext`, :func:`pgettext`), and the templates use Jinja2's i18n extension
(``{% trans %}``, ``_()``) with the same translations object. The engine's and the loader's
words are :class:`facility.messages.Message` values, shown with
:func:`facility.messages.localized`.

The messages are English; other languages come from compiled gettext catalogs
(``facility/locale/<lang>/LC_MESSAGES/facility.mo``, stdlib :mod:`gettext` at run time).
The catalogs are made with Babel from ``facility/locale/facility.pot``: see ``i18n/README.md``
for extracting, updating and compiling them. :data:`LANGUAGES` are the languages a report
can be written in (``facility check --lang``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO

from facility.i18n import (
    _ENGLISH,
    DEFAULT_LANGUAGE,
    DOMAIN,
    LANGUAGES,
    N_,
    _,
    _current,
    _language,
    current_language,
    locale_dir,
    ngettext,
    npgettext,
    pgettext,
    set_language,
    translations,
    translations_for,
    using_language,
)

__all__ = [
    "DEFAULT_LANGUAGE",
    "DOMAIN",
    "LANGUAGES",
    "N_",
    "_ENGLISH",
    "_",
    "_current",
    "_language",
    "current_language",
    "extract_profiles",
    "locale_dir",
    "ngettext",
    "npgettext",
    "pgettext",
    "set_language",
    "translations",
    "translations_for",
    "using_language",
]


def extract_profiles(
    fileobj: IO[bytes], keywords: object, comment_tags: object, options: object
) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel extraction method for rule profiles: each profile's ``description`` is a message.

    Reports show a profile's description, folded to one line (as ``build_view`` does); the
    bundled profiles' descriptions are translated like any other message (``babel.cfg``).
    """
    import yaml

    text = fileobj.read().decode("utf-8")
    data = yaml.safe_load(text) or {}
    description = " ".join(str(data.get("description") or "").split())
    if description:
        line = next(
            (i for i, row in enumerate(text.splitlines(), 1) if row.startswith("description:")), 1
        )
        yield line, "_", description, ["The description of a bundled rule profile."]
