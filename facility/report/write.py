"""Writing output files atomically, and never over an input."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from facility.messages import Message


def write_atomically(path: Path, text: str, *, protected: tuple[Path, ...] = ()) -> None:
    """Write ``text`` to ``path`` via a temporary file and a rename.

    A reader never sees half a file, and an interrupted run leaves the old file intact.
    Refuses to write over any of ``protected`` (the input files of the run).
    """
    target = path.resolve()
    for other in protected:
        if other.exists() and target == other.resolve():
            raise ValueError(
                Message("refusing to write the report over the input file %(path)s", path=str(path))
            )
    directory = target.parent
    fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    umask = os.umask(0)
    os.umask(umask)
    try:
        os.chmod(temporary, 0o666 & ~umask)  # mkstemp makes 0600; a report is an ordinary file
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
