"""The ``facility`` command line. Commands parse arguments and call the library; no logic here.

Exit codes: 0 ready, 1 findings at or above ``--fail-on``, 2 bad input (with a message naming
file, line and field, and no traceback).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from facility import __version__

app = typer.Typer(
    name="facility",
    help="Is this hall ready for liquid-cooled AI supernode racks? And if not, exactly why.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _fail_input(error: Exception) -> typer.Exit:
    """Print every problem of a bad input to stderr; the caller raises the returned Exit(2)."""
    from facility.model.source import InputError

    if isinstance(error, InputError):
        for problem in error.problems:
            typer.echo(f"error: {problem}", err=True)
        count = len(error.problems)
        typer.echo(
            f"{count} problem{'s' if count != 1 else ''} found; nothing was written.", err=True
        )
    else:
        typer.echo(f"error: {error}", err=True)
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
) -> None:
    """Is this hall ready for liquid-cooled AI supernode racks? And if not, exactly why."""


@app.command()
def check(
    site: Annotated[Path, typer.Argument(help="Site file (YAML or JSON).", show_default=False)],
) -> None:
    """Load a site file and report on it.

    Until the rules land this prints what was loaded: counts, IT load and heat per loop.
    """
    from facility.model.load import load_site
    from facility.model.source import InputError
    from facility.report.inventory import inventory_text

    try:
        loaded = load_site(site)
    except InputError as error:
        raise _fail_input(error) from None
    typer.echo(inventory_text(loaded))


@app.command()
def schema() -> None:
    """Print the JSON Schema of the site file (for editor completion and validation)."""
    from facility.model.document import json_schema

    typer.echo(json.dumps(json_schema(), indent=2, sort_keys=True))


@app.command()
def init(
    output: Annotated[Path, typer.Argument(help="Where to write the starter site file.")] = Path(
        "site.yaml"
    ),
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing file.")] = False,
) -> None:
    """Write a commented starter site file to edit."""
    from facility.model.starter import STARTER_SITE
    from facility.report.write import write_atomically

    if output.exists() and not force:
        typer.echo(f"error: {output} exists; use --force to overwrite it", err=True)
        raise typer.Exit(code=2)
    write_atomically(output, STARTER_SITE)
    typer.echo(f"wrote {output}; check it with: facility check {output}")


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
    entry = entries.get(entry_id)
    if entry is None:
        typer.echo(f"error: no catalog entry '{entry_id}' (see: facility catalog)", err=True)
        raise typer.Exit(code=2)
    typer.echo(f"{entry.id} — {entry.name} ({entry.kind})\n{entry.summary}\n")
    for name, figure in entry.figures.items():
        flag = "  [assumption]" if figure.assumption else ""
        value = (
            json.dumps(figure.value, ensure_ascii=False)
            if not isinstance(figure.value, str)
            else figure.value
        )
        typer.echo(
            f"  {name}: {value}  (confidence {figure.confidence}){flag}\n      source: {figure.source}"
        )


def main() -> None:
    """Console-script entry point."""
    try:
        app()
    except KeyboardInterrupt:  # pragma: no cover
        sys.exit(130)
