"""Everything a report is made from, in one value: renderers take nothing else."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from facility.analysis.failures import FailureReport
from facility.engine.findings import AuditResult
from facility.engine.rules import RuleSet
from facility.engine.waivers import WaiverReport
from facility.inputs import InputFile
from facility.model.site import Site

if TYPE_CHECKING:
    from facility.analysis.fixes import FindingFixes


@dataclass(frozen=True, slots=True)
class Presentation:
    """How the reports show what they say (never what they say): from the command line and
    the configuration file."""

    show_passed: bool = False  # text: list the passing checks too
    verbosity: int = 0  # text: -1 quiet (-q), 0 normal, 1 and up verbose (-v, -vv)
    statistics: bool = False  # text: a table of findings per rule (--statistics)
    colour: bool = False  # text on a terminal: ANSI colour (never in a file)
    units: str = "si"  # display units: "si" or "us" (psf, lbf, gpm, degF)
    paper: str = "a4"  # printed pages (HTML print, PDF): "a4" or "letter"
    json_detail: str = "compact"  # the JSON result's findings: "compact" or "full"


class FixSearch:
    """The fix search of one check (:func:`facility.analysis.fixes.fixes`), run the first time
    a report asks for it and remembered (it costs about 15 whole checks on Hall B3): HTML,
    Markdown, JSON and ``-v`` ask, the terminal's default summary never does, and every
    format written in one run shares the one search."""

    __slots__ = ("_compute", "_found")

    def __init__(self, compute: Callable[[], dict[str, FindingFixes]]) -> None:
        self._compute = compute
        self._found: dict[str, FindingFixes] | None = None

    def get(self) -> dict[str, FindingFixes]:
        """The fixes of every failing finding, by finding id."""
        if self._found is None:
            self._found = self._compute()
        return self._found

    @property
    def done(self) -> bool:
        return self._found is not None


@dataclass(frozen=True, slots=True)
class ReportInput:
    result: AuditResult
    site: Site
    ruleset: RuleSet
    waivers: WaiverReport
    generated_at: dt.datetime  # an input, never the clock inside a renderer: reports reproduce
    lang: str = "en"
    failures: FailureReport | None = None  # the single-failure analysis (None: not run)
    # Every file that decided the verdict, with its SHA-256: site layers, waiver files, the
    # configuration file, profiles and rule files (empty for a report built by hand).
    inputs: tuple[InputFile, ...] = ()
    presentation: Presentation = Presentation()
    # The fix for each failing finding (None: not searched, the default without ``--fixes``;
    # the reports then say so).
    fixes: FixSearch | None = None
