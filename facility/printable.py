"""Text from an input file made inert for a terminal, a report or a JSON reader.

A site file may carry any character in a name, a note or a waiver's reason: terminal escape
sequences (``ESC [2J`` clears the screen, ``ESC ]8;;…`` makes a hyperlink), a carriage return
that overwrites a line, the 8-bit CSI ``U+009B``, or a bidi override (``U+202E``) that shows
text in another order than it is stored. Wherever such text is shown to a person it is shown
*escaped*, as Python writes it (``\\x1b``, ``\\n``, ``\\u202e``), never raw; the JSON outputs keep the
exact text but write these characters as ``\\u`` escapes.
"""

from __future__ import annotations

import re

# C0 controls, DEL, C1 controls, the bidi marks, embeddings, overrides and isolates, and the
# Unicode line and paragraph separators.
_CONTROLS = (
    "\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff"
)
_PATTERNS: dict[str, re.Pattern[str]] = {}
# What JSON's encoder leaves raw (it escapes C0 itself).
# A lone surrogate too: no UTF-8 output can hold it, "\\ud800" can.
_JSON_RAW = re.compile(
    "[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff]"
)


_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: object, keep: str = "") -> str:
    """``text`` with every control, bidi-format and line-separator character written as an
    escape (``\\x1b``, ``\\u202e``); the characters in ``keep`` (e.g. ``"\\n\\t"`` for a whole
    report) stay as they are."""
    pattern = _PATTERNS.get(keep)
    if pattern is None:
        kept = "".join(re.escape(c) for c in keep)
        pattern = re.compile(f"(?![{kept}])[{_CONTROLS}]" if kept else f"[{_CONTROLS}]")
        _PATTERNS[keep] = pattern
    text = str(text)
    if pattern.search(text) is None:
        return text
    return pattern.sub(_escape, text)


def json_inert(text: str) -> str:
    """JSON text (from ``json.dumps(..., ensure_ascii=False)``) with DEL, the C1 controls and
    the bidi and line-separator characters written as ``\\uXXXX``: the same data, but nothing
    a terminal or an editor would act on. They can only occur inside strings."""
    if text.isascii() and "\x7f" not in text:  # (two scans at memory speed: the common case)
        return text
    if _JSON_RAW.search(text) is None:
        return text
    return _JSON_RAW.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
