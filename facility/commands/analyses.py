"""The analyses beside ``check``: ``failures`` (N-1), ``headroom`` and ``diff``."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from facility.cli import (
    JsonDetail,
    Language,
    _error,
    _fail_input,
    _generated_at,
    _show,
    _speaks,
    _titles,
    app,
)


# Each command offers only the formats it writes: --help lists them, another is a usage error.
class FailuresFormat(StrEnum):
    text = "text"
    json = "json"


class HeadroomFormat(StrEnum):
    text = "text"
    json = "json"


class DiffFormat(StrEnum):
    text = "text"
    json = "json"
    markdown = "markdown"


@app.command()
@_speaks
def failures(
    site: Annotated[Path, typer.Argument(help="Site file (YAML or JSON).", show_default=False)],
    output_format: Annotated[
        FailuresFormat, typer.Option("--format", "-f", help="Output format.")
    ] = FailuresFormat.text,
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
    json_detail: Annotated[
        JsonDetail,
        typer.Option(
            "--json-detail",
            help="The findings each loss moved, in the JSON: compact (the default: each "
            "finding's id, status and figures shared by identical findings, runs of passing "
            "ones) or full (every finding with all its fields).",
        ),
    ] = JsonDetail.compact,
) -> None:
    """Fail each element in turn (N-1): single points of failure, and what each loss does.

    Exit 0 when no single loss makes an error-severity check fail, 1 when one does, 2 on bad input.
    """
    from facility.analysis.failures import analyse_failures
    from facility.engine.evaluate import audit_in_context, default_profile
    from facility.engine.rules import bundled_rules_dir, load_rules
    from facility.model.load import load_site
    from facility.model.source import InputError
    from facility.report.failures_report import failures_text
    from facility.report.json_report import iter_failures_json

    try:
        loaded = load_site(site)
        ruleset = load_rules(
            [bundled_rules_dir(), *(rules or [])], profile or default_profile(loaded)
        )
    except InputError as error:
        raise _fail_input(error) from None
    # (the coverage is not shown: not made)
    baseline, normal = audit_in_context(
        loaded, ruleset, as_of=_generated_at(None).date(), with_coverage=False
    )
    report = analyse_failures(loaded, ruleset, baseline, normal=normal)
    del baseline, normal  # the audit: not held while the report is written
    if output_format is FailuresFormat.json:
        info = {"name": loaded.info.name, "file": loaded.file, "sha256": loaded.sha256}
        full = json_detail is JsonDetail.full
        for piece in iter_failures_json(report, info, full=full):  # a campus's: streamed
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
        HeadroomFormat, typer.Option("--format", "-f", help="Output format.")
    ] = HeadroomFormat.text,
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
    from facility.engine.evaluate import audit_in_context, default_profile
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
            # (the coverage is not shown: not made)
            audit_in_context(
                loaded, ruleset, as_of=_generated_at(None).date(), with_coverage=False
            )[0],
            rack_type,
            loop=loop,
            zone=zone,
            row=row,
        )
    except HeadroomError as error:
        from facility.messages import message_of

        _error(message_of(error))
        raise typer.Exit(code=2) from None
    if output_format is HeadroomFormat.json:
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
        DiffFormat,
        typer.Option("--format", "-f", help="Output format (markdown: for a pull request)."),
    ] = DiffFormat.text,
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
    """Compare two states for review: new failures, worse, resolved and better, by rule.

    Each change shows status, observed, limit and margin before and after, and whether the
    limit changed; new passing checks are counted. -f markdown writes a pull-request comment.

    Exit 1 when the new state has a failing finding the old one did not, else 0; 2 on bad input.
    """
    from facility.analysis.diff import diff_states
    from facility.model.source import InputError
    from facility.report.diff_report import diff_markdown, diff_text, iter_diff_json

    try:
        report = diff_states(old, new, profile)
    except InputError as error:
        raise _fail_input(error) from None
    if output_format is DiffFormat.json:
        for piece in iter_diff_json(report):  # a campus's is 100s of MB: streamed
            _show(piece, json_text=True)
    elif output_format is DiffFormat.markdown:
        _show(diff_markdown(report, _rule_titles(report.new["profile"])))
    else:
        _show(diff_text(report, _rule_titles(report.new["profile"])))
    if report.new_failures:
        raise typer.Exit(code=1)


def _rule_titles(profile: str) -> dict[str, str]:
    """The bundled rules' titles in the current language under ``profile`` (the new state's);
    none for a profile not bundled: each finding's own title is shown then."""
    from facility.engine.rules import load_rules
    from facility.engine.selection import SelectionError
    from facility.model.source import InputError

    try:
        return _titles(load_rules(profile=profile))
    except (InputError, SelectionError):
        return {}
