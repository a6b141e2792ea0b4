"""``facility import netbox``: command-line glue for :mod:`facility.imports.netbox`."""

from __future__ import annotations

import typer


def register(import_app: typer.Typer) -> None:
    """Add the ``netbox`` command to ``facility import``."""
