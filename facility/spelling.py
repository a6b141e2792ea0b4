"""Names close to a misspelt one, for the "did you mean" of an error message.

Used for unknown keys (the model's field names at that place), choices (a fluid, a status),
ids that name nothing and unit spellings (:mod:`facility.units`). Also :func:`found`, how a
value of the input is named after "got" (null, a list, 'abc').
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from typing import Any

from facility.messages import Join, Message

MAX_SUGGESTIONS = 3  # names a "did you mean" offers
MAX_ECHOED = 80  # characters of a key or value from the input that a message repeats
# Choices compared by closeness at most; among more, only the same name in another case is
# found (difflib compares each: 100,000 racks naming a missing zone among 50,000 would take
# hours).
MAX_COMPARED = 1000
MIN_CONTAINED = 4  # characters of a choice found inside a longer word ('loop' in 'tcs_loop')
MIN_HEAD = 3  # characters of a first word that a choice may start with ('pdu' of 'pdu_feed')


def suggestions(
    word: str, choices: Iterable[str], n: int = MAX_SUGGESTIONS, *, one_edit_from: int = 2
) -> list[str]:
    """The ``choices`` closest to ``word``: the same name in another case first
    ('Pdu_Feeds' → 'pdu_feeds'), then difflib's close matches, compared in lower case
    ('nominal_powr' → 'nominal_power'), then, for a word of ``one_edit_from`` characters or
    more, those one character off ('R9' → 'R1', too short for difflib); none when nothing is
    close, or ``word`` is a choice."""
    options = list(dict.fromkeys(str(c) for c in choices))
    if word in options or not word:
        return []
    lowered: dict[str, str] = {}
    for option in options:
        lowered.setdefault(option.lower(), option)
    key = word.lower()
    if key in lowered:
        return [lowered[key]]
    if len(lowered) > MAX_COMPARED:
        return []
    found = _closest(key, list(lowered), n, 0.7)
    if not found:  # separators left out or added: 'racktype', 'pdu-types'
        squeezed = {_squeezed(o): o for o in lowered}
        found = [squeezed[f] for f in _closest(_squeezed(key), list(squeezed), n, 0.8)]
    if not found:  # a word around a key: 'tcs_loop' for 'loop', 'floorzone' for 'zone'
        found = [o for o in lowered if len(o) >= MIN_CONTAINED and o in key][:n]
    if not found:  # the first word of a key: 'pdu_feed' for 'pdus', 'nominal' for 'nominal_power'
        head = re.split(r"[_\-. ]", key, maxsplit=1)[0]
        if len(head) >= MIN_HEAD:
            found = [o for o in lowered if o.startswith(head) and o != key][:n]
    if not found and len(key) >= one_edit_from:  # one character off ('R9' for 'R1')
        found = [o for o in lowered if _one_edit(key, o)][:n]
    return [lowered[f] for f in found]


def _one_edit(a: str, b: str) -> bool:
    """``a`` and ``b`` differ by one character changed, added, dropped or two swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and a[diff[0]] == b[diff[1]]
            and a[diff[1]] == b[diff[0]]
        )
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1 :] == short for i in range(len(long_)))


def _squeezed(word: str) -> str:
    return word.replace("_", "").replace("-", "").replace(" ", "")


def _closest(word: str, options: list[str], n: int, cutoff: float) -> list[str]:
    """difflib's close matches, keeping only those about as close as the closest one
    ('propylene_glycl': 'propylene_glycol', not 'ethylene_glycol' too)."""
    scored = []
    for option in options:
        matcher = difflib.SequenceMatcher(None, word, option)
        if matcher.real_quick_ratio() >= cutoff and matcher.quick_ratio() >= cutoff:
            ratio = matcher.ratio()
            if ratio >= cutoff:
                scored.append((ratio, option))
    scored.sort(key=lambda item: (-item[0], item[1]))
    if not scored:
        return []
    best = scored[0][0]
    return [option for ratio, option in scored[:n] if ratio >= best - 0.05]


def quoted_choices(names: Sequence[str]) -> str:
    """'a', 'b' or 'c' (the 'or' translatable)."""
    quoted = [f"'{shortened(n)}'" for n in names]
    if len(quoted) == 1:
        return quoted[0]
    return Message("%(items)s or %(last)s", items=Join(quoted[:-1], ", "), last=quoted[-1])


def shortened(text: str) -> str:
    """``text`` as a message quotes it: at most :data:`MAX_ECHOED` characters, then how many
    more there were (a 2,000-character key is not printed whole, twice)."""
    if len(text) <= MAX_ECHOED:
        return text
    return f"{text[:MAX_ECHOED]}… ({len(text) - MAX_ECHOED:,} more characters)"


def found(value: Any) -> str:
    """What a value of the input is, for "got …": 'abc', 4.5, true, null, a list, a mapping
    (a number of hundreds of digits by its length, a long text cut short)."""
    if value is None:
        return Message("null")
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int):
        bits = value.bit_length()  # str() of an int of 4,300+ digits raises
        digits = len(str(abs(value))) if bits < 13_000 else int(bits * 0.30103) + 1
        if digits > 20:
            return Message("a number of %(digits)s digits", digits=f"{digits:,}")
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return f"'{shortened(value)}'"
    if isinstance(value, list | tuple | set | frozenset):
        return Message("a list")
    if isinstance(value, dict):
        return Message("a mapping")
    return Message("a value of another kind")
