"""The listings: ``inventory``, ``schema``, ``init``, ``catalog`` and ``rules list|explain``."""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from facility.cli import Language, _error, _fail_input, _show, app


class ListFormat(StrEnum):
    text = "text"
    json = "json"


_FORMAT_HELP = "text (columns under a header row) or json (see the README: Listings for scripts)."


@app.command()
def inventory(
    site: Annotated[Path, typer.Argument(help="Site file (YAML or JSON).", show_default=False)],
    output_format: Annotated[
        ListFormat, typer.Option("--format", "-f", help=_FORMAT_HELP)
    ] = ListFormat.text,
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
    from facility.report.listings import as_json, inventory_json

    with using_language(lang.value):
        try:
            loaded = load_site(site)
        except InputError as error:
            raise _fail_input(error) from None
        if output_format is ListFormat.json:
            _show(as_json(inventory_json(loaded)), json_text=True, nl=True)
        else:
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
    from facility.model.document import SCHEMA_FILE
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
    typer.echo(
        _("for completion in editors (its first line points there): facility schema > %(schema)s")
        % {"schema": output.parent / SCHEMA_FILE}
    )


@app.command("catalog")
def catalog_command(
    entry_id: Annotated[
        str | None,
        typer.Argument(
            help="Show one entry's figures and sources (any letter case).", show_default=False
        ),
    ] = None,
    output_format: Annotated[
        ListFormat, typer.Option("--format", "-f", help=_FORMAT_HELP)
    ] = ListFormat.text,
) -> None:
    """List the embedded equipment catalog, or show one entry with its sources."""
    from facility import catalog
    from facility.report.listings import as_json, catalog_rows, catalog_text, entry_json, find_entry

    entries = catalog.entries()
    if entry_id is None:
        if output_format is ListFormat.json:
            _show(as_json(catalog_rows(entries)), json_text=True, nl=True)
        else:
            _show(catalog_text(entries), nl=True)
        return
    found = find_entry(entries, entry_id)
    if found is None:
        from facility.i18n import _

        _error(_("no catalog entry '%(id)s' (see: facility catalog)") % {"id": entry_id})
        raise typer.Exit(code=2)
    if output_format is ListFormat.json:
        _show(as_json(entry_json(found)), json_text=True, nl=True)
        return
    from facility.i18n import _

    typer.echo(f"{found.id} — {found.name} ({found.kind})\n{found.summary}\n")
    for name, figure in found.figures.items():
        flag = "  " + _("[assumption]") if figure.assumption else ""
        value = (
            json.dumps(figure.value, ensure_ascii=False, allow_nan=False)
            if not isinstance(figure.value, str)
            else figure.value
        )
        line = _("%(name)s: %(value)s  (confidence %(confidence)s)") % {
            "name": name,
            "value": value,
            "confidence": figure.confidence,
        }
        source = _("source: %(source)s") % {"source": figure.source}
        typer.echo(f"  {line}{flag}\n      {source}")


rules_app = typer.Typer(help="List and explain the rules.", no_args_is_help=True)
app.add_typer(rules_app, name="rules")


_PROFILE_HELP = (
    "Rule profile (supernode, tier-iii, or a .yaml path). Default: the one --site selects, "
    "as check does; else supernode."
)


def _ruleset(profile: str | None, site: Path | None, rules: list[Path] | None) -> Any:
    """The rules under ``profile``, else under the profile ``site``'s design intent selects
    (as ``facility check`` does), else under supernode; exit 2 on a bad input."""
    from facility.engine.evaluate import default_profile
    from facility.engine.rules import bundled_rules_dir, load_rules
    from facility.model.source import InputError

    try:
        if profile is None and site is not None:
            from facility.model.load import load_site

            profile = default_profile(load_site(site))
        return load_rules([bundled_rules_dir(), *(rules or [])], profile or "supernode")
    except InputError as error:
        raise _fail_input(error) from None


_SITE_HELP = "A site file: use the profile its design intent selects (as check does)."
_RULES_HELP = "An extra directory of rule files (and profiles/). Repeatable."


@rules_app.command("list")
def rules_list(
    profile: Annotated[str | None, typer.Option(help=_PROFILE_HELP, show_default=False)] = None,
    site: Annotated[
        Path | None, typer.Option("--site", help=_SITE_HELP, show_default=False)
    ] = None,
    rules: Annotated[list[Path] | None, typer.Option("--rules", help=_RULES_HELP)] = None,
    output_format: Annotated[
        ListFormat, typer.Option("--format", "-f", help=_FORMAT_HELP)
    ] = ListFormat.text,
) -> None:
    """List every rule: code, severity under the profile, scope, title."""
    from facility.report.listings import as_json, rule_rows, rules_text

    ruleset = _ruleset(profile, site, rules)
    if output_format is ListFormat.json:
        _show(as_json(rule_rows(ruleset)), json_text=True, nl=True)
    else:
        _show(rules_text(ruleset), nl=True)


@rules_app.command("explain")
def rules_explain(
    code: Annotated[
        str,
        typer.Argument(
            help="Rule code (PWR-001), name or retired alias, in any letter case.",
            show_default=False,
        ),
    ],
    profile: Annotated[str | None, typer.Option(help=_PROFILE_HELP, show_default=False)] = None,
    site: Annotated[
        Path | None, typer.Option("--site", help=_SITE_HELP, show_default=False)
    ] = None,
    rules: Annotated[list[Path] | None, typer.Option("--rules", help=_RULES_HELP)] = None,
) -> None:
    """Explain one rule: what it checks, why, its condition, parameters and references."""
    from facility.engine.quantities import catalogue
    from facility.report.findings_view import text_of
    from facility.report.listings import find_rule

    ruleset = _ruleset(profile, site, rules)
    rule = find_rule(ruleset, code)
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
