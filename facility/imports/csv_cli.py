"""``facility import csv`` and ``facility export csv``: command-line glue for
:mod:`facility.imports.csv_racks`."""

from __future__ import annotations

import typer


def register(import_app: typer.Typer, export_app: typer.Typer) -> None:
    """Add the ``csv`` commands to ``facility import`` and ``facility export``."""
