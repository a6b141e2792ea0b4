"""The ``facility`` command line. Commands parse arguments and call the library; no logic here.

Exit codes: 0 ready, 1 findings at or above ``--fail-on``, 2 bad input (with a message naming
file, line and field, and no traceback).
"""

from __future__ import annotations

import datetime as dt
import functools
import os
import signal
import sys
from collections.abc import Callable
from enum import StrEnum
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from facility import __version__


class Terminated(BaseException):
    """SIGTERM or SIGHUP: unwinds like Ctrl-C, so staged reports are removed and old ones kept."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _terminate(signum: int, _frame: Any) -> None:
    raise Terminated(signum)


class _Guarded(TyperGroup):
    """The command group, run so that a crash is never read as a verdict: an uncaught
    exception is an internal error, exit 2, one line on stderr (the traceback only with
    ``--debug`` or ``FACILITY_DEBUG=1``); Ctrl-C exits 130, SIGTERM and SIGHUP 128 + the
    signal. Exit 1 stays what it means: a check failed."""

    def invoke(self, ctx: Any) -> Any:  # the (vendored) click Context
        previous = {sig: signal.getsignal(sig) for sig in _SIGNALS}
        try:
            for sig in _SIGNALS:
                signal.signal(sig, _terminate)
        except ValueError:  # not the main thread (an embedding program): leave signals alone
            previous = {}
        try:
            return super().invoke(ctx)
        except (typer.Exit, typer.Abort, typer.TyperException):  # usage errors, exit codes
            raise
        except KeyboardInterrupt:
            raise typer.Exit(130) from None
        except BrokenPipeError:  # `facility rules list | head`: the reader left, as a shell's
            _quiet_stdout()  # tools do on SIGPIPE (128 + 13), with nothing more printed
            raise typer.Exit(141) from None
        except Terminated as stop:
            raise typer.Exit(128 + stop.signum) from None
        except Exception as error:  # a defect of facility, not of the input
            if _debugging():
                raise
            from facility.printable import printable

            detail = printable(f"{type(error).__name__}: {error}")
            typer.echo(
                f"internal error in facility {__version__}: {detail}; please report it "
                "with the input (FACILITY_DEBUG=1 shows the traceback)",
                err=True,
            )
            raise typer.Exit(2) from None
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)


def _quiet_stdout() -> None:
    """Point stdout at the null device: the interpreter's final flush of a closed pipe would
    otherwise print 'Exception ignored … BrokenPipeError' (Python's signal docs, "Note on
    SIGPIPE")."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # stdout is not a file (a test runner)
        pass


_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))
_DEBUG = {"on": False}


def _debugging() -> bool:
    return _DEBUG["on"] or os.environ.get("FACILITY_DEBUG", "") not in ("", "0")


app = typer.Typer(
    name="facility",
    help="Is this hall ready for liquid-cooled AI supernode racks? And if not, exactly why.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    cls=_Guarded,
)


def _error(text: str) -> None:
    """Print ``error: <text>`` to stderr in the current language (``text``: a message of the
    program, translated when it is a :class:`~facility.messages.Message`). A value echoed
    from the input is shown inert: control and bidi characters escaped, one line."""
    from facility.i18n import _
    from facility.messages import localized
    from facility.printable import printable

    typer.echo(printable(_("error: %(problem)s") % {"problem": localized(text)}), err=True)


def _show(text: str, *, json_text: bool = False, nl: bool = False) -> None:
    """Print a report or listing to stdout with what came from an input made inert: control
    and bidi characters escaped (newlines and tabs kept), or, for JSON, written as ``\\u``
    escapes (:mod:`facility.printable`)."""
    from facility.printable import json_inert, printable

    if json_text:  # JSON holds no ANSI sequence (ESC is written \u001b): nothing to strip
        typer.echo(json_inert(text), nl=nl, color=True)
    else:
        typer.echo(printable(text, keep="\n\t"), nl=nl)


def _fail_input(error: Exception) -> typer.Exit:
    """Print every problem of a bad input to stderr, in the current language (file, line,
    column and field as they are); the caller raises the returned Exit(2)."""
    from facility.i18n import ngettext
    from facility.messages import message_of
    from facility.model.source import InputError

    if isinstance(error, InputError):
        for problem in error.problems:
            _error(problem.localized())
        count = len(error.problems)
        typer.echo(
            ngettext(
                "%(n)s problem found; nothing was written.",
                "%(n)s problems found; nothing was written.",
                count,
            )
            % {"n": count},
            err=True,
        )
    else:
        _error(message_of(error))
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
    debug: Annotated[
        bool,
        typer.Option(
            "--debug",
            help="Show the traceback of an internal error (also FACILITY_DEBUG=1).",
        ),
    ] = False,
    allow_outside_bases: Annotated[
        bool,
        typer.Option(
            "--allow-outside-bases",
            help="Let a site file's extends: name bases outside its directory tree (absolute "
            "paths, '..'). Off by default, as kustomize's load restrictor.",
        ),
    ] = False,
) -> None:
    """Is this hall ready for liquid-cooled AI supernode racks? And if not, exactly why."""
    from facility.model.layers import OUTSIDE_BASES

    _DEBUG["on"] = debug
    OUTSIDE_BASES["allowed"] = allow_outside_bases


class FailOn(StrEnum):
    error = "error"
    warning = "warning"
    never = "never"


class OutputFormat(StrEnum):
    text = "text"
    json = "json"
    html = "html"
    markdown = "markdown"
    sarif = "sarif"
    junit = "junit"
    pdf = "pdf"


class DisplayUnits(StrEnum):
    si = "si"
    us = "us"


class Paper(StrEnum):
    a4 = "a4"
    letter = "letter"


class JsonDetail(StrEnum):
    compact = "compact"
    full = "full"


class Language(StrEnum):
    en = "en"
    zh_CN = "zh-CN"


def _generated_at(text: str | None) -> dt.datetime:
    """--generated-at, else SOURCE_DATE_EPOCH (reproducible builds), else now, in UTC."""
    if text:
        try:
            moment = dt.datetime.fromisoformat(text)
        except ValueError:
            from facility.i18n import _

            raise typer.BadParameter(
                _("'%(text)s' is not an ISO 8601 date-time") % {"text": text},
                param_hint="--generated-at",
            ) from None
        return moment if moment.tzinfo else moment.replace(tzinfo=dt.UTC)
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch:  # malformed is an error, as reproducible-builds.org's specification asks
        try:
            if not (epoch.isascii() and epoch.isdigit()):
                raise ValueError(epoch)
            return dt.datetime.fromtimestamp(int(epoch[:20]), tz=dt.UTC)
        except (OverflowError, OSError, ValueError):  # not digits, or past the year 9999
            from facility.i18n import _
            from facility.printable import printable

            raise typer.BadParameter(
                _(
                    "SOURCE_DATE_EPOCH=%(value)s is not a date (seconds since 1970 up to the "
                    "year 9999)"
                )
                % {"value": printable(epoch[:40])},
                param_hint="SOURCE_DATE_EPOCH",
            ) from None
    return dt.datetime.now(tz=dt.UTC).replace(microsecond=0)


def _speaks(command: Callable[..., None]) -> Callable[..., None]:
    """Run ``command`` in the language of its ``--lang`` option (text output and errors)."""

    @functools.wraps(command)
    def in_language(*args: Any, **kwargs: Any) -> None:
        from facility.i18n import using_language

        with using_language(kwargs["lang"].value):
            command(*args, **kwargs)

    return in_language


def _titles(ruleset: Any) -> dict[str, str]:
    """Rule code -> title in the current language."""
    from facility.i18n import current_language

    return {rule.code: rule.spec.text(current_language()).title for rule in ruleset.rules}


def _register_commands() -> None:
    """Import the command modules, each adding its commands to ``app``, in the order --help
    lists them."""
    import importlib

    for name in ("check", "analyses", "listings"):
        importlib.import_module(f"facility.commands.{name}")


_register_commands()

import_app = typer.Typer(
    help="Start a site file from NetBox or a spreadsheet.", no_args_is_help=True
)
app.add_typer(import_app, name="import")
export_app = typer.Typer(help="Write a site's racks out as a spreadsheet.", no_args_is_help=True)
app.add_typer(export_app, name="export")


def _register_imports() -> None:
    from facility.imports import csv_cli, netbox_cli

    netbox_cli.register(import_app)
    csv_cli.register(import_app, export_app)


_register_imports()


def main() -> None:
    """Console-script entry point (errors and signals: see :class:`_Guarded`)."""
    app()
