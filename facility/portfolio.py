"""Many sites in one run of ``facility check``: which files are sites, and the run's outcome.

The SITE arguments are expanded here (:func:`expand_sites`):

- a file is a site, whatever it is (a base named on the command line is checked too);
- a directory is every ``*.yaml``, ``*.yml`` and ``*.json`` file directly in it (not in its
  subdirectories; hidden files left out), sorted by name, except the bases of the others:
  a file that another site file of the same directory names in ``extends:`` is checked as a
  part of that file, not alone (a base may be incomplete on purpose);
- ``-`` is one site file read from stdin, named ``<stdin>`` in messages; its ``extends:``
  is relative to the working directory, which is also where its configuration file is
  looked for;
- a quoted glob (``'halls/*.yaml'``, not the name of a file) is the files it matches, sorted,
  as a shell would expand it.

Each site is checked on its own (its own configuration file, found from its directory), in
worker processes when ``--jobs`` asks (:func:`run_all`); the results come back in input
order, so the output does not depend on the number of processes. The outcome of each site is
plain data (:class:`SiteOutcome`): its verdict, counts, exit code and the text of each of its
reports, made in the worker.
"""

from __future__ import annotations

import hashlib
import os
import signal
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from facility.messages import Message
from facility.model.source import (
    MAX_FILE_BYTES,
    InputError,
    Problem,
    decode,
    parse_document,
    read_document,
    whole_file,
)

STDIN = "<stdin>"  # the name of a site read from stdin, in messages and reports
SITE_SUFFIXES = (".yaml", ".yml", ".json")
PLACEHOLDER = "{site}"

# The worst first: the verdict a portfolio takes from its sites (bad input is worse than
# any verdict: that site was not checked at all).
VERDICT_ORDER = ("error", "not-ready", "incomplete", "ready-with-warnings", "ready")


@dataclass(frozen=True, slots=True)
class SiteSource:
    """One site of the run: a file, or stdin (``path`` is then ``<stdin>``)."""

    path: Path
    stdin: bool = False

    @property
    def name(self) -> str:
        """As messages and reports name it: the path as given, or ``<stdin>``."""
        return STDIN if self.stdin else str(self.path)

    @property
    def key(self) -> str:
        """What ``{site}`` in an output path becomes: the file name without its suffix
        (``hall-b3`` for ``halls/hall-b3.yaml``), ``stdin`` for stdin."""
        return "stdin" if self.stdin else self.path.stem


@dataclass(frozen=True, slots=True)
class Skipped:
    """A file of a directory that is not checked alone: a base of ``by``."""

    path: Path
    by: Path


@dataclass(frozen=True, slots=True)
class Sites:
    sources: tuple[SiteSource, ...]
    skipped: tuple[Skipped, ...] = ()
    many: bool = False  # several arguments or a directory: a portfolio run


def is_many(arguments: Sequence[Path]) -> bool:
    """Whether the SITE arguments make a portfolio run: more than one, a directory or a
    pattern (its output has the portfolio's shape however many files it names)."""
    return len(arguments) > 1 or any(
        _is_dir(p) or _is_pattern(p) for p in arguments if str(p) != "-"
    )


def _is_pattern(path: Path) -> bool:
    """A quoted glob (``'halls/*.yaml'``, as a shell that does not expand it passes it): it
    has ``*``, ``?`` or ``[`` and is not the name of a file."""
    text = str(path)
    if not any(c in text for c in "*?["):
        return False
    try:
        return not path.exists()
    except (OSError, ValueError):
        return False


def named_for(options: Any, site: Path) -> Any:
    """``options`` with ``{site}`` in the output paths and the baselines replaced by the
    site's name (:attr:`SiteSource.key`), as a portfolio run names each site's files."""
    import dataclasses

    key = SiteSource(site, stdin=str(site) == "-").key

    def named(path: Path | None) -> Path | None:
        return None if path is None else Path(str(path).replace(PLACEHOLDER, key))

    return dataclasses.replace(
        options,
        outputs=[Path(str(p).replace(PLACEHOLDER, key)) for p in options.outputs],
        baseline=named(options.baseline),
        write_baseline=named(options.write_baseline),
    )


def expand_sites(arguments: Sequence[Path]) -> Sites:
    """The sites the SITE arguments name, in order (see the module docstring). Raises
    InputError for a directory holding no site file, or ``-`` given twice."""
    sources: list[SiteSource] = []
    skipped: list[Skipped] = []
    problems: list[Problem] = []
    stdin_seen = False
    for argument in arguments:
        if str(argument) == "-":
            if stdin_seen:
                problems.append(
                    Problem(whole_file(STDIN), "", Message("'-' (stdin) is given twice"))
                )
            stdin_seen = True
            sources.append(SiteSource(Path(STDIN), stdin=True))
        elif _is_dir(argument):
            found, bases = _directory_sites(argument)
            if not found and not bases:
                problems.append(
                    Problem(
                        whole_file(str(argument)),
                        "",
                        Message("the directory holds no site file (*.yaml, *.yml, *.json)"),
                    )
                )
            sources += [SiteSource(p) for p in found]
            skipped += bases
        elif _is_pattern(argument):  # what a shell would have expanded: files, sorted
            import glob

            matched = sorted(glob.glob(str(argument)))
            files = [Path(m) for m in matched if Path(m).is_file()]
            if not files:
                problems.append(
                    Problem(
                        whole_file(str(argument)),
                        "",
                        Message("no site file matches the pattern"),
                    )
                )
            sources += [SiteSource(p) for p in files]
        else:
            sources.append(SiteSource(argument))
    if problems:
        raise InputError(problems)
    return Sites(tuple(sources), tuple(skipped), is_many(arguments))


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except (OSError, ValueError):  # a name too long, a NUL byte: the load names the problem
        return False


def _may_be_file(entry: os.DirEntry[str]) -> bool:
    """A directory entry to check as a site file: a file, or a name the OS cannot follow (a
    symlink loop: its load says so, per file, rather than the file going unmentioned)."""
    try:
        return entry.is_file()
    except OSError:
        return True


def _directory_sites(directory: Path) -> tuple[list[Path], list[Skipped]]:
    """The site files directly in ``directory``, sorted, and the bases left out."""
    try:
        names = sorted(
            entry.name
            for entry in os.scandir(directory)
            if entry.name.lower().endswith(SITE_SUFFIXES)
            and not entry.name.startswith(".")
            and _may_be_file(entry)
        )
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise InputError(
            [
                Problem(
                    whole_file(str(directory)),
                    "",
                    Message("cannot read the directory: %(reason)s", reason=reason),
                )
            ]
        ) from None
    files = [directory / name for name in names]
    resolved = {file: _resolved(file) for file in files}
    named = {resolved[file]: set(_bases_named(file)) for file in files}

    def reach(start: Path) -> set[Path]:
        seen: set[Path] = set()
        todo = list(named.get(start, ()))
        while todo:
            here = todo.pop()
            if here not in seen:
                seen.add(here)
                todo += named.get(here, ())
        return seen

    reached = {resolved[file]: reach(resolved[file]) for file in files}
    sites, bases = [], []
    for file in files:
        here = resolved[file]
        # A base of another file, unless that file is also a base of it (a cycle: each is
        # checked, and its load reports the cycle).
        by = next(
            (g for g in files if here in reached[resolved[g]] and resolved[g] not in reached[here]),
            None,
        )
        if by is not None:
            bases.append(Skipped(file, by))
        else:
            sites.append(file)
    return sites, bases


def _resolved(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError, ValueError):
        return path


def _bases_named(file: Path) -> list[Path]:
    """The files ``file``'s ``extends:`` names, resolved; none when it cannot be read (its
    own check then reports why). Only a file whose text has 'extends' is parsed."""
    try:
        with file.open("rb") as handle:
            if b"extends" not in handle.read(MAX_FILE_BYTES + 1):
                return []
        data, _source, _raw = read_document(file)
    except (InputError, OSError):
        return []
    if not isinstance(data, dict):
        return []
    named = data.get("extends")
    values = named if isinstance(named, list) else [named]
    out = []
    for value in values:
        if isinstance(value, str):
            try:
                out.append((file.parent / value).resolve())
            except (OSError, RuntimeError, ValueError):
                continue
    return out


def read_stdin() -> bytes:
    """The bytes of a site file on stdin (at most the size limit of a site file, plus one
    byte to tell that it is over)."""
    return sys.stdin.buffer.read(MAX_FILE_BYTES + 1)


def load_stdin(raw: bytes) -> Any:
    """A site from the bytes of stdin, as :func:`facility.model.load.load_site` loads a
    file: named ``<stdin>``; ``extends:`` relative to the working directory."""
    from facility.model.load import resolve, validate_document
    from facility.model.site import Layer

    if len(raw) > MAX_FILE_BYTES:
        raise InputError(
            [
                Problem(
                    whole_file(STDIN),
                    "",
                    Message(
                        "stdin holds more than %(limit)s MB; the limit of a site file",
                        limit=format(MAX_FILE_BYTES / 1e6, ".0f"),
                    ),
                )
            ]
        )
    text = decode(raw, STDIN)
    data, source = parse_document(text, STDIN)
    sha256 = hashlib.sha256(raw).hexdigest()
    layers = [Layer(STDIN, sha256)]
    if isinstance(data, dict) and "extends" in data:
        from facility.model.layers import apply_extends

        data, source, layers = apply_extends(Path(STDIN), data, source, sha256)
    site = resolve(validate_document(data, source), source, sha256)
    site.layers = layers
    return site


# --- the outcome of each site, and of the run ----------------------------------------------------


@dataclass(slots=True)
class SiteOutcome:
    """What checking one site gave, as plain data (it crosses from a worker process)."""

    name: str  # the site as given, or <stdin>
    key: str  # its {site}
    title: str | None = None  # the site's name (its file's site.name), None on bad input
    verdict: str = "error"  # a verdict of the JSON result, or "error": bad input
    counts: dict[str, int] = field(default_factory=dict)
    exit_code: int = 2
    # Bad input: each problem (a Problem, or a message without a place), for stderr and
    # the error results.
    problems: list[Any] = field(default_factory=list)
    # slot -> the text of one of its reports (a slot names an output of the run: a file, stdout,
    # or this site's part of a document for every site); the SARIF run as data.
    texts: dict[str, Any] = field(default_factory=dict)
    sarif_run: dict[str, Any] | None = None
    protected: tuple[str, ...] = ()  # every file the check read: never written over


def worst_exit(outcomes: Iterable[SiteOutcome]) -> int:
    """The run's exit code: 2 when a site had bad input, else 1 when one failed, else 0 (2
    for no site at all: never ready by omission)."""
    return max((o.exit_code for o in outcomes), default=2)


def worst_verdict(outcomes: Iterable[SiteOutcome]) -> str:
    """The portfolio's verdict: the worst of its sites' (``error`` above all)."""
    verdicts = [o.verdict for o in outcomes]
    return min(verdicts, key=VERDICT_ORDER.index) if verdicts else "error"  # none: not ready


# --- running the checks, in this process or in workers -------------------------------------------


def _quiet_worker(allow_outside_bases: bool) -> None:
    """A worker's start: Ctrl-C is the parent's to handle (it stops the workers), and the
    run's global options are those of the parent."""
    from facility.model.layers import OUTSIDE_BASES

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    OUTSIDE_BASES["allowed"] = allow_outside_bases


def run_all(
    check: Callable[[Any], SiteOutcome], tasks: Sequence[Any], jobs: int
) -> Iterator[SiteOutcome]:
    """``check(task)`` for every task, in order: in this process when ``jobs`` is 1 (or
    there is one task), else in ``jobs`` worker processes (:func:`_context`: no state of this
    one is copied but the tasks). Yields each outcome as soon as it and every one before it
    are done. Interrupted (Ctrl-C, SIGTERM), the workers are stopped and nothing is left
    running; a worker's internal error is raised here."""
    if jobs <= 1 or len(tasks) <= 1:
        for task in tasks:
            yield check(task)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from facility.model.layers import OUTSIDE_BASES

    pool = ProcessPoolExecutor(
        max_workers=min(jobs, len(tasks)),
        mp_context=_context(multiprocessing),
        initializer=_quiet_worker,
        initargs=(OUTSIDE_BASES["allowed"],),
    )
    futures: list[Any] = []
    try:
        futures += [pool.submit(check, task) for task in tasks]
        for future in futures:
            yield future.result()
    except BaseException:
        for future in futures:
            future.cancel()
        # No public way to stop running workers before Python 3.14 (terminate_workers):
        # each is a multiprocessing.Process; terminating it loses only its unfinished check.
        for process in list(getattr(pool, "_processes", {}).values()):
            process.terminate()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


# What every worker needs, imported once by the fork server (2 s of imports a worker saves).
_PRELOAD = (
    "facility.commands.check_many",
    "facility.check",
    "facility.model.load",
    "facility.engine.rules",
    "facility.report.outputs",
    "facility.report.terminal",
    "facility.report.json_report",
    "facility.report.sarif",
)


def _context(multiprocessing: Any) -> Any:
    """How workers start: from a fork server that has imported facility once (each worker a
    fork of it: no second import, no state of this process), where the system has one; else
    spawned (a fresh interpreter each)."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(list(_PRELOAD))
        return context
    return multiprocessing.get_context("spawn")  # pragma: no cover - Windows, macOS


def default_jobs(jobs: int) -> int:
    """``--jobs``: 0 means one per CPU this process may use."""
    if jobs > 0:
        return jobs
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1
