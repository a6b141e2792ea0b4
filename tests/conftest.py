"""Shared test set-up: the command line's click command is built once per process.

``typer.testing.CliRunner.invoke`` builds the click command from the Typer app on every call
(about 30 ms: typer reads each command's signature and type hints); the suite invokes it some
thousand times. The command it builds depends on the app alone, so one is built per app and
reused; each invocation still parses its arguments and runs in a fresh click context.
"""

from __future__ import annotations

import os

import typer.testing
import yaml
from typer.main import Typer, get_command

_built: dict[int, tuple[Typer, object]] = {}


def _command_of(app: Typer):
    app_and_command = _built.get(id(app))
    if app_and_command is None or app_and_command[0] is not app:
        app_and_command = _built[id(app)] = (app, get_command(app))
    return app_and_command[1]


typer.testing._get_command = _command_of  # type: ignore[attr-defined]


# The tests read their fixtures (examples, cases, expectations) with yaml.safe_load, PyYAML's
# pure-Python parser; libyaml's C parser reads the same documents about ten times faster.
def _safe_load(stream):  # type: ignore[no-untyped-def]
    return yaml.load(stream, Loader=yaml.CSafeLoader)


if hasattr(yaml, "CSafeLoader"):
    yaml.safe_load = _safe_load


# The tests audit as of one day, as their golden files do: dated evidence in the examples (a
# fluid analysis, commissioning records) is judged against this date, not against the day the
# suite happens to run. A test about the report date sets or removes the variable itself.
os.environ.setdefault("SOURCE_DATE_EPOCH", "1764547200")  # 2026-12-01T00:00:00Z
