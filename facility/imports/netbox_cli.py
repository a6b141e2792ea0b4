"""``facility import netbox``: command-line glue for :mod:`facility.imports.netbox`.

Imports nothing heavy at module level: ``facility check`` loads this module at start-up.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer


class _Language(StrEnum):
    en = "en"
    zh_CN = "zh-CN"


def register(import_app: typer.Typer) -> None:
    """Add the ``netbox`` command to ``facility import``."""
    import_app.command("netbox")(netbox)


def netbox(
    url: Annotated[
        str,
        typer.Option(
            "--url", envvar="NETBOX_URL", help="NetBox base URL, e.g. https://netbox.example.com"
        ),
    ],
    site: Annotated[str, typer.Option("--site", help="Slug of the NetBox site to import.")],
    token: Annotated[
        str,
        typer.Option(
            "--token",
            envvar="NETBOX_TOKEN",
            help="API token (read-only is enough); better from the NETBOX_TOKEN environment "
            "variable. Never written to any file.",
            show_default=False,
        ),
    ],
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="Site file to write (default: stdout)."),
    ] = None,
    report: Annotated[
        Path | None,
        typer.Option(
            "--report",
            help="Write the mapping report (every object skipped or guessed, and why) here "
            "instead of to stderr.",
        ),
    ] = None,
    lang: Annotated[
        _Language, typer.Option("--lang", help="Language of the messages.")
    ] = _Language.en,
) -> None:
    """Write a site file from a NetBox site: racks, devices, power feeds, cooling sources.

    What NetBox cannot know (temperatures, pressure drops, liquid fraction, floor ratings,
    CDUs and loops) is listed in the file's header; add it in your own file with
    `extends: <imported file>`, so that a re-import does not wipe it. Exit 0 written,
    2 bad input (nothing written).
    """
    from facility.i18n import using_language

    with using_language(lang.value):
        _run(url, site, token, output, report)


def _run(url: str, site: str, token: str, output: Path | None, report: Path | None) -> None:
    from facility.i18n import _
    from facility.messages import Message, localized, message_of
    from facility.printable import printable

    token = token.strip()

    def error(problem: str) -> None:
        shown = localized(problem)
        if token:  # a server may echo the header back in its answer: never show it
            shown = shown.replace(token, "[token]")
        typer.echo(printable(_("error: %(problem)s") % {"problem": shown}), err=True)

    def fail(problem: str) -> typer.Exit:
        error(problem)
        typer.echo(localized(Message("nothing was written")), err=True)
        return typer.Exit(code=2)

    try:
        import pynetbox  # noqa: F401
    except ImportError:
        raise fail(
            Message(
                "pynetbox is not installed: install the extra with "
                "pip install 'facility[netbox]' (or uv sync --extra netbox)"
            )
        ) from None
    if not token:
        raise fail(Message("no NetBox token: give --token or set NETBOX_TOKEN"))
    if not (token.isascii() and token.isprintable()) or " " in token:
        raise fail(
            Message(
                "the NetBox token holds a space, a control or a non-ASCII character, which an "
                "HTTP request cannot carry (give the token exactly as NetBox shows it)"
            )
        )
    if output is not None and report is not None and output.resolve() == report.resolve():
        raise fail(Message("--output and --report name the same file"))

    from facility.imports.netbox import MappingError, import_site
    from facility.imports.netbox_fetch import FetchError
    from facility.model.source import InputError
    from facility.report.write import write_atomically

    try:
        text, mapping = import_site(url, token, site, output.name if output else "stdout.yaml")
    except FetchError as exc:
        raise fail(message_of(exc)) from None
    except MappingError as exc:
        raise fail(
            Message(
                "NetBox returned a value the importer cannot read: %(problem)s", problem=str(exc)
            )
        ) from None
    except InputError as exc:
        for problem in exc.problems:
            error(problem.localized())
        raise fail(Message("the imported site does not load as a site file")) from None
    if token in text or token in mapping.text():  # belt and braces: never write a credential
        raise fail(Message("refusing to write: the output would contain the token"))

    try:
        if report is not None:
            write_atomically(report, mapping.text())
        if output is not None:
            write_atomically(output, text)
        else:
            typer.echo(text, nl=False)
    except (OSError, ValueError) as exc:
        raise fail(message_of(exc)) from None
    if report is None:
        typer.echo(printable(mapping.text(), keep="\n\t"), err=True, nl=False)
    elif output is not None:
        typer.echo(
            localized(
                Message(
                    "wrote %(output)s; %(summary)s (mapping report: %(report)s)",
                    output=str(output),
                    summary=mapping.summary(),
                    report=str(report),
                )
            ),
            err=True,
        )
