"""The ``facility`` command line. Commands parse arguments and call the library; no logic here.

Exit codes: 0 ready, 1 findings at or above ``--fail-on``, 2 bad input (with a message naming
file, line and field, and no traceback).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import json
import os
import signal
import sys
from collections.abc import Callable, Iterable
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from facility import __version__


class Terminated(BaseException):
    """SIGTERM or SIGHUP: unwinds like Ctrl-C, so staged reports are removed and old ones kept."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _terminate(signum: int, _frame: Any) -> None:
    raise Terminated(signum)


class _Guarded(TyperGroup):
    """The command group, run so that a crash is never read as a verdict: an uncaught
    exception is an internal error, exit 2, one line on stderr (the traceback only with
    ``--debug`` or ``FACILITY_DEBUG=1``); Ctrl-C exits 130, SIGTERM and SIGHUP 128 + the
    signal. Exit 1 stays what it means: a check failed."""

    def invoke(self, ctx: Any) -> Any:  # the (vendored) click Context
        previous = {sig: signal.getsignal(sig) for sig in _SIGNALS}
        try:
            for sig in _SIGNALS:
                signal.signal(sig, _terminate)
        except ValueError:  # not the main thread (an embedding program): leave signals alone
            previous = {}
        try:
            return super().invoke(ctx)
        except (typer.Exit, typer.Abort, typer.TyperException):  # usage errors, exit codes
            raise
        except KeyboardInterrupt:
            raise typer.Exit(130) from None
        except Terminated as stop:
            raise typer.Exit(128 + stop.signum) from None
        except Exception as error:  # a defect of facility, not of the input
            if _debugging():
                raise
            from facility.printable import printable

            detail = printable(f"{type(error).__name__}: {error}")
            typer.echo(
                f"internal error in facility {__version__}: {detail}; please report it "
                "with the input (FACILITY_DEBUG=1 shows the traceback)",
                err=True,
            )
            raise typer.Exit(2) from None
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)


_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))
_DEBUG = {"on": False}


def _debugging() -> bool:
    return _DEBUG["on"] or os.environ.get("FACILITY_DEBUG", "") not in ("", "0")


app = typer.Typer(
    name="facility",
    help="Is this hall ready for liquid-cooled AI supernode racks? And if not, exactly why.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    cls=_Guarded,
)


def _error(text: str) -> None:
    """Print ``error: <text>`` to stderr in the current language (``text``: a message of the
    program, translated when it is a :class:`~facility.messages.Message`). A value echoed
    from the input is shown inert: control and bidi characters escaped, one line."""
    from facility.i18n import _
    from facility.messages import localized
    from facility.printable import printable

    typer.echo(printable(_("error: %(problem)s") % {"problem": localized(text)}), err=True)


def _show(text: str, *, json_text: bool = False, nl: bool = False) -> None:
    """Print a report or listing to stdout with what came from an input made inert: control
    and bidi characters escaped (newlines and tabs kept), or, for JSON, written as ``\\u``
    escapes (:mod:`facility.printable`)."""
    from facility.printable import json_inert, printable

    typer.echo(json_inert(text) if json_text else printable(text, keep="\n\t"), nl=nl)


def _fail_input(error: Exception) -> typer.Exit:
    """Print every problem of a bad input to stderr, in the current language (file, line,
    column and field as they are); the caller raises the returned Exit(2)."""
    from facility.i18n import ngettext
    from facility.messages import message_of
    from facility.model.source import InputError

    if isinstance(error, InputError):
        for problem in error.problems:
            _error(problem.localized())
        count = len(error.problems)
        typer.echo(
            ngettext(
                "%(n)s problem found; nothing was written.",
                "%(n)s problems found; nothing was written.",
                count,
            )
            % {"n": count},
            err=True,
        )
    else:
        _error(message_of(error))
    return typer.Exit(code=2)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"facility {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
    debug: Annotated[
        bool,
        typer.Option(
            "--debug",
            help="Show the traceback of an internal error (also FACILITY_DEBUG=1).",
        ),
    ] = False,
    allow_outside_bases: Annotated[
        bool,
        typer.Option(
            "--allow-outside-bases",
            help="Let a site file's extends: name bases outside its directory tree (absolute "
            "paths, '..'). Off by default, as kustomize's load restrictor.",
        ),
    ] = False,
) -> None:
    """Is this hall ready for liquid-cooled AI supernode racks? And if not, exactly why."""
    from facility.model.layers import OUTSIDE_BASES

    _DEBUG["on"] = debug
    OUTSIDE_BASES["allowed"] = allow_outside_bases


class FailOn(StrEnum):
    error = "error"
    warning = "warning"
    never = "never"


class OutputFormat(StrEnum):
    text = "text"
    json = "json"
    html = "html"
    markdown = "markdown"
    sarif = "sarif"
    junit = "junit"


class Language(StrEnum):
    en = "en"
    zh_CN = "zh-CN"


def _generated_at(text: str | None) -> dt.datetime:
    """--generated-at, else SOURCE_DATE_EPOCH (reproducible builds), else now, in UTC."""
    if text:
        try:
            moment = dt.datetime.fromisoformat(text)
        except ValueError:
            from facility.i18n import _

            raise typer.BadParameter(
                _("'%(text)s' is not an ISO 8601 date-time") % {"text": text},
                param_hint="--generated-at",
            ) from None
        return moment if moment.tzinfo else moment.replace(tzinfo=dt.UTC)
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch:  # malformed is an error, as reproducible-builds.org's specification asks
        try:
            if not (epoch.isascii() and epoch.isdigit()):
                raise ValueError(epoch)
            return dt.datetime.fromtimestamp(int(epoch[:20]), tz=dt.UTC)
        except (OverflowError, OSError, ValueError):  # not digits, or past the year 9999
            from facility.i18n import _
            from facility.printable import printable

            raise typer.BadParameter(
                _(
                    "SOURCE_DATE_EPOCH=%(value)s is not a date (seconds since 1970 up to the "
                    "year 9999)"
                )
                % {"value": printable(epoch[:40])},
                param_hint="SOURCE_DATE_EPOCH",
            ) from None
    return dt.datetime.now(tz=dt.UTC).replace(microsecond=0)


@app.command()
def check(
    site: Annotated[Path, typer.Argument(help="Site file (YAML or JSON).", show_default=False)],
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
            "--format the suffix decides: .txt .json .html .md .sarif .xml (JUnit). Repeatable.",
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
    """
    from facility.i18n import using_language

    given = _CheckOptions(
        site=site,
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
    )
    # Messages about the configuration file are in the language of the command line.
    with using_language((lang or Language.en).value):
        options = _configured(given, config, isolated)
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
    select_patterns: list[Any] = dataclasses.field(default_factory=list)
    ignore_patterns: list[Any] = dataclasses.field(default_factory=list)
    config_file: Path | None = None
    config_sha256: str | None = None

    @property
    def language(self) -> Language:
        return self.lang or Language.en


def _configured(given: _CheckOptions, config: Path | None, isolated: bool) -> _CheckOptions:
    """The options with what the command line left unset taken from the configuration file
    (``--config``, else the one found from the site's directory; none with ``--isolated``);
    exits 2 on a bad configuration file."""
    from facility.config import discover, read_config
    from facility.engine.selection import patterns
    from facility.i18n import _
    from facility.model.source import InputError

    if config is not None and isolated:
        _error(_("--config and --isolated exclude each other"))
        raise typer.Exit(code=2)
    path = None if isolated else config or discover(given.site)
    options = dataclasses.replace(given)
    options.select_patterns = patterns(given.select, "--select")
    options.ignore_patterns = patterns(given.ignore, "--ignore")
    if path is None:
        return options
    try:
        file = read_config(path)
    except InputError as error:
        raise _fail_input(error) from None
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
    options.profile = options.profile or file.profile
    options.rules = options.rules or list(file.rules or [])
    options.waivers = options.waivers or list(file.waivers or [])
    options.baseline = options.baseline or file.baseline
    if not options.formats and not options.outputs:  # the two go in pairs: both or neither
        options.formats = list(file.format or [])
        options.outputs = list(file.output or [])
    if not given.select and file.select:
        options.select_patterns = patterns(file.select, f"{file.where('select')}: select")
    if not given.ignore and file.ignore:
        options.ignore_patterns = patterns(file.ignore, f"{file.where('ignore')}: ignore")
    return options


def _check(options: _CheckOptions) -> None:
    from facility.engine.evaluate import default_profile
    from facility.engine.rules import bundled_rules_dir, load_rules
    from facility.engine.selection import SelectionError
    from facility.engine.waivers import read_waiver_file
    from facility.i18n import _
    from facility.inputs import InputFile
    from facility.messages import message_of
    from facility.model.load import load_site
    from facility.model.source import InputError
    from facility.progress import Progress
    from facility.report.outputs import format_for, render_pieces
    from facility.report.write import write_all_atomically

    site, rules, waivers, lang = options.site, options.rules, options.waivers, options.language
    show_passed = bool(options.show_passed)
    moment = _generated_at(options.generated_at)
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
    config_files = [options.config_file] if options.config_file is not None else []
    baseline_files = [options.baseline] if options.baseline is not None else []
    inputs = (site, *waivers, *config_files, *baseline_files)
    problem: InputError | OSError | ValueError | None = None
    with Progress() as progress:  # a line on stderr, if it is a terminal and this takes > 1 s
        try:
            progress.phase(_("loading %(file)s") % {"file": site})
            loaded = load_site(site)
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
                input_files.append(
                    InputFile("config", str(options.config_file), options.config_sha256)
                )
            previous = None
            if options.baseline is not None:
                from facility.analysis.diff import read_result_file

                progress.phase(_("loading %(file)s") % {"file": options.baseline})
                previous = (str(options.baseline), read_result_file(options.baseline))
        except InputError as error:
            problem = error
        except SelectionError as error:
            for text in error.problems:
                _error(text)
            raise typer.Exit(code=2) from None
        if problem is None:
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

            report = run_check(
                loaded,
                ruleset,
                waivers=waiver_list,
                generated_at=moment,
                lang=lang.value,
                progress=phase,
                baseline=previous,
                input_files=input_files,
            )
            result = report.result

            def render(fmt: str, path: Path | None = None) -> str | Iterable[str]:
                if path is not None:
                    progress.phase(_("writing %(file)s") % {"file": path})
                if fmt == "text" and show_passed:
                    from facility.report.terminal import render_text

                    return render_text(report, show_passed=True)
                return render_pieces(fmt, report)

            try:
                shown = render(stdout_format)  # a string, or pieces made as they are printed
                write_all_atomically(
                    [(path, functools.partial(render, fmt, path)) for path, fmt in jobs],
                    # never over a file the run read: site, bases, waivers, rules, profiles,
                    # the configuration file
                    protected=(
                        *inputs,
                        *(Path(layer.file) for layer in loaded.layers),
                        *(Path(source) for source in ruleset.sources),
                    ),
                )
            except (OSError, ValueError) as error:
                problem = error
    if isinstance(problem, InputError):
        raise _fail_input(problem)
    if problem is not None:
        _error(message_of(problem))
        raise typer.Exit(code=2)
    for piece in [shown] if isinstance(shown, str) else shown:
        sys.stdout.write(piece)
    sys.stdout.flush()
    fail_on = options.fail_on or FailOn.error
    fail_on_incomplete = options.fail_on_incomplete is not False
    if _fails(result, fail_on, fail_on_incomplete):
        raise typer.Exit(code=1)


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


def _speaks(command: Callable[..., None]) -> Callable[..., None]:
    """Run ``command`` in the language of its ``--lang`` option (text output and errors)."""

    @functools.wraps(command)
    def in_language(*args: Any, **kwargs: Any) -> None:
        from facility.i18n import using_language

        with using_language(kwargs["lang"].value):
            command(*args, **kwargs)

    return in_language


def _titles(ruleset: Any) -> dict[str, str]:
    """Rule code -> title in the current language."""
    from facility.i18n import current_language

    return {rule.code: rule.spec.text(current_language()).title for rule in ruleset.rules}


@app.command()
@_speaks
def failures(
    site: Annotated[Path, typer.Argument(help="Site file (YAML or JSON).", show_default=False)],
    output_format: Annotated[
        OutputFormat, typer.Option("--format", "-f", help="text or json.")
    ] = OutputFormat.text,
    profile: Annotated[
        str | None,
        typer.Option(help="Rule profile (default as for check).", show_default=False),
    ] = None,
    rules: Annotated[
        list[Path] | None,
        typer.Option("--rules", help="An extra directory of rule files. Repeatable."),
    ] = None,
    lang: Annotated[
        Language, typer.Option("--lang", help="Language of the text output and of error messages.")
    ] = Language.en,
) -> None:
    """Fail each element in turn (N-1): single points of failure, and what each loss does.

    Exit 0 when no single loss makes an error-severity check fail, 1 when one does, 2 on bad input.
    """
    from facility.analysis.failures import analyse_failures
    from facility.engine.evaluate import audit, default_profile
    from facility.engine.rules import bundled_rules_dir, load_rules
    from facility.model.load import load_site
    from facility.model.source import InputError
    from facility.report.failures_report import failures_text
    from facility.report.json_report import iter_failures_json

    if output_format not in (OutputFormat.text, OutputFormat.json):
        from facility.i18n import _

        _error(_("failures prints text or json"))
        raise typer.Exit(code=2)
    try:
        loaded = load_site(site)
        ruleset = load_rules(
            [bundled_rules_dir(), *(rules or [])], profile or default_profile(loaded)
        )
    except InputError as error:
        raise _fail_input(error) from None
    baseline = audit(loaded, ruleset, as_of=_generated_at(None).date())
    report = analyse_failures(loaded, ruleset, baseline)
    if output_format is OutputFormat.json:
        info = {"name": loaded.info.name, "file": loaded.file, "sha256": loaded.sha256}
        for piece in iter_failures_json(report, info):  # a campus's is 100s of MB: streamed
            _show(piece, json_text=True)
    else:
        _show(failures_text(report, loaded.info.name, _titles(ruleset)))
    if report.single_points_of_failure:
        raise typer.Exit(code=1)


@app.command()
@_speaks
def headroom(
    site: Annotated[Path, typer.Argument(help="Site file (YAML or JSON).", show_default=False)],
    rack_type: Annotated[
        str, typer.Option("--rack-type", help="Rack type to add (a rack_types id or catalog id).")
    ],
    loop: Annotated[str | None, typer.Option(help="Add the racks to this TCS loop.")] = None,
    zone: Annotated[str | None, typer.Option(help="Add the racks to this floor zone.")] = None,
    row: Annotated[str | None, typer.Option(help="Add the racks to this row.")] = None,
    output_format: Annotated[
        OutputFormat, typer.Option("--format", "-f", help="text or json.")
    ] = OutputFormat.text,
    profile: Annotated[
        str | None,
        typer.Option(help="Rule profile (default as for check).", show_default=False),
    ] = None,
    lang: Annotated[
        Language, typer.Option("--lang", help="Language of the text output and of error messages.")
    ] = Language.en,
) -> None:
    """How many more racks of a type fit, which constraint binds first, and what is stranded.

    New racks copy the placement and PDUs of the first rack of the target (loop, zone or row).
    """
    from facility.analysis.headroom import HeadroomError
    from facility.analysis.headroom import headroom as compute_headroom
    from facility.engine.evaluate import audit, default_profile
    from facility.engine.rules import load_rules
    from facility.model.load import load_site
    from facility.model.source import InputError
    from facility.report.headroom_report import headroom_json, headroom_text

    try:
        loaded = load_site(site)
        ruleset = load_rules(profile=profile or default_profile(loaded))
    except InputError as error:
        raise _fail_input(error) from None
    try:
        report = compute_headroom(
            loaded,
            ruleset,
            audit(loaded, ruleset, as_of=_generated_at(None).date()),
            rack_type,
            loop=loop,
            zone=zone,
            row=row,
        )
    except HeadroomError as error:
        from facility.messages import message_of

        _error(message_of(error))
        raise typer.Exit(code=2) from None
    if output_format is OutputFormat.json:
        info = {"name": loaded.info.name, "file": loaded.file, "sha256": loaded.sha256}
        _show(headroom_json(report, info), json_text=True)
    else:
        _show(headroom_text(report, _titles(ruleset)))


@app.command()
@_speaks
def diff(
    old: Annotated[
        Path,
        typer.Argument(help="The old state: a site file or a JSON result.", show_default=False),
    ],
    new: Annotated[
        Path,
        typer.Argument(help="The new state: a site file or a JSON result.", show_default=False),
    ],
    output_format: Annotated[
        OutputFormat, typer.Option("--format", "-f", help="text or json.")
    ] = OutputFormat.text,
    profile: Annotated[
        str | None,
        typer.Option(
            help="Rule profile for site files (default as for check).", show_default=False
        ),
    ] = None,
    lang: Annotated[
        Language, typer.Option("--lang", help="Language of the text output and of error messages.")
    ] = Language.en,
) -> None:
    """Compare two states: new, resolved and changed findings, with margins before and after.

    Exit 1 when the new state has a failing finding the old one did not, else 0; 2 on bad input.
    """
    from facility.analysis.diff import diff_results, read_result
    from facility.model.source import InputError
    from facility.report.diff_report import diff_json, diff_text

    try:
        report = diff_results(read_result(old, profile), read_result(new, profile))
    except InputError as error:
        raise _fail_input(error) from None
    if output_format is OutputFormat.json:
        _show(diff_json(report), json_text=True)
    else:
        _show(diff_text(report))
    if report.new_failures:
        raise typer.Exit(code=1)


@app.command()
def inventory(
    site: Annotated[Path, typer.Argument(help="Site file (YAML or JSON).", show_default=False)],
    lang: Annotated[
        Language,
        typer.Option("--lang", help="Language of the inventory and of the error messages."),
    ] = Language.en,
) -> None:
    """Print what a site file holds: counts, IT load, heat per loop and to room air."""
    from facility.i18n import using_language
    from facility.model.load import load_site
    from facility.model.source import InputError
    from facility.report.inventory import inventory_text

    with using_language(lang.value):
        try:
            loaded = load_site(site)
        except InputError as error:
            raise _fail_input(error) from None
        _show(inventory_text(loaded), nl=True)


@app.command()
def schema() -> None:
    """Print the JSON Schema of the site file (for editor completion and validation)."""
    from facility.model.document import json_schema

    typer.echo(json.dumps(json_schema(), indent=2, sort_keys=True, allow_nan=False))


@app.command()
def init(
    output: Annotated[Path, typer.Argument(help="Where to write the starter site file.")] = Path(
        "site.yaml"
    ),
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing file.")] = False,
) -> None:
    """Write a commented starter site file to edit."""
    from facility.i18n import _
    from facility.messages import message_of
    from facility.model.starter import STARTER_SITE
    from facility.report.write import write_atomically

    try:
        exists = output.exists()
    except (OSError, ValueError):  # a name too long: write_atomically says what is wrong
        exists = False
    if exists and not force:
        _error(_("%(path)s exists; use --force to overwrite it") % {"path": output})
        raise typer.Exit(code=2)
    try:
        write_atomically(output, STARTER_SITE)
    except (OSError, ValueError) as error:  # no such directory, a FIFO, a NUL byte in the name
        _error(message_of(error))
        raise typer.Exit(code=2) from None
    typer.echo(_("wrote %(path)s; check it with: facility check %(path)s") % {"path": output})


@app.command("catalog")
def catalog_command(
    entry_id: Annotated[
        str | None, typer.Argument(help="Show one entry's figures and sources.", show_default=False)
    ] = None,
) -> None:
    """List the embedded equipment catalog, or show one entry with its sources."""
    from facility import catalog

    entries = catalog.entries()
    if entry_id is None:
        width = max(len(e.id) for e in entries.values())
        for entry in sorted(entries.values(), key=lambda e: (e.kind, e.id)):
            typer.echo(f"{entry.id:<{width}}  {entry.kind:<9}  {entry.name}")
        return
    found = entries.get(entry_id)
    if found is None:
        from facility.i18n import _

        _error(_("no catalog entry '%(id)s' (see: facility catalog)") % {"id": entry_id})
        raise typer.Exit(code=2)
    typer.echo(f"{found.id} — {found.name} ({found.kind})\n{found.summary}\n")
    for name, figure in found.figures.items():
        flag = "  [assumption]" if figure.assumption else ""
        value = (
            json.dumps(figure.value, ensure_ascii=False, allow_nan=False)
            if not isinstance(figure.value, str)
            else figure.value
        )
        typer.echo(
            f"  {name}: {value}  (confidence {figure.confidence}){flag}\n      source: {figure.source}"
        )


rules_app = typer.Typer(help="List and explain the rules.", no_args_is_help=True)
app.add_typer(rules_app, name="rules")


@rules_app.command("list")
def rules_list(
    profile: Annotated[str, typer.Option(help="Rule profile.")] = "supernode",
) -> None:
    """List every rule: code, severity under the profile, scope, title."""
    from facility.engine.rules import load_rules
    from facility.model.source import InputError

    try:
        ruleset = load_rules(profile=profile)
    except InputError as error:
        raise _fail_input(error) from None
    for rule in ruleset.rules:
        typer.echo(f"{rule.code}  {rule.severity:<7}  {rule.spec.scope:<14}  {rule.spec.title}")


@rules_app.command("explain")
def rules_explain(
    code: Annotated[str, typer.Argument(help="Rule code (PWR-001) or name.", show_default=False)],
    profile: Annotated[str, typer.Option(help="Rule profile.")] = "supernode",
) -> None:
    """Explain one rule: what it checks, why, its condition, parameters and references."""
    from facility.engine.quantities import catalogue
    from facility.engine.rules import load_rules
    from facility.model.source import InputError
    from facility.report.findings_view import text_of

    try:
        ruleset = load_rules(profile=profile)
    except InputError as error:
        raise _fail_input(error) from None
    rule = ruleset.by_code(code)
    if rule is None:
        from facility.i18n import _

        _error(_("no rule '%(code)s' (see: facility rules list)") % {"code": code})
        raise typer.Exit(code=2)
    spec = rule.spec
    quantities = catalogue()[spec.scope]
    lines = [
        f"{spec.code} {spec.name}",
        spec.title,
        "",
        f"area: {spec.area}   scope: {spec.scope}   severity: {rule.severity} (profile {ruleset.profile})"
        + (f"   tags: {', '.join(spec.tags)}" if spec.tags else ""),
        "",
        f"requirement: {spec.requirement}",
        f"condition:   {spec.condition}",
        f"  observed = {spec.observed}",
        f"  limit    = {spec.limit}",
    ]
    if spec.when:
        lines.append(f"  applies when {spec.when}")
    for name in sorted(rule.observed.names | rule.limit.names):
        if name in quantities:
            lines.append(f"  {name}: {quantities[name].description}")
    if rule.parameters:
        lines += ["", "parameters:"]
        for p in rule.parameters.values():
            # any kind (a count, every unit kind); a fraction written as a plain number as written
            plain = p.kind == "fraction" and "%" not in p.text
            shown = p.text if plain else text_of(p.value, p.kind)
            lines.append(f"  {p.name} = {shown}")
    lines += ["", "why:", f"  {spec.why.strip()}"]
    if spec.known_problems:
        lines += ["", "known problems:", f"  {spec.known_problems.strip()}"]
    if spec.examples:
        lines += ["", "examples:"]
        for key, text in spec.examples.items():
            lines.append(f"  {key}: {text}")
    lines += ["", "references:", *(f"  - {ref}" for ref in spec.references)]
    if spec.aliases:
        lines.append(f"aliases: {', '.join(spec.aliases)}")
    typer.echo("\n".join(lines))


import_app = typer.Typer(
    help="Start a site file from NetBox or a spreadsheet.", no_args_is_help=True
)
app.add_typer(import_app, name="import")
export_app = typer.Typer(help="Write a site's racks out as a spreadsheet.", no_args_is_help=True)
app.add_typer(export_app, name="export")


def _register_imports() -> None:
    from facility.imports import csv_cli, netbox_cli

    netbox_cli.register(import_app)
    csv_cli.register(import_app, export_app)


_register_imports()


def main() -> None:
    """Console-script entry point (errors and signals: see :class:`_Guarded`)."""
    app()
