"""``facility import netbox``: command-line glue for :mod:`facility.imports.netbox`.

Imports nothing heavy at module level: ``facility check`` loads this module at start-up.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from facility.imports.netbox_fetch import Selection


class _Language(StrEnum):
    en = "en"
    zh_CN = "zh-CN"


def register(import_app: typer.Typer) -> None:
    """Add the ``netbox`` command to ``facility import``."""
    import_app.command("netbox")(netbox)


class _Supplies(StrEnum):
    larger_side = "larger-side"
    sum = "sum"


def netbox(
    url: Annotated[
        str,
        typer.Option(
            "--url", envvar="NETBOX_URL", help="NetBox base URL, e.g. https://netbox.example.com"
        ),
    ],
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
    site: Annotated[
        list[str] | None,
        typer.Option(
            "--site",
            help="NetBox site to import: its slug, name or id. Give it again for more sites.",
            show_default=False,
        ),
    ] = None,
    region: Annotated[
        list[str] | None,
        typer.Option(
            "--region",
            help="Import every site of this NetBox region and of its child regions (slug, "
            "name or id). Give it again for more regions.",
            show_default=False,
        ),
    ] = None,
    location: Annotated[
        str | None,
        typer.Option(
            "--location",
            help="Only the racks in this location of the site and in its child locations "
            "(slug, name or id), with their devices and feeds, and the cooling sources there.",
            show_default=False,
        ),
    ] = None,
    tenant: Annotated[
        str | None,
        typer.Option(
            "--tenant",
            help="Only the racks of this tenant (slug, name or id), with their devices and "
            "feeds; the site's cooling sources are kept.",
            show_default=False,
        ),
    ] = None,
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            help="Site file to write (default: stdout). With more than one site, a directory "
            "(created if missing) for one <site-slug>.yaml and <site-slug>.mapping.md each.",
        ),
    ] = None,
    report: Annotated[
        Path | None,
        typer.Option(
            "--report",
            help="Write the mapping report (every object skipped or guessed, and why) here "
            "instead of to stderr.",
        ),
    ] = None,
    include_planned: Annotated[
        bool,
        typer.Option(
            "--include-planned",
            help="Count planned devices as load: what a pre-deployment audit wants.",
        ),
    ] = False,
    redundant_supplies: Annotated[
        _Supplies,
        typer.Option(
            "--redundant-supplies",
            help="How the power supplies of one device fed from both sides add up: "
            "larger-side (each side carries the device alone; default) or sum (each "
            "supply's figures are its share, as NetBox's rack utilisation adds them).",
        ),
    ] = _Supplies.larger_side,
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
    from facility.imports.netbox_fetch import Selection

    selection = Selection(
        sites=tuple(dict.fromkeys(site or ())),
        regions=tuple(dict.fromkeys(region or ())),
        location=location,
        tenant=tenant,
    )
    options: dict[str, object] = {}  # only what differs from map_site's defaults
    if include_planned:
        options["include_planned"] = True
    if redundant_supplies is not _Supplies.larger_side:
        options["redundant_supplies"] = redundant_supplies.value
    with using_language(lang.value):
        _run(url, selection, token, output, report, options)


def _run(
    url: str,
    selection: Selection,
    token: str,
    output: Path | None,
    report: Path | None,
    options: dict[str, object],
) -> None:
    from facility.i18n import _
    from facility.messages import Message, localized, message_of
    from facility.printable import printable

    token = token.strip()

    def error(problem: str) -> None:
        shown = localized(problem)
        from facility.imports.netbox_fetch import masked

        shown = masked(shown, token)  # a server may echo the header back: never show it
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
    if not selection.sites and not selection.regions:
        raise fail(Message("give --site or --region: which NetBox sites to import"))
    if output is not None and report is not None and output.resolve() == report.resolve():
        raise fail(Message("--output and --report name the same file"))

    from facility.gcpause import paused_gc
    from facility.imports.netbox import MappingError, fetch_selection, import_snapshot, site_slug
    from facility.imports.netbox_fetch import FetchError, public_url
    from facility.model.source import InputError
    from facility.report.write import write_all_atomically

    try:
        with paused_gc():  # 100,000s of acyclic JSON objects: no collector passes over them
            snapshots = fetch_selection(url, token, selection)
    except FetchError as exc:
        raise fail(message_of(exc)) from None
    slugs = [site_slug(s, selection.sites[0] if selection.sites else "?") for s in snapshots]
    into = output if output is not None and (len(snapshots) > 1 or output.is_dir()) else None
    if len(snapshots) > 1:
        sites = ", ".join(slugs)
        if output is None:
            raise fail(
                Message(
                    "%(count)s sites are selected (%(sites)s): give -o a directory for their files",
                    count=len(snapshots),
                    sites=sites,
                )
            )
        if output.exists() and not output.is_dir():
            raise fail(
                Message(
                    "%(count)s sites are selected (%(sites)s): -o %(output)s must name a "
                    "directory for their files, and it is not one",
                    count=len(snapshots),
                    sites=sites,
                    output=str(output),
                )
            )
    if into is not None:
        if report is not None:
            raise fail(
                Message(
                    "--report names one file, and -o %(output)s is a directory: each site's "
                    "mapping report is written there, as <site-slug>.mapping.md",
                    output=str(into),
                )
            )
        folded: dict[str, str] = {}
        for slug in slugs:  # a file system that ignores case would write both to one file
            other = folded.setdefault(slug.casefold(), slug)
            if other != slug:
                raise fail(
                    Message(
                        "the sites %(one)s and %(other)s would be written to the same files "
                        "in %(output)s (their slugs differ only in case)",
                        one=other,
                        other=slug,
                        output=str(into),
                    )
                )

    where = public_url(url)
    imported = []
    for slug, snapshot in zip(slugs, snapshots, strict=True):
        name = f"{slug}.yaml" if into is not None else (output.name if output else "stdout.yaml")
        try:
            with paused_gc():
                text, mapping = import_snapshot(snapshot, where, name, **options)
        except MappingError as exc:
            raise fail(
                Message(
                    "NetBox returned a value the importer cannot read: %(problem)s",
                    problem=str(exc),
                )
                if len(snapshots) == 1
                else Message(
                    "NetBox returned a value the importer cannot read (site %(site)s): %(problem)s",
                    site=slug,
                    problem=str(exc),
                )
            ) from None
        except InputError as exc:
            for problem in exc.problems:
                error(problem.localized())
            raise fail(Message("the imported site does not load as a site file")) from None
        if token in text or token in mapping.text():  # belt and braces: never a credential
            raise fail(Message("refusing to write: the output would contain the token"))
        imported.append((slug, text, mapping))

    if into is not None:
        _write_directory(into, imported, fail)
        for slug, _text, mapping in imported:
            typer.echo(
                localized(
                    Message(
                        "wrote %(output)s; %(summary)s (mapping report: %(report)s)",
                        output=str(into / f"{slug}.yaml"),
                        summary=mapping.summary(),
                        report=str(into / f"{slug}.mapping.md"),
                    )
                ),
                err=True,
            )
        return

    ((_slug, text, mapping),) = imported
    jobs = []
    if report is not None:
        jobs.append((report, lambda: mapping.text()))
    if output is not None:
        jobs.append((output, lambda: text))
    try:
        if jobs:
            write_all_atomically(jobs)
    except (OSError, ValueError) as exc:
        raise fail(message_of(exc)) from None
    if output is None:
        typer.echo(text, nl=False)
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


def _write_directory(
    into: Path, imported: list[tuple[str, str, Any]], fail: Callable[[str], typer.Exit]
) -> None:
    """Each site's file and mapping report in the directory ``into`` (made, with its missing
    parents, if need be), all or none: on a failure, the directories made are removed."""
    from facility.messages import Message, message_of
    from facility.report.write import write_all_atomically

    made = [p for p in (into, *into.parents) if not p.exists()][::-1]
    try:
        for directory in made:
            directory.mkdir()
    except OSError as exc:
        _remove(made)
        raise fail(
            Message(
                "cannot create the directory %(path)s: %(reason)s",
                path=str(into),
                reason=exc.strerror or type(exc).__name__,
            )
        ) from None
    jobs = []
    for slug, text, mapping in imported:
        jobs.append((into / f"{slug}.mapping.md", lambda m=mapping: m.text()))
        jobs.append((into / f"{slug}.yaml", lambda t=text: t))
    try:
        write_all_atomically(jobs)
    except (OSError, ValueError) as exc:
        _remove(made)
        raise fail(message_of(exc)) from None


def _remove(made: list[Path]) -> None:
    for directory in reversed(made):
        with suppress(OSError):  # not empty: something else wrote there meanwhile
            directory.rmdir()
