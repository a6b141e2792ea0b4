"""``facility check``: audit a site and write its reports (options, configuration, exit code)."""

from __future__ import annotations

import dataclasses
import functools
import os
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Annotated, Any

import typer

from facility.cli import (
    DisplayUnits,
    FailOn,
    JsonDetail,
    Language,
    OutputFormat,
    Paper,
    _error,
    _generated_at,
    app,
)


@app.command()
def check(
    sites: Annotated[
        list[Path],
        typer.Argument(
            help="Site files (YAML or JSON); a directory: every *.yaml, *.yml and *.json in it "
            "(not below), bases of the others left out; '-': one site file on stdin. Several "
            "sites: a report per site and a portfolio summary, the exit code the worst.",
            show_default=False,
            metavar="SITE",
        ),
    ],
    output_format: Annotated[
        list[OutputFormat] | None,
        typer.Option(
            "--format",
            "-f",
            help="Report format. The n-th --format goes with the n-th --output; one more "
            "--format than --output goes to stdout (default: text on stdout). Repeatable.",
            show_default=False,
        ),
    ] = None,
    output: Annotated[
        list[Path] | None,
        typer.Option(
            "--output",
            "-o",
            help="Write a report file (atomically, never over an input). Without a matching "
            "--format the suffix decides: .txt .json .html .md .sarif .xml (JUnit). {site} in "
            "the name is the site file's name without suffix (one file per site). Repeatable.",
            show_default=False,
        ),
    ] = None,
    fail_on: Annotated[
        FailOn | None,
        typer.Option(
            help="Exit 1 when a check fails at or above this severity (default: error). A "
            "verdict of INCOMPLETE (an error-severity check could not be evaluated) also exits "
            "1, unless --no-fail-on-incomplete; 'never' always exits 0.",
            show_default=False,
        ),
    ] = None,
    fail_on_incomplete: Annotated[
        bool | None,
        typer.Option(
            "--fail-on-incomplete/--no-fail-on-incomplete",
            help="Exit 1 when an error-severity check could not be evaluated (verdict "
            "INCOMPLETE; the default). --no-fail-on-incomplete accepts it: the reports still "
            "say so.",
            show_default=False,
        ),
    ] = None,
    profile: Annotated[
        str | None,
        typer.Option(
            help="Rule profile (supernode, tier-iii, or a .yaml path). Default: tier-iii when the "
            "site's design intent says Tier III, else supernode.",
            show_default=False,
        ),
    ] = None,
    rules: Annotated[
        list[Path] | None,
        typer.Option(
            "--rules", help="An extra directory of rule files (and profiles/). Repeatable."
        ),
    ] = None,
    waivers: Annotated[
        list[Path] | None,
        typer.Option(
            "--waivers", help="A waiver file, added to the site file's waivers. Repeatable."
        ),
    ] = None,
    generated_at: Annotated[
        str | None,
        typer.Option(
            help="Report date-time (ISO 8601); waivers expire against its date. Default: "
            "SOURCE_DATE_EPOCH if set, else now. Fix it to reproduce a report byte for byte.",
            show_default=False,
        ),
    ] = None,
    lang: Annotated[
        Language | None,
        typer.Option(
            "--lang",
            help="Language of the reports people read (text, HTML, Markdown), of the rule "
            "titles and messages in SARIF and JUnit, and of the error messages (default: en). "
            "JSON stays as it is.",
            show_default=False,
        ),
    ] = None,
    show_passed: Annotated[
        bool | None,
        typer.Option(
            "--show-passed/--no-show-passed",
            help="List passing checks too (text).",
            show_default=False,
        ),
    ] = None,
    select: Annotated[
        list[str] | None,
        typer.Option(
            "--select",
            help="Run only the profile's rules these patterns match: codes (PWR-003), prefixes "
            "(PWR, PWR-00) or globs (LIQ-01*), any case, comma-separated or repeated. The "
            "reports name every rule left out.",
            show_default=False,
        ),
    ] = None,
    ignore: Annotated[
        list[str] | None,
        typer.Option(
            "--ignore",
            help="Leave out the profile's rules these patterns match (as --select). The "
            "reports name every rule left out.",
            show_default=False,
        ),
    ] = None,
    config: Annotated[
        Path | None,
        typer.Option(
            "--config",
            help="Read this configuration file (facility.toml, or a pyproject.toml's "
            "[tool.facility]) instead of the one found from the site file's directory up.",
            show_default=False,
        ),
    ] = None,
    isolated: Annotated[
        bool,
        typer.Option("--isolated", help="Read no configuration file."),
    ] = False,
    baseline: Annotated[
        Path | None,
        typer.Option(
            "--baseline",
            help="A previous JSON result: exit 1 only for failing findings that are new or "
            "worse (a more negative margin) than there; the known ones are shown as baselined.",
            show_default=False,
        ),
    ] = None,
    write_baseline: Annotated[
        Path | None,
        typer.Option(
            "--write-baseline",
            help="Also write this run's JSON result here, for a later --baseline.",
            show_default=False,
        ),
    ] = None,
    quiet: Annotated[
        bool,
        typer.Option("--quiet", "-q", help="Text: only the verdict and the counts."),
    ] = False,
    verbose: Annotated[
        int,
        typer.Option(
            "--verbose",
            "-v",
            count=True,
            help="Text: also each finding's formula with its figures, and the coverage in full.",
        ),
    ] = 0,
    statistics: Annotated[
        bool,
        typer.Option("--statistics", help="Text: a table of findings per rule."),
    ] = False,
    fixes: Annotated[
        bool | None,
        typer.Option(
            "--fixes/--no-fixes",
            help="Search the smallest change that makes each failing check pass, verified on "
            "the whole site, and show it (HTML, Markdown, JSON, text with -v). It costs about "
            "fifteen whole checks; without it the reports say the fixes were not computed.",
            show_default=False,
        ),
    ] = None,
    units: Annotated[
        DisplayUnits | None,
        typer.Option(
            "--units",
            help="Units the reports show: si (kPa, kg, L/min, °C) or us (psf, lb, gpm, °F). "
            "Default: the site's display_units, else si.",
            show_default=False,
        ),
    ] = None,
    paper: Annotated[
        Paper | None,
        typer.Option(
            "--paper",
            help="Page size of printed reports (HTML print, PDF): a4 (the default) or letter.",
            show_default=False,
        ),
    ] = None,
    json_detail: Annotated[
        JsonDetail | None,
        typer.Option(
            "--json-detail",
            help="The JSON result's findings: compact (the default: each finding's id, status "
            "and figures shared by identical findings; a failing one with its place) or full "
            "(every finding with its texts, each scenario with the findings it moved).",
            show_default=False,
        ),
    ] = None,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs",
            "-j",
            min=0,
            help="Check several sites in this many processes (0: one per CPU). The output is "
            "the same whatever the number.",
        ),
    ] = 1,
    with_failures: Annotated[
        bool,
        typer.Option(
            "--failures",
            help="Accepted for scripts written before every check ran the single-failure "
            "analysis (RED-001, in both bundled profiles): it changes nothing.",
            hidden=True,
        ),
    ] = False,
) -> None:
    """Audit a site: is the hall ready for its racks? Exit 0 ready, 1 failing checks, 2 bad input.

    Settings not given here come from facility.toml or [tool.facility] in a pyproject.toml,
    found from the site file's directory upwards (see docs/configuration.md).

    Several sites (or a directory): each is checked with its own configuration
    file; a report per site, then the portfolio summary; exit 2 if one had bad
    input, else 1 if one failed. An -o name with {site} (out/{site}.html) is
    written per site; a .json, .sarif or .txt without it holds every site (one
    JSON document, one SARIF run per site).

    Bad input: the JSON and SARIF outputs still get an error result.
    """
    from facility.i18n import using_language
    from facility.model.source import InputError
    from facility.portfolio import is_many, read_stdin

    given = _CheckOptions(
        site=sites[0],
        formats=[f.value for f in output_format or []],
        outputs=list(output or []),
        fail_on=fail_on,
        fail_on_incomplete=fail_on_incomplete,
        profile=profile,
        rules=list(rules or []),
        waivers=list(waivers or []),
        generated_at=generated_at,
        lang=lang,
        show_passed=show_passed,
        select=list(select or []),
        ignore=list(ignore or []),
        baseline=baseline,
        write_baseline=write_baseline,
        verbosity=-1 if quiet else verbose,
        statistics=statistics,
        units=units,
        paper=paper,
        fixes=fixes,
        json_detail=json_detail,
    )
    if is_many(sites):
        from facility.commands.check_many import check_many

        check_many(sites, given, config=config, isolated=isolated, jobs=jobs)
        return
    if str(given.site) == "-":
        given.stdin = read_stdin()
    # Messages about the configuration file are in the language of the command line.
    with using_language((lang or Language.en).value):
        try:
            options = _configured(given, config, isolated)
        except InputError as error:
            from facility.commands.check_many import bad_input

            raise bad_input(given, error, _generated_at(given.generated_at)) from None
    from facility.portfolio import named_for

    options = named_for(options, sites[0])  # {site} in -o, --baseline, --write-baseline
    # The language of the reports is also that of this run's messages (errors in the input).
    with using_language(options.language.value):  # (--failures: kept for old scripts)
        _check(options)


@dataclasses.dataclass(slots=True)
class _CheckOptions:
    """The options of ``facility check``; None (or empty) where not given."""

    site: Path
    formats: list[str]
    outputs: list[Path]
    fail_on: FailOn | None
    fail_on_incomplete: bool | None
    profile: str | None
    rules: list[Path]
    waivers: list[Path]
    generated_at: str | None
    lang: Language | None
    show_passed: bool | None
    select: list[str]
    ignore: list[str]
    baseline: Path | None = None
    write_baseline: Path | None = None
    verbosity: int = 0
    statistics: bool = False
    units: DisplayUnits | None = None
    paper: Paper | None = None
    fixes: bool | None = None  # search the fix of each failing check (None: the default, no)
    json_detail: JsonDetail | None = None
    select_patterns: list[Any] = dataclasses.field(default_factory=list)
    ignore_patterns: list[Any] = dataclasses.field(default_factory=list)
    config_file: Path | None = None
    config_sha256: str | None = None
    stdin: bytes | None = None  # the site file read from stdin ('-')

    @property
    def language(self) -> Language:
        return self.lang or Language.en


def _configured(given: _CheckOptions, config: Path | None, isolated: bool) -> _CheckOptions:
    """The options with what the command line left unset taken from the configuration file
    (``--config``, else the one found from the site's directory; none with ``--isolated``).
    Raises InputError for a bad configuration file."""
    from facility.config import discover, read_config
    from facility.engine.selection import patterns
    from facility.i18n import _

    if config is not None and isolated:
        _error(_("--config and --isolated exclude each other"))
        raise typer.Exit(code=2)
    path = None if isolated else config or discover(given.site)
    options = dataclasses.replace(given)
    options.select_patterns = patterns(given.select, "--select")
    options.ignore_patterns = patterns(given.ignore, "--ignore")
    if path is None:
        return options
    file = read_config(path)
    options.config_file = path
    options.config_sha256 = file.sha256
    if options.fail_on is None and file.fail_on is not None:
        options.fail_on = FailOn(file.fail_on)
    if options.lang is None and file.lang is not None:
        options.lang = Language(file.lang)
    if options.fail_on_incomplete is None:
        options.fail_on_incomplete = file.fail_on_incomplete
    if options.show_passed is None:
        options.show_passed = file.show_passed
    if options.fixes is None:
        options.fixes = file.fixes
    options.profile = options.profile or file.profile
    options.rules = options.rules or list(file.rules or [])
    options.waivers = options.waivers or list(file.waivers or [])
    options.baseline = options.baseline or file.baseline
    if options.units is None and file.units is not None:
        options.units = DisplayUnits(file.units)
    if options.paper is None and file.paper is not None:
        options.paper = Paper(file.paper)
    if options.json_detail is None and file.json_detail is not None:
        options.json_detail = JsonDetail(file.json_detail)
    if not options.formats and not options.outputs:  # the two go in pairs: both or neither
        options.formats = list(file.format or [])
        options.outputs = list(file.output or [])
    if not given.select and file.select:
        options.select_patterns = patterns(file.select, f"{file.where('select')}: select")
    if not given.ignore and file.ignore:
        options.ignore_patterns = patterns(file.ignore, f"{file.where('ignore')}: ignore")
    return options


def _outputs(options: _CheckOptions) -> tuple[list[tuple[Path, str]], str]:
    """The files to write, each with its format (the baseline to write last), and the format
    on stdout; exits 2 when they do not pair up."""
    from facility.i18n import _
    from facility.report.outputs import format_for

    formats = options.formats
    outputs = options.outputs
    if len(formats) > len(outputs) + 1:
        _error(_("more --format options than --output files (plus one for stdout)"))
        raise typer.Exit(code=2)
    jobs: list[tuple[Path, str]] = []
    for i, path in enumerate(outputs):
        fmt = formats[i] if i < len(formats) else format_for(path)
        if fmt is None:
            _error(
                _("%(path)s: cannot tell the format from '%(suffix)s'; add --format")
                % {"path": path, "suffix": path.suffix}
            )
            raise typer.Exit(code=2)
        jobs.append((path, fmt))
    if options.write_baseline is not None:
        jobs.append((options.write_baseline, "json"))
    stdout_format = formats[len(outputs)] if len(formats) > len(outputs) else "text"
    if stdout_format == "pdf":
        _error(_("a PDF report is written to a file: add --output report.pdf"))
        raise typer.Exit(code=2)
    return jobs, stdout_format


def _evaluate(options: _CheckOptions, moment: Any, progress: Any) -> tuple[Any, tuple[Path, ...]]:
    """Check the site of ``options`` as of ``moment``: its report input, and every file the
    run read (never written over: site, bases, waivers, rules, profiles, the configuration
    file, the baseline). ``progress.phase(text)`` follows it. Raises InputError (bad input)
    or SelectionError (a --select / --ignore pattern that matches no rule)."""
    from facility.engine.evaluate import default_profile
    from facility.engine.rules import bundled_rules_dir, load_rules
    from facility.engine.waivers import read_waiver_file
    from facility.i18n import _
    from facility.inputs import InputFile
    from facility.model.load import load_site
    from facility.portfolio import STDIN, load_stdin
    from facility.report.context import Presentation

    rules, waivers, lang = options.rules, options.waivers, options.language
    site = Path(STDIN) if options.stdin is not None else options.site
    config_files = [options.config_file] if options.config_file is not None else []
    baseline_files = [options.baseline] if options.baseline is not None else []
    inputs = (site, *waivers, *config_files, *baseline_files)
    progress.phase(_("loading %(file)s") % {"file": site})
    loaded = load_site(site) if options.stdin is None else load_stdin(options.stdin)
    ruleset = load_rules(
        [bundled_rules_dir(), *rules],
        options.profile or default_profile(loaded),
        select=options.select_patterns,
        ignore=options.ignore_patterns,
    )
    waiver_list = list(loaded.waivers)
    input_files: list[InputFile] = []
    for path in waivers:
        read, digest = read_waiver_file(path)
        waiver_list += read
        input_files.append(digest)
    if options.config_file is not None and options.config_sha256 is not None:
        input_files.append(InputFile("config", str(options.config_file), options.config_sha256))
    previous = None
    if options.baseline is not None:
        from facility.analysis.baseline import read_previous

        progress.phase(_("loading %(file)s") % {"file": options.baseline})
        previous = read_previous(options.baseline)
        input_files.append(InputFile("baseline", previous.file, previous.digest))
    from facility.check import run_check

    racks = f"{len(loaded.racks):,}"

    def phase(step: str, done: int, total: int) -> None:
        if step == "failures":
            progress.phase(_("failing each element in turn"))
        else:
            progress.phase(
                _("checking %(racks)s racks: rule %(done)s of %(total)s")
                % {"racks": racks, "done": done, "total": total}
            )

    presentation = Presentation(
        show_passed=bool(options.show_passed),
        verbosity=options.verbosity,
        statistics=options.statistics,
        units=options.units.value if options.units else _site_units(loaded),
        paper=(options.paper or Paper.a4).value,
        json_detail=(options.json_detail or JsonDetail.compact).value,
    )
    report = run_check(
        loaded,
        ruleset,
        waivers=waiver_list,
        generated_at=moment,
        lang=lang.value,
        progress=phase,
        baseline=previous,
        input_files=input_files,
        presentation=presentation,
        fixes=options.fixes is True,
    )
    protected = (
        *inputs,
        *(Path(layer.file) for layer in loaded.layers),
        *(Path(source) for source in ruleset.sources),
    )
    return report, protected


def _check(options: _CheckOptions) -> None:
    from facility.engine.selection import SelectionError
    from facility.i18n import _
    from facility.messages import message_of
    from facility.model.source import InputError
    from facility.progress import Progress
    from facility.report.outputs import render_pieces
    from facility.report.write import write_all_atomically

    moment = _generated_at(options.generated_at)
    jobs, stdout_format = _outputs(options)
    problem: InputError | SelectionError | OSError | ValueError | None = None
    with Progress() as progress:  # a line on stderr, if it is a terminal and this takes > 1 s
        try:
            report, protected = _evaluate(options, moment, progress)
        except (InputError, SelectionError) as error:
            problem = error
        if problem is None:
            presentation = report.presentation
            result = report.result

            made: dict[str, str] = {}  # the files' HTML report, made once for html and pdf

            def render(fmt: str, path: Path | None = None) -> str | bytes | Iterable[str]:
                if path is not None:
                    progress.phase(_("writing %(file)s") % {"file": path})
                    return render_pieces(fmt, report, made)  # a file: never coloured
                shown = dataclasses.replace(presentation, colour=_colour(sys.stdout))
                return render_pieces(fmt, dataclasses.replace(report, presentation=shown))

            try:
                shown = render(stdout_format)  # a string, or pieces made as they are printed
                write_all_atomically(
                    [(path, functools.partial(render, fmt, path)) for path, fmt in jobs],
                    protected=protected,
                )
            except (OSError, ValueError) as error:
                problem = error
    if isinstance(problem, (InputError, SelectionError)):
        from facility.commands.check_many import bad_input

        raise bad_input(options, problem, moment)
    if problem is not None:
        _error(message_of(problem))
        raise typer.Exit(code=2)
    assert not isinstance(shown, bytes)  # a PDF never goes to stdout (refused above)
    for piece in [shown] if isinstance(shown, str) else shown:
        sys.stdout.write(piece)
    sys.stdout.flush()
    fail_on = options.fail_on or FailOn.error
    fail_on_incomplete = options.fail_on_incomplete is not False
    if _fails(result, fail_on, fail_on_incomplete):
        raise typer.Exit(code=1)


def _site_units(site: Any) -> str:
    """The display units a site file asks for (``site.display_units``), else SI."""
    return site.info.display_units or DisplayUnits.si.value


def _colour(stream: Any) -> bool:
    """Whether text on ``stream`` is coloured: never when NO_COLOR is set (no-color.org),
    always when FORCE_COLOR is (force-color.org), else when it is a terminal that is not
    TERM=dumb. NO_COLOR wins over FORCE_COLOR: a log never gets escape codes it did not ask
    for."""
    if os.environ.get("NO_COLOR", ""):
        return False
    if os.environ.get("FORCE_COLOR", ""):
        return True
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty()) and os.environ.get("TERM", "") != "dumb"


def _fails(result: Any, fail_on: FailOn, fail_on_incomplete: bool) -> bool:
    """Whether a check run exits 1: a failing check at or above ``fail_on``, or (unless
    accepted) a verdict of incomplete. ``never`` never fails. Against a baseline, only the
    failing findings new or worse than there count, and an incomplete verdict only when an
    error-severity check could not be evaluated that could be then."""
    if fail_on is FailOn.never:
        return False
    baseline = result.baseline
    counted = None if baseline is None else baseline.failing
    failing = {
        f.severity
        for f in result.findings
        if f.status == "fail" and (counted is None or f.id in counted)
    }
    threshold = {"error"} if fail_on is FailOn.error else {"error", "warning"}
    incomplete = result.verdict == "incomplete" and (baseline is None or bool(baseline.new_gaps))
    return bool(failing & threshold) or (fail_on_incomplete and incomplete)
