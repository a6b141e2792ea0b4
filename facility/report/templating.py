"""The Jinja2 environments of the HTML and Markdown reports.

Both are strict (``StrictUndefined``: a missing field is an error, not an empty string) and
escape by default: HTML with Jinja2's autoescape, Markdown with a ``finalize`` hook that
escapes every ``{{ … }}`` output unless it is :class:`MarkdownText` (markup the template
builds itself). Both have Jinja2's i18n extension with the report language's translations.

Templates live in the repository's ``templates/`` (or the wheel's ``facility/_data/templates``).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any, Literal

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup

from facility.printable import printable
from facility.report.charts import floor_plan_svg, utilisation_svg
from facility.report.i18n import DEFAULT_LANGUAGE, translations_for

Kind = Literal["html", "markdown"]


def templates_dir() -> Path:
    """The report templates shipped with facility (repository templates/, or the wheel's copy)."""
    here = Path(__file__).resolve().parent.parent
    for candidate in (here.parent / "templates", here / "_data" / "templates"):
        if (candidate / "report.html.j2").is_file():
            return candidate
    raise FileNotFoundError("the bundled templates directory is missing")


class MarkdownText(str):
    """Markdown the template or the renderer built itself: not escaped again."""

    __slots__ = ()


_LINE_BREAKS = re.compile(r"[\r\n\v\f\x1c\x1d\x1e\x85\u2028\u2029]+")
_INLINE = re.compile(r"([\\`*_\[\]|~])")
# Only where text would open a block: a heading, list item, quote, ordered item, rule.
_BLOCK_START = re.compile(r"^(\s*)(#{1,6}(?=\s|$)|[-+](?=\s|$)|-{2,}|=+\s*$|>)")
_ORDERED_START = re.compile(r"^(\s*\d{1,9})([.)])(?=\s|$)")


def escape_markdown(value: Any) -> MarkdownText:
    """``value`` as inert inline Markdown text, safe in a GFM table cell.

    Line breaks become spaces (a newline would end a table row or start a block); ``&``,
    ``<`` and ``>`` become entities (no raw HTML, no autolinks in angle brackets); the
    characters that make emphasis, code, links, tables and strikethrough (``\\ ` * _ [ ] |
    ~``) are backslash-escaped; a leading ``#``, ``-``, ``+``, ``=``, ``>`` or ``1.`` is
    escaped where it would open a heading, list, quote or rule.
    """
    if isinstance(value, MarkdownText):
        return value
    text = _LINE_BREAKS.sub(" ", str(value))
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = _INLINE.sub(r"\\\1", text)
    text = _BLOCK_START.sub(r"\1\\\2", text)
    text = _ORDERED_START.sub(r"\1\\\2", text)
    return MarkdownText(text)


def _finalize_markdown(value: Any) -> Any:
    if value is None:
        return ""
    return escape_markdown(value)


def _count(value: int) -> str:
    """A count with thousands separators: 10000 → '10,000'."""
    return f"{value:,}"


def _code(value: Any) -> MarkdownText:
    """A code span of plain text (hashes, ids of our own): backticks cannot occur inside."""
    text = _LINE_BREAKS.sub(" ", str(value)).replace("`", "'")
    return MarkdownText(f"`{text}`")


def css_string(value: Any) -> Markup:
    """``value`` as a quoted CSS string, safe inside a <style> element (which HTML does not
    unescape): every character but letters, digits, spaces and plain punctuation is written
    as a CSS escape (``\\22 `` for a quote, ``\\3c `` for <), so no text can end the string,
    the rule or the element."""
    out = []
    for char in str(value):
        if (char.isalnum() and char.isascii()) or char in " .,:;-_()/#+=·–—":
            out.append(char)
        else:
            out.append(f"\\{ord(char):x} ")
    return Markup('"' + "".join(out) + '"')


@cache
def environment(kind: Kind, lang: str = DEFAULT_LANGUAGE) -> Environment:
    """The (cached) environment for ``kind`` reports in ``lang``."""
    html = kind == "html"
    env = Environment(
        loader=FileSystemLoader(str(templates_dir())),
        autoescape=html,
        undefined=StrictUndefined,
        extensions=["jinja2.ext.i18n"],
        finalize=None if html else _finalize_markdown,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,
    )
    env.install_null_translations(newstyle=True)  # type: ignore[attr-defined]
    if lang != DEFAULT_LANGUAGE:
        env.install_gettext_translations(translations_for(lang), newstyle=True)  # type: ignore[attr-defined]
    env.filters["count"] = _count
    if html:
        env.filters["utilisation_svg"] = utilisation_svg
        env.filters["floor_plan_svg"] = floor_plan_svg
        env.filters["css_string"] = css_string
    else:
        env.filters["md"] = escape_markdown
        env.filters["code"] = _code
        env.filters["raw"] = MarkdownText
    return env


def render(kind: Kind, template: str, lang: str, **context: Any) -> str:
    """Render ``template`` of ``kind`` with ``context``. Control and bidi characters that came
    in with a name are shown as escapes (``\\x1b``), never raw (:mod:`facility.printable`)."""
    text = str(environment(kind, lang).get_template(template).render(**context))
    return printable(text, keep="\n\t")
