"""Writing output files atomically, and never over an input."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from facility.messages import Message


def write_atomically(
    path: Path, text: str | Iterable[str], *, protected: tuple[Path, ...] = ()
) -> None:
    """Write ``text`` (a string, or pieces of one) to ``path`` via a temporary file and a rename.

    A reader never sees half a file, and an interrupted run leaves the old file intact.
    Refuses to write over any of ``protected`` (the input files of the run).
    """
    write_all_atomically([(path, lambda: text)], protected=protected)


def write_all_atomically(
    jobs: Sequence[tuple[Path, Callable[[], str | Iterable[str]]]],
    *,
    protected: tuple[Path, ...] = (),
) -> None:
    """Write several files all or none: each is rendered (``jobs``' callables, called one at a
    time, so a large report streams to disk instead of being held whole) into a temporary file
    beside its target; only when every one is complete are they renamed into place."""
    targets = [_target(path, protected) for path, _render in jobs]
    staged: list[str] = []
    try:
        for target, (_path, render) in zip(targets, jobs, strict=True):
            staged.append(_stage(target, render()))
        for temporary, target in zip(staged, targets, strict=True):
            os.replace(temporary, target)
    except BaseException:
        for temporary in staged:
            Path(temporary).unlink(missing_ok=True)
        raise


def _target(path: Path, protected: tuple[Path, ...]) -> Path:
    target = path.resolve()
    for other in protected:
        if other.exists() and target == other.resolve():
            raise ValueError(
                Message("refusing to write the report over the input file %(path)s", path=str(path))
            )
    return target


def _stage(target: Path, text: str | Iterable[str]) -> str:
    """Write ``text`` to a new temporary file beside ``target``; return its name."""
    fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    umask = os.umask(0)
    os.umask(umask)
    try:
        os.chmod(temporary, 0o666 & ~umask)  # mkstemp makes 0600; a report is an ordinary file
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            if isinstance(text, str):
                handle.write(text)
            else:
                handle.writelines(text)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return temporary
