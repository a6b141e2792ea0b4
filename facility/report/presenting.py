"""The two ways a renderer speaks: to people (the report's language and display units) or to
machines (English and SI, whatever the run asked for people)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING

from facility.report.i18n import DEFAULT_LANGUAGE, using_language
from facility.report.quantities import using_units

if TYPE_CHECKING:
    from facility.report.context import ReportInput


@contextlib.contextmanager
def for_people(report: ReportInput) -> Iterator[None]:
    """Inside the block, words are in ``report.lang`` and figures in its display units."""
    with using_language(report.lang), using_units(report.presentation.units):
        yield


@contextlib.contextmanager
def for_machines() -> Iterator[None]:
    """Inside the block, words are English and figures SI (JSON keeps one shape and one unit
    per kind for every run)."""
    with using_language(DEFAULT_LANGUAGE), using_units("si"):
        yield
