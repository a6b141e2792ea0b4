"""``facility import csv`` and ``facility export csv``: command-line glue for
:mod:`facility.imports.csv_racks` and :mod:`facility.imports.csv_export` (imported when a
command runs, so that ``facility check`` does not pay for them)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def register(import_app: typer.Typer, export_app: typer.Typer) -> None:
    """Add the ``csv`` commands to ``facility import`` and ``facility export``."""
    import_app.command("csv")(import_csv)
    export_app.command("csv")(export_csv)


def import_csv(
    source: Annotated[
        Path, typer.Argument(help="Rack spreadsheet (CSV, UTF-8), one row per rack.")
    ],
    output: Annotated[
        Path | None,
        typer.Option(
            "--output", "-o", help="Write the site file here (atomically); default: stdout."
        ),
    ] = None,
    name: Annotated[
        str | None,
        typer.Option(help="The site name in the file written (default: the CSV file's name)."),
    ] = None,
) -> None:
    """Read racks from a CSV file into a base site file for another file to extend.

    Columns: id and type (required), row, position, zone, loop, pdus.<side>.type|count|fed_by|
    names, and per-rack figure overrides such as 'peak_power [kW]' (docs/import-csv.md).
    Exit 2, writing nothing, when a row is bad.
    """
    from facility.imports.csv_racks import read_racks, site_yaml
    from facility.model.source import InputError

    try:
        imported = read_racks(source)
    except InputError as error:
        raise _fail(error) from None
    text = site_yaml(imported, name or source.stem)
    if output is None:
        _print(text)
        return
    _write(output, text, source)
    from facility.i18n import ngettext

    typer.echo(
        ngettext(
            "wrote %(n)s rack to %(path)s", "wrote %(n)s racks to %(path)s", len(imported.racks)
        )
        % {"n": len(imported.racks), "path": output},
        err=True,
    )


def export_csv(
    site: Annotated[Path, typer.Argument(help="Site file (YAML or JSON).", show_default=False)],
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="Write the CSV here (atomically); default: stdout."),
    ] = None,
) -> None:
    """Write a site's racks as CSV, one row per rack, as `facility import csv` reads it."""
    from facility.imports.csv_export import export_racks
    from facility.model.source import InputError

    try:
        text = export_racks(site)
    except InputError as error:
        raise _fail(error) from None
    if output is None:
        _print(text)
        return
    _write(output, text, site)


def _print(text: str) -> None:
    """Write to stdout as is for a pipe or a file (lossless); on a terminal, with control and
    bidi characters from the input shown as escapes, never acted on."""
    import sys

    from facility.printable import printable

    typer.echo(printable(text, keep="\n\t") if sys.stdout.isatty() else text, nl=False)


def _fail(error: Exception) -> typer.Exit:
    from facility.cli import _fail_input

    return _fail_input(error)


def _write(output: Path, text: str, source: Path) -> None:
    from facility.cli import _error
    from facility.messages import message_of
    from facility.report.write import write_atomically

    try:
        write_atomically(output, text, protected=(source,))
    except (OSError, ValueError) as error:
        _error(message_of(error))
        raise typer.Exit(code=2) from None
