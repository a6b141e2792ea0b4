"""``facility check`` over several sites (a portfolio run), and bad input written as error
results in the machine formats.

A portfolio run: every site is configured from its own configuration file and checked on its
own (:mod:`facility.portfolio`; in ``--jobs`` worker processes), each worker making the text
of the site's reports; here, in this process and in input order, the per-site files are named
(``{site}``), the documents for all sites put together (text with the portfolio summary, the
``facility-portfolio/1`` JSON, one SARIF log with a run per site), everything written all or
none, and the exit code is the worst of the sites'.

Bad input, one site or many: the JSON and SARIF outputs asked for are still written, as an
error result (docs/json-result.md) and a failed invocation with its notifications; the other
reports of that site are not; the problems are listed on stderr; the exit code is 2.
"""

from __future__ import annotations

import dataclasses
import functools
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import typer

from facility.cli import Language, _error, _fail_input, _generated_at
from facility.portfolio import PLACEHOLDER, STDIN, SiteOutcome, SiteSource

ERROR_FORMATS = ("json", "sarif")  # the formats that carry bad input as a result
COMBINED = ("text", "json", "sarif")  # the formats of which one document holds every site


def error_text(fmt: str, site: str, problems: list[Any], moment: Any, lang: str) -> str:
    """The error result of ``fmt`` (json or sarif) for ``site``'s ``problems``."""
    if fmt == "json":
        from facility.report.json_report import render_error_json

        return render_error_json(site, problems, moment)
    from facility.report.sarif import render_error_sarif

    return render_error_sarif(site, problems, moment, lang)


def _problem_text(problem: Any) -> str:
    from facility.messages import localized

    return problem.localized() if hasattr(problem, "localized") else localized(problem)


def _inputs(options: Any) -> tuple[Path, ...]:
    """The files a run was to read that are known before the site is loaded."""
    return (
        options.site,
        *options.waivers,
        *([options.config_file] if options.config_file is not None else []),
        *([options.baseline] if options.baseline is not None else []),
    )


def bad_input(options: Any, problem: Any, moment: Any) -> typer.Exit:
    """One site's bad input (InputError, or SelectionError: a pattern that matches no rule):
    the JSON and SARIF outputs of the command line written as error results (stdout too),
    every problem on stderr, and the Exit(2) to raise. The baseline to write gets nothing (an
    error result is no baseline)."""
    from facility.commands.check import _outputs
    from facility.engine.selection import SelectionError
    from facility.i18n import ngettext
    from facility.messages import Join, message_of
    from facility.report.write import write_all_atomically

    jobs, stdout_format = _outputs(dataclasses.replace(options, write_baseline=None))
    site = STDIN if options.stdin is not None else str(options.site)
    problems = list(problem.problems)
    lang = options.language.value
    files = [(path, fmt) for path, fmt in jobs if fmt in ERROR_FORMATS]
    written: list[str] = []
    refused: BaseException | None = None
    try:
        write_all_atomically(
            [
                (path, functools.partial(error_text, fmt, site, problems, moment, lang))
                for path, fmt in files
            ],
            protected=_inputs(options),
        )
        written = [str(path) for path, _fmt in files]
    except (OSError, ValueError) as error:
        refused = error
    shown = None
    if stdout_format in ERROR_FORMATS:
        shown = error_text(stdout_format, site, problems, moment, lang)
        written.append("stdout")
    if not written:
        if isinstance(problem, SelectionError):
            for text in problem.problems:
                _error(text)
        else:
            _fail_input(problem)
    else:
        for each in problems:
            _error(_problem_text(each))
        count = len(problems)
        typer.echo(
            ngettext(
                "%(n)s problem found; nothing was written but the error result (%(outputs)s).",
                "%(n)s problems found; nothing was written but the error results (%(outputs)s).",
                count,
            )
            % {"n": count, "outputs": Join(written, ", ").localized()},
            err=True,
        )
    if refused is not None:
        _error(message_of(refused))
    if shown is not None:
        sys.stdout.write(shown)
        sys.stdout.flush()
    return typer.Exit(code=2)


# --- the portfolio run --------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class _Slot:
    """One report a worker makes of its site: ``name`` says where it goes (``stdout``,
    ``text-file``, ``json`` and ``sarif-run`` for the documents of every site, ``file:<i>``
    for the i-th -o, ``baseline``)."""

    name: str
    fmt: str  # a format, or "sarif-run": the site's SARIF run as data
    colour: bool = False


@dataclasses.dataclass(frozen=True, slots=True)
class _Task:
    source: SiteSource
    options: Any  # the site's _CheckOptions, configured; None: its configuration is bad
    moment: Any
    slots: tuple[_Slot, ...]
    problem: Any = None  # its configuration's InputError


class _NoProgress:
    def phase(self, _text: str) -> None:
        """A worker shows no progress line (the parent shows which site it is at)."""


def check_task(task: _Task) -> SiteOutcome:
    """Check one site and make its reports (in a worker process, or in this one)."""
    from facility.report.anchors import natural_key

    try:
        return _check_task(task)
    finally:
        # The sort keys of a site's ids are not the next site's: a portfolio of campuses kept
        # every site's (~11,500 per 1,000 racks) until the run ended.
        natural_key.cache_clear()


def _check_task(task: _Task) -> SiteOutcome:
    from facility.commands.check import FailOn, _evaluate, _fails
    from facility.engine.selection import SelectionError
    from facility.i18n import using_language
    from facility.model.source import InputError
    from facility.report.outputs import render_pieces

    outcome = SiteOutcome(task.source.name, task.source.key)
    options = task.options
    lang = (options.language if options is not None else Language.en).value
    with using_language(lang):
        problem = task.problem
        if problem is None:
            try:
                report, protected = _evaluate(options, task.moment, _NoProgress())
            except (InputError, SelectionError) as error:
                problem = error
        if problem is not None:
            return _bad_outcome(outcome, task, list(problem.problems), lang)
        result = report.result
        outcome.title = result.site_name
        outcome.verdict = result.verdict
        outcome.counts = dict(result.counts())
        fail_on = options.fail_on or FailOn.error
        outcome.exit_code = int(_fails(result, fail_on, options.fail_on_incomplete is not False))
        outcome.protected = tuple(str(p) for p in protected)
        made: dict[str, str] = {}  # the HTML report, made once for html and pdf
        for slot in task.slots:
            if slot.fmt == "sarif-run":
                from facility.report.sarif import sarif_log

                with using_language(report.lang):
                    outcome.sarif_run = sarif_log(report)["runs"][0]
                continue
            shown = report
            if slot.colour:
                presentation = dataclasses.replace(report.presentation, colour=True)
                shown = dataclasses.replace(report, presentation=presentation)
            text = render_pieces(slot.fmt, shown, made if shown is report else None)
            outcome.texts[slot.name] = text if isinstance(text, str | bytes) else "".join(text)
    return outcome


def _bad_outcome(outcome: SiteOutcome, task: _Task, problems: list[Any], lang: str) -> SiteOutcome:
    """A site that could not be checked: its error results, and its text block."""
    from facility.report.portfolio_view import bad_input_block
    from facility.report.sarif import error_run

    outcome.problems = problems
    for slot in task.slots:
        if slot.fmt == "sarif-run":
            outcome.sarif_run = error_run(outcome.name, problems, task.moment)
        elif slot.fmt in ERROR_FORMATS and slot.name != "baseline":
            outcome.texts[slot.name] = error_text(
                slot.fmt, outcome.name, problems, task.moment, lang
            )
        elif slot.name in ("stdout", "text-file"):
            outcome.texts[slot.name] = bad_input_block(outcome)
    if task.options is not None:
        outcome.protected = tuple(str(p) for p in _inputs(task.options))
    return outcome


def _fail(text: str) -> typer.Exit:
    _error(text)
    return typer.Exit(code=2)


def check_many(
    arguments: Sequence[Path], given: Any, *, config: Path | None, isolated: bool, jobs: int
) -> None:
    """``facility check SITE SITE …`` or ``facility check DIRECTORY``: see the module
    docstring."""
    from facility.commands.check import _colour, _configured, _outputs
    from facility.i18n import _, ngettext, using_language
    from facility.model.source import InputError
    from facility.portfolio import default_jobs, expand_sites, named_for, read_stdin

    with using_language((given.lang or Language.en).value):
        try:
            found = expand_sites(arguments)
        except InputError as error:
            raise _fail_input(error) from None
        moment = _generated_at(given.generated_at)
        stdin = read_stdin() if any(s.stdin for s in found.sources) else None
        configured: list[tuple[SiteSource, Any, Any]] = []
        for source in found.sources:
            mine = dataclasses.replace(
                given,
                site=Path("-") if source.stdin else source.path,
                stdin=stdin if source.stdin else None,
            )
            try:
                configured.append((source, _configured(mine, config, isolated), None))
            except InputError as error:
                configured.append((source, None, error))
        good = [(s, options) for s, options, _p in configured if options is not None]
        first, plan = good[0] if good else (None, given)
        for source, options in good:
            if (options.formats, options.outputs) != (plan.formats, plan.outputs):
                assert first is not None
                raise _fail(
                    _(
                        "%(site)s: its configuration file names other outputs than that of "
                        "%(first)s; name the outputs on the command line (-o)"
                    )
                    % {"site": source.name, "first": first.name}
                )
        files, stdout_format = _outputs(dataclasses.replace(plan, write_baseline=None))
        slots, combined, per_site = _plan(files, stdout_format)
        keyed = bool(per_site) or any(fmt == "sarif" for _p, fmt in combined)
        keyed = keyed or stdout_format == "sarif" or given.write_baseline is not None
        tasks = []
        for source, options, problem in configured:
            if options is not None:  # {site} in its baselines
                options = named_for(options, Path("-") if source.stdin else source.path)
            mine_slots = slots
            if stdout_format == "text":
                mine_slots = (_Slot("stdout", "text", _colour(sys.stdout)), *slots)
            if options is not None and options.write_baseline is not None:
                mine_slots = (*mine_slots, _Slot("baseline", "json"))
            tasks.append(_Task(source, options, moment, mine_slots, problem))
        _refuse_shared(tasks, keyed)
        lang = plan.language.value if good else (given.lang or Language.en).value
    from facility.progress import Progress

    outcomes: list[SiteOutcome] = []
    with Progress() as progress, using_language(lang):
        count = len(tasks)
        progress.phase(
            ngettext("checking %(n)s site", "checking %(n)s sites", count) % {"n": count}
        )
        from facility.portfolio import run_all

        for outcome in run_all(check_task, tasks, default_jobs(jobs)):
            outcomes.append(outcome)
            progress.phase(
                _("checked %(done)s of %(n)s sites") % {"done": len(outcomes), "n": len(tasks)}
            )
        shown, refused = _write(tasks, outcomes, found.skipped, combined, per_site, stdout_format)
    with using_language(lang):
        _report_problems(outcomes, tasks, written=refused is None)
        if refused is not None:
            from facility.messages import message_of

            _error(message_of(refused))
            raise typer.Exit(code=2)
    sys.stdout.write(shown)
    sys.stdout.flush()
    from facility.portfolio import worst_exit

    code = worst_exit(outcomes)
    if code:
        raise typer.Exit(code=code)


def _plan(
    files: list[tuple[Path, str]], stdout_format: str
) -> tuple[tuple[_Slot, ...], list[tuple[Path, str]], list[tuple[int, Path, str]]]:
    """The reports each worker makes, the files that hold every site (text, JSON, SARIF)
    and the files made per site (``{site}`` in the name); exits 2 for an output that needs a
    file per site and has no ``{site}``."""
    from facility.i18n import _

    slots: list[_Slot] = []
    combined: list[tuple[Path, str]] = []
    per_site: list[tuple[int, Path, str]] = []

    def need(slot: _Slot) -> None:
        if slot not in slots:
            slots.append(slot)

    if stdout_format not in COMBINED:
        raise _fail(
            _(
                "with several sites, stdout takes text, json or sarif; write a %(format)s "
                "report per site with -o 'out/{site}.%(suffix)s'"
            )
            % {"format": stdout_format, "suffix": _SUFFIX.get(stdout_format, stdout_format)}
        )
    for fmt in (stdout_format,) if stdout_format != "text" else ():
        need(
            _Slot(
                "sarif-run" if fmt == "sarif" else "json", "sarif-run" if fmt == "sarif" else "json"
            )
        )
    for i, (path, fmt) in enumerate(files):
        if PLACEHOLDER in str(path):
            per_site.append((i, path, fmt))
            need(_Slot(f"file:{i}", fmt))
        elif fmt in COMBINED:
            combined.append((path, fmt))
            if fmt == "text":
                need(_Slot("text-file", "text"))
            elif fmt == "json":
                need(_Slot("json", "json"))
            else:
                need(_Slot("sarif-run", "sarif-run"))
        else:
            raise _fail(
                _(
                    "%(path)s: with several sites, a %(format)s report is written per site: "
                    "put {site} in its name (out/{site}.%(suffix)s)"
                )
                % {"path": path, "format": fmt, "suffix": _SUFFIX.get(fmt, fmt)}
            )
    return tuple(slots), combined, per_site


_SUFFIX = {"html": "html", "markdown": "md", "junit": "xml", "pdf": "pdf", "text": "txt"}


def _refuse_shared(tasks: list[_Task], keyed: bool) -> None:
    """Exit 2 when two sites would share a name in the outputs (``{site}``, a SARIF run's
    category), a baseline to write, or a baseline to compare with (a baseline is the result
    of one site)."""
    from facility.i18n import _

    if keyed:
        seen: dict[str, SiteSource] = {}
        for task in tasks:
            earlier = seen.setdefault(task.source.key, task.source)
            if earlier is not task.source:
                raise _fail(
                    _(
                        "%(one)s and %(other)s would both be {site} = '%(key)s' in the outputs; "
                        "rename one, or check them in separate runs"
                    )
                    % {"one": earlier.name, "other": task.source.name, "key": task.source.key}
                )
    for field, option in (("write_baseline", "--write-baseline"), ("baseline", "--baseline")):
        used: dict[str, SiteSource] = {}
        for task in tasks:
            path = getattr(task.options, field, None) if task.options is not None else None
            if path is None:
                continue
            key = str(Path(path).resolve())
            earlier = used.setdefault(key, task.source)
            if earlier is not task.source:
                raise _fail(
                    _(
                        "%(option)s %(path)s serves both %(one)s and %(other)s: a baseline is "
                        "the result of one site; put {site} in its name (baseline-{site}.json)"
                    )
                    % {
                        "option": option,
                        "path": path,
                        "one": earlier.name,
                        "other": task.source.name,
                    }
                )


def _write(
    tasks: Sequence[_Task],
    outcomes: Sequence[SiteOutcome],
    skipped: Sequence[Any],
    combined: list[tuple[Path, str]],
    per_site: list[tuple[int, Path, str]],
    stdout_format: str,
) -> tuple[str, BaseException | None]:
    """Write every file of the run, all or none (never over a file any site read), and
    return the text for stdout, or the error that kept the files from being written."""
    from facility.report.portfolio_view import portfolio_json, sarif_runs, summary_text
    from facility.report.sarif import render_log
    from facility.report.write import write_all_atomically

    def document(fmt: str, slot: str) -> str:
        if fmt == "json":
            return portfolio_json(outcomes, [o.texts["json"] for o in outcomes], skipped)
        if fmt == "sarif":
            return render_log(sarif_runs(outcomes))
        reports = "\n".join(o.texts[slot] for o in outcomes)
        return reports + "\n" + summary_text(outcomes, skipped)

    jobs: list[tuple[Path, Any]] = [
        (path, functools.partial(document, fmt, "text-file")) for path, fmt in combined
    ]
    for task, outcome in zip(tasks, outcomes, strict=True):
        for i, path, _fmt in per_site:
            text = outcome.texts.get(f"file:{i}")
            if text is not None:
                jobs.append((Path(str(path).replace(PLACEHOLDER, outcome.key)), _const(text)))
        if "baseline" in outcome.texts and task.options is not None:
            jobs.append((task.options.write_baseline, _const(outcome.texts["baseline"])))
    protected = {Path(p) for o in outcomes for p in o.protected}
    protected |= {Path(task.source.path) for task in tasks if not task.source.stdin}
    try:
        write_all_atomically(jobs, protected=sorted(protected))
    except (OSError, ValueError) as error:
        return "", error
    return document(stdout_format, "stdout"), None


def _const(text: str) -> Any:
    return lambda: text


def _report_problems(
    outcomes: Iterable[SiteOutcome], tasks: Sequence[_Task], *, written: bool
) -> None:
    """Every problem of every site that could not be checked, on stderr, in input order;
    after each site's, what was written of its reports (nothing, unless ``written``: the
    run's files were)."""
    from facility.i18n import ngettext

    for outcome, task in zip(outcomes, tasks, strict=True):
        if not outcome.problems:
            continue
        for problem in outcome.problems:
            _error(_problem_text(problem))
        count = len(outcome.problems)
        machine = written and any(
            s.fmt in (*ERROR_FORMATS, "sarif-run") for s in task.slots if s.name != "baseline"
        )
        text = (
            ngettext(
                "%(site)s: %(n)s problem found; of its reports only the error results were "
                "written.",
                "%(site)s: %(n)s problems found; of its reports only the error results were "
                "written.",
                count,
            )
            if machine
            else ngettext(
                "%(site)s: %(n)s problem found; none of its reports was written.",
                "%(site)s: %(n)s problems found; none of its reports was written.",
                count,
            )
        )
        typer.echo(text % {"site": outcome.name, "n": count}, err=True)
