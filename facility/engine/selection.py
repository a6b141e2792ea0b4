"""``--select`` / ``--ignore``: which of the profile's rules a run leaves out, as ruff does.

A pattern is a rule code (``PWR-003``), a prefix of codes (``PWR``, ``PWR-00``) or a glob
(``LIQ-01*``, ``*-00?``), matched without regard to case. ``select`` keeps the profile's rules
that some pattern matches (all when empty); ``ignore`` then leaves out those it matches. A
pattern that matches none of the profile's rules is an error naming it, with the closest code
when there is one: a typo must not quietly check everything (or nothing).

The rules left out are recorded (:class:`Selection`) and every report says so: a site is never
shown ready by rules that were not run without the report saying which.
"""

from __future__ import annotations

import difflib
import fnmatch
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from facility.messages import Message


@dataclass(frozen=True, slots=True)
class Pattern:
    """One pattern as written, and where: ``--select``, or ``facility.toml:4: select``."""

    text: str
    origin: str


@dataclass(frozen=True, slots=True)
class Selection:
    """What ``--select`` / ``--ignore`` did to the profile's rule set."""

    select: tuple[str, ...]  # the patterns, upper-cased
    ignore: tuple[str, ...]
    deselected: tuple[str, ...]  # codes of the profile's rules left out, sorted


class SelectionError(ValueError):
    """Patterns that match no rule of the profile: one message each."""

    def __init__(self, problems: list[Message]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


def patterns(values: Iterable[str], origin: str) -> list[Pattern]:
    """Patterns from repeated and comma-separated values (``--ignore PWR,LIQ-01*``)."""
    return [
        Pattern(part.strip(), origin)
        for value in values
        for part in value.split(",")
        if part.strip()
    ]


def matches(pattern: str, code: str) -> bool:
    """Whether ``pattern`` (code, prefix or glob; any case) matches rule ``code``."""
    pattern, code = pattern.upper(), code.upper()
    if any(c in pattern for c in "*?["):
        return fnmatch.fnmatchcase(code, pattern)
    return code.startswith(pattern)


def select_rules(
    codes: Sequence[str],
    select: Sequence[Pattern],
    ignore: Sequence[Pattern],
    *,
    profile: str,
    other_codes: Sequence[str] = (),
) -> tuple[set[str], Selection | None]:
    """The codes of ``codes`` (the profile's rules) that the run keeps, and what was left
    out (None when no pattern was given). ``other_codes``: rules loaded but not in the
    profile, named when a pattern matches only those. Raises SelectionError."""
    if not select and not ignore:
        return set(codes), None
    problems: list[Message] = []
    for pattern in (*select, *ignore):
        if not any(matches(pattern.text, code) for code in codes):
            problems.append(_matches_nothing(pattern, codes, other_codes, profile))
    if problems:
        raise SelectionError(problems)
    kept = {c for c in codes if not select or any(matches(p.text, c) for p in select)}
    kept -= {c for c in kept if any(matches(p.text, c) for p in ignore)}
    selection = Selection(
        tuple(p.text.upper() for p in select),
        tuple(p.text.upper() for p in ignore),
        tuple(sorted(set(codes) - kept)),
    )
    return kept, selection


def _matches_nothing(
    pattern: Pattern, codes: Sequence[str], other_codes: Sequence[str], profile: str
) -> Message:
    elsewhere = sorted(c for c in other_codes if matches(pattern.text, c))
    if elsewhere:
        return Message(
            "%(origin)s: '%(pattern)s' matches no rule of profile %(profile)s "
            "(only %(codes)s, which the profile leaves out)",
            origin=pattern.origin,
            pattern=pattern.text,
            profile=profile,
            codes=", ".join(elsewhere[:5]),
        )
    candidates = sorted({*codes, *(c.rsplit("-", 1)[0] for c in codes)})
    close = difflib.get_close_matches(pattern.text.upper(), candidates, n=1, cutoff=0.6)
    if close:
        return Message(
            "%(origin)s: '%(pattern)s' matches no rule of profile %(profile)s "
            "(did you mean %(suggestion)s?)",
            origin=pattern.origin,
            pattern=pattern.text,
            profile=profile,
            suggestion=close[0],
        )
    return Message(
        "%(origin)s: '%(pattern)s' matches no rule of profile %(profile)s "
        "(see: facility rules list)",
        origin=pattern.origin,
        pattern=pattern.text,
        profile=profile,
    )
